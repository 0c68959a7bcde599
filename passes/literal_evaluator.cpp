#include "passes/literal_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fusescope::passes {
namespace {

using ir::Opcode;
using ir::PrimitiveType;

bool IsUnsigned(PrimitiveType type) {
  return ir::IsIntegralType(type) && !ir::IsSignedIntegralType(type);
}

// Math functions computed at the element type's precision, as a compiled kernel would.
std::optional<double> FloatUnary(Opcode opcode, double x, bool single) {
  const auto at = [single](double value, float (*f)(float), double (*d)(double)) {
    return single ? static_cast<double>(f(static_cast<float>(value))) : d(value);
  };
  switch (opcode) {
    case Opcode::kNegate:
      return -x;
    case Opcode::kAbs:
      return std::fabs(x);
    case Opcode::kSign:
      return std::isnan(x) ? x : (x > 0 ? 1.0 : (x < 0 ? -1.0 : x));
    case Opcode::kFloor:
      return std::floor(x);
    case Opcode::kCeil:
      return std::ceil(x);
    case Opcode::kRoundNearestEven:
      return std::nearbyint(x);
    case Opcode::kSqrt:
      return std::sqrt(x);  // correctly rounded, so double then round is exact
    case Opcode::kExp:
      return at(x, std::exp, std::exp);
    case Opcode::kLog:
      return at(x, std::log, std::log);
    case Opcode::kTanh:
      return at(x, std::tanh, std::tanh);
    case Opcode::kSin:
      return at(x, std::sin, std::sin);
    case Opcode::kCos:
      return at(x, std::cos, std::cos);
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> IntUnary(Opcode opcode, int64_t x, PrimitiveType type) {
  const auto ux = static_cast<uint64_t>(x);
  switch (opcode) {
    case Opcode::kNegate:
      return static_cast<int64_t>(0 - ux);
    case Opcode::kAbs:
      return IsUnsigned(type) || x >= 0 ? x : static_cast<int64_t>(0 - ux);
    case Opcode::kSign:
      return x > 0 ? 1 : (x < 0 && !IsUnsigned(type) ? -1 : (x != 0 ? 1 : 0));
    case Opcode::kNot:
      return type == PrimitiveType::kPred ? (x == 0 ? 1 : 0) : static_cast<int64_t>(~ux);
    default:
      return std::nullopt;
  }
}

double MaxOrMin(bool max, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return max ? std::fmax(a, b) : std::fmin(a, b);
}

std::optional<double> FloatBinary(Opcode opcode, double a, double b, bool single) {
  switch (opcode) {
    case Opcode::kAdd:
      return a + b;
    case Opcode::kSubtract:
      return a - b;
    case Opcode::kMultiply:
      return a * b;
    case Opcode::kDivide:
      return a / b;
    case Opcode::kRemainder:
      return std::fmod(a, b);
    case Opcode::kMaximum:
      return MaxOrMin(true, a, b);
    case Opcode::kMinimum:
      return MaxOrMin(false, a, b);
    case Opcode::kPower:
      return single ? static_cast<double>(std::pow(static_cast<float>(a), static_cast<float>(b)))
                    : std::pow(a, b);
    default:
      return std::nullopt;
  }
}

// XLA's integer division: x / 0 is all ones, x % 0 is x, MIN / -1 wraps to MIN with
// remainder 0.
std::optional<int64_t> DivideOrRemainder(bool divide, int64_t a, int64_t b, PrimitiveType type) {
  if (b == 0) return divide ? -1 : a;
  if (IsUnsigned(type)) {
    const auto ua = static_cast<uint64_t>(a);
    const auto ub = static_cast<uint64_t>(b);
    return static_cast<int64_t>(divide ? ua / ub : ua % ub);
  }
  if (a == std::numeric_limits<int64_t>::min() && b == -1) return divide ? a : 0;
  return divide ? a / b : a % b;
}

std::optional<int64_t> IntBinary(Opcode opcode, int64_t a, int64_t b, PrimitiveType type) {
  const auto ua = static_cast<uint64_t>(a);
  const auto ub = static_cast<uint64_t>(b);
  const bool is_unsigned = IsUnsigned(type);
  switch (opcode) {
    case Opcode::kAdd:
      return static_cast<int64_t>(ua + ub);
    case Opcode::kSubtract:
      return static_cast<int64_t>(ua - ub);
    case Opcode::kMultiply:
      return static_cast<int64_t>(ua * ub);
    case Opcode::kDivide:
      return DivideOrRemainder(true, a, b, type);
    case Opcode::kRemainder:
      return DivideOrRemainder(false, a, b, type);
    case Opcode::kMaximum:
      return is_unsigned ? static_cast<int64_t>(std::max(ua, ub)) : std::max(a, b);
    case Opcode::kMinimum:
      return is_unsigned ? static_cast<int64_t>(std::min(ua, ub)) : std::min(a, b);
    case Opcode::kAnd:
      return static_cast<int64_t>(ua & ub);
    case Opcode::kOr:
      return static_cast<int64_t>(ua | ub);
    case Opcode::kXor:
      return static_cast<int64_t>(ua ^ ub);
    default:
      return std::nullopt;
  }
}

template <typename T>
bool CompareValues(std::string_view direction, T a, T b) {
  if (direction == "EQ") return a == b;
  if (direction == "NE") return a != b;
  if (direction == "LT") return a < b;
  if (direction == "LE") return a <= b;
  if (direction == "GT") return a > b;
  return a >= b;
}

bool KnownDirection(std::string_view direction) {
  return direction == "EQ" || direction == "NE" || direction == "LT" || direction == "LE" ||
         direction == "GT" || direction == "GE";
}

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
