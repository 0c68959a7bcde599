#include "runtime/literal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ir/narrow_float.h"

namespace fusescope::runtime {
namespace {

using ir::PrimitiveType;

// Float to integer as XLA converts: NaN becomes 0, out-of-range values saturate.
int64_t SaturatingToInt(double value, PrimitiveType type) {
  if (type == PrimitiveType::kPred) return value != 0 ? 1 : 0;
  if (std::isnan(value)) return 0;
  const int bits = ir::PrimitiveTypeBitWidth(type);
  if (type == PrimitiveType::kU64) {
    if (value <= 0) return 0;
    if (value >= 18446744073709551615.0) return -1;
    return static_cast<int64_t>(static_cast<uint64_t>(value));
  }
  const bool is_signed = ir::IsSignedIntegralType(type);
  const double low = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double high = is_signed ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  if (value <= low) return static_cast<int64_t>(low);
  if (value >= high) {
    return bits == 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(high);
  }
  return static_cast<int64_t>(std::trunc(value));
}

int64_t Wrap(int64_t value, PrimitiveType type) {
  if (type == PrimitiveType::kPred) return value != 0 ? 1 : 0;
  const int bits = ir::PrimitiveTypeBitWidth(type);
  if (bits >= 64) return value;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (ir::IsSignedIntegralType(type) && (low >> (bits - 1)) != 0) low |= ~mask;
  return static_cast<int64_t>(low);
}

}  // namespace

bool IsSupportedElementType(PrimitiveType type) { return ElementByteSize(type) > 0; }

int ElementByteSize(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
    case PrimitiveType::kS8:
    case PrimitiveType::kU8:
      return 1;
    case PrimitiveType::kS16:
    case PrimitiveType::kU16:
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16:
      return 2;
    case PrimitiveType::kS32:
    case PrimitiveType::kU32:
    case PrimitiveType::kF32:
      return 4;
    case PrimitiveType::kS64:
    case PrimitiveType::kU64:
    case PrimitiveType::kF64:
      return 8;
    default:
      return 0;
  }
}

StatusOr<Literal> Literal::Create(const ir::Shape& shape) {
  Literal literal;
  literal.shape_ = shape;
  if (shape.IsTuple()) {
    for (const ir::Shape& element : shape.tuple_shapes()) {
      StatusOr<Literal> leaf = Create(element);
      if (!leaf.ok()) return leaf.status();
      literal.elements_.push_back(std::move(leaf).value());
    }
    return literal;
  }
  if (shape.IsToken()) return literal;
  const int element_bytes = ElementByteSize(shape.element_type());
  if (element_bytes == 0) {
    return Status::Error("element type " +
                         std::string(ir::PrimitiveTypeName(shape.element_type())) +
                         " is not supported by the interpreter");
  }
  int64_t count = 1;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    const int64_t dim = shape.dimension(i);
    if (dim < 0 || shape.is_dynamic_dimension(i)) {
      return Status::Error("shape " + shape.ToString(false) + " has a dynamic dimension");
    }
    if (__builtin_mul_overflow(count, dim, &count)) {
      return Status::Error("shape " + shape.ToString(false) + " has too many elements");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, int64_t{element_bytes}, &bytes)) {
    return Status::Error("shape " + shape.ToString(false) + " has too many bytes");
  }
  literal.element_count_ = count;
  literal.bytes_.assign(static_cast<size_t>(bytes), 0);
  return literal;
}

StatusOr<Literal> Literal::CreateInto(const ir::Shape& shape, std::vector<uint8_t> storage) {
  if (shape.IsTuple() || shape.IsToken() || storage.empty()) return Create(shape);
  const int element_bytes = ElementByteSize(shape.element_type());
  int64_t count = 1;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    const int64_t dim = shape.dimension(i);
    if (dim < 0 || shape.is_dynamic_dimension(i) || __builtin_mul_overflow(count, dim, &count))
      return Create(shape);
  }
  int64_t bytes = 0;
  if (element_bytes <= 0 || __builtin_mul_overflow(count, int64_t{element_bytes}, &bytes) ||
      static_cast<size_t>(bytes) != storage.size() || !IsSupportedElementType(shape.element_type()))
    return Create(shape);
  Literal literal;
  literal.shape_ = shape;
  literal.element_count_ = count;
  literal.bytes_ = std::move(storage);
  return literal;
}

StatusOr<Literal> Literal::Shared(const ir::Shape& shape, ir::ConstantBytesPtr bytes) {
  if (!shape.IsArray() || bytes == nullptr)
    return Status::Error("shared bytes need an array shape, not " + shape.ToString(false));
  const int64_t element_bytes = ElementByteSize(shape.element_type());
  if (element_bytes == 0) {
    return Status::Error("element type " +
                         std::string(ir::PrimitiveTypeName(shape.element_type())) +
                         " is not supported by the interpreter");
  }
  int64_t count = 1;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.dimension(i) < 0 || __builtin_mul_overflow(count, shape.dimension(i), &count))
      return Status::Error("shape " + shape.ToString(false) + " has too many elements");
  }
  if (count * element_bytes != bytes->size()) {
    return Status::Error("the constant holds " + std::to_string(bytes->size()) + " bytes, " +
                         shape.ToString(false) + " needs " + std::to_string(count * element_bytes));
  }
  Literal literal;
  literal.shape_ = shape;
  literal.element_count_ = count;
  literal.shared_ = std::move(bytes);
  return literal;
}

void Literal::Unshare() {
  bytes_ = shared_->bytes();
  shared_.reset();
}

std::vector<uint8_t> Literal::TakeStorage() {
  if (shared_) Unshare();
  std::vector<uint8_t> storage = std::move(bytes_);
  *this = Literal();
  return storage;
}

Literal Literal::Tuple(std::vector<Literal> elements) {
  Literal literal;
  std::vector<ir::Shape> shapes;
  for (const Literal& element : elements) shapes.push_back(element.shape());
  literal.shape_ = ir::Shape::Tuple(std::move(shapes));
  literal.elements_ = std::move(elements);
  return literal;
}

Literal Literal::ScalarDouble(PrimitiveType type, double value) {
  Literal literal = Create(ir::Shape(type, {})).value();
  literal.SetDouble(0, value);
  return literal;
}

Literal Literal::ScalarInt(PrimitiveType type, int64_t value) {
  Literal literal = Create(ir::Shape(type, {})).value();
  literal.SetInt(0, value);
  return literal;
}

int64_t Literal::TotalByteSize() const {
  int64_t total = static_cast<int64_t>(byte_size());
  for (const Literal& element : elements_) total += element.TotalByteSize();
  return total;
}

double Literal::GetDouble(int64_t index) const {
  switch (type()) {
    case PrimitiveType::kF32:
      return Raw<float>(index);
    case PrimitiveType::kF64:
      return Raw<double>(index);
    case PrimitiveType::kF16:
      return ir::HalfBitsToDouble(Raw<uint16_t>(index));
    case PrimitiveType::kBF16:
      return ir::Bfloat16BitsToDouble(Raw<uint16_t>(index));
    case PrimitiveType::kU64:
      return static_cast<double>(Raw<uint64_t>(index));
    default:
      return static_cast<double>(GetInt(index));
  }
}

void Literal::SetDouble(int64_t index, double value) {
  switch (type()) {
    case PrimitiveType::kF32:
      SetRaw<float>(index, static_cast<float>(value));
      return;
    case PrimitiveType::kF64:
      SetRaw<double>(index, value);
      return;
    case PrimitiveType::kF16:
      SetRaw<uint16_t>(index, ir::DoubleToHalfBits(value));
      return;
    case PrimitiveType::kBF16:
      SetRaw<uint16_t>(index, ir::DoubleToBfloat16Bits(value));
      return;
    default:
      SetInt(index, SaturatingToInt(value, type()));
      return;
  }
}

int64_t Literal::GetInt(int64_t index) const {
  switch (type()) {
    case PrimitiveType::kPred:
      return Raw<uint8_t>(index) != 0 ? 1 : 0;
    case PrimitiveType::kS8:
      return Raw<int8_t>(index);
    case PrimitiveType::kU8:
      return Raw<uint8_t>(index);
    case PrimitiveType::kS16:
      return Raw<int16_t>(index);
    case PrimitiveType::kU16:
      return Raw<uint16_t>(index);
    case PrimitiveType::kS32:
      return Raw<int32_t>(index);
    case PrimitiveType::kU32:
      return Raw<uint32_t>(index);
    case PrimitiveType::kS64:
    case PrimitiveType::kU64:
      return Raw<int64_t>(index);
    default:
      return static_cast<int64_t>(std::trunc(GetDouble(index)));
  }
}

void Literal::SetInt(int64_t index, int64_t value) {
  const PrimitiveType t = type();
  if (ir::IsFloatingPointType(t)) {
    SetDouble(index, static_cast<double>(value));
    return;
  }
  const int64_t wrapped = Wrap(value, t);
  switch (ElementByteSize(t)) {
    case 1:
      SetRaw<uint8_t>(index, static_cast<uint8_t>(wrapped));
      return;
    case 2:
      SetRaw<uint16_t>(index, static_cast<uint16_t>(wrapped));
      return;
    case 4:
      SetRaw<uint32_t>(index, static_cast<uint32_t>(wrapped));
      return;
    default:
      SetRaw<int64_t>(index, wrapped);
      return;
  }
}

bool Literal::BitwiseEqual(const Literal& other) const {
  if (!shape_.Compatible(other.shape_) || elements_.size() != other.elements_.size()) return false;
  if (byte_size() != other.byte_size() ||
      (byte_size() > 0 && std::memcmp(data(), other.data(), byte_size()) != 0))
    return false;
  for (size_t i = 0; i < elements_.size(); ++i) {
    if (!elements_[i].BitwiseEqual(other.elements_[i])) return false;
  }
  return true;
}

std::string Literal::ToString(int64_t max_elements) const {
  if (is_tuple()) {
    std::string out = "(";
    for (size_t i = 0; i < elements_.size(); ++i) {
      out += (i ? ", " : "") + elements_[i].ToString(max_elements);
    }
    return out + ")";
  }
  std::string out = shape_.ToString(false) + " {";
  for (int64_t i = 0; i < element_count_ && i < max_elements; ++i) {
    if (i) out += ", ";
    if (is_floating()) {
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", GetDouble(i));
      out += text;
    } else if (type() == PrimitiveType::kU64) {
      out += std::to_string(static_cast<uint64_t>(GetInt(i)));
    } else {
      out += std::to_string(GetInt(i));
    }
  }
  if (element_count_ > max_elements) out += ", ...";
  return out + "}";
}

namespace {

void CompareInto(const Literal& actual, const Literal& expected, double rtol, double atol,
                 LiteralDifference& difference) {
  if (actual.is_tuple() != expected.is_tuple() ||
      actual.elements().size() != expected.elements().size()) {
    difference.same_shape = false;
    return;
  }
  if (actual.is_tuple()) {
    for (size_t i = 0; i < actual.elements().size(); ++i) {
      CompareInto(actual.elements()[i], expected.elements()[i], rtol, atol, difference);
    }
    return;
  }
  if (!actual.shape().Compatible(expected.shape())) {
    difference.same_shape = false;
    return;
  }
  const bool integral = !actual.is_floating();
  for (int64_t i = 0; i < actual.element_count(); ++i) {
    double error = 0;
    double magnitude = 0;
    if (integral) {
      const int64_t a = actual.GetInt(i);
      const int64_t e = expected.GetInt(i);
      if (a == e) continue;
      error = std::fabs(actual.GetDouble(i) - expected.GetDouble(i));
      magnitude = std::fabs(expected.GetDouble(i));
      ++difference.mismatches;  // integers must match exactly
    } else {
      const double a = actual.GetDouble(i);
      const double e = expected.GetDouble(i);
      if (std::isnan(a) && std::isnan(e)) continue;
      if (a == e) continue;  // equal infinities too
      error = std::fabs(a - e);
      if (std::isnan(error)) error = std::numeric_limits<double>::infinity();
      magnitude = std::fabs(e);
      if (!(error <= atol + rtol * magnitude)) ++difference.mismatches;
    }
    difference.max_abs_error = std::max(difference.max_abs_error, error);
    if (magnitude > 0)
      difference.max_rel_error = std::max(difference.max_rel_error, error / magnitude);
  }
}

}  // namespace

LiteralDifference CompareLiterals(const Literal& actual, const Literal& expected, double rtol,
                                  double atol) {
  LiteralDifference difference;
  CompareInto(actual, expected, rtol, atol, difference);
  return difference;
}

}  // namespace fusescope::runtime
