#include "passes/literal_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "passes/elementwise_semantics.h"

namespace fusescope::passes {
namespace {

using ir::Opcode;
using ir::PrimitiveType;

bool IsUnsigned(PrimitiveType type) { return IsUnsignedIntegral(type); }

// Folding is limited to these opcodes; what they compute is the interpreter's
// (passes/elementwise_semantics.h).
bool FoldsFloatUnary(Opcode opcode) {
  switch (opcode) {
    case Opcode::kNegate: case Opcode::kAbs: case Opcode::kSign: case Opcode::kFloor:
    case Opcode::kCeil: case Opcode::kRoundNearestEven: case Opcode::kSqrt: case Opcode::kExp:
    case Opcode::kLog: case Opcode::kTanh: case Opcode::kSin: case Opcode::kCos:
      return true;
    default:
      return false;
  }
}

bool FoldsBinary(Opcode opcode, bool floating) {
  switch (opcode) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMultiply: case Opcode::kDivide:
    case Opcode::kRemainder: case Opcode::kMaximum: case Opcode::kMinimum:
      return true;
    case Opcode::kPower:
      return floating;
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
      return !floating;
    default:
      return false;
  }
}

// Transcendental functions of an f32 are computed in single precision, as a compiled kernel
// would; the rest is exact in double and rounded once.
std::optional<double> FloatUnary(Opcode opcode, double x, bool single) {
  if (!FoldsFloatUnary(opcode)) return std::nullopt;
  if (single) {
    const float f = static_cast<float>(x);
    switch (opcode) {
      case Opcode::kExp: return std::exp(f);
      case Opcode::kLog: return std::log(f);
      case Opcode::kTanh: return std::tanh(f);
      case Opcode::kSin: return std::sin(f);
      case Opcode::kCos: return std::cos(f);
      default: break;
    }
  }
  return FloatUnaryOp(opcode, x);
}

std::optional<int64_t> IntUnary(Opcode opcode, int64_t x, PrimitiveType type) {
  switch (opcode) {
    case Opcode::kNegate: case Opcode::kAbs: case Opcode::kSign: case Opcode::kNot:
      return IntUnaryOp(opcode, x, type);
    default:
      return std::nullopt;
  }
}

std::optional<double> FloatBinary(Opcode opcode, double a, double b, bool single) {
  if (!FoldsBinary(opcode, /*floating=*/true)) return std::nullopt;
  if (single && opcode == Opcode::kPower) {
    return std::pow(static_cast<float>(a), static_cast<float>(b));
  }
  return FloatBinaryOp(opcode, a, b);
}

std::optional<int64_t> IntBinary(Opcode opcode, int64_t a, int64_t b, PrimitiveType type) {
  if (!FoldsBinary(opcode, /*floating=*/false)) return std::nullopt;
  return IntBinaryOp(opcode, a, b, type);
}

template <typename T>
bool CompareValues(std::string_view direction, T a, T b) {
  return CompareScalars(direction, a, b);
}

bool KnownDirection(std::string_view direction) { return IsComparisonDirection(direction); }

std::optional<LiteralValue> EvaluateUnary(const ir::Instruction& instruction, const LiteralValue& x,
                                          LiteralValue result) {
  const bool single = x.type() == PrimitiveType::kF32;
  for (int64_t i = 0; i < result.element_count(); ++i) {
    if (x.is_floating()) {
      std::optional<double> value = FloatUnary(instruction.opcode(), x.GetDouble(i), single);
      if (!value) return std::nullopt;
      result.SetDouble(i, *value);
    } else {
      std::optional<int64_t> value = IntUnary(instruction.opcode(), x.GetInt(i), x.type());
      if (!value) return std::nullopt;
      result.SetInt(i, *value);
    }
  }
  return result;
}

std::optional<LiteralValue> EvaluateBinary(const ir::Instruction& instruction,
                                           const LiteralValue& a, const LiteralValue& b,
                                           LiteralValue result) {
  const bool single = a.type() == PrimitiveType::kF32;
  for (int64_t i = 0; i < result.element_count(); ++i) {
    if (a.is_floating()) {
      std::optional<double> value =
          FloatBinary(instruction.opcode(), a.GetDouble(i), b.GetDouble(i), single);
      if (!value) return std::nullopt;
      result.SetDouble(i, *value);
    } else {
      std::optional<int64_t> value =
          IntBinary(instruction.opcode(), a.GetInt(i), b.GetInt(i), a.type());
      if (!value) return std::nullopt;
      result.SetInt(i, *value);
    }
  }
  return result;
}

std::optional<LiteralValue> EvaluateCompare(const ir::Instruction& instruction,
                                            const LiteralValue& a, const LiteralValue& b,
                                            LiteralValue result) {
  const std::optional<std::string_view> direction = instruction.attribute("direction");
  // TOTALORDER orders nan and -0 differently from IEEE comparison; leave it to run time.
  const std::optional<std::string_view> order = instruction.attribute("type");
  if (!direction || !KnownDirection(*direction) || (order && *order == "TOTALORDER")) {
    return std::nullopt;
  }
  for (int64_t i = 0; i < result.element_count(); ++i) {
    bool value = false;
    if (a.is_floating()) {
      value = CompareValues(*direction, a.GetDouble(i), b.GetDouble(i));
    } else if (IsUnsigned(a.type())) {
      value = CompareValues(*direction, static_cast<uint64_t>(a.GetInt(i)),
                            static_cast<uint64_t>(b.GetInt(i)));
    } else {
      value = CompareValues(*direction, a.GetInt(i), b.GetInt(i));
    }
    result.SetInt(i, value ? 1 : 0);
  }
  return result;
}

std::optional<LiteralValue> EvaluateSelect(const LiteralValue& predicate,
                                           const LiteralValue& on_true,
                                           const LiteralValue& on_false, LiteralValue result) {
  const bool scalar_predicate = predicate.element_count() == 1;
  for (int64_t i = 0; i < result.element_count(); ++i) {
    const bool take_true = predicate.GetInt(scalar_predicate ? 0 : i) != 0;
    const LiteralValue& source = take_true ? on_true : on_false;
    if (source.is_floating()) {
      result.SetDouble(i, source.GetDouble(i));
    } else {
      result.SetInt(i, source.GetInt(i));
    }
  }
  return result;
}

LiteralValue EvaluateConvert(const LiteralValue& x, LiteralValue result) {
  for (int64_t i = 0; i < result.element_count(); ++i) {
    if (x.is_floating() || result.is_floating()) {
      result.SetDouble(i, x.GetDouble(i));
    } else {
      result.SetInt(i, x.GetInt(i));
    }
  }
  return result;
}

void CopyElement(const LiteralValue& from, int64_t from_index, LiteralValue& to, int64_t to_index) {
  if (from.is_floating()) {
    to.SetDouble(to_index, from.GetDouble(from_index));
  } else {
    to.SetInt(to_index, from.GetInt(from_index));
  }
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

// For each output element, the operand element it reads: output dimension `out_dim[k]`
// supplies the index of operand dimension k.
std::optional<LiteralValue> Gather(const LiteralValue& x, const std::vector<int64_t>& out_dim,
                                   LiteralValue result) {
  const std::vector<int64_t>& out_dims = result.dims();
  if (out_dim.size() != x.dims().size()) return std::nullopt;
  for (size_t k = 0; k < out_dim.size(); ++k) {
    if (out_dim[k] < 0 || static_cast<size_t>(out_dim[k]) >= out_dims.size() ||
        out_dims[static_cast<size_t>(out_dim[k])] != x.dims()[k]) {
      return std::nullopt;
    }
  }
  const std::vector<int64_t> x_strides = RowMajorStrides(x.dims());
  std::vector<int64_t> index(out_dims.size(), 0);
  for (int64_t i = 0; i < result.element_count(); ++i) {
    int64_t source = 0;
    for (size_t k = 0; k < out_dim.size(); ++k) {
      source += index[static_cast<size_t>(out_dim[k])] * x_strides[k];
    }
    CopyElement(x, source, result, i);
    for (size_t d = out_dims.size(); d-- > 0;) {
      if (++index[d] < out_dims[d]) break;
      index[d] = 0;
    }
  }
  return result;
}

std::optional<LiteralValue> EvaluateTranspose(const ir::Instruction& instruction,
                                              const LiteralValue& x, LiteralValue result) {
  std::optional<std::vector<int64_t>> permutation = instruction.dimensions();
  if (!permutation || permutation->size() != x.dims().size()) return std::nullopt;
  // Output dimension i is operand dimension permutation[i].
  std::vector<int64_t> out_dim(permutation->size(), -1);
  for (size_t i = 0; i < permutation->size(); ++i) {
    const int64_t operand_dim = (*permutation)[i];
    if (operand_dim < 0 || static_cast<size_t>(operand_dim) >= out_dim.size()) {
      return std::nullopt;
    }
    out_dim[static_cast<size_t>(operand_dim)] = static_cast<int64_t>(i);
  }
  return Gather(x, out_dim, std::move(result));
}

std::optional<LiteralValue> EvaluateReshape(const LiteralValue& x, LiteralValue result) {
  if (x.element_count() != result.element_count()) return std::nullopt;
  for (int64_t i = 0; i < result.element_count(); ++i) CopyElement(x, i, result, i);
  return result;
}

}  // namespace

std::optional<LiteralValue> EvaluateOnLiterals(const ir::Instruction& instruction,
                                               const std::vector<LiteralValue>& operands) {
  const ir::Shape& shape = instruction.shape();
  if (!shape.IsArray() || !LiteralValue::IsComputableType(shape.element_type())) {
    return std::nullopt;
  }
  for (const LiteralValue& operand : operands) {
    if (!LiteralValue::IsComputableType(operand.type())) return std::nullopt;
  }
  LiteralValue result(shape.element_type(), shape.dimensions());
  const Opcode opcode = instruction.opcode();
  const size_t arity = operands.size();
  const auto same_count = [&](const LiteralValue& x) {
    return x.element_count() == result.element_count();
  };
  if (opcode == Opcode::kConvert && arity == 1 && same_count(operands[0])) {
    return EvaluateConvert(operands[0], std::move(result));
  }
  if (opcode == Opcode::kReshape && arity == 1) return EvaluateReshape(operands[0], result);
  if (opcode == Opcode::kBroadcast && arity == 1) {
    std::optional<std::vector<int64_t>> dims = instruction.dimensions();
    if (!dims) return std::nullopt;
    return Gather(operands[0], *dims, std::move(result));
  }
  if (opcode == Opcode::kTranspose && arity == 1) {
    return EvaluateTranspose(instruction, operands[0], std::move(result));
  }
  if (opcode == Opcode::kSelect && arity == 3 && same_count(operands[1]) &&
      same_count(operands[2]) && (operands[0].element_count() == 1 || same_count(operands[0]))) {
    return EvaluateSelect(operands[0], operands[1], operands[2], std::move(result));
  }
  if (ir::IsElementwiseUnary(opcode) && arity == 1 && same_count(operands[0]) &&
      operands[0].type() == shape.element_type()) {
    return EvaluateUnary(instruction, operands[0], std::move(result));
  }
  if (arity == 2 && same_count(operands[0]) && same_count(operands[1]) &&
      operands[0].type() == operands[1].type()) {
    if (opcode == Opcode::kCompare) {
      return EvaluateCompare(instruction, operands[0], operands[1], std::move(result));
    }
    if (ir::IsElementwiseBinary(opcode) && operands[0].type() == shape.element_type()) {
      return EvaluateBinary(instruction, operands[0], operands[1], std::move(result));
    }
  }
  return std::nullopt;
}

}  // namespace fusescope::passes
