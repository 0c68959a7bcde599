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

// Spreads `micros` over the input instructions `provenance` names, in proportion to their
// roofline estimates (evenly when none costs anything). False when none is in the input.
bool Spread(double micros, const ir::ProvenanceSet& provenance, const ir::Module& input,
            const RooflineRates& rates, std::map<int64_t, double>& out) {
  std::vector<std::pair<int64_t, double>> weights;
  double total = 0;
  for (int64_t id : provenance.ids()) {
    const ir::Instruction* original = input.FindInstructionById(id);
    if (original == nullptr) continue;
    const double weight = EstimateSeconds(*original, rates);
    weights.emplace_back(id, weight);
    total += weight;
  }
  if (weights.empty()) return false;
  for (const auto& [id, weight] : weights) {
    const double part = total > 0 ? weight / total : 1.0 / static_cast<double>(weights.size());
    if (part > 0) out[id] += micros * part;
  }
  return true;
}

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
  StatusOr<std::unique_ptr<ir::Module>> profiled_module = profiled.ToModule();
  if (!profiled_module.ok()) {
    return Status::Error("the profiled snapshot: " + profiled_module.message());
  }

  Attribution attribution;
  attribution.profile_total_us = profile.TotalUs();
  for (const KernelTime& kernel : profile.kernels) {
    const InstructionRecord* record = FindKernel(profiled, kernel);
    const ir::Instruction* instruction =
        record ? (*profiled_module)->FindInstructionById(record->id) : nullptr;
    if (record == nullptr || instruction == nullptr) {
      attribution.kernels_not_found.push_back(kernel.name);
      continue;
    }
    // The kernel's time goes first to the instructions it executes (a fusion's fused
    // instructions), by their own roofline estimates: a bitcast of a dot's result inside an
    // elementwise fusion answers for the dot but costs that kernel nothing. Each share then
    // goes to the model's instructions that instruction answers for.
    std::vector<std::pair<const ir::Instruction*, double>> members;
    double member_total = 0;
    if (instruction->opcode() == ir::Opcode::kFusion && instruction->fused_computation()) {
      for (const auto& member : instruction->fused_computation()->instructions()) {
        if (member->opcode() == ir::Opcode::kParameter) continue;
        const double weight = EstimateSeconds(*member, rates);
        members.emplace_back(member.get(), weight);
        member_total += weight;
      }
    }
    bool attributed = false;
    if (member_total > 0) {
      for (const auto& [member, weight] : members) {
        if (weight <= 0) continue;
        attributed |= Spread(kernel.total_us * weight / member_total, member->provenance(),
                             **input, rates, attribution.original_us);
      }
    }
    if (!attributed) {
      // A single instruction, or a fusion whose members the estimate cannot tell apart.
      attributed = Spread(kernel.total_us, record->provenance(), **input, rates,
                          attribution.original_us);
    }
    if (attributed) {
      ++attribution.kernels_attributed;
    } else {
      attribution.kernels_without_provenance.push_back(kernel.name);
      attribution.unattributed_us += kernel.total_us;
    }
  }
  return attribution;
}

StatusOr<std::vector<HotNode>> HotNodes(const recording::Recording& recording,
                                        const Profile& profile, const Attribution& attribution,
                                        int64_t snapshot_index, RooflineRates rates) {
  if (snapshot_index < 0 || snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error("no snapshot " + std::to_string(snapshot_index));
  }
  StatusOr<std::unique_ptr<ir::Module>> input = recording.snapshots.front().ToModule();
  if (!input.ok()) return Status::Error("the recording's input: " + input.message());
  const Snapshot& snapshot = recording.snapshots[static_cast<size_t>(snapshot_index)];
  StatusOr<std::unique_ptr<ir::Module>> module = snapshot.ToModule();
  if (!module.ok()) return Status::Error("snapshot " + std::to_string(snapshot_index) + ": " + module.message());
  const bool is_profiled = snapshot_index == profile.snapshot_index;
  std::unordered_map<const InstructionRecord*, const KernelTime*> measured;
  if (is_profiled) {
    for (const KernelTime& kernel : profile.kernels) {
      if (const InstructionRecord* record = FindKernel(snapshot, kernel)) measured[record] = &kernel;
    }
  }
  const std::unordered_set<std::string> fused = FusedComputationNames(snapshot);

  // The candidate nodes and, per model instruction, how much work each does for it: a
  // fusion does what its fused instructions answering for it cost (a bitcast of a dot's
  // result costs nothing, so the dot's time stays with the dot's own kernel). A model
  // instruction's time is then shared among the nodes doing work for it in proportion.
  struct Candidate {
    const InstructionRecord* record;
    std::map<int64_t, double> work;  // model instruction id -> estimated seconds done here
  };
  std::vector<Candidate> candidates;
  std::map<int64_t, double> work_total;
  std::map<int64_t, int64_t> holders;
  for (const auto& computation : snapshot.computations()) {
    for (const auto& record : computation->instructions) {
      if (fused.count(record->computation)) continue;
      const bool is_kernel = measured.count(record.get()) > 0;
      // On the profiled snapshot the kernels are what was measured. Elsewhere every node
      // may hold time: one that does no work (a bitcast of a hot dot) gets none of what a
      // working node shares with it, but a parameter whose layout copy XLA timed keeps it.
      if (is_profiled && !is_kernel) continue;
      Candidate candidate{record.get(), {}};
      const ir::Instruction* instruction = (*module)->FindInstructionById(record->id);
      auto add_work = [&](const ir::ProvenanceSet& provenance, double seconds) {
        for (int64_t id : provenance.ids()) {
          if (attribution.original_us.count(id)) candidate.work[id] += seconds;
        }
      };
      if (instruction && instruction->opcode() == ir::Opcode::kFusion &&
          instruction->fused_computation()) {
        for (const auto& member : instruction->fused_computation()->instructions()) {
          if (member->opcode() != ir::Opcode::kParameter) {
            add_work(member->provenance(), EstimateSeconds(*member, rates));
          }
        }
      }
      // Whatever the node answers for without doing costed work for it still counts as held.
      const ir::ProvenanceSet provenance = record->provenance();
      for (int64_t id : provenance.ids()) {
        if (attribution.original_us.count(id)) candidate.work.emplace(id, 0.0);
      }
      if (instruction && instruction->opcode() != ir::Opcode::kFusion) {
        add_work(provenance, EstimateSeconds(*instruction, rates));
      }
      for (const auto& [id, seconds] : candidate.work) {
        work_total[id] += seconds;
        ++holders[id];
      }
      candidates.push_back(std::move(candidate));
    }
  }

  const double total = attribution.profile_total_us;
  std::vector<HotNode> nodes;
  for (const Candidate& candidate : candidates) {
    const InstructionRecord* record = candidate.record;
    HotNode node;
    node.instruction_id = record->id;
    node.name = record->name;
    node.opcode = record->opcode;
    node.computation = record->computation;
    std::vector<std::pair<double, int64_t>> originals;
    for (const auto& [id, seconds] : candidate.work) {
      const double all = work_total[id];
      const double part = all > 0 ? seconds / all : 1.0 / static_cast<double>(holders[id]);
      if (part <= 0) continue;
      const double micros = attribution.original_us.at(id) * part;
      originals.emplace_back(micros, id);
      node.time_us += micros;
    }
    if (auto it = measured.find(record); it != measured.end()) {
      node.time_us = it->second->total_us;
      node.measured = true;
    }
    if (node.time_us <= 0) continue;
    node.share = total > 0 ? node.time_us / total : 0;
    std::sort(originals.rbegin(), originals.rend());
    std::set<std::pair<std::string, int64_t>> seen;
    std::set<std::string> seen_names;
    for (const auto& [micros, id] : originals) {
      const ir::Instruction* original = (*input)->FindInstructionById(id);
      if (original == nullptr) continue;
      node.originals.push_back(original->name());
      const std::string op_name = original->metadata().String("op_name");
      if (!op_name.empty() && seen_names.insert(op_name).second) node.op_names.push_back(op_name);
      std::optional<ir::SourceLocation> where = (*input)->ResolveSource(original->metadata());
      if (where && !where->file.empty() && seen.insert({where->file, where->line}).second) {
        node.source_lines.push_back({where->file, where->line, where->function});
      }
    }
    nodes.push_back(std::move(node));
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const HotNode& a, const HotNode& b) { return a.time_us > b.time_us; });
  return nodes;
}

StatusOr<std::unordered_map<int64_t, double>> InclusiveShares(const recording::Recording& recording,
                                                              int64_t snapshot_index,
                                                              const std::vector<HotNode>& nodes) {
  std::unordered_map<int64_t, double> shares;
  for (const HotNode& node : nodes) shares[node.instruction_id] += node.share;
  if (snapshot_index < 0 || snapshot_index >= static_cast<int64_t>(recording.snapshots.size())) {
    return Status::Error("no snapshot " + std::to_string(snapshot_index));
  }
  StatusOr<std::unique_ptr<ir::Module>> module =
      recording.snapshots[static_cast<size_t>(snapshot_index)].ToModule();
  if (!module.ok()) {
    return Status::Error("snapshot " + std::to_string(snapshot_index) + ": " + module.message());
  }
  auto runs_computations = [](const ir::Instruction& instruction) {
    const ir::Opcode opcode = instruction.opcode();
    return opcode == ir::Opcode::kWhile || opcode == ir::Opcode::kCall ||
           opcode == ir::Opcode::kConditional;
  };
  std::unordered_map<const ir::Computation*, int64_t> callers;
  for (const auto& computation : (*module)->computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (!runs_computations(*instruction)) continue;
      for (const ir::Computation* called : instruction->called_computations()) ++callers[called];
    }
  }
  // Callees first, so that a loop inside a loop is summed before its caller reads it.
  std::unordered_map<const ir::Computation*, double> totals;
  for (const ir::Computation* computation : (*module)->MakeComputationPostOrder()) {
    double total = 0;
    for (const auto& instruction : computation->instructions()) {
      double share = 0;
      if (auto found = shares.find(instruction->id()); found != shares.end()) share = found->second;
      if (runs_computations(*instruction)) {
        for (const ir::Computation* called : instruction->called_computations()) {
          auto found = totals.find(called);
          if (found != totals.end()) share += found->second / static_cast<double>(callers[called]);
        }
        if (share > 0) shares[instruction->id()] = share;
      }
      total += share;
    }
    totals[computation] = total;
  }
  return shares;
}

}  // namespace fusescope::profiler
