#include "passes/hlo_queries.h"

#include "ir/module.h"
#include "passes/literal_value.h"

namespace fusescope::passes {
namespace {

constexpr int64_t kUniformValueMaxElements = 4096;

}  // namespace

bool ShapesInterchangeable(const ir::Shape& a, const ir::Shape& b) {
  if (a.IsTuple() || b.IsTuple()) return a == b;
  if (!a.Compatible(b)) return false;
  return !a.layout() || !b.layout() || *a.layout() == *b.layout();
}

std::optional<double> UniformValue(const ir::Instruction& instruction) {
  if (instruction.opcode() == ir::Opcode::kBroadcast) {
    return UniformValue(*instruction.operand(0));
  }
  // Splats of large arrays are written as broadcasts; reading a large array constant's text
  // on every query would cost more than the rewrites it could enable.
  if (instruction.opcode() != ir::Opcode::kConstant ||
      instruction.shape().ElementCount() > kUniformValueMaxElements) {
    return std::nullopt;
  }
  std::optional<LiteralValue> literal = LiteralValue::Of(instruction);
  if (!literal || literal->element_count() == 0) return std::nullopt;
  const double first = literal->GetDouble(0);
  if (!literal->AllEqual(first)) return std::nullopt;
  return first;
}

bool IsIdentityPermutation(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

std::string IntListText(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(values[i]);
  }
  return text + "}";
}

ir::Instruction* AddDerivedInstruction(ir::Computation& computation, ir::Opcode opcode,
                                       ir::Shape shape, std::vector<ir::Instruction*> operands,
                                       std::string_view base_name, const ir::Instruction& origin) {
  auto instruction = ir::Instruction::Create(opcode, std::move(shape), std::move(operands),
                                             computation.parent()->UniqueName(base_name));
  instruction->set_metadata(origin.metadata());
  instruction->set_provenance(origin.provenance());
  return computation.AddInstruction(std::move(instruction));
}

}  // namespace fusescope::passes
