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

// A final fusion and the input instructions it answers for (trivial ones left out).
struct Members {
  std::string fusion;
  std::set<int64_t> ids;
};

std::vector<Members> FusionsOf(const Snapshot& final_snapshot, const Snapshot& input) {
  std::vector<Members> fusions;
  for (const auto& computation : final_snapshot.computations()) {
    for (const auto& record : computation->instructions) {
      if (record->opcode != "fusion") continue;
      Members members{record->name, {}};
      // Held: a range-for over provenance().ids() would read a destroyed temporary.
      const ir::ProvenanceSet provenance = record->provenance();
      for (int64_t id : provenance.ids()) {
        const InstructionRecord* original = input.FindInstruction(id);
        if (original != nullptr && !Trivial(original->opcode)) members.ids.insert(id);
      }
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

FusionMatch Match(const Members* a, const Members* b, const Snapshot& input) {
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
  if (a) match.fusion_a = a->fusion;
  if (b) match.fusion_b = b->fusion;
  match.common = Names(common, input);
  match.only_a = Names(only_a, input);
  match.only_b = Names(only_b, input);
  return match;
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
  for (size_t i = 0; i < rows; ++i) {
    PassComparison row;
    row.index = static_cast<int64_t>(i);
    const auto fill = [i](const Recording& r, std::string& name, bool& skipped, bool& changed,
                          int64_t& operations, int64_t& fusions) {
      if (i >= r.passes.size()) return;
      name = r.passes[i].name;
      skipped = r.passes[i].skipped;
      changed = r.passes[i].changed;
      if (const Snapshot* after = r.SnapshotAfter(static_cast<int64_t>(i))) {
        const OperationCounts counts = CountOperations(*after);
        operations = counts.operations;
        fusions = counts.fusions;
      }
    };
    fill(a, row.name_a, row.skipped_a, row.changed_a, row.operations_a, row.fusions_a);
    fill(b, row.name_b, row.skipped_b, row.changed_b, row.operations_b, row.fusions_b);
    out.passes.push_back(std::move(row));
  }

  const Snapshot& input = a.input();
  const std::vector<Members> fusions_a = FusionsOf(a.snapshots.back(), input);
  const std::vector<Members> fusions_b = FusionsOf(b.snapshots.back(), input);
  // An instruction may be in several fusions of B (duplicated into each consumer's).
  std::unordered_map<int64_t, std::vector<size_t>> b_holding;
  for (size_t j = 0; j < fusions_b.size(); ++j) {
    for (int64_t id : fusions_b[j].ids) b_holding[id].push_back(j);
  }
  std::vector<bool> b_matched(fusions_b.size(), false);
  for (const Members& fusion : fusions_a) {
    std::set<size_t> overlapping;
    for (int64_t id : fusion.ids) {
      if (auto it = b_holding.find(id); it != b_holding.end())
        overlapping.insert(it->second.begin(), it->second.end());
    }
    if (overlapping.empty()) {
      out.only_a.push_back(Match(&fusion, nullptr, input));
      continue;
    }
    // A twin with the very members is the match; sharing members duplicated into other
    // fusions of B too does not make it differ.
    // Two fusions may hold the same members (duplicated producers): the one of the same
    // name is the twin first.
    auto twin = std::find_if(overlapping.begin(), overlapping.end(), [&](size_t j) {
      return fusions_b[j].ids == fusion.ids && fusions_b[j].fusion == fusion.fusion;
    });
    if (twin == overlapping.end()) {
      twin = std::find_if(overlapping.begin(), overlapping.end(),
                          [&](size_t j) { return fusions_b[j].ids == fusion.ids; });
    }
    if (twin != overlapping.end()) {
      b_matched[*twin] = true;
      out.same.push_back(Match(&fusion, &fusions_b[*twin], input));
      continue;
    }
    for (size_t j : overlapping) {
      b_matched[j] = true;
      out.different.push_back(Match(&fusion, &fusions_b[j], input));
    }
  }
  std::unordered_map<int64_t, std::vector<size_t>> a_holding;
  for (size_t i = 0; i < fusions_a.size(); ++i) {
    for (int64_t id : fusions_a[i].ids) a_holding[id].push_back(i);
  }
  for (size_t j = 0; j < fusions_b.size(); ++j) {
    if (b_matched[j]) continue;
    // Overlapping only fusions of A that have a twin in B (through duplicated members).
    std::set<size_t> overlapping;
    for (int64_t id : fusions_b[j].ids) {
      if (auto it = a_holding.find(id); it != a_holding.end())
        overlapping.insert(it->second.begin(), it->second.end());
    }
    if (overlapping.empty()) out.only_b.push_back(Match(nullptr, &fusions_b[j], input));
    auto twin = std::find_if(overlapping.begin(), overlapping.end(),
                             [&](size_t i) { return fusions_a[i].ids == fusions_b[j].ids; });
    if (twin != overlapping.end()) {
      out.same.push_back(Match(&fusions_a[*twin], &fusions_b[j], input));
      continue;
    }
    for (size_t i : overlapping)
      out.different.push_back(Match(&fusions_a[i], &fusions_b[j], input));
  }

  out.edges = a_first->edges;
  out.edges_both = static_cast<int64_t>(a_first->both.size());
  out.edges_only_a = std::move(a_first->only_first);
  out.edges_only_b = std::move(b_first->only_first);
  return out;
}

}  // namespace fusescope::recording
