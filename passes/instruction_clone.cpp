#include "passes/instruction_clone.h"

namespace fusescope::passes {

std::unique_ptr<ir::Instruction> CloneWithOperands(const ir::Instruction& original,
                                                   std::vector<ir::Instruction*> operands,
                                                   std::string name) {
  std::unique_ptr<ir::Instruction> clone =
      original.opcode() == ir::Opcode::kUnknown
          ? ir::Instruction::CreateUnknown(std::string(original.opcode_name()), original.shape(),
                                           std::move(operands), std::move(name))
          : ir::Instruction::Create(original.opcode(), original.shape(), std::move(operands),
                                    std::move(name));
  for (const ir::Attribute& attribute : original.attributes()) {
    if (!attribute.names_computations) {
      clone->SetAttribute(attribute.key, attribute.value);
      continue;
    }
    for (ir::Computation* callee : original.CalledComputations(attribute.key)) {
      clone->AddCalledComputation(attribute.key, callee);
    }
  }
  clone->set_literal(original.literal());
  clone->set_parameter_number(original.parameter_number());
  clone->set_metadata(original.metadata());
  clone->set_provenance(original.provenance());
  return clone;
}

}  // namespace fusescope::passes
