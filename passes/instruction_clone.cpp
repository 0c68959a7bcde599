#include "passes/instruction_clone.h"

#include <unordered_map>

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
  clone->set_constant_bytes(original.constant_bytes());
  clone->set_parameter_number(original.parameter_number());
  clone->set_metadata(original.metadata());
  clone->set_provenance(original.provenance());
  return clone;
}

std::vector<std::pair<const ir::Instruction*, ir::Instruction*>> CopyBodyInto(
    const ir::Computation& body, ir::Computation& caller,
    const std::vector<ir::Instruction*>& operands, bool move) {
  ir::Module& module = *caller.parent();
  std::vector<std::pair<const ir::Instruction*, ir::Instruction*>> copies;
  std::unordered_map<const ir::Instruction*, ir::Instruction*> mapped;
  for (const ir::Instruction* instruction : body.MakePostOrder()) {
    ir::Instruction* value = nullptr;
    if (instruction->opcode() == ir::Opcode::kParameter) {
      value = operands.at(static_cast<size_t>(instruction->parameter_number()));
    } else {
      std::vector<ir::Instruction*> copied_operands;
      for (const ir::Instruction* operand : instruction->operands()) {
        copied_operands.push_back(mapped.at(operand));
      }
      std::unique_ptr<ir::Instruction> copy = CloneWithOperands(
          *instruction, std::move(copied_operands),
          move ? instruction->name() : module.UniqueName(instruction->name()));
      if (move) copy->set_id(instruction->id());
      value = caller.AddInstruction(std::move(copy));
      if (ir::Computation* fused = value->fused_computation()) {
        // A fused computation belongs to one fusion: a moved fusion takes its body along, a
        // copied one gets a copy of it.
        if (!move) {
          ir::Computation* copy_of_body = CloneFusedComputation(*fused, module);
          value->ReplaceCalledComputation(fused, copy_of_body);
          fused = copy_of_body;
        }
        fused->set_fusion_instruction(value);
      }
    }
    mapped[instruction] = value;
    copies.emplace_back(instruction, value);
  }
  return copies;
}

ir::Computation* CloneFusedComputation(const ir::Computation& body, ir::Module& module) {
  auto copy = std::make_unique<ir::Computation>(module.UniqueName(body.name()));
  copy->set_print_signature(body.print_signature());
  copy->set_trailing_attributes(body.trailing_attributes());
  ir::Computation* added = module.AddComputation(std::move(copy));
  std::unordered_map<const ir::Instruction*, ir::Instruction*> copies;
  for (const ir::Instruction* instruction : body.MakePostOrder()) {
    std::vector<ir::Instruction*> operands;
    for (const ir::Instruction* operand : instruction->operands()) {
      operands.push_back(copies.at(operand));
    }
    std::unique_ptr<ir::Instruction> clone = CloneWithOperands(
        *instruction, std::move(operands), module.UniqueName(instruction->name()));
    ir::Instruction* cloned = added->AddInstruction(std::move(clone));
    if (ir::Computation* nested = instruction->fused_computation()) {
      ir::Computation* nested_copy = CloneFusedComputation(*nested, module);
      cloned->ReplaceCalledComputation(nested, nested_copy);
      nested_copy->set_fusion_instruction(cloned);
    }
    copies[instruction] = cloned;
  }
  if (body.root() != nullptr) added->set_root(copies.at(body.root()));
  return added;
}

}  // namespace fusescope::passes
