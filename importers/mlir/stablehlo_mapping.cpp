#include "importers/mlir/stablehlo_mapping.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <unordered_map>

#include "importers/mlir/chlo_expansion.h"
#include "importers/mlir/mlir_text_scan.h"

namespace fusescope::ir::mlir_import {
namespace {

// Operations whose HLO counterpart takes the same operands and no attributes.
const std::unordered_map<std::string_view, Opcode>& PlainOperations() {
  static const auto* table = new std::unordered_map<std::string_view, Opcode>{
      {"abs", Opcode::kAbs},
      {"add", Opcode::kAdd},
      {"and", Opcode::kAnd},
      {"atan2", Opcode::kAtan2},
      {"cbrt", Opcode::kCbrt},
      {"ceil", Opcode::kCeil},
      {"clamp", Opcode::kClamp},
      {"count_leading_zeros", Opcode::kClz},
      {"cosine", Opcode::kCos},
      {"divide", Opcode::kDivide},
      {"exponential", Opcode::kExp},
      {"exponential_minus_one", Opcode::kExpm1},
      {"floor", Opcode::kFloor},
      {"is_finite", Opcode::kIsFinite},
      {"log", Opcode::kLog},
      {"log_plus_one", Opcode::kLog1p},
      {"logistic", Opcode::kLogistic},
      {"maximum", Opcode::kMaximum},
      {"minimum", Opcode::kMinimum},
      {"multiply", Opcode::kMultiply},
      {"negate", Opcode::kNegate},
      {"not", Opcode::kNot},
      {"or", Opcode::kOr},
      {"popcnt", Opcode::kPopulationCount},
      {"power", Opcode::kPower},
      {"remainder", Opcode::kRemainder},
      {"round_nearest_afz", Opcode::kRoundNearestAfz},
      {"round_nearest_even", Opcode::kRoundNearestEven},
      {"rsqrt", Opcode::kRsqrt},
      {"select", Opcode::kSelect},
      {"shift_left", Opcode::kShiftLeft},
      {"shift_right_arithmetic", Opcode::kShiftRightArithmetic},
      {"shift_right_logical", Opcode::kShiftRightLogical},
      {"sign", Opcode::kSign},
      {"sine", Opcode::kSin},
      {"sqrt", Opcode::kSqrt},
      {"subtract", Opcode::kSubtract},
      {"tan", Opcode::kTan},
      {"tanh", Opcode::kTanh},
      {"xor", Opcode::kXor},
      {"convert", Opcode::kConvert},
      {"reshape", Opcode::kReshape},
      {"bitcast_convert", Opcode::kBitcastConvert},
      {"real", Opcode::kReal},
      {"imag", Opcode::kImag},
      {"complex", Opcode::kComplex},
      {"tuple", Opcode::kTuple},
  };
  return *table;
}

// Integers of `[1, 2]` or `array<i64: 1, 2>` (empty lists allowed); nullopt when malformed.
std::optional<std::vector<int64_t>> IntList(std::string_view text) {
  text = TrimText(text);
  // MHLO writes `dense<[0, 1]> : tensor<2xi64>` where StableHLO writes `array<i64: 0, 1>`.
  if (text.substr(0, 6) == "dense<" && text.back() == '>') {
    text = TrimText(text.substr(6, text.size() - 7));
    if (text.empty() || text.front() != '[') return IntList("[" + std::string(text) + "]");
  }
  if (text.substr(0, 10) == "array<i64:") {
    text = text.substr(10, text.size() - 11);
  } else if (text.substr(0, 9) == "array<i64") {
    text = {};
  } else if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  } else {
    return std::nullopt;
  }
  std::vector<int64_t> values;
  for (std::string_view part : SplitTopLevel(text)) {
    int64_t value = 0;
    auto parsed = std::from_chars(part.data(), part.data() + part.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != part.data() + part.size()) return std::nullopt;
    values.push_back(value);
  }
  return values;
}

// The text after `key = ` up to the next top-level comma or closing bracket.
std::optional<std::string_view> ValueOf(std::string_view text, std::string_view key) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string_view::npos) {
    const bool starts = at == 0 || !IsValueNameChar(text[at - 1]);
    size_t after = at + key.size();
    while (after < text.size() && text[after] == ' ') ++after;
    if (starts && after < text.size() && text[after] == '=') {
      std::string_view rest = TrimText(text.substr(after + 1));
      int depth = 0;
      for (size_t i = 0; i < rest.size(); ++i) {
        const char c = rest[i];
        if (c == '"') {
          i = SkipStringLiteral(rest, i) - 1;
          continue;
        }
        if (c == '[' || c == '(' || c == '{' || (c == '<')) ++depth;
        if (c == ']' || c == ')' || c == '}' || (c == '>' && (i == 0 || rest[i - 1] != '-'))) {
          if (depth == 0) return TrimText(rest.substr(0, i));
          --depth;
        }
        if (depth == 0 && (c == ',' || (c == ' ' && rest.substr(i, 3) == " : "))) {
          return TrimText(rest.substr(0, i));
        }
      }
      return rest;
    }
    at += key.size();
  }
  return std::nullopt;
}

std::string Braced(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

std::optional<std::vector<int64_t>> IntListOf(std::string_view text, std::string_view key) {
  auto value = ValueOf(text, key);
  if (!value) return std::nullopt;
  return IntList(*value);
}

// `[0] x [1]` of the pretty dot_general.
bool PairOfLists(std::string_view text, std::string_view key, std::vector<int64_t>& lhs,
                 std::vector<int64_t>& rhs) {
  const size_t at = text.find(key);
  if (at == std::string_view::npos) return false;
  std::string_view rest = text.substr(at + key.size());
  const size_t open = rest.find('[');
  const size_t cross = rest.find("] x [");
  if (open == std::string_view::npos || cross == std::string_view::npos) return false;
  const size_t close = rest.find(']', cross + 4);
  auto left = IntList(rest.substr(open, cross + 1 - open));
  auto right = IntList(rest.substr(cross + 4, close - cross - 3));
  if (!left || !right) return false;
  lhs = *left;
  rhs = *right;
  return true;
}

std::optional<HloMapping> MapDot(std::string_view text) {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contracting, rhs_contracting;
  if (text.find("contracting_dims = ") != std::string_view::npos) {
    if (!PairOfLists(text, "contracting_dims = ", lhs_contracting, rhs_contracting))
      return std::nullopt;
    PairOfLists(text, "batching_dims = ", lhs_batch, rhs_batch);
  } else {
    auto read = [&](std::string_view key, std::vector<int64_t>& out) {
      if (auto list = IntListOf(text, key)) out = *list;
    };
    read("lhs_batching_dimensions", lhs_batch);
    read("rhs_batching_dimensions", rhs_batch);
    read("lhs_contracting_dimensions", lhs_contracting);
    read("rhs_contracting_dimensions", rhs_contracting);
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kDot;
  if (!lhs_batch.empty()) {
    mapping.attributes.emplace_back("lhs_batch_dims", Braced(lhs_batch));
    mapping.attributes.emplace_back("rhs_batch_dims", Braced(rhs_batch));
  }
  mapping.attributes.emplace_back("lhs_contracting_dims", Braced(lhs_contracting));
  mapping.attributes.emplace_back("rhs_contracting_dims", Braced(rhs_contracting));
  return mapping;
}

std::optional<HloMapping> WithDimensions(Opcode opcode, std::string_view text,
                                         std::initializer_list<std::string_view> keys,
                                         std::string_view attribute = "dimensions") {
  for (std::string_view key : keys) {
    if (auto list = IntListOf(text, key)) {
      HloMapping mapping;
      mapping.opcode = opcode;
      mapping.attributes.emplace_back(std::string(attribute), Braced(*list));
      return mapping;
    }
  }
  return std::nullopt;
}

// One element of a dense literal as HLO writes it.
std::optional<std::string> Element(std::string_view text, PrimitiveType type) {
  text = TrimText(text);
  if (type == PrimitiveType::kPred) {
    if (text == "true" || text == "1") return "true";
    if (text == "false" || text == "0") return "false";
    return std::nullopt;
  }
  if (IsFloatingPointType(type)) {
    double value = 0;
    if (text.substr(0, 2) == "0x") {
      uint64_t bits = 0;
      auto parsed = std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
      if (parsed.ec != std::errc()) return std::nullopt;
      if (type == PrimitiveType::kF32) {
        float f;
        const uint32_t narrow = static_cast<uint32_t>(bits);
        std::memcpy(&f, &narrow, sizeof f);
        value = f;
      } else if (type == PrimitiveType::kF64) {
        std::memcpy(&value, &bits, sizeof value);
      } else {
        return std::nullopt;
      }
    } else {
      char* end = nullptr;
      const std::string copy(text);
      value = std::strtod(copy.c_str(), &end);
      if (end == copy.c_str() || *end != '\0') return std::nullopt;
    }
    if (std::isnan(value)) return std::string("nan");
    if (std::isinf(value)) return std::string(value < 0 ? "-inf" : "inf");
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, type == PrimitiveType::kF64 ? "%.17g" : "%.9g", value);
    return std::string(buffer);
  }
  int64_t value = 0;
  auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) {
    if (text == "true") return std::string("1");
    if (text == "false") return std::string("0");
    return std::nullopt;
  }
  return std::to_string(value);
}

void FlattenDense(std::string_view text, std::vector<std::string_view>& out) {
  text = TrimText(text);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    for (std::string_view part : SplitTopLevel(text.substr(1, text.size() - 2)))
      FlattenDense(part, out);
    return;
  }
  out.push_back(text);
}

void AppendNested(const std::vector<std::string>& elements, const std::vector<int64_t>& dims,
                  size_t dim, size_t& next, std::string& out) {
  if (dim == dims.size()) {
    out += elements[next++];
    return;
  }
  out += "{";
  for (int64_t i = 0; i < dims[dim]; ++i) {
    if (i > 0) out += ", ";
    AppendNested(elements, dims, dim + 1, next, out);
  }
  out += "}";
}

// `dense<1.0>`, `dense<[[1, 2], [3, 4]]>`, `dense<0xFF800000>`, `dense<"0x0000803F...">` as an
// HLO literal of `shape`. Arrays larger than kMaxLiteralElements are refused.
constexpr int64_t kMaxLiteralElements = 1 << 16;

// f16 bits as a double (subnormals, infinities and NaN included).
double HalfToDouble(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// MLIR's hex form of a dense attribute: the elements' little-endian bytes one after another,
// or one element's bytes for a splat. Each element as `Element` would read its decimal text.
std::optional<std::vector<std::string>> HexElements(std::string_view hex, PrimitiveType type,
                                                    int64_t count) {
  const int bits = PrimitiveTypeBitWidth(type);
  if (type == PrimitiveType::kPred || bits % 8 != 0 || bits == 0 || bits > 64) return std::nullopt;
  if (hex.size() < 2 || hex.substr(0, 2) != "0x" || hex.size() % 2 != 0) return std::nullopt;
  hex.remove_prefix(2);
  const size_t width = static_cast<size_t>(bits / 8);
  const size_t bytes = hex.size() / 2;
  if (bytes != width && bytes != width * static_cast<size_t>(count)) return std::nullopt;
  std::vector<uint8_t> data(bytes);
  for (size_t i = 0; i < bytes; ++i) {
    unsigned value = 0;
    auto parsed = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, value, 16);
    if (parsed.ec != std::errc() || parsed.ptr != hex.data() + 2 * i + 2) return std::nullopt;
    data[i] = static_cast<uint8_t>(value);
  }
  std::vector<std::string> elements;
  for (size_t at = 0; at < bytes; at += width) {
    uint64_t raw = 0;
    for (size_t b = 0; b < width; ++b) raw |= static_cast<uint64_t>(data[at + b]) << (8 * b);
    if (IsFloatingPointType(type)) {
      double value = 0;
      if (type == PrimitiveType::kF64) {
        std::memcpy(&value, &raw, sizeof value);
      } else if (type == PrimitiveType::kF32 || type == PrimitiveType::kBF16) {
        const uint32_t narrow = type == PrimitiveType::kF32 ? static_cast<uint32_t>(raw)
                                                            : static_cast<uint32_t>(raw << 16);
        float f;
        std::memcpy(&f, &narrow, sizeof f);
        value = f;
      } else if (type == PrimitiveType::kF16) {
        value = HalfToDouble(static_cast<uint16_t>(raw));
      } else {
        return std::nullopt;  // fp8 kinds: no decimal form here
      }
      if (std::isnan(value)) {
        elements.push_back("nan");
        continue;
      }
      if (std::isinf(value)) {
        elements.push_back(value < 0 ? "-inf" : "inf");
        continue;
      }
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, type == PrimitiveType::kF64 ? "%.17g" : "%.9g", value);
      elements.push_back(buffer);
    } else if (IsSignedIntegralType(type)) {
      const int shift = 64 - bits;
      elements.push_back(std::to_string(static_cast<int64_t>(raw << shift) >> shift));
    } else {
      elements.push_back(std::to_string(raw));
    }
  }
  return elements;
}

// Constants with more elements than this written in hex keep their bytes, not text.
constexpr int64_t kMaxTextElements = 1024;

// The payload of `dense<...>` in `text`, or nullopt.
std::optional<std::string_view> DensePayload(std::string_view text) {
  const size_t dense = text.find("dense<");
  if (dense == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(dense + 6);
  int depth = 1;
  size_t end = 0;
  for (; end < rest.size() && depth > 0; ++end) {
    if (rest[end] == '"') {
      end = SkipStringLiteral(rest, end) - 1;
      continue;
    }
    if (rest[end] == '<') ++depth;
    if (rest[end] == '>') --depth;
  }
  if (depth != 0) return std::nullopt;
  return rest.substr(0, end - 1);
}

// A hex payload's bytes in ir::ConstantBytes' layout (a splat repeated); nullopt for other
// payloads and types whose elements are not whole bytes.
std::optional<std::vector<uint8_t>> HexBytes(std::string_view payload, PrimitiveType type,
                                             int64_t count) {
  const int bits = PrimitiveTypeBitWidth(type);
  if (payload.size() < 4 || payload.front() != '"' || payload.back() != '"' ||
      payload.substr(1, 2) != "0x" || type == PrimitiveType::kPred || bits % 8 != 0 || bits == 0 ||
      IsComplexType(type))
    return std::nullopt;
  const std::string_view hex = payload.substr(3, payload.size() - 4);
  const size_t width = static_cast<size_t>(bits / 8);
  if (hex.size() % 2 != 0) return std::nullopt;
  const size_t given = hex.size() / 2;
  if (given != width && given != width * static_cast<size_t>(count)) return std::nullopt;
  std::vector<uint8_t> data(width * static_cast<size_t>(count));
  for (size_t i = 0; i < given; ++i) {
    unsigned value = 0;
    auto parsed = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, value, 16);
    if (parsed.ec != std::errc() || parsed.ptr != hex.data() + 2 * i + 2) return std::nullopt;
    data[i] = static_cast<uint8_t>(value);
  }
  for (size_t at = given; at < data.size(); at += width)
    std::memcpy(data.data() + at, data.data(), width);  // a splat
  return data;
}

std::optional<std::string> Literal(std::string_view text, const Shape& shape) {
  if (!shape.IsArray()) return std::nullopt;
  std::optional<std::string_view> dense_payload = DensePayload(text);
  if (!dense_payload) return std::nullopt;
  std::string_view payload = *dense_payload;
  const int64_t count = shape.ElementCount();
  if (count > kMaxLiteralElements) return std::nullopt;
  std::vector<std::string> elements;
  if (!payload.empty() && payload.front() == '"') {
    if (payload.size() < 2 || payload.back() != '"') return std::nullopt;
    auto hex = HexElements(payload.substr(1, payload.size() - 2), shape.element_type(), count);
    if (!hex) return std::nullopt;
    elements = std::move(*hex);
  } else {
    std::vector<std::string_view> parts;
    FlattenDense(payload, parts);
    if (parts.size() != 1 && static_cast<int64_t>(parts.size()) != count) return std::nullopt;
    for (std::string_view part : parts) {
      auto element = Element(part, shape.element_type());
      if (!element) return std::nullopt;
      elements.push_back(*element);
    }
  }
  if (elements.size() == 1 && count != 1)
    elements.assign(static_cast<size_t>(count), elements.front());
  if (shape.rank() == 0) return elements.front();
  std::string out;
  size_t next = 0;
  AppendNested(elements, shape.dimensions(), 0, next, out);
  return out;
}

std::optional<HloMapping> MapBroadcast(std::string_view text,
                                       const std::vector<Shape>& operand_shapes,
                                       const Shape& result) {
  std::optional<std::vector<int64_t>> dims = IntListOf(text, "dims");
  if (!dims) dims = IntListOf(text, "broadcast_dimensions");
  if (!dims || operand_shapes.size() != 1 || !operand_shapes[0].IsArray() || !result.IsArray() ||
      static_cast<int64_t>(dims->size()) != operand_shapes[0].rank()) {
    return std::nullopt;
  }
  const Shape& operand = operand_shapes[0];
  std::vector<int64_t> kept_dims;
  std::vector<int64_t> kept_sizes;
  for (size_t i = 0; i < dims->size(); ++i) {
    const int64_t target = (*dims)[i];
    if (target < 0 || target >= result.rank()) return std::nullopt;
    if (operand.dimension(static_cast<int64_t>(i)) == 1 && result.dimension(target) != 1) continue;
    kept_dims.push_back(target);
    kept_sizes.push_back(operand.dimension(static_cast<int64_t>(i)));
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kBroadcast;
  mapping.attributes.emplace_back("dimensions", Braced(kept_dims));
  if (kept_dims.size() != dims->size())
    mapping.reshape_operand = Shape(operand.element_type(), kept_sizes);
  return mapping;
}

std::optional<HloMapping> MapCompare(std::string_view text) {
  std::string direction;
  for (std::string_view candidate : {"EQ", "NE", "GE", "GT", "LE", "LT"}) {
    const size_t at = text.find(candidate);
    if (at != std::string_view::npos && (at == 0 || !IsValueNameChar(text[at - 1])) &&
        (at + 2 >= text.size() || !IsValueNameChar(text[at + 2]))) {
      direction = std::string(candidate);
      break;
    }
  }
  if (direction.empty()) return std::nullopt;
  HloMapping mapping;
  mapping.opcode = Opcode::kCompare;
  mapping.attributes.emplace_back("direction", direction);
  return mapping;
}

// `[1:3, 0:8:2]` of the pretty slice, or start_indices/limit_indices/strides.
std::optional<HloMapping> MapSlice(std::string_view text) {
  std::vector<int64_t> starts, limits, strides;
  if (auto start = IntListOf(text, "start_indices")) {
    auto limit = IntListOf(text, "limit_indices");
    auto stride = IntListOf(text, "strides");
    if (!limit || !stride || limit->size() != start->size() || stride->size() != start->size())
      return std::nullopt;
    starts = *start;
    limits = *limit;
    strides = *stride;
  } else {
    const size_t open = text.find(" [");
    const size_t close = text.find(']', open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
    for (std::string_view range : SplitTopLevel(text.substr(open + 2, close - open - 2))) {
      std::vector<int64_t> numbers;
      for (std::string_view number : SplitTopLevel(range, ':')) {
        int64_t value = 0;
        if (std::from_chars(number.data(), number.data() + number.size(), value).ec != std::errc())
          return std::nullopt;
        numbers.push_back(value);
      }
      if (numbers.size() < 2 || numbers.size() > 3) return std::nullopt;
      starts.push_back(numbers[0]);
      limits.push_back(numbers[1]);
      strides.push_back(numbers.size() == 3 ? numbers[2] : 1);
    }
  }
  std::string slice = "{";
  for (size_t i = 0; i < starts.size(); ++i) {
    slice += (i ? ", [" : "[") + std::to_string(starts[i]) + ":" + std::to_string(limits[i]) + ":" +
             std::to_string(strides[i]) + "]";
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kSlice;
  mapping.attributes.emplace_back("slice", slice + "}");
  return mapping;
}

std::string Joined(const std::vector<int64_t>& values, std::string_view separator) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += separator;
    text += std::to_string(values[i]);
  }
  return text;
}

// `window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=.. rhs_dilate=..}` with the defaults
// left out, as XLA writes it.
std::string WindowText(const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                       const std::vector<std::pair<int64_t, int64_t>>& pad,
                       const std::vector<int64_t>& lhs_dilate,
                       const std::vector<int64_t>& rhs_dilate) {
  auto all = [](const std::vector<int64_t>& values, int64_t value) {
    return std::all_of(values.begin(), values.end(), [&](int64_t v) { return v == value; });
  };
  std::string text = "{size=" + Joined(size, "x");
  if (!all(stride, 1)) text += " stride=" + Joined(stride, "x");
  bool padded = false;
  std::string pads;
  for (size_t i = 0; i < pad.size(); ++i) {
    padded = padded || pad[i].first != 0 || pad[i].second != 0;
    pads += (i ? "x" : "") + std::to_string(pad[i].first) + "_" + std::to_string(pad[i].second);
  }
  if (padded) text += " pad=" + pads;
  if (!all(lhs_dilate, 1)) text += " lhs_dilate=" + Joined(lhs_dilate, "x");
  if (!all(rhs_dilate, 1)) text += " rhs_dilate=" + Joined(rhs_dilate, "x");
  return text + "}";
}

// `[[1, 1], [0, 2]]` or `dense<0> : tensor<4x2xi64>` as (low, high) pairs, `count` of them.
std::optional<std::vector<std::pair<int64_t, int64_t>>> Padding(std::string_view text,
                                                                size_t count) {
  std::vector<std::string_view> parts;
  text = TrimText(text);
  if (text.substr(0, 6) == "dense<") {
    const size_t close = text.find('>');
    if (close == std::string_view::npos) return std::nullopt;
    FlattenDense(text.substr(6, close - 6), parts);
  } else {
    FlattenDense(text, parts);
  }
  std::vector<int64_t> values;
  for (std::string_view part : parts) {
    int64_t value = 0;
    if (std::from_chars(part.data(), part.data() + part.size(), value).ec != std::errc())
      return std::nullopt;
    values.push_back(value);
  }
  if (values.size() == 1) values.assign(count * 2, values.front());
  if (values.size() != count * 2) return std::nullopt;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t i = 0; i < count; ++i) pairs.emplace_back(values[2 * i], values[2 * i + 1]);
  return pairs;
}

std::vector<int64_t> ListOr(std::string_view text, std::string_view key, size_t count,
                            int64_t fallback) {
  auto list = IntListOf(text, key);
  if (list && list->size() == count) return *list;
  return std::vector<int64_t>(count, fallback);
}

// Pretty convolution: `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride
// = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}`.
std::optional<HloMapping> MapConvolution(std::string_view text,
                                         const std::vector<Shape>& operand_shapes) {
  if (operand_shapes.size() != 2 || !operand_shapes[1].IsArray()) return std::nullopt;
  const size_t at = text.find("dim_numbers = ");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view numbers = text.substr(at + 14);
  numbers = numbers.substr(0, numbers.find(", window"));
  std::string labels;
  std::vector<int64_t> kernel_spatial;  // kernel dimensions of the spatial labels, in order
  for (size_t i = 0; i < numbers.size(); ++i) {
    const char c = numbers[i];
    if (c == 'x' && i > 0 && numbers[i - 1] == ']') {
      labels += '_';
    } else if (c == '-' && numbers.substr(i, 2) == "->") {
      labels += "->";
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c))) {
      labels += c;
    }
  }
  const size_t first = labels.find('_');
  const size_t arrow = labels.find("->");
  if (first == std::string::npos || arrow == std::string::npos || arrow < first)
    return std::nullopt;
  const std::string kernel = labels.substr(first + 1, arrow - first - 1);
  if (static_cast<int64_t>(kernel.size()) != operand_shapes[1].rank()) return std::nullopt;
  for (char digit = '0'; digit <= '9'; ++digit) {
    const size_t position = kernel.find(digit);
    if (position == std::string::npos) break;
    kernel_spatial.push_back(operand_shapes[1].dimension(static_cast<int64_t>(position)));
  }
  const size_t spatial = kernel_spatial.size();
  std::string_view window;
  if (const size_t open = text.find("window = {"); open != std::string_view::npos) {
    window = text.substr(open + 10);
    window = window.substr(0, window.find('}'));
  }
  std::vector<std::pair<int64_t, int64_t>> pad(spatial, {0, 0});
  if (auto value = ValueOf(window, "pad")) {
    auto read = Padding(*value, spatial);
    if (!read) return std::nullopt;
    pad = *read;
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kConvolution;
  mapping.attributes.emplace_back(
      "window", WindowText(kernel_spatial, ListOr(window, "stride", spatial, 1), pad,
                           ListOr(window, "lhs_dilate", spatial, 1),
                           ListOr(window, "rhs_dilate", spatial, 1)));
  mapping.attributes.emplace_back("dim_labels", labels);
  for (std::string_view key : {"feature_group_count", "batch_group_count"}) {
    if (auto value = ValueOf(text, key)) {
      std::string_view number = TrimText(value->substr(0, value->find(':')));
      int64_t count = 1;
      if (std::from_chars(number.data(), number.data() + number.size(), count).ec != std::errc())
        return std::nullopt;
      if (count != 1) mapping.attributes.emplace_back(std::string(key), std::to_string(count));
    }
  }
  return mapping;
}

// reduce_window with its body (generic attributes, as jax writes it).
std::optional<HloMapping> MapReduceWindow(const MlirOperation& operation,
                                          const std::vector<Shape>& operand_shapes) {
  if (operand_shapes.size() != 2 || operation.regions.size() != 1 || !operand_shapes[0].IsArray())
    return std::nullopt;
  const std::string_view text = operation.text;
  const size_t rank = static_cast<size_t>(operand_shapes[0].rank());
  auto size = IntListOf(text, "window_dimensions");
  if (!size || size->size() != rank) return std::nullopt;
  std::vector<std::pair<int64_t, int64_t>> pad(rank, {0, 0});
  if (auto value = ValueOf(text, "padding")) {
    auto read = Padding(*value, rank);
    if (!read) return std::nullopt;
    pad = *read;
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kReduceWindow;
  mapping.attributes.emplace_back("window",
                                  WindowText(*size, ListOr(text, "window_strides", rank, 1), pad,
                                             ListOr(text, "base_dilations", rank, 1),
                                             ListOr(text, "window_dilations", rank, 1)));
  return mapping;
}

std::optional<HloMapping> MapReduce(const MlirOperation& operation) {
  auto mapping = WithDimensions(Opcode::kReduce, operation.text, {"dimensions"});
  if (!mapping) return std::nullopt;
  const size_t applies = operation.text.find("applies ");
  if (applies != std::string::npos) {
    std::string_view body = std::string_view(operation.text).substr(applies + 8);
    body = body.substr(0, body.find(' '));
    std::string op(body);
    if (op.find('.') == std::string::npos) op = "stablehlo." + op;
    MlirOperation binary;
    binary.name = op;
    auto inner = MapStablehloOperation(binary, {}, Shape());
    if (!inner || inner->opcode == Opcode::kUnknown) return std::nullopt;
    mapping->reduction = inner->opcode;
  } else if (operation.regions.size() != 1) {
    return std::nullopt;
  }
  return mapping;
}

// `key = 3 : i64`, `key = 3>` or `key = 3`.
std::optional<int64_t> IntOf(std::string_view text, std::string_view key) {
  auto value = ValueOf(text, key);
  if (!value) return std::nullopt;
  std::string_view number = TrimText(value->substr(0, value->find(':')));
  int64_t parsed = 0;
  auto end = std::from_chars(number.data(), number.data() + number.size(), parsed);
  if (end.ec != std::errc() || end.ptr != number.data() + number.size()) return std::nullopt;
  return parsed;
}

// Lists of dimension numbers (`offset_dims = [2]` inside `#stablehlo.gather<...>`) as HLO
// attributes; a list left out is empty, one that is written must read. `index_vector_dim`
// is required.
std::optional<HloMapping> WithDimensionNumbers(Opcode opcode, std::string_view text,
                                               std::initializer_list<std::string_view> lists,
                                               std::string& why) {
  HloMapping mapping;
  mapping.opcode = opcode;
  for (std::string_view key : lists) {
    std::vector<int64_t> values;
    if (auto value = ValueOf(text, key)) {
      auto list = IntList(*value);
      if (!list) {
        why = std::string(key) + " is not a list of integers: '" + std::string(*value) + "'";
        return std::nullopt;
      }
      values = *list;
    }
    mapping.attributes.emplace_back(std::string(key), Braced(values));
  }
  auto vector_dim = IntOf(text, "index_vector_dim");
  if (!vector_dim) {
    why = "index_vector_dim is missing or not an integer";
    return std::nullopt;
  }
  mapping.attributes.emplace_back("index_vector_dim", std::to_string(*vector_dim));
  for (std::string_view flag : {"indices_are_sorted", "unique_indices"}) {
    if (auto value = ValueOf(text, flag); value && *value == "true")
      mapping.attributes.emplace_back(std::string(flag), "true");
  }
  return mapping;
}

std::optional<HloMapping> MapGather(std::string_view text, std::string& why) {
  auto mapping = WithDimensionNumbers(Opcode::kGather, text,
                                      {"offset_dims", "collapsed_slice_dims", "start_index_map",
                                       "operand_batching_dims", "start_indices_batching_dims"},
                                      why);
  if (!mapping) return std::nullopt;
  auto sizes = IntListOf(text, "slice_sizes");
  if (!sizes) {
    why = "slice_sizes is missing or not a list of integers";
    return std::nullopt;
  }
  mapping->attributes.emplace_back("slice_sizes", Braced(*sizes));
  return mapping;
}

std::optional<HloMapping> MapScatter(const MlirOperation& operation, std::string& why) {
  if (operation.regions.size() != 1) {
    why = "scatter needs its update computation region";
    return std::nullopt;
  }
  return WithDimensionNumbers(
      Opcode::kScatter, operation.text,
      {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
       "input_batching_dims", "scatter_indices_batching_dims"},
      why);
}

// `low = [1, -2], high = [-1, 3], interior = [1, 0]` (or edge_padding_low, ...) as
// `padding=1_-1_1x-2_3_0`.
std::optional<HloMapping> MapPad(std::string_view text, std::string& why) {
  auto low = IntListOf(text, "low");
  if (!low) low = IntListOf(text, "edge_padding_low");
  auto high = IntListOf(text, "high");
  if (!high) high = IntListOf(text, "edge_padding_high");
  auto interior = IntListOf(text, "interior");
  if (!interior) interior = IntListOf(text, "interior_padding");
  if (!low || !high || !interior || high->size() != low->size() ||
      interior->size() != low->size()) {
    why = "low, high and interior padding must be lists of the same length";
    return std::nullopt;
  }
  std::string padding;
  for (size_t i = 0; i < low->size(); ++i) {
    padding += (i ? "x" : "") + std::to_string((*low)[i]) + "_" + std::to_string((*high)[i]) + "_" +
               std::to_string((*interior)[i]);
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kPad;
  mapping.attributes.emplace_back("padding", padding);
  return mapping;
}

std::optional<HloMapping> MapSort(const MlirOperation& operation,
                                  const std::vector<Shape>& operand_shapes, std::string& why) {
  if (operation.regions.size() != 1 || operand_shapes.empty()) {
    why = "sort needs operands and its comparator region";
    return std::nullopt;
  }
  int64_t dimension = IntOf(operation.text, "dimension").value_or(-1);
  if (dimension < 0 && operand_shapes[0].IsArray()) dimension += operand_shapes[0].rank();
  HloMapping mapping;
  mapping.opcode = Opcode::kSort;
  mapping.region_key = "to_apply";
  mapping.attributes.emplace_back("dimensions", Braced({dimension}));
  if (auto stable = ValueOf(operation.text, "is_stable"); stable && *stable == "true")
    mapping.attributes.emplace_back("is_stable", "true");
  return mapping;
}

std::optional<HloMapping> MapSelectAndScatter(const MlirOperation& operation,
                                              const std::vector<Shape>& operand_shapes,
                                              std::string& why) {
  if (operation.regions.size() != 2 || operand_shapes.size() != 3 || !operand_shapes[0].IsArray()) {
    why = "select_and_scatter needs three operands and its select and scatter regions";
    return std::nullopt;
  }
  const std::string_view text = operation.text;
  const size_t rank = static_cast<size_t>(operand_shapes[0].rank());
  auto size = IntListOf(text, "window_dimensions");
  std::vector<std::pair<int64_t, int64_t>> pad(rank, {0, 0});
  if (auto value = ValueOf(text, "padding")) {
    auto read = Padding(*value, rank);
    if (!read) size.reset();
    if (read) pad = *read;
  }
  if (!size || size->size() != rank) {
    why = "window_dimensions and padding must have one entry per operand dimension";
    return std::nullopt;
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kSelectAndScatter;
  mapping.region_keys = {"select", "scatter"};
  mapping.attributes.emplace_back(
      "window", WindowText(*size, ListOr(text, "window_strides", rank, 1), pad,
                           std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1)));
  return mapping;
}

// `format = e5m10` (pretty) or exponent_bits/mantissa_bits.
std::optional<HloMapping> MapReducePrecision(std::string_view text, std::string& why) {
  std::optional<int64_t> exponent = IntOf(text, "exponent_bits");
  std::optional<int64_t> mantissa = IntOf(text, "mantissa_bits");
  if (auto format = ValueOf(text, "format");
      format && format->size() > 1 && format->front() == 'e') {
    const size_t m = format->find('m');
    int64_t e_bits = 0;
    int64_t m_bits = 0;
    if (m != std::string_view::npos &&
        std::from_chars(format->data() + 1, format->data() + m, e_bits).ec == std::errc() &&
        std::from_chars(format->data() + m + 1, format->data() + format->size(), m_bits).ec ==
            std::errc()) {
      exponent = e_bits;
      mantissa = m_bits;
    }
  }
  if (!exponent || !mantissa) {
    why = "reduce_precision names no exponent and mantissa bits";
    return std::nullopt;
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kReducePrecision;
  mapping.attributes.emplace_back("exponent_bits", std::to_string(*exponent));
  mapping.attributes.emplace_back("mantissa_bits", std::to_string(*mantissa));
  return mapping;
}

// `type = FFT, length = [8]` (pretty) or fft_type = #stablehlo<fft_type RFFT>, fft_length.
std::optional<HloMapping> MapFft(std::string_view text, std::string& why) {
  std::string type;
  for (std::string_view candidate : {"IRFFT", "RFFT", "IFFT", "FFT"}) {
    const size_t at = text.find(candidate);
    if (at != std::string_view::npos && (at == 0 || !IsValueNameChar(text[at - 1]))) {
      type = std::string(candidate);
      break;
    }
  }
  auto length = IntListOf(text, "length");
  if (!length) length = IntListOf(text, "fft_length");
  if (type.empty() || !length) {
    why = "fft names no type or length";
    return std::nullopt;
  }
  HloMapping mapping;
  mapping.opcode = Opcode::kFft;
  mapping.attributes.emplace_back("fft_type", type);
  mapping.attributes.emplace_back("fft_length", Braced(*length));
  return mapping;
}

// batch_norm_training/inference/grad: epsilon and feature_index.
std::optional<HloMapping> MapBatchNorm(std::string_view kind, std::string_view text,
                                       std::string& why) {
  HloMapping mapping;
  if (kind == "training") {
    mapping.opcode = Opcode::kBatchNormTraining;
  } else if (kind == "inference") {
    mapping.opcode = Opcode::kBatchNormInference;
  } else if (kind == "grad") {
    mapping.opcode = Opcode::kBatchNormGrad;
  } else {
    why = "stablehlo.batch_norm_" + std::string(kind) + " has no HLO counterpart here";
    return std::nullopt;
  }
  std::optional<int64_t> feature = IntOf(text, "feature_index");
  auto epsilon = ValueOf(text, "epsilon");
  std::optional<std::string> value;
  if (epsilon) value = Element(epsilon->substr(0, epsilon->find(':')), PrimitiveType::kF32);
  if (!feature || !value) {
    why = "batch_norm needs epsilon and feature_index";
    return std::nullopt;
  }
  mapping.attributes.emplace_back("epsilon", *value);
  mapping.attributes.emplace_back("feature_index", std::to_string(*feature));
  return mapping;
}

// `key = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>` (a splat `dense<0> : tensor<1x1xi64>`
// too) as `{{0,1},{2,3}}`: replica groups and source-target pairs.
std::optional<std::string> GroupsOf(std::string_view text, std::string_view key) {
  auto value = ValueOf(text, key);
  if (!value || value->substr(0, 6) != "dense<") return std::nullopt;
  const size_t end = value->rfind('>');
  if (end == std::string_view::npos || end < 6) return std::nullopt;
  std::vector<std::string_view> parts;
  FlattenDense(value->substr(6, end - 6), parts);
  // The type follows the value: ` : tensor<2x2xi64>`.
  const std::string_view after =
      text.substr(static_cast<size_t>(value->data() - text.data()) + value->size());
  const size_t type = after.find("tensor<");
  if (type == std::string_view::npos) return std::nullopt;
  int64_t rows = 0;
  int64_t columns = 0;
  const char* cursor = after.data() + type + 7;
  const char* limit = after.data() + after.size();
  auto parsed = std::from_chars(cursor, limit, rows);
  if (parsed.ec != std::errc() || parsed.ptr == limit || *parsed.ptr != 'x') return std::nullopt;
  parsed = std::from_chars(parsed.ptr + 1, limit, columns);
  if (parsed.ec != std::errc() || rows < 0 || columns < 0 || rows > kMaxLiteralElements ||
      columns > kMaxLiteralElements || rows * columns > kMaxLiteralElements) {
    return std::nullopt;
  }
  std::vector<int64_t> values;
  for (std::string_view part : parts) {
    int64_t number = 0;
    auto read = std::from_chars(part.data(), part.data() + part.size(), number);
    if (read.ec != std::errc() || read.ptr != part.data() + part.size()) return std::nullopt;
    values.push_back(number);
  }
  if (values.size() == 1) values.assign(static_cast<size_t>(rows * columns), values.front());
  if (static_cast<int64_t>(values.size()) != rows * columns) return std::nullopt;
  std::string groups = "{";
  for (int64_t row = 0; row < rows; ++row) {
    groups += row > 0 ? ",{" : "{";
    for (int64_t column = 0; column < columns; ++column) {
      groups += (column > 0 ? "," : "") +
                std::to_string(values[static_cast<size_t>(row * columns + column)]);
    }
    groups += "}";
  }
  return groups + "}";
}

// all_reduce, all_gather, reduce_scatter and collective_permute with their replica groups (or
// source-target pairs), channel and dimension.
std::optional<HloMapping> MapCollective(std::string_view name, const MlirOperation& operation,
                                        std::string& why) {
  const std::string_view text = operation.text;
  HloMapping mapping;
  const bool permute = name == "collective_permute";
  const std::string_view groups_key = permute ? "source_target_pairs" : "replica_groups";
  auto groups = GroupsOf(text, groups_key);
  if (!groups) {
    why = std::string(groups_key) + " is missing or not a dense integer matrix";
    return std::nullopt;
  }
  if (auto channel = IntOf(text, "handle"); channel && *channel > 0)
    mapping.attributes.emplace_back("channel_id", std::to_string(*channel));
  mapping.attributes.emplace_back(std::string(groups_key), *groups);
  if (!permute && text.find("use_global_device_ids") != std::string_view::npos)
    mapping.attributes.emplace_back("use_global_device_ids", "true");
  std::optional<int64_t> dimension;
  if (name == "all_reduce") {
    mapping.opcode = Opcode::kAllReduce;
  } else if (name == "all_gather") {
    mapping.opcode = Opcode::kAllGather;
    dimension = IntOf(text, "all_gather_dim");
  } else if (name == "reduce_scatter") {
    mapping.opcode = Opcode::kReduceScatter;
    dimension = IntOf(text, "scatter_dimension");
  } else {
    mapping.opcode = Opcode::kCollectivePermute;
  }
  const bool reduces = name == "all_reduce" || name == "reduce_scatter";
  if (reduces && operation.regions.size() != 1) {
    why = std::string(name) + " needs its reduction region";
    return std::nullopt;
  }
  if ((name == "all_gather" || name == "reduce_scatter") && !dimension) {
    why = std::string(name) + " names no dimension";
    return std::nullopt;
  }
  if (dimension) mapping.attributes.emplace_back("dimensions", Braced({*dimension}));
  return mapping;
}

std::optional<HloMapping> MapRegionOperation(std::string_view name, const MlirOperation& operation,
                                             std::string& why) {
  HloMapping mapping;
  if (name == "while") {
    if (operation.regions.size() != 2) {
      why = "while needs a cond and a do region";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kWhile;
    mapping.regions = HloMapping::Regions::kWhile;
    mapping.region_keys = {"condition", "body"};
    return mapping;
  }
  if (operation.regions.empty()) {
    why = std::string(name) + " has no branch regions";
    return std::nullopt;
  }
  if (name == "if" && operation.regions.size() != 2) {
    why = "if needs a then and an else region";
    return std::nullopt;
  }
  mapping.opcode = Opcode::kConditional;
  mapping.regions = HloMapping::Regions::kConditional;
  if (name == "if") {
    mapping.region_keys = {"true_computation", "false_computation"};
  } else {
    mapping.region_key = "branch_computations";
  }
  return mapping;
}

// chlo operations jax emits and HLO has as opcodes.
std::optional<HloMapping> MapChlo(std::string_view name, const MlirOperation& operation,
                                  const std::vector<Shape>& operand_shapes, const Shape& result,
                                  std::string& why) {
  HloMapping mapping;
  if (HasChloExpansion(name)) {
    // The expansion is built over the result's shape, which must be the operand's.
    const bool single_float = operand_shapes.size() == 1 && operand_shapes[0].IsArray() &&
                              IsFloatingPointType(operand_shapes[0].element_type()) &&
                              operand_shapes[0].Compatible(result);
    if (!single_float ||
        (name == "erf_inv" && operand_shapes[0].element_type() != PrimitiveType::kF32)) {
      why = "chlo." + std::string(name) + " is expanded for one floating-point operand" +
            (name == "erf_inv" ? " of f32" : "");
      return std::nullopt;
    }
    mapping.opcode = Opcode::kCall;
    mapping.expansion = std::string(name);
    return mapping;
  }
  if (name == "square") {
    mapping.opcode = Opcode::kMultiply;
    mapping.square = true;
    return mapping;
  }
  if (name == "erf" || name == "tan") {
    mapping.opcode = name == "erf" ? Opcode::kErf : Opcode::kTan;
    return mapping;
  }
  if (name == "top_k") {
    auto k = IntOf(operation.text, "k");
    if (!k) {
      why = "top_k has no k";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kTopK;
    mapping.attributes.emplace_back("k", std::to_string(*k));
    mapping.attributes.emplace_back("largest", "true");
    return mapping;
  }
  why = "chlo." + std::string(name) + " has no HLO opcode here";
  return std::nullopt;
}

std::string QuotedText(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

// The string after `key = "`, unescaped only as far as it needs to be a name.
std::optional<std::string> StringOf(std::string_view text, std::string_view key) {
  auto value = ValueOf(text, key);
  if (!value || value->size() < 2 || value->front() != '"') return std::nullopt;
  const size_t end = SkipStringLiteral(*value, 0);
  if (end < 2) return std::nullopt;
  return std::string(value->substr(1, end - 2));
}

std::optional<HloMapping> MapStablehloOnly(std::string_view name, const MlirOperation& operation,
                                           const std::vector<Shape>& operand_shapes,
                                           const Shape& result, std::string& why) {
  const std::string_view text = operation.text;
  if (name == "while" || name == "if" || name == "case")
    return MapRegionOperation(name, operation, why);
  if (name == "gather") return MapGather(text, why);
  if (name == "scatter") return MapScatter(operation, why);
  if (name == "pad") return MapPad(text, why);
  if (name == "sort") return MapSort(operation, operand_shapes, why);
  if (name == "select_and_scatter") return MapSelectAndScatter(operation, operand_shapes, why);
  HloMapping mapping;
  if (name == "dynamic_slice") {
    auto sizes = IntListOf(text, "sizes");
    if (!sizes) sizes = IntListOf(text, "slice_sizes");
    if (!sizes) {
      why = "dynamic_slice has no sizes";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kDynamicSlice;
    mapping.attributes.emplace_back("dynamic_slice_sizes", Braced(*sizes));
    return mapping;
  }
  if (name == "dynamic_update_slice") {
    mapping.opcode = Opcode::kDynamicUpdateSlice;
    return mapping;
  }
  if (name == "get_tuple_element") {
    std::optional<int64_t> index = IntOf(text, "index");
    if (const size_t open = text.find('['); !index && open != std::string_view::npos) {
      std::string_view digits = text.substr(open + 1, text.find(']', open) - open - 1);
      int64_t value = 0;
      if (std::from_chars(digits.data(), digits.data() + digits.size(), value).ec == std::errc())
        index = value;
    }
    if (!index) {
      why = "get_tuple_element has no index";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kGetTupleElement;
    mapping.attributes.emplace_back("index", std::to_string(*index));
    return mapping;
  }
  if (name == "rng_bit_generator") {
    mapping.opcode = Opcode::kRngBitGenerator;
    std::string algorithm = "rng_default";
    if (text.find("THREE_FRY") != std::string_view::npos) algorithm = "rng_three_fry";
    if (text.find("PHILOX") != std::string_view::npos) algorithm = "rng_philox";
    mapping.attributes.emplace_back("algorithm", algorithm);
    return mapping;
  }
  if (name == "custom_call") {
    std::string target = operation.callee;
    if (auto named = StringOf(text, "call_target_name")) target = *named;
    if (target.empty()) {
      why = "custom_call names no target";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kCustomCall;
    mapping.attributes.emplace_back("custom_call_target", QuotedText(target));
    return mapping;
  }
  if (name == "composite") {
    auto decomposition = ValueOf(text, "decomposition");
    if (!decomposition || decomposition->size() < 2 || decomposition->front() != '@') {
      why = "composite names no decomposition";
      return std::nullopt;
    }
    mapping.opcode = Opcode::kCall;
    mapping.callee = std::string(decomposition->substr(1));
    return mapping;
  }
  if (name == "replica_id" || name == "partition_id") {
    mapping.opcode = name == "replica_id" ? Opcode::kReplicaId : Opcode::kPartitionId;
    return mapping;
  }
  if (name == "reduce_precision") return MapReducePrecision(text, why);
  if (name == "fft") return MapFft(text, why);
  if (name == "map") {
    if (operation.regions.size() != 1) {
      why = "map needs its computation region";
      return std::nullopt;
    }
    return WithDimensions(Opcode::kMap, text, {"dimensions"});
  }
  if (name.rfind("batch_norm_", 0) == 0) return MapBatchNorm(name.substr(11), text, why);
  if (name == "all_reduce" || name == "all_gather" || name == "reduce_scatter" ||
      name == "collective_permute") {
    return MapCollective(name, operation, why);
  }
  if (name == "optimization_barrier") {
    mapping.opcode = Opcode::kOptimizationBarrier;
    mapping.tuple_operands = operand_shapes.size() != 1 || result.IsTuple();
    return mapping;
  }
  why = "stablehlo." + std::string(name) + " has no HLO counterpart here";
  return std::nullopt;
}

std::optional<HloMapping> MapOperation(const MlirOperation& operation,
                                       const std::vector<Shape>& operand_shapes,
                                       const Shape& result, std::string& why) {
  if (operation.name == "func.call") {
    HloMapping mapping;
    mapping.opcode = Opcode::kCall;
    return mapping;
  }
  std::string_view name = operation.name;
  if (name.rfind("chlo.", 0) == 0)
    return MapChlo(name.substr(5), operation, operand_shapes, result, why);
  if (name == "sdy.sharding_constraint") {
    // What XLA makes of it: a Sharding custom-call, the identity on one device.
    HloMapping mapping;
    mapping.opcode = Opcode::kCustomCall;
    mapping.attributes.emplace_back("custom_call_target", "\"Sharding\"");
    return mapping;
  }
  if (name.rfind("stablehlo.", 0) == 0) {
    name.remove_prefix(10);
  } else if (name.rfind("mhlo.", 0) == 0) {
    name.remove_prefix(5);
  } else {
    return std::nullopt;
  }
  if (auto plain = PlainOperations().find(name); plain != PlainOperations().end()) {
    HloMapping mapping;
    mapping.opcode = plain->second;
    return mapping;
  }
  const std::string_view text = operation.text;
  if (name == "dot_general" || name == "dot") {
    if (name == "dot") {
      // stablehlo.dot: a matrix or vector product over the last and first dimensions.
      if (operand_shapes.size() != 2) return std::nullopt;
      HloMapping mapping;
      mapping.opcode = Opcode::kDot;
      mapping.attributes.emplace_back("lhs_contracting_dims",
                                      Braced({std::max<int64_t>(operand_shapes[0].rank() - 1, 0)}));
      mapping.attributes.emplace_back("rhs_contracting_dims", Braced({0}));
      return mapping;
    }
    return MapDot(text);
  }
  if (name == "broadcast_in_dim") return MapBroadcast(text, operand_shapes, result);
  if (name == "transpose") return WithDimensions(Opcode::kTranspose, text, {"dims", "permutation"});
  if (name == "reverse") return WithDimensions(Opcode::kReverse, text, {"dims", "dimensions"});
  if (name == "concatenate") {
    for (std::string_view key : {"dim", "dimension"}) {
      if (auto value = ValueOf(text, key)) {
        std::string_view number = TrimText(value->substr(0, value->find(':')));
        int64_t dimension = 0;
        if (std::from_chars(number.data(), number.data() + number.size(), dimension).ec !=
            std::errc())
          break;
        HloMapping mapping;
        mapping.opcode = Opcode::kConcatenate;
        mapping.attributes.emplace_back("dimensions", Braced({dimension}));
        return mapping;
      }
    }
    return std::nullopt;
  }
  if (name == "iota") {
    for (std::string_view key : {"dim", "iota_dimension"}) {
      if (auto value = ValueOf(text, key)) {
        std::string_view number = TrimText(value->substr(0, value->find(':')));
        int64_t dimension = 0;
        if (std::from_chars(number.data(), number.data() + number.size(), dimension).ec !=
            std::errc())
          break;
        HloMapping mapping;
        mapping.opcode = Opcode::kIota;
        mapping.attributes.emplace_back("iota_dimension", std::to_string(dimension));
        return mapping;
      }
    }
    return std::nullopt;
  }
  if (name == "compare") return MapCompare(text);
  if (name == "convolution") return MapConvolution(text, operand_shapes);
  if (name == "reduce_window") return MapReduceWindow(operation, operand_shapes);
  if (name == "slice") return MapSlice(text);
  if (name == "reduce") {
    if (operand_shapes.size() < 2 || operand_shapes.size() % 2 != 0) {
      why = "reduce needs as many initial values as inputs";
      return std::nullopt;
    }
    return MapReduce(operation);
  }
  if (name == "constant") {
    HloMapping mapping;
    mapping.opcode = Opcode::kConstant;
    std::optional<std::string_view> payload = DensePayload(text);
    if (payload && result.IsArray() && result.ElementCount() > kMaxTextElements) {
      if (auto bytes = HexBytes(*payload, result.element_type(), result.ElementCount())) {
        mapping.constant_bytes = std::move(*bytes);
        mapping.literal = "{...}";
        return mapping;
      }
    }
    auto literal = Literal(text, result);
    if (!literal) return std::nullopt;
    mapping.literal = *literal;
    return mapping;
  }
  return MapStablehloOnly(name, operation, operand_shapes, result, why);
}

}  // namespace

std::optional<HloMapping> MapStablehloOperation(const MlirOperation& operation,
                                                const std::vector<Shape>& operand_shapes,
                                                const Shape& result, std::string* why) {
  std::string reason;
  std::optional<HloMapping> mapping = MapOperation(operation, operand_shapes, result, reason);
  if (!mapping && why != nullptr) *why = std::move(reason);
  return mapping;
}

}  // namespace fusescope::ir::mlir_import
