#include "profiler/attribution.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "passes/cost_analysis.h"

namespace fusescope::profiler {
namespace {

using recording::InstructionRecord;
using recording::Snapshot;

bool IsFree(ir::Opcode opcode) {
  switch (opcode) {
    case ir::Opcode::kParameter:
    case ir::Opcode::kConstant:
    case ir::Opcode::kTuple:
    case ir::Opcode::kGetTupleElement:
    case ir::Opcode::kBitcast:
      return true;
    default:
      return false;
  }
}

// Roofline seconds of one input instruction (fusions and calls inside counted whole).
double EstimateSeconds(const ir::Instruction& instruction, const RooflineRates& rates) {
  if (IsFree(instruction.opcode())) return 0;
  const double flops = passes::KernelFlops(instruction);
  const double bytes = passes::KernelBytes(instruction);
  return std::max(flops / rates.flops_per_second, bytes / rates.bytes_per_second);
}

const InstructionRecord* FindKernel(const Snapshot& snapshot, const KernelTime& kernel) {
  if (kernel.instruction_id >= 0) {
    if (const InstructionRecord* record = snapshot.FindInstruction(kernel.instruction_id)) {
      if (record->name == kernel.name || kernel.name.empty()) return record;
    }
  }
  return snapshot.FindInstruction(kernel.name);
}

// Fused computations of a snapshot: their instructions are not nodes of their own.
std::unordered_set<std::string> FusedComputationNames(const Snapshot& snapshot) {
  std::unordered_set<std::string> names;
  for (const auto& computation : snapshot.computations()) {
    for (const auto& record : computation->instructions) {
      if (!record->fused_computation.empty()) names.insert(record->fused_computation);
    }
  }
  return names;
}

}  // namespace

StatusOr<Attribution> AttributeToOriginals(const recording::Recording& recording,
                                           const Profile& profile, RooflineRates rates) {
  if (recording.snapshots.empty()) return Status::Error("the recording has no snapshots");
  if (profile.snapshot_index < 0 ||
      profile.snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error("the profile is of snapshot " + std::to_string(profile.snapshot_index) +
                         ", which the recording does not have");
  }
  StatusOr<std::unique_ptr<ir::Module>> input = recording.snapshots.front().ToModule();
  if (!input.ok()) return Status::Error("the recording's input: " + input.message());
  const Snapshot& profiled = recording.snapshots[static_cast<size_t>(profile.snapshot_index)];

  Attribution attribution;
  attribution.profile_total_us = profile.TotalUs();
  for (const KernelTime& kernel : profile.kernels) {
    const InstructionRecord* record = FindKernel(profiled, kernel);
    if (record == nullptr) {
      attribution.kernels_not_found.push_back(kernel.name);
      continue;
    }
    std::vector<std::pair<int64_t, double>> weights;
    double total_weight = 0;
    const ir::ProvenanceSet provenance = record->provenance();  // decoded: keep it alive
    for (int64_t id : provenance.ids()) {
      const ir::Instruction* original = (*input)->FindInstructionById(id);
      if (original == nullptr) continue;
      const double weight = EstimateSeconds(*original, rates);
      weights.emplace_back(id, weight);
      total_weight += weight;
    }
    if (weights.empty()) {
      attribution.kernels_without_provenance.push_back(kernel.name);
      continue;
    }
    ++attribution.kernels_attributed;
    for (const auto& [id, weight] : weights) {
      // Nothing costed (only data movement the model calls free): an even split.
      const double part = total_weight > 0 ? weight / total_weight
                                           : 1.0 / static_cast<double>(weights.size());
      if (part > 0) attribution.original_us[id] += kernel.total_us * part;
    }
  }
  return attribution;
}

StatusOr<std::vector<HotNode>> HotNodes(const recording::Recording& recording,
                                        const Profile& profile, const Attribution& attribution,
                                        int64_t snapshot_index) {
  if (snapshot_index < 0 || snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error("no snapshot " + std::to_string(snapshot_index));
  }
  StatusOr<std::unique_ptr<ir::Module>> input = recording.snapshots.front().ToModule();
  if (!input.ok()) return Status::Error("the recording's input: " + input.message());
  const Snapshot& snapshot = recording.snapshots[static_cast<size_t>(snapshot_index)];
  const bool is_profiled = snapshot_index == profile.snapshot_index;
  std::unordered_map<const InstructionRecord*, const KernelTime*> measured;
  if (is_profiled) {
    for (const KernelTime& kernel : profile.kernels) {
      if (const InstructionRecord* record = FindKernel(snapshot, kernel)) measured[record] = &kernel;
    }
  }
  const std::unordered_set<std::string> fused = FusedComputationNames(snapshot);
  const double total = attribution.profile_total_us;
  std::vector<HotNode> nodes;
  for (const auto& computation : snapshot.computations()) {
    for (const auto& record : computation->instructions) {
      if (fused.count(record->computation)) continue;
      const bool is_kernel = measured.count(record.get()) > 0;
      // On the profiled snapshot the kernels are what was measured; elsewhere data movement
      // that costs nothing (a bitcast of a hot dot's result) answers for the same model ops
      // as its producer but is not where the time went.
      if (is_profiled && !is_kernel) continue;
      const std::optional<ir::Opcode> opcode = ir::OpcodeFromName(record->opcode);
      if (!is_kernel && opcode && IsFree(*opcode)) continue;
      HotNode node;
      node.instruction_id = record->id;
      node.name = record->name;
      node.opcode = record->opcode;
      node.computation = record->computation;
      std::vector<std::pair<double, int64_t>> originals;
      const ir::ProvenanceSet provenance = record->provenance();  // decoded: keep it alive
      for (int64_t id : provenance.ids()) {
        auto it = attribution.original_us.find(id);
        if (it == attribution.original_us.end()) continue;
        originals.emplace_back(it->second, id);
        node.time_us += it->second;
      }
      if (auto it = measured.find(record.get()); it != measured.end()) {
        node.time_us = it->second->total_us;
        node.measured = true;
      }
      if (node.time_us <= 0) continue;
      node.share = total > 0 ? node.time_us / total : 0;
      std::sort(originals.rbegin(), originals.rend());
      std::set<std::pair<std::string, int64_t>> seen;
      for (const auto& [micros, id] : originals) {
        const ir::Instruction* original = (*input)->FindInstructionById(id);
        if (original == nullptr) continue;
        node.originals.push_back(original->name());
        std::optional<ir::SourceLocation> where = (*input)->ResolveSource(original->metadata());
        if (where && !where->file.empty() && seen.insert({where->file, where->line}).second) {
          node.source_lines.push_back({where->file, where->line, where->function});
        }
      }
      nodes.push_back(std::move(node));
    }
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const HotNode& a, const HotNode& b) { return a.time_us > b.time_us; });
  return nodes;
}

}  // namespace fusescope::profiler
