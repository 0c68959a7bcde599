#include "ir/shape.h"

#include <array>
#include <utility>

namespace fusescope::ir {
namespace {

struct TypeInfo {
  PrimitiveType type;
  std::string_view name;
  int bits;
};

constexpr std::array kTypes = {
    TypeInfo{PrimitiveType::kPred, "pred", 8},
    TypeInfo{PrimitiveType::kS1, "s1", 1},
    TypeInfo{PrimitiveType::kS2, "s2", 2},
    TypeInfo{PrimitiveType::kS4, "s4", 4},
    TypeInfo{PrimitiveType::kS8, "s8", 8},
    TypeInfo{PrimitiveType::kS16, "s16", 16},
    TypeInfo{PrimitiveType::kS32, "s32", 32},
    TypeInfo{PrimitiveType::kS64, "s64", 64},
    TypeInfo{PrimitiveType::kU1, "u1", 1},
    TypeInfo{PrimitiveType::kU2, "u2", 2},
    TypeInfo{PrimitiveType::kU4, "u4", 4},
    TypeInfo{PrimitiveType::kU8, "u8", 8},
    TypeInfo{PrimitiveType::kU16, "u16", 16},
    TypeInfo{PrimitiveType::kU32, "u32", 32},
    TypeInfo{PrimitiveType::kU64, "u64", 64},
    TypeInfo{PrimitiveType::kF4E2M1FN, "f4e2m1fn", 4},
    TypeInfo{PrimitiveType::kF8E3M4, "f8e3m4", 8},
    TypeInfo{PrimitiveType::kF8E4M3, "f8e4m3", 8},
    TypeInfo{PrimitiveType::kF8E4M3FN, "f8e4m3fn", 8},
    TypeInfo{PrimitiveType::kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    TypeInfo{PrimitiveType::kF8E4M3FNUZ, "f8e4m3fnuz", 8},
    TypeInfo{PrimitiveType::kF8E5M2, "f8e5m2", 8},
    TypeInfo{PrimitiveType::kF8E5M2FNUZ, "f8e5m2fnuz", 8},
    TypeInfo{PrimitiveType::kF8E8M0FNU, "f8e8m0fnu", 8},
    TypeInfo{PrimitiveType::kBF16, "bf16", 16},
    TypeInfo{PrimitiveType::kF16, "f16", 16},
    TypeInfo{PrimitiveType::kF32, "f32", 32},
    TypeInfo{PrimitiveType::kF64, "f64", 64},
    TypeInfo{PrimitiveType::kC64, "c64", 64},
    TypeInfo{PrimitiveType::kC128, "c128", 128},
    TypeInfo{PrimitiveType::kToken, "token", 0},
    TypeInfo{PrimitiveType::kOpaque, "opaque", 0},
};

// Element type names are looked up for every shape the parser reads, so by a hash that puts
// each of them in a slot of its own (93 is a multiplier for which none collide).
constexpr size_t kTypeSlotCount = 128;

constexpr size_t TypeNameSlot(std::string_view name) {
  uint32_t hash = 0;
  for (char c : name) hash = hash * 93 + static_cast<unsigned char>(c);
  return hash % kTypeSlotCount;
}

// Slot -> position in kTypes, or -1.
constexpr std::array<int8_t, kTypeSlotCount> kTypeSlots = [] {
  std::array<int8_t, kTypeSlotCount> slots{};
  slots.fill(-1);
  for (size_t i = 0; i < kTypes.size(); ++i) slots[TypeNameSlot(kTypes[i].name)] = int8_t(i);
  return slots;
}();

constexpr bool EveryTypeHasItsSlot() {
  for (size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypeSlots[TypeNameSlot(kTypes[i].name)] != int8_t(i)) return false;
  }
  return true;
}
static_assert(EveryTypeHasItsSlot(),
              "two element type names share a slot; pick another multiplier");

const TypeInfo* FindType(PrimitiveType type) {
  for (const TypeInfo& info : kTypes) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

void AppendIntList(std::string& out, const std::vector<int64_t>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
}

}  // namespace

std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name) {
  const int8_t index = kTypeSlots[TypeNameSlot(name)];
  if (index < 0 || kTypes[static_cast<size_t>(index)].name != name) return std::nullopt;
  return kTypes[static_cast<size_t>(index)].type;
}

std::string_view PrimitiveTypeName(PrimitiveType type) {
  if (type == PrimitiveType::kTuple) return "tuple";
  const TypeInfo* info = FindType(type);
  return info ? info->name : "invalid";
}

int PrimitiveTypeBitWidth(PrimitiveType type) {
  const TypeInfo* info = FindType(type);
  return info ? info->bits : 0;
}

bool IsFloatingPointType(PrimitiveType type) {
  return type >= PrimitiveType::kF4E2M1FN && type <= PrimitiveType::kF64;
}

bool IsComplexType(PrimitiveType type) {
  return type == PrimitiveType::kC64 || type == PrimitiveType::kC128;
}

bool IsSignedIntegralType(PrimitiveType type) {
  return type >= PrimitiveType::kS1 && type <= PrimitiveType::kS64;
}

bool IsIntegralType(PrimitiveType type) {
  return type >= PrimitiveType::kS1 && type <= PrimitiveType::kU64;
}

std::string Layout::ToString() const {
  std::string out = "{";
  AppendIntList(out, minor_to_major);
  if (!tiles.empty() || memory_space != 0 || !extra.empty()) {
    out += ':';
    // XLA writes one T followed by every tile: T(8,128)(2,1).
    if (!tiles.empty()) out += 'T';
    for (const std::vector<int64_t>& tile : tiles) {
      out += '(';
      for (size_t i = 0; i < tile.size(); ++i) {
        if (i) out += ',';
        out += tile[i] == kCombineTileDimension ? "*" : std::to_string(tile[i]);
      }
      out += ')';
    }
    out += extra;
    if (memory_space != 0) out += "S(" + std::to_string(memory_space) + ")";
  }
  out += '}';
  return out;
}

Shape::Shape(PrimitiveType type, std::vector<int64_t> dims) : element_type_(type) {
  set_dimensions(std::move(dims));
}

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape shape;
  shape.element_type_ = PrimitiveType::kTuple;
  shape.tuple_ = std::move(elements);
  return shape;
}

Shape Shape::Token() {
  Shape shape;
  shape.element_type_ = PrimitiveType::kToken;
  return shape;
}

bool Shape::IsArray() const {
  return element_type_ != PrimitiveType::kTuple && element_type_ != PrimitiveType::kToken &&
         element_type_ != PrimitiveType::kOpaque && element_type_ != PrimitiveType::kInvalid;
}

void Shape::set_dimensions(std::vector<int64_t> dims) {
  dims_ = std::move(dims);
  dynamic_.clear();
}

void Shape::set_dynamic_dimension(int64_t i, bool dynamic) {
  if (dynamic_.empty()) {
    if (!dynamic) return;
    dynamic_.assign(dims_.size(), false);
  }
  dynamic_[static_cast<size_t>(i)] = dynamic;
}

bool Shape::SameDynamicDimensions(const Shape& other) const {
  for (size_t i = 0; i < dims_.size(); ++i) {
    const auto dimension = static_cast<int64_t>(i);
    if (is_dynamic_dimension(dimension) != other.is_dynamic_dimension(dimension)) return false;
  }
  return true;
}

int64_t Shape::ElementCount() const {
  if (!IsArray()) return 0;
  int64_t count = 1;
  for (int64_t d : dims_) count *= d < 0 ? 0 : d;
  return count;
}

int64_t Shape::ByteSize() const {
  if (IsTuple()) {
    int64_t total = 0;
    for (const Shape& element : tuple_) total += element.ByteSize();
    return total;
  }
  const int64_t bits = ElementCount() * PrimitiveTypeBitWidth(element_type_);
  return (bits + 7) / 8;
}

bool Shape::IsRowMajor() const {
  if (!layout_ || layout_->minor_to_major.empty()) return true;
  const std::vector<int64_t>& order = layout_->minor_to_major;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<int64_t>(order.size() - 1 - i)) return false;
  }
  return true;
}

bool Shape::Compatible(const Shape& other) const {
  if (element_type_ != other.element_type_) return false;
  if (IsTuple()) {
    if (tuple_.size() != other.tuple_.size()) return false;
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (!tuple_[i].Compatible(other.tuple_[i])) return false;
    }
    return true;
  }
  return dims_ == other.dims_;
}

bool Shape::operator==(const Shape& other) const {
  return element_type_ == other.element_type_ && dims_ == other.dims_ &&
         SameDynamicDimensions(other) && layout_ == other.layout_ && tuple_ == other.tuple_;
}

std::string Shape::ToString(bool with_layout, int index_interval) const {
  if (IsTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i) {
        out += ", ";
        if (index_interval > 0 && i % static_cast<size_t>(index_interval) == 0) {
          out += "/*index=" + std::to_string(i) + "*/";
        }
      }
      out += tuple_[i].ToString(with_layout, index_interval);
    }
    out += ')';
    return out;
  }
  std::string out(PrimitiveTypeName(element_type_));
  if (!IsArray()) return element_type_ == PrimitiveType::kInvalid ? out : out + "[]";  // token[]
  out += '[';
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ',';
    if (is_dynamic_dimension(static_cast<int64_t>(i))) {
      out += dims_[i] == kUnboundedSize ? "?" : "<=" + std::to_string(dims_[i]);
    } else {
      out += std::to_string(dims_[i]);
    }
  }
  out += ']';
  if (with_layout && layout_) out += layout_->ToString();
  return out;
}

}  // namespace fusescope::ir
