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
// body goes away afterwards). Each parameter hands its provenance to the operand it stood for.
void Inline(Instruction* call, bool move) {
  const Computation& body = *call->called_computations().front();
  Instruction* root = nullptr;
  for (const auto& [original, value] : CopyBodyInto(body, *call->parent(), call->operands(), move)) {
    if (original->opcode() == ir::Opcode::kParameter) {
      value->mutable_provenance().Union(original->provenance());
    }
    if (original == body.root()) root = value;
  }
  call->parent()->ReplaceInstruction(call, root);
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
      Inline(call, move);
      ++inlined;
    }
  }
  if (inlined > 0) module.RemoveUnreachableComputations();
  context.AddStat("inlined_calls", std::to_string(inlined));
  return inlined > 0;
}

}  // namespace fusescope::passes
