#include "passes/cse.h"

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "passes/removal_batch.h"
#include "passes/side_effect_analysis.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;
using ir::Opcode;

bool IsCommutative(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
      return true;
    default:
      return false;
  }
}

// Structural equivalence classes of computations: equal ids for computations with the same
// instructions, wiring, attributes and callees, whatever their names.
class ComputationClasses {
 public:
  // Precondition: every callee of `computation` was added before.
  void Add(const Computation& computation);
  int64_t ClassOf(const Computation* computation) const { return class_of_.at(computation); }

 private:
  std::unordered_map<std::string, int64_t> class_by_text_;
  std::unordered_map<const Computation*, int64_t> class_of_;
};

// Everything that decides an instruction's value except its operands, plus the operands as
// `refs` (identity strings chosen by the caller).
std::string InstructionKey(const Instruction& instruction, std::vector<std::string> refs,
                           const ComputationClasses& classes) {
  if (IsCommutative(instruction.opcode()) && refs.size() == 2) {
    std::sort(refs.begin(), refs.end());
  }
  std::string key(instruction.opcode_name());
  key += '\x1f';
  key += instruction.shape().ToString(true);
  key += '\x1f';
  for (const std::string& ref : refs) key += ref + ",";
  key += '\x1f';
  for (const ir::Attribute& attribute : instruction.attributes()) {
    key += attribute.key + "=" + attribute.value + ";";
  }
  for (const Computation* callee : instruction.called_computations()) {
    key += "@" + std::to_string(classes.ClassOf(callee));
  }
  key += '\x1f';
  key += instruction.literal();
  if (instruction.constant_bytes()) key += "#" + std::to_string(instruction.constant_fingerprint());
  key += '\x1f';
  key += std::to_string(instruction.parameter_number());
  return key;
}

void ComputationClasses::Add(const Computation& computation) {
  std::unordered_map<const Instruction*, size_t> position;
  std::string text;
  for (const Instruction* instruction : computation.MakePostOrder()) {
    std::vector<std::string> refs;
    for (const Instruction* operand : instruction->operands()) {
      refs.push_back(std::to_string(position.at(operand)));
    }
    const size_t index = position.size();
    position.emplace(instruction, index);
    text += InstructionKey(*instruction, std::move(refs), *this);
    text += instruction == computation.root() ? "\x1e" : "\n";
  }
  const auto next = static_cast<int64_t>(class_by_text_.size());
  class_of_[&computation] = class_by_text_.emplace(std::move(text), next).first->second;
}

bool CseComputation(Computation& computation, const SideEffectAnalysis& effects,
                    const ComputationClasses& classes) {
  bool changed = false;
  RemovalBatch merged(effects);
  std::unordered_map<std::string, Instruction*> first_of;
  // Operands before users: by the time an instruction is keyed, its operands are survivors.
  for (Instruction* instruction : computation.MakePostOrder()) {
    if (instruction->opcode() == Opcode::kParameter || effects.HasSideEffect(*instruction)) {
      continue;
    }
    std::vector<std::string> refs;
    for (const Instruction* operand : instruction->operands()) {
      refs.push_back(std::to_string(operand->id()));
    }
    std::string key = InstructionKey(*instruction, std::move(refs), classes);
    auto [it, inserted] = first_of.emplace(std::move(key), instruction);
    if (inserted) continue;
    merged.Replace(instruction, it->second);
    changed = true;
  }
  merged.RemoveFrom(computation);
  return changed;
}

}  // namespace

StatusOr<bool> Cse::Run(ir::Module& module, PassContext& /*context*/) {
  const SideEffectAnalysis effects(module);
  ComputationClasses classes;
  bool changed = false;
  // Callees first: a caller compares its calls by the callees' merged forms.
  for (Computation* computation : module.MakeComputationPostOrder()) {
    changed |= CseComputation(*computation, effects, classes);
    if (computation != module.entry()) classes.Add(*computation);  // nothing calls the entry
  }
  return changed;
}

}  // namespace fusescope::passes
