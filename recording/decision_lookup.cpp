#include "recording/decision_lookup.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace fusescope::recording {
namespace {

std::string StripSigil(std::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return std::string(name);
}

// The provenance of the instruction named `name` in the first snapshot that has it.
std::optional<ir::ProvenanceSet> FindProvenance(const Recording& recording,
                                                const std::string& name) {
  for (const auto& snapshot : recording.snapshots) {
    if (const auto* record = snapshot.FindInstruction(name)) return record->provenance();
  }
  return std::nullopt;
}

bool Intersects(const ir::ProvenanceSet& a, const ir::ProvenanceSet& b) {
  return std::any_of(a.ids().begin(), a.ids().end(), [&](int64_t id) { return b.Contains(id); });
}

bool ViaProvenance(const Recording& recording, const passes::FusionDecisionRecord& decision,
                   const ir::ProvenanceSet& producer, const ir::ProvenanceSet& consumer) {
  // A fusion formed during the pass exists only in the snapshot after it.
  auto find = [&](int64_t id) -> const InstructionRecord* {
    for (const Snapshot* snapshot : {recording.SnapshotBefore(decision.pass_index),
                                     recording.SnapshotAfter(decision.pass_index)}) {
      if (!snapshot) continue;
      if (const auto* record = snapshot->FindInstruction(id)) return record;
    }
    return nullptr;
  };
  const auto* p = find(decision.producer_id);
  const auto* c = find(decision.consumer_id);
  return p && c && Intersects(p->provenance(), producer) && Intersects(c->provenance(), consumer);
}

}  // namespace

std::vector<DecisionMatch> FindDecisions(const Recording& recording, const std::string& producer_name,
                                         const std::string& consumer_name) {
  const std::string producer = StripSigil(producer_name);
  const std::string consumer = StripSigil(consumer_name);
  const std::optional<ir::ProvenanceSet> producer_provenance = FindProvenance(recording, producer);
  const std::optional<ir::ProvenanceSet> consumer_provenance = FindProvenance(recording, consumer);
  std::vector<DecisionMatch> matches;
  for (size_t i = 0; i < recording.decisions.size(); ++i) {
    const auto& decision = recording.decisions[i];
    if (StripSigil(decision.producer_name) == producer &&
        StripSigil(decision.consumer_name) == consumer) {
      matches.push_back({i, true});
    } else if (producer_provenance && consumer_provenance &&
               ViaProvenance(recording, decision, *producer_provenance, *consumer_provenance)) {
      matches.push_back({i, false});
    }
  }
  return matches;
}

}  // namespace fusescope::recording
