#ifndef FUSESCOPE_PASSES_LITERAL_VALUE_H_
#define FUSESCOPE_PASSES_LITERAL_VALUE_H_

// The elements of an array constant, read from its literal text (`constant({1, 2, 3})`) and
// written back the way XLA prints literals. Used by passes that look at constant values
// (x + 0, select on a constant predicate) and by constant folding.
//
// Elements are kept in logical row-major order, as the text lists them whatever the layout.
// Integers and predicates hold their value as int64 (u64 as its bit pattern); floating-point
// elements hold a double, already rounded to the element type when set through SetDouble.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/instruction.h"
#include "ir/module.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::passes {

class LiteralValue {
 public:
  // Zero-filled array of `type` with `dims`.
  LiteralValue(ir::PrimitiveType type, std::vector<int64_t> dims);

  // Reads `text` as the literal of an array `shape`. nullopt when the text is elided
  // (`{...}`), complex, not a number list, or has the wrong element count.
  static std::optional<LiteralValue> Parse(std::string_view text, const ir::Shape& shape);
  // Reads `size` bytes in ir::ConstantBytes' layout as an array `shape`; nullopt for a size
  // that is not the shape's or a type without such a layout.
  static std::optional<LiteralValue> FromBytes(const uint8_t* data, int64_t size,
                                               const ir::Shape& shape);
  // A constant's value: its bytes when it has them, else its literal text.
  static std::optional<LiteralValue> Of(const ir::Instruction& constant);

  // Whether values of `type` can be computed exactly here: pred, integers up to 64 bits,
  // f32 and f64. (Narrow floats would need their own rounding to match XLA.)
  static bool IsComputableType(ir::PrimitiveType type);

  ir::PrimitiveType type() const { return type_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t element_count() const { return static_cast<int64_t>(count_); }
  bool is_floating() const;

  double GetDouble(int64_t index) const;
  int64_t GetInt(int64_t index) const;
  // Rounds to the element type (f32 stores the float value); integers convert as XLA does.
  void SetDouble(int64_t index, double value);
  // Wraps to the element type's width (pred: nonzero is true).
  void SetInt(int64_t index, int64_t value);

  // Every element equals `value` (0 matches -0).
  bool AllEqual(double value) const;

  // `5`, `{1, 2}`, `{ { 1, 2 }, { 3, 4 } }`; floats in the shortest text that reads back to
  // the same value.
  std::string ToText() const;

 private:
  std::string ElementText(size_t index) const;
  void AppendNested(std::string& out, size_t dim, size_t& next) const;

  ir::PrimitiveType type_;
  std::vector<int64_t> dims_;
  size_t count_ = 0;
  std::vector<double> floats_;  // floating-point types
  std::vector<int64_t> ints_;   // pred and integer types
};

// Gives every constant of `module` that holds its value as bytes alone (literal `{...}`) its
// full literal text, for text that another compiler must run (`fusescope export`). Returns
// how many it spelled out; an error names a constant whose bytes do not fit its shape.
StatusOr<int64_t> SpellOutConstants(ir::Module& module);

// Integer helpers shared by the passes that compute on literals.
int64_t WrapToType(int64_t value, ir::PrimitiveType type);

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_LITERAL_VALUE_H_
