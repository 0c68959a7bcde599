#include "recording/fusion_comparison.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes/fusion_decision.h"

namespace fusescope::recording {
namespace {

// Input id -> the fusion records of a snapshot that answer for it.
class FusionIndex {
 public:
  explicit FusionIndex(const Snapshot& snapshot) {
    for (const auto& computation : snapshot.computations()) {
      for (const auto& record : computation->instructions) {
        if (record->opcode != "fusion") continue;
        const ir::ProvenanceSet provenance = record->provenance();
        for (int64_t id : provenance.ids()) holders_[id].push_back(record.get());
      }
    }
  }

  // A fusion answering for every id of both sets, or null.
  const InstructionRecord* Common(const ir::ProvenanceSet& a, const ir::ProvenanceSet& b) const {
    if (a.size() == 0 || b.size() == 0) return nullptr;
    auto candidates = holders_.find(a.ids().front());
    if (candidates == holders_.end()) return nullptr;
    for (const InstructionRecord* fusion : candidates->second) {
      const CompactProvenance& held = *fusion->provenance_set;
      const auto holds = [&](const ir::ProvenanceSet& set) {
        return std::all_of(set.ids().begin(), set.ids().end(),
                           [&](int64_t id) { return held.Contains(id); });
      };
      if (holds(a) && holds(b)) return fusion;
    }
    return nullptr;
  }

 private:
  std::unordered_map<int64_t, std::vector<const InstructionRecord*>> holders_;
};

bool Uninteresting(const std::string& opcode) {
  return opcode == "parameter" || opcode == "constant" || opcode == "get-tuple-element" ||
         opcode == "tuple";
}

std::string Describe(const InstructionRecord& record) {
  return record.name + " (" + record.opcode + ")";
}

// The last refusal in `recording` on a pair that answers for (producer, consumer).
// Only decisions of the passes before snapshot `until` count.
const passes::FusionDecisionRecord* LastRefusal(const Recording& recording, int64_t until,
                                                const ir::ProvenanceSet& producer_set,
                                                const ir::ProvenanceSet& consumer_set) {
  if (producer_set.size() == 0 || consumer_set.size() == 0) return nullptr;
  const int64_t producer = producer_set.ids().front();
  const int64_t consumer = consumer_set.ids().front();
  const passes::FusionDecisionRecord* found = nullptr;
  for (const passes::FusionDecisionRecord& decision : recording.decisions) {
    if (decision.accepted() || decision.pass_index < 0 || decision.pass_index >= until) {
      continue;
    }
    // A fusion formed during the pass exists only in the snapshot after it.
    const auto find = [&](int64_t id) -> const InstructionRecord* {
      for (const Snapshot* snapshot : {recording.SnapshotBefore(decision.pass_index),
                                       recording.SnapshotAfter(decision.pass_index)}) {
        if (snapshot == nullptr) continue;
        if (const InstructionRecord* record = snapshot->FindInstruction(id)) return record;
      }
      return nullptr;
    };
    const InstructionRecord* p = find(decision.producer_id);
    const InstructionRecord* c = find(decision.consumer_id);
    if (p && c && p->provenance_set->Contains(producer) && c->provenance_set->Contains(consumer)) {
      found = &decision;
    }
  }
  return found;
}

}  // namespace

int64_t SnapshotBeforeFirstFusion(const Recording& recording) {
  auto fusions = [](const Snapshot& snapshot) {
    int64_t count = 0;
    for (const auto& computation : snapshot.computations()) {
      for (const auto& record : computation->instructions) count += record->opcode == "fusion";
    }
    return count;
  };
  for (size_t i = 1; i < recording.snapshots.size(); ++i) {
    if (fusions(recording.snapshots[i]) > fusions(recording.snapshots[i - 1])) {
      return static_cast<int64_t>(i - 1);
    }
  }
  return 0;
}

StatusOr<FusionComparison> CompareFusion(const Recording& first, int64_t first_base_snapshot,
                                         const Recording& second, int64_t first_snapshot,
                                         int64_t second_snapshot) {
  if (first.snapshots.empty() || second.snapshots.empty()) {
    return Status::Error("a recording without snapshots");
  }
  const auto in_range = [](const Recording& recording, int64_t snapshot) {
    return snapshot >= 0 && snapshot < static_cast<int64_t>(recording.snapshots.size());
  };
  if (first_snapshot < 0) first_snapshot = static_cast<int64_t>(first.snapshots.size()) - 1;
  if (second_snapshot < 0) second_snapshot = static_cast<int64_t>(second.snapshots.size()) - 1;
  for (int64_t snapshot : {first_base_snapshot, first_snapshot}) {
    if (!in_range(first, snapshot)) return Status::Error("no snapshot " + std::to_string(snapshot));
  }
  if (!in_range(second, second_snapshot)) {
    return Status::Error("no snapshot " + std::to_string(second_snapshot));
  }
  const Snapshot& base = first.snapshots[static_cast<size_t>(first_base_snapshot)];
  const Snapshot& second_input = second.snapshots.front();
  // Same module, same ids: every instruction of the base is in the other input under its id.
  for (const auto& computation : base.computations()) {
    for (const auto& record : computation->instructions) {
      const InstructionRecord* twin = second_input.FindInstruction(record->id);
      if (twin == nullptr || twin->name != record->name) {
        return Status::Error("the two recordings start from different modules (" + record->name +
                             " has id " + std::to_string(record->id) + " in one only)");
      }
    }
  }
  const FusionIndex first_fusions(first.snapshots[static_cast<size_t>(first_snapshot)]);
  const FusionIndex second_fusions(second.snapshots[static_cast<size_t>(second_snapshot)]);

  // Fused computations of the base (it may already hold fusions) are not edges of their own.
  std::unordered_set<std::string> fused_bodies;
  for (const auto& computation : base.computations()) {
    for (const auto& record : computation->instructions) {
      if (!record->fused_computation.empty()) fused_bodies.insert(record->fused_computation);
    }
  }
  FusionComparison comparison;
  for (const auto& computation : base.computations()) {
    if (fused_bodies.count(computation->name)) continue;
    for (const auto& consumer : computation->instructions) {
      if (Uninteresting(consumer->opcode)) continue;
      std::unordered_set<int64_t> seen;
      for (int64_t operand_id : consumer->operand_ids) {
        if (!seen.insert(operand_id).second) continue;
        const InstructionRecord* producer = base.FindInstruction(operand_id);
        if (producer == nullptr || Uninteresting(producer->opcode)) continue;
        ++comparison.edges;
        FusedPair pair;
        pair.producer_id = producer->id;
        pair.consumer_id = consumer->id;
        pair.producer = Describe(*producer);
        pair.consumer = Describe(*consumer);
        pair.computation = computation->name;
        // Each recording in its own terms: what the pair answers for in its snapshot there
        // (the base's copy in the second recording may keep the provenance it came with).
        const InstructionRecord* a =
            first_fusions.Common(producer->provenance(), consumer->provenance());
        const InstructionRecord* b =
            second_fusions.Common(second_input.FindInstruction(producer->id)->provenance(),
                                  second_input.FindInstruction(consumer->id)->provenance());
        if (a) pair.first_fusion = a->name;
        if (b) pair.second_fusion = b->name;
        if (a && b) {
          comparison.both.push_back(std::move(pair));
        } else if (a) {
          if (const passes::FusionDecisionRecord* refusal = LastRefusal(
                  second, second_snapshot, second_input.FindInstruction(producer->id)->provenance(),
                  second_input.FindInstruction(consumer->id)->provenance())) {
            pair.second_reason = std::string(passes::FusionReasonCode(refusal->reason));
            pair.second_explanation = refusal->explanation;
            pair.second_pass = refusal->pass;
          }
          comparison.only_first.push_back(std::move(pair));
        } else if (b) {
          comparison.only_second.push_back(std::move(pair));
        } else {
          ++comparison.neither;
        }
      }
    }
  }
  return comparison;
}

}  // namespace fusescope::recording
