#include "passes/literal_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "ir/narrow_float.h"

namespace fusescope::passes {
namespace {

bool IsSeparator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '{' || c == '}';
}

// Splits literal text into element tokens, dropping braces, commas and `/*...*/` comments.
// Returns false on text that is no plain element list (elided, complex pairs).
bool Tokenize(std::string_view text, std::vector<std::string_view>& tokens) {
  size_t i = 0;
  while (i < text.size()) {
    if (IsSeparator(text[i])) {
      ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
    } else {
      const size_t start = i;
      while (i < text.size() && !IsSeparator(text[i])) ++i;
      std::string_view token = text.substr(start, i - start);
      if (token == "..." || token.front() == '(') return false;
      tokens.push_back(token);
    }
  }
  return true;
}

std::optional<int64_t> ParseIntToken(std::string_view token, ir::PrimitiveType type) {
  if (type == ir::PrimitiveType::kPred) {
    if (token == "true" || token == "1") return 1;
    if (token == "false" || token == "0") return 0;
    return std::nullopt;
  }
  const char* end = token.data() + token.size();
  if (ir::IsSignedIntegralType(type)) {
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), end, value);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return value;
  }
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return static_cast<int64_t>(value);
}

std::optional<double> ParseFloatToken(std::string_view token) {
  // strtod reads nan, -nan, inf, nan(0x...) and exponents the way XLA writes them.
  const std::string copy(token);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

bool IsUnsigned64(ir::PrimitiveType type) { return type == ir::PrimitiveType::kU64; }

// Float to integer as XLA converts: NaN becomes 0, out-of-range values saturate.
int64_t SaturatingFloatToInt(double value, ir::PrimitiveType type) {
  if (type == ir::PrimitiveType::kPred) return value != 0 ? 1 : 0;  // nan is true, as in C
  if (std::isnan(value)) return 0;
  const int bits = ir::PrimitiveTypeBitWidth(type);
  if (IsUnsigned64(type)) {
    if (value <= 0) return 0;
    if (value >= 18446744073709551615.0) return -1;  // all ones
    return static_cast<int64_t>(static_cast<uint64_t>(value));
  }
  double low = 0;
  double high = 0;
  if (ir::IsSignedIntegralType(type)) {
    low = -std::ldexp(1.0, bits - 1);
    high = std::ldexp(1.0, bits - 1) - 1;
  } else {
    high = std::ldexp(1.0, bits) - 1;
  }
  if (value <= low) return static_cast<int64_t>(low);
  if (value >= high) {
    return bits == 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(high);
  }
  return static_cast<int64_t>(std::trunc(value));
}

}  // namespace

int64_t WrapToType(int64_t value, ir::PrimitiveType type) {
  if (type == ir::PrimitiveType::kPred) return value != 0 ? 1 : 0;
  const int bits = ir::PrimitiveTypeBitWidth(type);
  if (bits <= 0 || bits >= 64) return value;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (ir::IsSignedIntegralType(type) && (low >> (bits - 1)) != 0) low |= ~mask;
  return static_cast<int64_t>(low);
}

LiteralValue::LiteralValue(ir::PrimitiveType type, std::vector<int64_t> dims)
    : type_(type), dims_(std::move(dims)), count_(1) {
  for (int64_t dim : dims_) count_ *= static_cast<size_t>(dim);
  if (is_floating()) {
    floats_.assign(count_, 0.0);
  } else {
    ints_.assign(count_, 0);
  }
}

bool LiteralValue::is_floating() const { return ir::IsFloatingPointType(type_); }

bool LiteralValue::IsComputableType(ir::PrimitiveType type) {
  using ir::PrimitiveType;
  return type == PrimitiveType::kPred || ir::IsIntegralType(type) || type == PrimitiveType::kF32 ||
         type == PrimitiveType::kF64;
}

std::optional<LiteralValue> LiteralValue::Parse(std::string_view text, const ir::Shape& shape) {
  const ir::PrimitiveType type = shape.element_type();
  if (!shape.IsArray() || ir::IsComplexType(type)) return std::nullopt;
  if (!ir::IsFloatingPointType(type) && !ir::IsIntegralType(type) &&
      type != ir::PrimitiveType::kPred) {
    return std::nullopt;
  }
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.is_dynamic_dimension(i)) return std::nullopt;
  }
  std::vector<std::string_view> tokens;
  if (!Tokenize(text, tokens)) return std::nullopt;
  LiteralValue literal(type, shape.dimensions());
  if (tokens.size() != literal.count_) return std::nullopt;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (literal.is_floating()) {
      std::optional<double> value = ParseFloatToken(tokens[i]);
      if (!value) return std::nullopt;
      literal.floats_[i] = *value;
    } else {
      std::optional<int64_t> value = ParseIntToken(tokens[i], type);
      if (!value) return std::nullopt;
      literal.ints_[i] = WrapToType(*value, type);
    }
  }
  return literal;
}

std::optional<LiteralValue> LiteralValue::FromBytes(const uint8_t* data, int64_t size,
                                                    const ir::Shape& shape) {
  using ir::PrimitiveType;
  const PrimitiveType type = shape.element_type();
  if (!shape.IsArray()) return std::nullopt;
  const int bits = ir::PrimitiveTypeBitWidth(type);
  if (ir::IsComplexType(type) || bits % 8 != 0 ||
      !(ir::IsFloatingPointType(type) || ir::IsIntegralType(type) || type == PrimitiveType::kPred))
    return std::nullopt;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.dimension(i) < 0 || shape.is_dynamic_dimension(i)) return std::nullopt;
  }
  const int64_t width = type == PrimitiveType::kPred ? 1 : bits / 8;
  LiteralValue literal(type, shape.dimensions());
  if (static_cast<int64_t>(literal.count_) * width != size) return std::nullopt;
  auto read = [&](size_t i, auto sample) {
    std::memcpy(&sample, data + i * sizeof(sample), sizeof(sample));
    return sample;
  };
  for (size_t i = 0; i < literal.count_; ++i) {
    switch (type) {
      case PrimitiveType::kF64:
        literal.floats_[i] = read(i, double{});
        break;
      case PrimitiveType::kF32:
        literal.floats_[i] = read(i, float{});
        break;
      case PrimitiveType::kF16:
        literal.floats_[i] = ir::HalfBitsToDouble(read(i, uint16_t{}));
        break;
      case PrimitiveType::kBF16:
        literal.floats_[i] = ir::Bfloat16BitsToDouble(read(i, uint16_t{}));
        break;
      case PrimitiveType::kPred:
        literal.ints_[i] = read(i, uint8_t{}) != 0 ? 1 : 0;
        break;
      default: {
        if (!literal.is_floating()) {
          uint64_t raw = 0;
          std::memcpy(&raw, data + i * static_cast<size_t>(width), static_cast<size_t>(width));
          literal.ints_[i] = WrapToType(static_cast<int64_t>(raw), type);
          break;
        }
        return std::nullopt;  // a float type with no decoding here
      }
    }
  }
  return literal;
}

std::optional<LiteralValue> LiteralValue::Of(const ir::Instruction& constant) {
  if (const ir::ConstantBytesPtr& bytes = constant.constant_bytes())
    return FromBytes(bytes->data(), bytes->size(), constant.shape());
  return Parse(constant.literal(), constant.shape());
}

double LiteralValue::GetDouble(int64_t index) const {
  const auto i = static_cast<size_t>(index);
  if (is_floating()) return floats_[i];
  if (IsUnsigned64(type_)) return static_cast<double>(static_cast<uint64_t>(ints_[i]));
  return static_cast<double>(ints_[i]);
}

int64_t LiteralValue::GetInt(int64_t index) const {
  const auto i = static_cast<size_t>(index);
  return is_floating() ? SaturatingFloatToInt(floats_[i], ir::PrimitiveType::kS64) : ints_[i];
}

void LiteralValue::SetDouble(int64_t index, double value) {
  const auto i = static_cast<size_t>(index);
  if (!is_floating()) {
    ints_[i] = SaturatingFloatToInt(value, type_);
  } else if (type_ == ir::PrimitiveType::kF32) {
    floats_[i] = static_cast<float>(value);
  } else {
    floats_[i] = value;
  }
}

void LiteralValue::SetInt(int64_t index, int64_t value) {
  const auto i = static_cast<size_t>(index);
  if (is_floating()) {
    SetDouble(index, static_cast<double>(value));
  } else {
    ints_[i] = WrapToType(value, type_);
  }
}

bool LiteralValue::AllEqual(double value) const {
  for (size_t i = 0; i < count_; ++i) {
    if (GetDouble(static_cast<int64_t>(i)) != value) return false;
  }
  return true;
}

std::string LiteralValue::ElementText(size_t index) const {
  if (type_ == ir::PrimitiveType::kPred) return ints_[index] ? "true" : "false";
  if (!is_floating()) {
    if (IsUnsigned64(type_)) return std::to_string(static_cast<uint64_t>(ints_[index]));
    return std::to_string(ints_[index]);
  }
  const double value = floats_[index];
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  auto result = type_ == ir::PrimitiveType::kF32
                    ? std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(value))
                    : std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

void LiteralValue::AppendNested(std::string& out, size_t dim, size_t& next) const {
  const bool innermost = dim + 1 == dims_.size();
  // XLA pads nested braces with spaces but writes a rank-1 list tightly.
  const bool spaced = dims_.size() > 1;
  out += spaced ? "{ " : "{";
  for (int64_t i = 0; i < dims_[dim]; ++i) {
    if (i > 0) out += ", ";
    if (innermost) {
      out += ElementText(next++);
    } else {
      AppendNested(out, dim + 1, next);
    }
  }
  out += spaced ? " }" : "}";
}

std::string LiteralValue::ToText() const {
  if (dims_.empty()) return ElementText(0);
  std::string out;
  size_t next = 0;
  AppendNested(out, 0, next);
  return out;
}

StatusOr<int64_t> SpellOutConstants(ir::Module& module) {
  int64_t spelled = 0;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() != ir::Opcode::kConstant || !instruction->constant_bytes() ||
          instruction->literal().find("...") == std::string::npos)
        continue;
      std::optional<LiteralValue> value = LiteralValue::Of(*instruction);
      if (!value) {
        return Status::Error(instruction->name() + ": its " +
                             std::to_string(instruction->constant_bytes()->size()) +
                             " bytes are not a " + instruction->shape().ToString(false));
      }
      instruction->set_literal(value->ToText());
      ++spelled;
    }
  }
  return spelled;
}

}  // namespace fusescope::passes
