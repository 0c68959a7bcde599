#include "recording/recording_comparison.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "recording/operation_counts.h"
#include "recording/store_values.h"

namespace fusescope::recording {
namespace {

bool Trivial(const std::string& opcode) {
  return opcode == "parameter" || opcode == "constant" || opcode == "get-tuple-element" ||
         opcode == "tuple";
}

// A fusion and the input instructions it answers for (trivial ones left out): all of them,
// and those its output is (its root's, or its tuple root's operands').
struct Members {
  std::string fusion;
  int64_t id = -1;
  std::set<int64_t> ids;
  std::set<int64_t> outputs;
};

void AddNonTrivial(const InstructionRecord& record, const Snapshot& input, std::set<int64_t>& ids) {
  // Held: a range-for over provenance().ids() would read a destroyed temporary.
  const ir::ProvenanceSet provenance = record.provenance();
  for (int64_t id : provenance.ids()) {
    const InstructionRecord* original = input.FindInstruction(id);
    if (original != nullptr && !Trivial(original->opcode)) ids.insert(id);
  }
}

std::set<int64_t> OutputsOf(const InstructionRecord& fusion, const Snapshot& snapshot,
                            const Snapshot& input) {
  std::set<int64_t> outputs;
  const ComputationSnapshot* body = snapshot.FindComputation(fusion.fused_computation);
  if (body == nullptr) return outputs;
  for (const auto& record : body->instructions) {
    const size_t start = record->text.find_first_not_of(' ');
    if (start == std::string::npos || record->text.compare(start, 5, "ROOT ") != 0) continue;
    if (record->opcode != "tuple") {
      AddNonTrivial(*record, input, outputs);
      break;
    }
    for (int64_t operand : record->operand_ids) {
      if (const InstructionRecord* element = snapshot.FindInstruction(operand)) {
        AddNonTrivial(*element, input, outputs);
      }
    }
    break;
  }
  return outputs;
}

std::vector<Members> FusionsOf(const Snapshot& snapshot, const Snapshot& input) {
  std::vector<Members> fusions;
  for (const auto& computation : snapshot.computations()) {
    for (const auto& record : computation->instructions) {
      if (record->opcode != "fusion") continue;
      Members members{record->name, record->id, {}, OutputsOf(*record, snapshot, input)};
      AddNonTrivial(*record, input, members.ids);
      if (!members.ids.empty()) fusions.push_back(std::move(members));
    }
  }
  return fusions;
}

std::vector<std::string> Names(const std::vector<int64_t>& ids, const Snapshot& input) {
  std::vector<std::string> names;
  for (int64_t id : ids) names.push_back(input.FindInstruction(id)->name);
  return names;
}

// The refusals of one recording up to a pass, each with what its two ends answered for
// then, found by any input id either end held.
class RefusalIndex {
 public:
  // `until_pass` < 0: every pass.
  RefusalIndex(const Recording& recording, int64_t until_pass) {
    for (size_t i = 0; i < recording.decisions.size(); ++i) {
      const passes::FusionDecisionRecord& decision = recording.decisions[i];
      if (decision.accepted() || decision.pass_index < 0 ||
          (until_pass >= 0 && decision.pass_index > until_pass)) {
        continue;
      }
      const InstructionRecord* producer =
          Find(recording, decision.pass_index, decision.producer_id);
      const InstructionRecord* consumer =
          Find(recording, decision.pass_index, decision.consumer_id);
      if (producer == nullptr || consumer == nullptr) continue;
      Entry entry{&decision, static_cast<int64_t>(i), producer->provenance(),
                  consumer->provenance()};
      for (const ir::ProvenanceSet* end : {&entry.producer, &entry.consumer}) {
        for (int64_t id : end->ids()) by_id_[id].push_back(entries_.size());
      }
      entries_.push_back(std::move(entry));
    }
  }

  struct Entry {
    const passes::FusionDecisionRecord* decision;
    int64_t index;
    ir::ProvenanceSet producer, consumer;
  };

  // The last refusal of a pair whose one end held `member` and whose other end held another
  // id of `fusion`; null when there is none.
  const Entry* Find(int64_t member, const std::set<int64_t>& fusion) const {
    auto found = by_id_.find(member);
    if (found == by_id_.end()) return nullptr;
    const auto holds_rest = [&](const ir::ProvenanceSet& end) {
      return std::any_of(end.ids().begin(), end.ids().end(),
                         [&](int64_t id) { return id != member && fusion.count(id) > 0; });
    };
    for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) {
      const Entry& entry = entries_[*it];
      if ((entry.producer.Contains(member) && holds_rest(entry.consumer)) ||
          (entry.consumer.Contains(member) && holds_rest(entry.producer))) {
        return &entry;
      }
    }
    return nullptr;
  }

 private:
  // A fusion formed during the pass exists only in the snapshot after it.
  static const InstructionRecord* Find(const Recording& recording, int64_t pass, int64_t id) {
    for (const Snapshot* snapshot :
         {recording.SnapshotBefore(pass), recording.SnapshotAfter(pass)}) {
      if (snapshot == nullptr) continue;
      if (const InstructionRecord* record = snapshot->FindInstruction(id)) return record;
    }
    return nullptr;
  }

  std::vector<Entry> entries_;
  std::unordered_map<int64_t, std::vector<size_t>> by_id_;
};

// What explains the members of a fusion that the other recording's fusion lacks.
struct Explainers {
  const RefusalIndex& a;
  const RefusalIndex& b;
};

// Appends to `out` the refusals (by `refusals`, B's when `refused_by_b`) that kept `members`
// out of the fusion holding `fusion`.
void Explain(const std::vector<int64_t>& members, const std::set<int64_t>& fusion,
             const RefusalIndex& refusals, bool refused_by_b, const Snapshot& input,
             std::vector<FusionRefusal>& out) {
  std::map<int64_t, size_t> by_decision;
  FusionRefusal unexplained;
  unexplained.refused_by_b = refused_by_b;
  for (int64_t member : members) {
    const std::string& name = input.FindInstruction(member)->name;
    const RefusalIndex::Entry* entry = refusals.Find(member, fusion);
    if (entry == nullptr) {
      unexplained.members.push_back(name);
      continue;
    }
    auto [it, inserted] = by_decision.emplace(entry->index, out.size());
    if (inserted) {
      const passes::FusionDecisionRecord& decision = *entry->decision;
      FusionRefusal refusal;
      refusal.refused_by_b = refused_by_b;
      refusal.decision_index = entry->index;
      refusal.pass = decision.pass;
      refusal.pass_index = decision.pass_index;
      refusal.producer = decision.producer_name;
      refusal.consumer = decision.consumer_name;
      refusal.reason = std::string(passes::FusionReasonCode(decision.reason));
      refusal.explanation = decision.explanation;
      out.push_back(std::move(refusal));
    }
    out[it->second].members.push_back(name);
  }
  if (!unexplained.members.empty()) out.push_back(std::move(unexplained));
}

// `from_b`: listed for B's fusion; what it lacks of A's is explained where A's is listed.
FusionMatch Match(const Members* a, const Members* b, const Snapshot& input,
                  const Explainers* explainers = nullptr, bool from_b = false) {
  FusionMatch match;
  static const std::set<int64_t> kNone;
  const std::set<int64_t>& in_a = a ? a->ids : kNone;
  const std::set<int64_t>& in_b = b ? b->ids : kNone;
  std::vector<int64_t> common, only_a, only_b;
  std::set_intersection(in_a.begin(), in_a.end(), in_b.begin(), in_b.end(),
                        std::back_inserter(common));
  std::set_difference(in_a.begin(), in_a.end(), in_b.begin(), in_b.end(),
                      std::back_inserter(only_a));
  std::set_difference(in_b.begin(), in_b.end(), in_a.begin(), in_a.end(),
                      std::back_inserter(only_b));
  std::set_union(in_a.begin(), in_a.end(), in_b.begin(), in_b.end(),
                 std::back_inserter(match.member_ids));
  if (a) {
    match.fusion_a = a->fusion;
    match.fusion_a_id = a->id;
  }
  if (b) {
    match.fusion_b = b->fusion;
    match.fusion_b_id = b->id;
  }
  match.common = Names(common, input);
  match.only_a = Names(only_a, input);
  match.only_b = Names(only_b, input);
  if (explainers != nullptr) {
    if (!from_b) Explain(only_a, in_a, explainers->b, true, input, match.refusals);
    Explain(only_b, in_b, explainers->a, false, input, match.refusals);
  }
  match.from_b = from_b;
  return match;
}

struct FusionMatches {
  std::vector<FusionMatch> same, different, only_a, only_b;
};

// Ids held by exactly one fusion of `fusions`: a cheap producer duplicated into several
// consumers' fusions is not.
std::set<int64_t> HeldOnce(const std::vector<Members>& fusions) {
  std::unordered_map<int64_t, int> holders;
  for (const Members& fusion : fusions) {
    for (int64_t id : fusion.ids) ++holders[id];
  }
  std::set<int64_t> once;
  for (const auto& [id, count] : holders) {
    if (count == 1) once.insert(id);
  }
  return once;
}

// The fusions of `other` that `fusion` shares members with, twins aside: those computing
// the same output when there are any, else those sharing members that neither side
// duplicated, else those sharing any member.
std::set<size_t> Overlapping(const Members& fusion, const std::vector<Members>& other,
                             const std::set<int64_t>& own_once, const std::set<int64_t>& other_once,
                             const std::unordered_map<int64_t, std::vector<size_t>>& other_holding,
                             const std::vector<bool>& other_twinned) {
  std::set<size_t> same_output, strict, loose;
  for (int64_t id : fusion.ids) {
    auto it = other_holding.find(id);
    if (it == other_holding.end()) continue;
    for (size_t j : it->second) {
      if (other_twinned[j]) continue;
      loose.insert(j);
      if (own_once.count(id) && other_once.count(id)) strict.insert(j);
      if (fusion.outputs.count(id) && other[j].outputs.count(id)) same_output.insert(j);
    }
  }
  if (!same_output.empty()) return same_output;
  return strict.empty() ? loose : strict;
}

std::unordered_map<int64_t, std::vector<size_t>> Holding(const std::vector<Members>& fusions) {
  std::unordered_map<int64_t, std::vector<size_t>> holding;
  for (size_t i = 0; i < fusions.size(); ++i) {
    for (int64_t id : fusions[i].ids) holding[id].push_back(i);
  }
  return holding;
}

FusionMatches MatchFusions(const std::vector<Members>& fusions_a,
                           const std::vector<Members>& fusions_b, const Snapshot& input,
                           const Explainers& explainers) {
  FusionMatches out;
  // Twins first: the very members. Two fusions may hold the same members (duplicated
  // producers): the one of the same name is the twin first.
  std::map<std::set<int64_t>, std::vector<size_t>> b_by_members;
  for (size_t j = 0; j < fusions_b.size(); ++j) b_by_members[fusions_b[j].ids].push_back(j);
  std::vector<bool> a_twinned(fusions_a.size(), false), b_twinned(fusions_b.size(), false);
  for (size_t i = 0; i < fusions_a.size(); ++i) {
    auto candidates = b_by_members.find(fusions_a[i].ids);
    if (candidates == b_by_members.end()) continue;
    std::vector<size_t>& free = candidates->second;
    auto twin = std::find_if(free.begin(), free.end(),
                             [&](size_t j) { return fusions_b[j].fusion == fusions_a[i].fusion; });
    if (twin == free.end()) twin = free.begin();
    if (twin == free.end()) continue;
    a_twinned[i] = b_twinned[*twin] = true;
    out.same.push_back(Match(&fusions_a[i], &fusions_b[*twin], input));
    free.erase(twin);
  }
  const std::set<int64_t> once_a = HeldOnce(fusions_a);
  const std::set<int64_t> once_b = HeldOnce(fusions_b);
  const auto a_holding = Holding(fusions_a);
  const auto b_holding = Holding(fusions_b);
  std::vector<bool> b_matched = b_twinned;
  for (size_t i = 0; i < fusions_a.size(); ++i) {
    if (a_twinned[i]) continue;
    const std::set<size_t> overlapping =
        Overlapping(fusions_a[i], fusions_b, once_a, once_b, b_holding, b_twinned);
    if (overlapping.empty())
      out.only_a.push_back(Match(&fusions_a[i], nullptr, input, &explainers));
    for (size_t j : overlapping) {
      b_matched[j] = true;
      out.different.push_back(Match(&fusions_a[i], &fusions_b[j], input, &explainers));
    }
  }
  for (size_t j = 0; j < fusions_b.size(); ++j) {
    if (b_matched[j]) continue;
    const std::set<size_t> overlapping =
        Overlapping(fusions_b[j], fusions_a, once_b, once_a, a_holding, a_twinned);
    if (overlapping.empty())
      out.only_b.push_back(Match(nullptr, &fusions_b[j], input, &explainers));
    for (size_t i : overlapping) {
      out.different.push_back(Match(&fusions_a[i], &fusions_b[j], input, &explainers, true));
    }
  }
  return out;
}

void DifferingOptions(const Recording& a, const Recording& b, RecordingComparison& out) {
  std::map<std::string, std::string> rows_a, rows_b;
  for (auto& [key, value] : PipelineOptionRows(a.options)) rows_a[key] = value;
  for (auto& [key, value] : PipelineOptionRows(b.options)) rows_b[key] = value;
  std::set<std::string> keys;
  for (const auto& [key, value] : rows_a) keys.insert(key);
  for (const auto& [key, value] : rows_b) keys.insert(key);
  for (const std::string& key : keys) {
    const auto in_a = rows_a.find(key);
    const auto in_b = rows_b.find(key);
    const std::string va = in_a == rows_a.end() ? "" : in_a->second;
    const std::string vb = in_b == rows_b.end() ? "" : in_b->second;
    if (va == vb) continue;
    out.options_a.emplace_back(key, va);
    out.options_b.emplace_back(key, vb);
  }
}

PassComparison PassRow(const Recording& a, const Recording& b, int64_t index) {
  PassComparison row;
  row.index = index;
  const auto fill = [index](const Recording& r, std::string& name, bool& skipped, bool& changed,
                            int64_t& operations, int64_t& fusions) {
    if (index >= static_cast<int64_t>(r.passes.size())) return;
    const PassRecord& pass = r.passes[static_cast<size_t>(index)];
    name = pass.name;
    skipped = pass.skipped;
    changed = pass.changed;
    if (const Snapshot* after = r.SnapshotAfter(index)) {
      const OperationCounts counts = CountOperations(*after);
      operations = counts.operations;
      fusions = counts.fusions;
    }
  };
  fill(a, row.name_a, row.skipped_a, row.changed_a, row.operations_a, row.fusions_a);
  fill(b, row.name_b, row.skipped_b, row.changed_b, row.operations_b, row.fusions_b);
  return row;
}

// The snapshots before and after pass `index`; both the last one past the end of the run.
std::pair<int64_t, int64_t> AroundPass(const Recording& recording, int64_t index) {
  const int64_t last = static_cast<int64_t>(recording.snapshots.size()) - 1;
  return {std::min(index, last), std::min(index + 1, last)};
}

// The ids of the fusions after the pass whose members no fusion before it had.
std::set<int64_t> FormedFusions(const Recording& recording, int64_t index) {
  const auto [before, after] = AroundPass(recording, index);
  const Snapshot& input = recording.input();
  std::set<std::set<int64_t>> earlier;
  for (Members& fusion : FusionsOf(recording.snapshots[static_cast<size_t>(before)], input)) {
    earlier.insert(std::move(fusion.ids));
  }
  std::set<int64_t> formed;
  for (const Members& fusion : FusionsOf(recording.snapshots[static_cast<size_t>(after)], input)) {
    if (!earlier.count(fusion.ids)) formed.insert(fusion.id);
  }
  return formed;
}

using Edge = std::pair<int64_t, int64_t>;

// The edges the first recording of `comparison` fuses, or the second's.
std::set<Edge> FusedEdges(const FusionComparison& comparison, bool of_first) {
  std::set<Edge> edges;
  for (const FusedPair& pair : comparison.both) edges.emplace(pair.producer_id, pair.consumer_id);
  for (const FusedPair& pair : of_first ? comparison.only_first : comparison.only_second) {
    edges.emplace(pair.producer_id, pair.consumer_id);
  }
  return edges;
}

}  // namespace

StatusOr<RecordingComparison> CompareRecordings(const Recording& a, const Recording& b) {
  // Also checks that both start from the same module.
  auto a_first = CompareFusion(a, 0, b);
  if (!a_first.ok()) return a_first.status();
  auto b_first = CompareFusion(b, 0, a);
  if (!b_first.ok()) return b_first.status();
  RecordingComparison out;
  DifferingOptions(a, b, out);

  const size_t rows = std::max(a.passes.size(), b.passes.size());
  for (size_t i = 0; i < rows; ++i) out.passes.push_back(PassRow(a, b, static_cast<int64_t>(i)));

  const Snapshot& input = a.input();
  const RefusalIndex refusals_a(a, -1), refusals_b(b, -1);
  FusionMatches matches =
      MatchFusions(FusionsOf(a.snapshots.back(), input), FusionsOf(b.snapshots.back(), input),
                   input, Explainers{refusals_a, refusals_b});
  out.same = std::move(matches.same);
  out.different = std::move(matches.different);
  out.only_a = std::move(matches.only_a);
  out.only_b = std::move(matches.only_b);
  out.edges = a_first->edges;
  out.edges_both = static_cast<int64_t>(a_first->both.size());
  out.edges_only_a = std::move(a_first->only_first);
  out.edges_only_b = std::move(b_first->only_first);
  return out;
}

StatusOr<PassFusionComparison> ComparePass(const Recording& a, const Recording& b, int64_t index) {
  if (index < 0 || (index >= static_cast<int64_t>(a.passes.size()) &&
                    index >= static_cast<int64_t>(b.passes.size()))) {
    return Status::Error("no pass " + std::to_string(index) + " (A has " +
                         std::to_string(a.passes.size()) + " passes, B " +
                         std::to_string(b.passes.size()) + ")");
  }
  const auto [a_before, a_after] = AroundPass(a, index);
  const auto [b_before, b_after] = AroundPass(b, index);
  auto after = CompareFusion(a, 0, b, a_after, b_after);
  if (!after.ok()) return after.status();
  auto after_reversed = CompareFusion(b, 0, a, b_after, a_after);
  if (!after_reversed.ok()) return after_reversed.status();
  auto before = CompareFusion(a, 0, b, a_before, b_before);
  if (!before.ok()) return before.status();

  PassFusionComparison out;
  out.pass = PassRow(a, b, index);
  const Snapshot& input = a.input();
  const std::set<int64_t> formed_a = FormedFusions(a, index);
  const std::set<int64_t> formed_b = FormedFusions(b, index);
  const RefusalIndex refusals_a(a, index), refusals_b(b, index);
  FusionMatches matches = MatchFusions(FusionsOf(a.snapshots[static_cast<size_t>(a_after)], input),
                                       FusionsOf(b.snapshots[static_cast<size_t>(b_after)], input),
                                       input, Explainers{refusals_a, refusals_b});
  const auto keep = [&](std::vector<FusionMatch>& from, std::vector<FusionMatch>& to) {
    for (FusionMatch& match : from) {
      if (formed_a.count(match.fusion_a_id) || formed_b.count(match.fusion_b_id)) {
        to.push_back(std::move(match));
      }
    }
  };
  keep(matches.same, out.same);
  keep(matches.different, out.different);
  keep(matches.only_a, out.only_a);
  keep(matches.only_b, out.only_b);

  // An edge counts when the pass changed whether A or B fuses it.
  const std::set<Edge> a_then = FusedEdges(*before, true);
  const std::set<Edge> b_then = FusedEdges(*before, false);
  for (FusedPair& pair : after->only_first) {
    const Edge edge(pair.producer_id, pair.consumer_id);
    if (!a_then.count(edge) || b_then.count(edge)) out.edges_only_a.push_back(std::move(pair));
  }
  for (FusedPair& pair : after_reversed->only_first) {
    const Edge edge(pair.producer_id, pair.consumer_id);
    if (!b_then.count(edge) || a_then.count(edge)) out.edges_only_b.push_back(std::move(pair));
  }
  for (const passes::FusionDecisionRecord* decision : a.DecisionsOf(index)) {
    ++(decision->accepted() ? out.accepted_a : out.refused_a);
  }
  for (const passes::FusionDecisionRecord* decision : b.DecisionsOf(index)) {
    ++(decision->accepted() ? out.accepted_b : out.refused_b);
  }
  return out;
}

}  // namespace fusescope::recording
