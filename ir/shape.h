#ifndef FUSESCOPE_IR_SHAPE_H_
#define FUSESCOPE_IR_SHAPE_H_

// Shapes as XLA writes them: an element type, dimensions (static, bounded-dynamic `<=N`
// or unbounded `?`), an optional layout, or a (nested) tuple of shapes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::ir {

enum class PrimitiveType : uint8_t {
  kInvalid,
  kPred,
  kS1, kS2, kS4, kS8, kS16, kS32, kS64,
  kU1, kU2, kU4, kU8, kU16, kU32, kU64,
  kF4E2M1FN, kF8E3M4, kF8E4M3, kF8E4M3FN, kF8E4M3B11FNUZ, kF8E4M3FNUZ, kF8E5M2,
  kF8E5M2FNUZ, kF8E8M0FNU,
  kBF16, kF16, kF32, kF64,
  kC64, kC128,
  kTuple, kToken, kOpaque,
};

// "f32" -> kF32; nullopt for a name XLA does not know.
std::optional<PrimitiveType> PrimitiveTypeFromName(std::string_view name);
std::string_view PrimitiveTypeName(PrimitiveType type);
// Size of one element in bits (sub-byte types are packed); 0 for tuple/token/opaque.
int PrimitiveTypeBitWidth(PrimitiveType type);
bool IsFloatingPointType(PrimitiveType type);
bool IsComplexType(PrimitiveType type);
bool IsIntegralType(PrimitiveType type);  // signed or unsigned, not pred
bool IsSignedIntegralType(PrimitiveType type);

// Marks a tile dimension written as `*` (combine with the next dimension).
inline constexpr int64_t kCombineTileDimension = INT64_MIN;

// A layout: minor_to_major order plus TPU/GPU tiling and memory space. Fields that XLA
// prints after the tiles which we do not interpret (element size `E(4)`, index primitive
// types `L(s32)`, dynamic shape metadata, ...) are kept verbatim in `extra` so that printing
// loses nothing.
struct Layout {
  std::vector<int64_t> minor_to_major;
  std::vector<std::vector<int64_t>> tiles;  // each T(...) group
  int64_t memory_space = 0;                 // S(n)
  std::string extra;                        // uninterpreted suffix, printed as is

  bool operator==(const Layout& other) const = default;
  // "{1,0:T(8,128)S(1)}".
  std::string ToString() const;
};

class Shape {
 public:
  // Bounded dynamic dimensions print as `<=N`; unbounded ones as `?`.
  static constexpr int64_t kUnboundedSize = -1;

  Shape() = default;
  Shape(PrimitiveType type, std::vector<int64_t> dims);
  static Shape Tuple(std::vector<Shape> elements);
  static Shape Token();

  PrimitiveType element_type() const { return element_type_; }
  void set_element_type(PrimitiveType type) { element_type_ = type; }
  bool IsTuple() const { return element_type_ == PrimitiveType::kTuple; }
  bool IsToken() const { return element_type_ == PrimitiveType::kToken; }
  bool IsArray() const;  // not tuple, token, opaque or invalid

  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  const std::vector<int64_t>& dimensions() const { return dims_; }
  int64_t dimension(int64_t i) const { return dims_[static_cast<size_t>(i)]; }
  void set_dimensions(std::vector<int64_t> dims);
  bool is_dynamic_dimension(int64_t i) const {
    return !dynamic_.empty() && dynamic_[static_cast<size_t>(i)];
  }
  void set_dynamic_dimension(int64_t i, bool dynamic);
  bool IsScalar() const { return IsArray() && dims_.empty(); }

  const std::optional<Layout>& layout() const { return layout_; }
  std::optional<Layout>& mutable_layout() { return layout_; }
  void set_layout(Layout layout) { layout_ = std::move(layout); }
  void clear_layout() { layout_.reset(); }

  const std::vector<Shape>& tuple_shapes() const { return tuple_; }
  std::vector<Shape>& mutable_tuple_shapes() { return tuple_; }

  // Number of array elements (1 for a scalar); 0 for tuples and tokens.
  int64_t ElementCount() const;
  // Bytes of the array, or of all leaves for a tuple (sub-byte types rounded up).
  int64_t ByteSize() const;
  // Same element type and dimensions (and tuple structure); layouts ignored.
  bool Compatible(const Shape& other) const;
  // Its layout, if it has one, is row-major (minor_to_major descending): the order our
  // buffers hold values in.
  bool IsRowMajor() const;
  bool operator==(const Shape& other) const;  // includes layouts
  bool operator!=(const Shape& other) const { return !(*this == other); }

  // "f32[8,16]{1,0}". With `with_layout` false the layout is omitted. Tuples print with
  // `/*index=N*/` annotations every `index_interval` elements when it is non-zero, as XLA does.
  std::string ToString(bool with_layout = true, int index_interval = 0) const;

 private:
  // Same dynamic marks; both shapes have the rank of this one.
  bool SameDynamicDimensions(const Shape& other) const;

  PrimitiveType element_type_ = PrimitiveType::kInvalid;
  std::vector<int64_t> dims_;
  // Empty while every dimension is static, which is nearly always: most shapes then cost one
  // allocation fewer.
  std::vector<bool> dynamic_;
  std::optional<Layout> layout_;
  std::vector<Shape> tuple_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_SHAPE_H_
