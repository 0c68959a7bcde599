// Elementwise unary, binary and ternary ops, and the conversions.

#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

// Which element types an elementwise op accepts, as XLA's shape inference states them.
enum class TypeRule { kAny, kNumeric, kFloat, kFloatOrComplex, kIntegral, kPredOrIntegral };

bool Accepts(TypeRule rule, PrimitiveType type) {
  switch (rule) {
    case TypeRule::kAny:
      return true;
    case TypeRule::kNumeric:
      return type != PrimitiveType::kPred;
    case TypeRule::kFloat:
      return IsFloatingPointType(type);
    case TypeRule::kFloatOrComplex:
      return IsFloatingPointType(type) || IsComplexType(type);
    case TypeRule::kIntegral:
      return IsIntegralType(type);
    case TypeRule::kPredOrIntegral:
      return type == PrimitiveType::kPred || IsIntegralType(type);
  }
  return false;
}

std::string_view RuleText(TypeRule rule) {
  switch (rule) {
    case TypeRule::kAny:
      return "any type";
    case TypeRule::kNumeric:
      return "a number type";
    case TypeRule::kFloat:
      return "floating point";
    case TypeRule::kFloatOrComplex:
      return "floating point or complex";
    case TypeRule::kIntegral:
      return "an integer type";
    case TypeRule::kPredOrIntegral:
      return "pred or an integer type";
  }
  return "";
}

TypeRule RuleFor(Opcode opcode) {
  switch (opcode) {
    case Opcode::kCeil:
    case Opcode::kFloor:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kIsFinite:
    case Opcode::kReducePrecision:
      return TypeRule::kFloat;
    case Opcode::kAtan2:
    case Opcode::kCbrt:
    case Opcode::kCos:
    case Opcode::kErf:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kImag:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kReal:
    case Opcode::kRsqrt:
    case Opcode::kSin:
    case Opcode::kSqrt:
    case Opcode::kTan:
    case Opcode::kTanh:
      return TypeRule::kFloatOrComplex;
    case Opcode::kClz:
    case Opcode::kPopulationCount:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
      return TypeRule::kIntegral;
    case Opcode::kAnd:
    case Opcode::kNot:
    case Opcode::kOr:
    case Opcode::kXor:
      return TypeRule::kPredOrIntegral;
    case Opcode::kAbs:
    case Opcode::kNegate:
    case Opcode::kSign:
      return TypeRule::kNumeric;
    default:
      return TypeRule::kAny;
  }
}

Status CheckType(const Instruction& instruction, int64_t index, TypeRule rule) {
  const PrimitiveType type = instruction.operand(index)->shape().element_type();
  if (Accepts(rule, type)) return Status::Ok();
  return Status::Error("operand " + std::to_string(index) + " element type " + TypeText(type) +
                       " is not " + std::string(RuleText(rule)));
}

PrimitiveType ComplexComponentType(PrimitiveType type) {
  if (type == PrimitiveType::kC64) return PrimitiveType::kF32;
  if (type == PrimitiveType::kC128) return PrimitiveType::kF64;
  return type;
}

Inferred InferUnary(const Instruction& instruction) {
  FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, 1));
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  FS_RETURN_IF_ERROR(CheckType(instruction, 0, RuleFor(instruction.opcode())));
  Shape result = **operand;
  result.clear_layout();
  switch (instruction.opcode()) {
    case Opcode::kAbs:
    case Opcode::kReal:
    case Opcode::kImag:
      result.set_element_type(ComplexComponentType(result.element_type()));
      break;
    case Opcode::kIsFinite:
      result.set_element_type(PrimitiveType::kPred);
      break;
    default:
      break;
  }
  return std::optional<Shape>(result);
}

StatusOr<PrimitiveType> ComplexOf(PrimitiveType type) {
  if (type == PrimitiveType::kF32) return PrimitiveType::kC64;
  if (type == PrimitiveType::kF64) return PrimitiveType::kC128;
  return Status::Error("complex needs f32 or f64 operands, has " + TypeText(type));
}

Inferred InferBinary(const Instruction& instruction) {
  FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, 2));
  auto lhs = ArrayOperand(instruction, 0);
  if (!lhs.ok()) return lhs.status();
  auto rhs = ArrayOperand(instruction, 1);
  if (!rhs.ok()) return rhs.status();
  FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 1, **lhs));
  FS_RETURN_IF_ERROR(CheckType(instruction, 0, RuleFor(instruction.opcode())));
  Shape result = **lhs;
  result.clear_layout();
  if (instruction.opcode() == Opcode::kCompare) {
    auto direction = RequiredAttribute(instruction, "direction");
    if (!direction.ok()) return direction.status();
    result.set_element_type(PrimitiveType::kPred);
  } else if (instruction.opcode() == Opcode::kComplex) {
    auto type = ComplexOf(result.element_type());
    if (!type.ok()) return type.status();
    result.set_element_type(*type);
  }
  return std::optional<Shape>(result);
}

Inferred InferSelect(const Instruction& instruction) {
  FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, 3));
  for (int64_t i = 0; i < 3; ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
  }
  const Shape& predicate = instruction.operand(0)->shape();
  const Shape& on_true = instruction.operand(1)->shape();
  FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 2, on_true));
  if (predicate.element_type() != PrimitiveType::kPred) {
    return Status::Error("operand 0 element type " + TypeText(predicate.element_type()) +
                         " is not pred");
  }
  // A scalar predicate is what older XLA versions wrote; newer ones broadcast it first.
  if (!predicate.IsScalar() && predicate.dimensions() != on_true.dimensions()) {
    return Status::Error("operand 0 shape " + ShapeText(predicate) +
                         " does not match the dimensions of " + ShapeText(on_true));
  }
  Shape result = on_true;
  result.clear_layout();
  return std::optional<Shape>(result);
}

Inferred InferClamp(const Instruction& instruction) {
  FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, 3));
  auto operand = ArrayOperand(instruction, 1);
  if (!operand.ok()) return operand.status();
  for (int64_t i : {0, 2}) {
    auto bound = ArrayOperand(instruction, i);
    if (!bound.ok()) return bound.status();
    if ((*bound)->IsScalar() && (*bound)->element_type() == (*operand)->element_type()) continue;
    FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, i, **operand));
  }
  Shape result = **operand;
  result.clear_layout();
  return std::optional<Shape>(result);
}

// Bitcast-convert between widths splits or merges the minor-most dimension.
StatusOr<std::vector<int64_t>> BitcastConvertDims(const Shape& operand, PrimitiveType to) {
  const int from_bits = PrimitiveTypeBitWidth(operand.element_type());
  const int to_bits = PrimitiveTypeBitWidth(to);
  std::vector<int64_t> dims = operand.dimensions();
  if (from_bits == to_bits) return dims;
  if (from_bits == 0 || to_bits == 0) {
    return Status::Error("bitcast-convert between " + TypeText(operand.element_type()) + " and " +
                         TypeText(to) + " is not defined");
  }
  if (from_bits > to_bits) {
    dims.push_back(from_bits / to_bits);
    return dims;
  }
  const int64_t ratio = to_bits / from_bits;
  if (dims.empty() || dims.back() != ratio) {
    return Status::Error("bitcast-convert from " + ShapeText(operand) + " to " + TypeText(to) +
                         " needs a minor-most dimension of " + std::to_string(ratio));
  }
  dims.pop_back();
  return dims;
}

}  // namespace

Inferred InferElementwise(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kSelect:
      return InferSelect(instruction);
    case Opcode::kClamp:
      return InferClamp(instruction);
    case Opcode::kCopy: {
      // Copies of tuples are legal: the result is the operand's shape, whatever it is.
      FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, 1));
      Shape result = instruction.operand(0)->shape();
      result.clear_layout();
      return std::optional<Shape>(result);
    }
    case Opcode::kAdd:
    case Opcode::kAnd:
    case Opcode::kAtan2:
    case Opcode::kCompare:
    case Opcode::kComplex:
    case Opcode::kDivide:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kMultiply:
    case Opcode::kOr:
    case Opcode::kPower:
    case Opcode::kRemainder:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
    case Opcode::kSubtract:
    case Opcode::kXor:
      return InferBinary(instruction);
    default:
      return InferUnary(instruction);
  }
}

Inferred InferConversion(const Instruction& instruction) {
  const bool stochastic = instruction.opcode() == Opcode::kStochasticConvert;
  FS_RETURN_IF_ERROR(ExpectOperandCount(instruction, stochastic ? 2 : 1));
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  const PrimitiveType to = (*written)->element_type();
  if (stochastic) {
    auto random = ArrayOperand(instruction, 1);
    if (!random.ok()) return random.status();
    if ((*random)->dimensions() != (*operand)->dimensions()) {
      return Status::Error("operand 1 shape " + ShapeText(**random) +
                           " does not match the dimensions of " + ShapeText(**operand));
    }
  }
  std::vector<int64_t> dims = (*operand)->dimensions();
  if (instruction.opcode() == Opcode::kBitcastConvert) {
    auto converted = BitcastConvertDims(**operand, to);
    if (!converted.ok()) return converted.status();
    dims = std::move(*converted);
  }
  return std::optional<Shape>(Shape(to, std::move(dims)));
}

}  // namespace fusescope::ir::inference
