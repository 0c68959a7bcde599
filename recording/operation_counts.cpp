#include "recording/operation_counts.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace fusescope::recording {
namespace {

// "40", or "131 → 40" when the two differ.
std::string Span(int64_t before, int64_t after) {
  if (before == after) return std::to_string(after);
  return std::to_string(before) + " → " + std::to_string(after);
}

std::string Plural(int64_t count, const std::string& noun) {
  return noun + (count == 1 ? "" : "s");
}

// Snapshots of one recording share the computations a pass left alone; each computation is
// scanned once however many snapshots hold it.
class SnapshotCounter {
 public:
  OperationCounts Count(const Snapshot& snapshot) {
    std::unordered_set<std::string_view> bodies;
    for (const ComputationSnapshotPtr& computation : snapshot.computations()) {
      const Summary& summary = Summarise(*computation);
      bodies.insert(summary.bodies.begin(), summary.bodies.end());
    }
    OperationCounts counts;
    for (const ComputationSnapshotPtr& computation : snapshot.computations()) {
      const Summary& summary = Summarise(*computation);
      if (bodies.contains(computation->name)) {
        counts.fused_instructions += summary.instructions;
      } else {
        counts.operations += summary.instructions;
        counts.fusions += static_cast<int64_t>(summary.bodies.size());
      }
    }
    return counts;
  }

 private:
  struct Summary {
    int64_t instructions = 0;
    std::vector<std::string_view> bodies;  // called by the computation's fusion instructions
  };

  const Summary& Summarise(const ComputationSnapshot& computation) {
    auto [found, added] = summaries_.try_emplace(&computation);
    if (!added) return found->second;
    Summary& summary = found->second;
    summary.instructions = static_cast<int64_t>(computation.instructions.size());
    for (const InstructionRecordPtr& record : computation.instructions) {
      if (!record->fused_computation.empty()) summary.bodies.push_back(record->fused_computation);
    }
    return summary;
  }

  // Keyed by address: the snapshots being counted keep the computations alive.
  std::unordered_map<const ComputationSnapshot*, Summary> summaries_;
};

}  // namespace

OperationCounts CountOperations(const Snapshot& snapshot) {
  return SnapshotCounter().Count(snapshot);
}

OperationCounts CountOperations(const ir::Module& module) {
  OperationCounts counts;
  for (const auto& computation : module.computations()) {
    if (computation->fusion_instruction()) {
      counts.fused_instructions += computation->instruction_count();
      continue;
    }
    counts.operations += computation->instruction_count();
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == ir::Opcode::kFusion) ++counts.fusions;
    }
  }
  return counts;
}

std::vector<OperationCounts> CountSnapshots(const Recording& recording) {
  std::vector<OperationCounts> counts(recording.passes.size() + 1);
  const size_t known = std::min(counts.size(), recording.snapshots.size());
  SnapshotCounter counter;
  for (size_t i = 0; i < known; ++i) counts[i] = counter.Count(recording.snapshots[i]);
  return counts;
}

std::string DescribeCounts(const OperationCounts& before, const OperationCounts& after) {
  std::string text =
      Span(before.operations, after.operations) + " " + Plural(after.operations, "operation");
  if (after.fusions == 0 && before.fusions == 0) return text;
  // A first fusion pass reads "17 fusions holding 98", not "0 → 17 fusions holding 0 → 98".
  const bool both = before.fusions > 0 && after.fusions > 0;
  text += ", " + (both ? Span(before.fusions, after.fusions) : std::to_string(after.fusions)) +
          " " + Plural(after.fusions, "fusion");
  if (after.fusions == 0) return text;
  text += " holding " +
          (both ? Span(before.fused_instructions, after.fused_instructions)
                : std::to_string(after.fused_instructions)) +
          " " + Plural(after.fused_instructions, "instruction");
  return text;
}

}  // namespace fusescope::recording
