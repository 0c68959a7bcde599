#ifndef FUSESCOPE_RUNTIME_LITERAL_H_
#define FUSESCOPE_RUNTIME_LITERAL_H_

// A value the interpreter computes on: an array (shape, element type and the owned bytes of
// its elements in logical row-major order, whatever the shape's layout says) or a tuple of
// such values. Element types: pred, s8..s64, u8..u64, f16, bf16, f32, f64. Elements are
// stored little-endian in their own type, so the bytes are what a .npy file holds.
//
// A literal made from a constant's bytes (Shared) reads them in place, however large: a
// model's weights are not copied to be interpreted or run. Writing to such a literal (the
// mutable accessors) copies its bytes first.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ir/constant_bytes.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::runtime {

// Whether the interpreter holds arrays of `type`.
bool IsSupportedElementType(ir::PrimitiveType type);
// Bytes of one element of a supported type (pred takes a byte).
int ElementByteSize(ir::PrimitiveType type);

class Literal {
 public:
  Literal() = default;  // an empty tuple

  // A zero-filled value of `shape` (an array or a tuple of arrays). Refuses unsupported
  // element types, dynamic dimensions and sizes that do not fit in memory arithmetic.
  static StatusOr<Literal> Create(const ir::Shape& shape);
  // An array value of `shape` whose bytes are `storage` when it has exactly the value's size
  // (its contents unspecified: for a producer that writes every element), else zero-filled
  // as Create makes them.
  static StatusOr<Literal> CreateInto(const ir::Shape& shape, std::vector<uint8_t> storage);
  // An array of `shape` over `bytes` without copying them; an error when their size is not
  // the shape's.
  static StatusOr<Literal> Shared(const ir::Shape& shape, ir::ConstantBytesPtr bytes);
  // Moves the bytes out (for reuse by CreateInto); the literal is left an empty tuple.
  std::vector<uint8_t> TakeStorage();
  static Literal Tuple(std::vector<Literal> elements);
  // A scalar of `type` holding `value` (rounded / wrapped to the type).
  static Literal ScalarDouble(ir::PrimitiveType type, double value);
  static Literal ScalarInt(ir::PrimitiveType type, int64_t value);

  const ir::Shape& shape() const { return shape_; }
  ir::PrimitiveType type() const { return shape_.element_type(); }
  bool is_tuple() const {
    return shape_.IsTuple() || shape_.element_type() == ir::PrimitiveType::kInvalid;
  }
  bool is_floating() const { return ir::IsFloatingPointType(type()); }
  int64_t element_count() const { return element_count_; }

  std::vector<Literal>& elements() { return elements_; }
  const std::vector<Literal>& elements() const { return elements_; }

  uint8_t* data() {
    if (shared_) Unshare();
    return bytes_.data();
  }
  const uint8_t* data() const { return shared_ ? shared_->data() : bytes_.data(); }
  size_t byte_size() const { return shared_ ? shared_->bytes().size() : bytes_.size(); }
  // Whether the bytes are a constant's, read in place.
  bool is_shared() const { return shared_ != nullptr; }
  // Bytes of the whole value, tuple leaves included.
  int64_t TotalByteSize() const;

  // Element `index` (row-major) as a double: floats exactly, integers converted (u64 as
  // unsigned), pred 0 or 1.
  double GetDouble(int64_t index) const;
  // Rounds to the element type: floats to nearest even, integers as XLA's convert does
  // (NaN to 0, saturating), pred nonzero.
  void SetDouble(int64_t index, double value);
  // Integers and pred; u64 as its bit pattern. Floats truncate toward zero.
  int64_t GetInt(int64_t index) const;
  // Wraps to the element type's width; on floats converts the value.
  void SetInt(int64_t index, int64_t value);

  template <typename T>
  T Raw(int64_t index) const {
    T value;
    std::memcpy(&value, data() + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return value;
  }
  template <typename T>
  void SetRaw(int64_t index, T value) {
    if (shared_) Unshare();
    std::memcpy(bytes_.data() + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
  }

  // Same shape (layouts ignored) and identical bytes, tuples element by element.
  bool BitwiseEqual(const Literal& other) const;
  // "f32[2,3] {1, 2, 3, 4, 5, 6}", elided after `max_elements`.
  std::string ToString(int64_t max_elements = 64) const;

 private:
  void Unshare();

  ir::Shape shape_;
  int64_t element_count_ = 0;
  std::vector<uint8_t> bytes_;
  ir::ConstantBytesPtr shared_;  // when set, the elements' bytes and bytes_ is empty
  std::vector<Literal> elements_;
};

// How far `actual` is from `expected`, over all array leaves.
struct LiteralDifference {
  bool same_shape = true;
  double max_abs_error = 0;
  double max_rel_error =
      0;                   // |a - e| / |e| over elements with e != 0 (max_abs_error covers e == 0)
  int64_t mismatches = 0;  // elements with |a - e| > atol + rtol * |e| (NaN matches NaN)
  bool ok() const { return same_shape && mismatches == 0; }
};
LiteralDifference CompareLiterals(const Literal& actual, const Literal& expected, double rtol,
                                  double atol);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_LITERAL_H_
