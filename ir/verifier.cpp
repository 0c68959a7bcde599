#include "ir/verifier.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/shape_inference_internal.h"

namespace fusescope::ir {
namespace {

using inference::InstructionText;
using inference::ShapeText;

Status Fail(const Computation& computation, const std::string& message) {
  return Status::Error("computation " + computation.name() + ": " + message);
}

Status Fail(const Computation& computation, const Instruction& instruction,
            const std::string& message) {
  return Status::Error("computation " + computation.name() + ", instruction " +
                       InstructionText(instruction) + ": " + message);
}

// An operand edge (operand, user).
using Edge = std::pair<const Instruction*, const Instruction*>;

// Names and ids are unique across the whole module. `live` holds every instruction the
// module owns: a pointer is dereferenced only once it is known to be among them, so that a
// dangling reference is reported instead of read.
struct ModuleIndex {
  std::unordered_set<const Computation*> computations;
  std::unordered_set<const Instruction*> live;
  std::unordered_map<std::string_view, const Computation*> instruction_names;
  std::unordered_map<int64_t, const Instruction*> ids;
};

Status CheckIdentity(const Computation& computation, const Instruction& instruction,
                     ModuleIndex& index) {
  if (instruction.parent() != &computation) {
    return Fail(computation, instruction, "its parent is not this computation");
  }
  auto [name_at, new_name] = index.instruction_names.emplace(instruction.name(), &computation);
  if (!new_name) {
    return Fail(computation, instruction,
                "name already used in computation " + name_at->second->name());
  }
  auto [id_at, new_id] = index.ids.emplace(instruction.id(), &instruction);
  if (!new_id) {
    return Fail(computation, instruction,
                "id " + std::to_string(instruction.id()) + " already used by " +
                    InstructionText(*id_at->second));
  }
  return Status::Ok();
}

Status CheckOperands(const Computation& computation, const Instruction& instruction,
                     const ModuleIndex& index, std::vector<Edge>& operand_edges) {
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    const Instruction* operand = instruction.operand(i);
    if (operand == nullptr) {
      return Fail(computation, instruction, "operand " + std::to_string(i) + " is null");
    }
    if (!index.live.contains(operand)) {
      return Fail(computation, instruction,
                  "operand " + std::to_string(i) +
                      " is not an instruction of the module (never added, or removed)");
    }
    if (operand->parent() != &computation) {
      const std::string where =
          operand->parent() ? "computation " + operand->parent()->name() : "no computation";
      return Fail(computation, instruction,
                  "operand " + std::to_string(i) + " " + InstructionText(*operand) +
                      " belongs to " + where);
    }
    operand_edges.emplace_back(operand, &instruction);
  }
  const int arity = OpcodeArity(instruction.opcode());
  // Sparse dots carry their sparsity metadata as extra operands.
  const bool sparse_dot = instruction.opcode() == Opcode::kDot && instruction.attribute("sparsity");
  if (arity >= 0 && !sparse_dot && instruction.operand_count() != arity) {
    return Fail(computation, instruction,
                inference::ExpectOperandCount(instruction, arity).message());
  }
  return Status::Ok();
}

Status CheckUsersInComputation(const Computation& computation, const Instruction& instruction,
                               const ModuleIndex& index) {
  for (const Instruction* user : instruction.users()) {
    if (user == nullptr) return Fail(computation, instruction, "has a null user");
    if (!index.live.contains(user)) {
      return Fail(computation, instruction, "lists a user that is no longer in the module");
    }
    if (user->parent() != &computation) {
      const std::string where =
          user->parent() ? "computation " + user->parent()->name() : "no computation";
      return Fail(computation, instruction,
                  "user " + InstructionText(*user) + " belongs to " + where);
    }
  }
  return Status::Ok();
}

// The user lists, taken together, are exactly the distinct operand edges, without repeats.
// Sorted vectors rather than hash sets: modules reach 100k instructions.
Status CheckEdgesAgree(const Computation& computation, std::vector<Edge> operand_edges) {
  std::sort(operand_edges.begin(), operand_edges.end());
  operand_edges.erase(std::unique(operand_edges.begin(), operand_edges.end()), operand_edges.end());
  std::vector<Edge> user_edges;
  user_edges.reserve(operand_edges.size());
  for (const auto& instruction : computation.instructions()) {
    for (const Instruction* user : instruction->users()) {
      user_edges.emplace_back(instruction.get(), user);
    }
  }
  std::sort(user_edges.begin(), user_edges.end());
  auto repeated = std::adjacent_find(user_edges.begin(), user_edges.end());
  if (repeated != user_edges.end()) {
    return Fail(computation, *repeated->first,
                "lists user " + InstructionText(*repeated->second) + " twice");
  }
  auto [in_operands, in_users] = std::mismatch(operand_edges.begin(), operand_edges.end(),
                                               user_edges.begin(), user_edges.end());
  if (in_users != user_edges.end() &&
      (in_operands == operand_edges.end() || *in_users < *in_operands)) {
    return Fail(computation, *in_users->first,
                "lists user " + InstructionText(*in_users->second) + ", which does not use it");
  }
  if (in_operands != operand_edges.end()) {
    return Fail(computation, *in_operands->second,
                "is not among the users of its operand " + InstructionText(*in_operands->first));
  }
  return Status::Ok();
}

Status CheckCalledComputations(const Computation& computation, const Instruction& instruction,
                               const ModuleIndex& index) {
  if (instruction.called_computation_keys().size() != instruction.called_computations().size()) {
    return Fail(computation, instruction, "called computations and their keys disagree");
  }
  for (const Computation* callee : instruction.called_computations()) {
    if (callee == nullptr) return Fail(computation, instruction, "calls a null computation");
    if (!index.computations.contains(callee)) {
      return Fail(computation, instruction,
                  "calls a computation that is not in the module (never added, or removed)");
    }
  }
  // A fused computation belongs to exactly one fusion, as in XLA.
  const Computation* fused = instruction.fused_computation();
  if (fused != nullptr && fused->fusion_instruction() != &instruction) {
    const Instruction* owner = fused->fusion_instruction();
    const bool named = owner != nullptr && index.live.contains(owner);
    return Fail(computation, instruction,
                "calls " + fused->name() + ", which is the fused computation of " +
                    (named ? InstructionText(*owner) : std::string("no live fusion")));
  }
  return Status::Ok();
}

// Parameters are numbered 0..n-1, each number once, and the computation's parameter list
// holds exactly them.
Status CheckParameters(const Computation& computation) {
  std::vector<const Instruction*> by_number;
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() == Opcode::kParameter) by_number.push_back(nullptr);
  }
  const auto count = static_cast<int64_t>(by_number.size());
  for (const auto& instruction : computation.instructions()) {
    if (instruction->opcode() != Opcode::kParameter) continue;
    const int64_t number = instruction->parameter_number();
    if (number < 0 || number >= count) {
      return Fail(computation, *instruction,
                  "parameter(" + std::to_string(number) + ") but the computation has " +
                      std::to_string(count) + " parameters");
    }
    const Instruction*& slot = by_number[static_cast<size_t>(number)];
    if (slot != nullptr) {
      return Fail(
          computation, *instruction,
          "parameter(" + std::to_string(number) + ") already used by " + InstructionText(*slot));
    }
    slot = instruction.get();
  }
  if (computation.parameter_count() != count) {
    return Fail(computation, "parameter list has " + std::to_string(computation.parameter_count()) +
                                 " entries for " + std::to_string(count) + " parameters");
  }
  for (int64_t i = 0; i < count; ++i) {
    if (computation.parameter(i) != by_number[static_cast<size_t>(i)]) {
      return Fail(computation, "parameter list entry " + std::to_string(i) + " is not parameter(" +
                                   std::to_string(i) + ")");
    }
  }
  return Status::Ok();
}

// Depth-first over operands; meeting an instruction still on the stack closes a cycle.
Status CheckAcyclic(const Computation& computation) {
  enum class Mark : uint8_t { kOnStack, kDone };
  std::unordered_map<const Instruction*, Mark> marks;
  marks.reserve(computation.instructions().size());
  std::vector<std::pair<const Instruction*, int64_t>> stack;
  for (const auto& start : computation.instructions()) {
    if (marks.contains(start.get())) continue;
    marks[start.get()] = Mark::kOnStack;
    stack.emplace_back(start.get(), 0);
    while (!stack.empty()) {
      const Instruction* node = stack.back().first;
      const int64_t next = stack.back().second++;
      if (next == node->operand_count()) {
        marks[node] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const Instruction* operand = node->operand(next);
      auto [at, fresh] = marks.emplace(operand, Mark::kOnStack);
      if (fresh) {
        stack.emplace_back(operand, 0);
      } else if (at->second == Mark::kOnStack) {
        return Fail(computation, *operand, "is part of a cycle through its operands");
      }
    }
  }
  return Status::Ok();
}

// A fused computation names its fusion instruction, which must be alive and call it.
Status CheckFusionBackReference(const Computation& computation, const ModuleIndex& index) {
  const Instruction* fusion = computation.fusion_instruction();
  if (fusion == nullptr) return Status::Ok();
  if (!index.live.contains(fusion)) {
    return Fail(computation,
                "is a fused computation whose fusion instruction is no longer in the module");
  }
  if (fusion->fused_computation() != &computation) {
    return Fail(computation,
                "names " + InstructionText(*fusion) + " as its fusion, which does not call it");
  }
  return Status::Ok();
}

Status CheckComputationStructure(const Computation& computation, ModuleIndex& index) {
  if (computation.root() == nullptr) return Fail(computation, "has no root");
  if (!index.live.contains(computation.root())) {
    return Fail(computation, "root is no longer an instruction of the module");
  }
  if (computation.root()->parent() != &computation) {
    return Fail(computation,
                "root " + InstructionText(*computation.root()) + " is not in this computation");
  }
  std::vector<Edge> operand_edges;
  for (const auto& instruction : computation.instructions()) {
    if (instruction == nullptr) return Fail(computation, "holds a null instruction");
    FS_RETURN_IF_ERROR(CheckIdentity(computation, *instruction, index));
    FS_RETURN_IF_ERROR(CheckOperands(computation, *instruction, index, operand_edges));
    FS_RETURN_IF_ERROR(CheckUsersInComputation(computation, *instruction, index));
    FS_RETURN_IF_ERROR(CheckCalledComputations(computation, *instruction, index));
  }
  FS_RETURN_IF_ERROR(CheckEdgesAgree(computation, std::move(operand_edges)));
  FS_RETURN_IF_ERROR(CheckParameters(computation));
  FS_RETURN_IF_ERROR(CheckFusionBackReference(computation, index));
  return CheckAcyclic(computation);
}

// XLA forbids recursion: no computation may (transitively) call itself.
Status CheckCallGraphAcyclic(const Module& module) {
  enum class Mark : uint8_t { kOnStack, kDone };
  std::unordered_map<const Computation*, Mark> marks;
  std::vector<std::pair<const Computation*, std::vector<const Computation*>>> stack;
  auto callees = [](const Computation* computation) {
    std::vector<const Computation*> out;
    for (const auto& instruction : computation->instructions()) {
      out.insert(out.end(), instruction->called_computations().begin(),
                 instruction->called_computations().end());
    }
    return out;
  };
  for (const auto& start : module.computations()) {
    if (marks.contains(start.get())) continue;
    marks[start.get()] = Mark::kOnStack;
    stack.emplace_back(start.get(), callees(start.get()));
    while (!stack.empty()) {
      auto& [node, pending] = stack.back();
      if (pending.empty()) {
        marks[node] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const Computation* callee = pending.back();
      pending.pop_back();
      auto [at, fresh] = marks.emplace(callee, Mark::kOnStack);
      if (fresh) {
        stack.emplace_back(callee, callees(callee));
      } else if (at->second == Mark::kOnStack) {
        return Fail(*callee, "calls itself through the computations it calls");
      }
    }
  }
  return Status::Ok();
}

Status CheckModuleStructure(const Module& module, ModuleIndex& index) {
  index.instruction_names.reserve(static_cast<size_t>(module.instruction_count()));
  index.ids.reserve(static_cast<size_t>(module.instruction_count()));
  index.live.reserve(static_cast<size_t>(module.instruction_count()));
  std::unordered_set<std::string_view> names;
  for (const auto& computation : module.computations()) {
    if (computation == nullptr) return Status::Error("module holds a null computation");
    if (!names.insert(computation->name()).second) {
      return Fail(*computation, "name is used by another computation");
    }
    index.computations.insert(computation.get());
    for (const auto& instruction : computation->instructions()) {
      index.live.insert(instruction.get());
    }
  }
  if (module.entry() == nullptr) return Status::Error("module has no entry computation");
  if (!index.computations.contains(module.entry())) {
    return Status::Error("entry computation " + module.entry()->name() + " is not in the module");
  }
  for (const auto& computation : module.computations()) {
    FS_RETURN_IF_ERROR(CheckComputationStructure(*computation, index));
  }
  return CheckCallGraphAcyclic(module);
}

// Where `written` and `inferred` first differ, as a phrase; empty when they agree.
std::string ShapeDifference(const Shape& written, const Shape& inferred, const std::string& path) {
  if (written.IsTuple() && inferred.IsTuple()) {
    const size_t count = written.tuple_shapes().size();
    if (count != inferred.tuple_shapes().size()) {
      return "written tuple" + path + " has " + std::to_string(count) + " elements, inferred " +
             std::to_string(inferred.tuple_shapes().size());
    }
    for (size_t i = 0; i < count; ++i) {
      std::string difference = ShapeDifference(
          written.tuple_shapes()[i], inferred.tuple_shapes()[i],
          path.empty() ? " element {" + std::to_string(i) + "}"
                       : path.substr(0, path.size() - 1) + "," + std::to_string(i) + "}");
      if (!difference.empty()) return difference;
    }
    return "";
  }
  if (written.Compatible(inferred)) return "";
  return "written shape" + path + " " + ShapeText(written) + " does not match inferred " +
         ShapeText(inferred);
}

Status CheckShape(const Computation& computation, const Instruction& instruction) {
  StatusOr<std::optional<Shape>> inferred = InferShape(instruction);
  if (!inferred.ok()) return Fail(computation, instruction, inferred.message());
  if (!inferred->has_value()) return Status::Ok();
  std::string difference = ShapeDifference(instruction.shape(), **inferred, "");
  if (difference.empty()) return Status::Ok();
  const Computation* callee =
      instruction.opcode() == Opcode::kFusion || instruction.opcode() == Opcode::kCall
          ? instruction.called_computations().front()
          : nullptr;
  if (callee != nullptr) difference += " (the root of " + callee->name() + ")";
  return Fail(computation, instruction, difference);
}

}  // namespace

Status VerifyModule(const Module& module) {
  ModuleIndex index;
  FS_RETURN_IF_ERROR(CheckModuleStructure(module, index));
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      FS_RETURN_IF_ERROR(CheckShape(*computation, *instruction));
    }
  }
  return Status::Ok();
}

}  // namespace fusescope::ir
