#include "runtime/interpreter/float_widening.h"

#include <cstring>
#include <unordered_map>

#include "ir/narrow_float.h"
#include "passes/literal_value.h"

namespace fusescope::runtime {
namespace {

using ir::Instruction;
using ir::Opcode;
using ir::PrimitiveType;

// The f64 bytes of a float constant's value, read in its own type.
StatusOr<ir::ConstantBytesPtr> WidenedConstant(const Instruction& constant) {
  std::optional<passes::LiteralValue> value = passes::LiteralValue::Of(constant);
  if (!value) {
    return Status::Error(constant.name() + ": " +
                         (constant.literal().find("...") != std::string::npos
                              ? "the constant's value was elided from the text"
                              : "the constant's literal is not readable"));
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(value->element_count()) * sizeof(double));
  // Text is read as decimal; the constant's value is that decimal rounded to its type.
  const ir::PrimitiveType type = constant.shape().element_type();
  for (int64_t i = 0; i < value->element_count(); ++i) {
    double element = value->GetDouble(i);
    if (type == PrimitiveType::kF32) element = static_cast<float>(element);
    if (type == PrimitiveType::kF16) element = ir::RoundToBinaryFormat(element, 5, 10);
    if (type == PrimitiveType::kBF16) element = ir::RoundToBinaryFormat(element, 8, 7);
    std::memcpy(bytes.data() + i * static_cast<int64_t>(sizeof(double)), &element, sizeof(double));
  }
  return ir::MakeConstantBytes(std::move(bytes));
}

Instruction* AddConvert(ir::Computation& computation, Instruction* operand, ir::Shape shape) {
  ir::Module& module = *computation.parent();
  auto convert = Instruction::Create(Opcode::kConvert, std::move(shape), {operand},
                                     module.UniqueName("convert"));
  convert->set_metadata(operand->metadata());
  convert->set_provenance(operand->provenance());
  return computation.AddInstruction(std::move(convert));
}

// A bitcast-convert reinterprets bits of its own width: it goes back to its original types,
// reading its operand through a convert from f64 and handing its users an f64 convert.
void KeepBitcastWidth(ir::Computation& computation, Instruction* bitcast,
                      const ir::Shape& original_operand, const ir::Shape& original_result) {
  Instruction* operand = bitcast->operand(0);
  if (IsWidenedFloatType(original_operand.element_type())) {
    bitcast->ReplaceOperand(0, AddConvert(computation, operand, original_operand));
  }
  bitcast->set_shape(original_result);
  if (!IsWidenedFloatType(original_result.element_type())) return;
  const std::vector<Instruction*> users = bitcast->users();
  Instruction* widened = AddConvert(computation, bitcast, WidenShape(original_result));
  for (Instruction* user : users) user->ReplaceOperandWith(bitcast, widened);
  if (computation.root() == bitcast) computation.set_root(widened);
}

}  // namespace

bool IsWidenedFloatType(PrimitiveType type) {
  return type == PrimitiveType::kF16 || type == PrimitiveType::kBF16 || type == PrimitiveType::kF32;
}

ir::Shape WidenShape(const ir::Shape& shape) {
  ir::Shape widened = shape;
  if (shape.IsTuple()) {
    for (ir::Shape& element : widened.mutable_tuple_shapes()) element = WidenShape(element);
  } else if (IsWidenedFloatType(shape.element_type())) {
    widened.set_element_type(PrimitiveType::kF64);
  }
  return widened;
}

StatusOr<std::unique_ptr<ir::Module>> WidenFloatsToF64(const ir::Module& module) {
  std::unique_ptr<ir::Module> wide = module.Clone();
  // The header's layout names the narrow types; nothing that runs the copy reads it.
  auto& header = wide->header_attributes();
  std::erase_if(header,
                [](const auto& entry) { return entry.first == "entry_computation_layout"; });
  for (const auto& computation : wide->computations()) {
    std::vector<std::pair<Instruction*, std::pair<ir::Shape, ir::Shape>>> bitcasts;
    for (const auto& owned : computation->instructions()) {
      Instruction* instruction = owned.get();
      if (instruction->opcode() == Opcode::kBitcastConvert) {
        bitcasts.push_back({instruction, {instruction->operand(0)->shape(), instruction->shape()}});
      }
      if (instruction->opcode() == Opcode::kConstant &&
          IsWidenedFloatType(instruction->shape().element_type()) &&
          instruction->shape().IsArray()) {
        StatusOr<ir::ConstantBytesPtr> bytes = WidenedConstant(*instruction);
        if (!bytes.ok()) return bytes.status();
        instruction->set_constant_bytes(std::move(bytes).value());
        instruction->set_literal("{...}");
      }
    }
    // Shapes after the constants were read in their own types; the bitcasts' original
    // operand shapes were taken before any shape changed.
    for (const auto& owned : computation->instructions())
      owned->set_shape(WidenShape(owned->shape()));
    for (auto& [bitcast, shapes] : bitcasts)
      KeepBitcastWidth(*computation, bitcast, shapes.first, shapes.second);
  }
  return wide;
}

Literal WidenLiteral(const Literal& literal) {
  if (literal.is_tuple()) {
    std::vector<Literal> elements;
    for (const Literal& element : literal.elements()) elements.push_back(WidenLiteral(element));
    return Literal::Tuple(std::move(elements));
  }
  if (!IsWidenedFloatType(literal.type())) return literal;
  Literal wide = Literal::Create(WidenShape(literal.shape())).value();
  for (int64_t i = 0; i < literal.element_count(); ++i) wide.SetDouble(i, literal.GetDouble(i));
  return wide;
}

}  // namespace fusescope::runtime
