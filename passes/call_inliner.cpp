#include "passes/call_inliner.h"

#include <unordered_map>
#include <vector>

#include "passes/instruction_clone.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;

// How many instructions in the module refer to each computation.
std::unordered_map<const Computation*, int64_t> CountReferences(const ir::Module& module) {
  std::unordered_map<const Computation*, int64_t> references;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      for (const Computation* callee : instruction->called_computations()) ++references[callee];
    }
  }
  return references;
}

// Replaces `call` by a copy of its body. With `move`, the copies keep ids and names (the
// body goes away afterwards).
void Inline(Instruction* call, bool move, ir::Module& module) {
  Computation& caller = *call->parent();
  const Computation& body = *call->called_computations().front();
  std::unordered_map<const Instruction*, Instruction*> mapped;
  for (Instruction* instruction : body.MakePostOrder()) {
    if (instruction->opcode() == ir::Opcode::kParameter) {
      Instruction* operand = call->operand(instruction->parameter_number());
      operand->mutable_provenance().Union(instruction->provenance());
      mapped[instruction] = operand;
      continue;
    }
    std::vector<Instruction*> operands;
    for (Instruction* operand : instruction->operands()) operands.push_back(mapped.at(operand));
    std::unique_ptr<Instruction> copy =
        CloneWithOperands(*instruction, std::move(operands),
                          move ? instruction->name() : module.UniqueName(instruction->name()));
    if (move) copy->set_id(instruction->id());
    Instruction* added = caller.AddInstruction(std::move(copy));
    if (Computation* fused = added->fused_computation()) {
      // A fused computation belongs to one fusion: a moved fusion takes its body along, a
      // copied one gets a copy of it.
      if (move) {
        fused->set_fusion_instruction(added);
      } else {
        Computation* copy_of_body = CloneFusedComputation(*fused, module);
        added->ReplaceCalledComputation(fused, copy_of_body);
        copy_of_body->set_fusion_instruction(added);
      }
    }
    mapped[instruction] = added;
  }
  caller.ReplaceInstruction(call, mapped.at(body.root()));
}

}  // namespace

StatusOr<bool> CallInliner::Run(ir::Module& module, PassContext& context) {
  std::unordered_map<const Computation*, int64_t> references = CountReferences(module);
  int64_t inlined = 0;
  for (Computation* computation : module.MakeComputationPostOrder()) {
    if (computation->fusion_instruction() != nullptr) continue;
    std::vector<Instruction*> calls;
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == ir::Opcode::kCall &&
          instruction->called_computations().size() == 1) {
        calls.push_back(instruction.get());
      }
    }
    for (Instruction* call : calls) {
      const Computation* body = call->called_computations().front();
      const bool move = --references[body] == 0;
      Inline(call, move, module);
      ++inlined;
    }
  }
  if (inlined > 0) module.RemoveUnreachableComputations();
  context.AddStat("inlined_calls", std::to_string(inlined));
  return inlined > 0;
}

}  // namespace fusescope::passes
