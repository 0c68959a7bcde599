#ifndef FUSESCOPE_RUNTIME_MLIR_SCALAR_CODE_H_
#define FUSESCOPE_RUNTIME_MLIR_SCALAR_CODE_H_

// Internal to runtime/'s kernel emitter: MLIR text for element types, affine maps, and the
// scalar arith/math code of elementwise opcodes inside a linalg.generic body, with XLA's
// semantics where LLVM's differ (integer division by zero, overflowing float-to-integer
// conversion, out-of-range shifts, NaN-propagating maximum/minimum).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/instruction.h"
#include "ir/shape.h"
#include "ir/status.h"

namespace fusescope::runtime::mlir_text {

// "f32", "i1" (pred), "i32" (s32 and u32: signless); nullopt for types not lowered.
std::optional<std::string> ScalarType(ir::PrimitiveType type);
bool IsFloat(ir::PrimitiveType type);
bool IsUnsigned(ir::PrimitiveType type);
int Bits(ir::PrimitiveType type);
std::string Join(const std::vector<std::string>& parts, const char* separator = ", ");
std::string JoinInts(const std::vector<int64_t>& values, const char* separator = ", ");
// affine_map<(d0, ..., d{rank-1}) -> (results)>, and the identity map.
std::string Map(int64_t rank, const std::vector<std::string>& results);
std::string IdentityMap(int64_t rank);

// A value in the body of a linalg.generic: its SSA name and scalar type.
struct Scalar {
  std::string name;
  std::string type;
};

// Emits scalar code into a generic's body (names %t0, %t1, ...), or elsewhere with a prefix
// of names that is unique there.
class ScalarCode {
 public:
  explicit ScalarCode(std::string& code, std::string prefix = "%t", std::string indent = "      ")
      : code_(code), prefix_(std::move(prefix)), indent_(std::move(indent)) {}
  std::string Op(const std::string& text, const std::string& type_suffix) {
    const std::string name = prefix_ + std::to_string(next_++);
    code_ += indent_ + name + " = " + text + " : " + type_suffix + "\n";
    return name;
  }
  std::string Const(const std::string& value, const std::string& type) {
    return Op("arith.constant " + value, type);
  }
  std::string Bin(const std::string& op, const std::string& a, const std::string& b,
                  const std::string& type) {
    return Op(op + " " + a + ", " + b, type);
  }
  std::string Un(const std::string& op, const std::string& a, const std::string& type) {
    return Op(op + " " + a, type);
  }
  std::string Cmp(const std::string& op, const std::string& predicate, const std::string& a,
                  const std::string& b, const std::string& type) {
    return Op(op + " " + predicate + ", " + a + ", " + b, type);
  }
  std::string Select(const std::string& c, const std::string& a, const std::string& b,
                     const std::string& type) {
    return Op("arith.select " + c + ", " + a + ", " + b, type);
  }
  std::string Cast(const std::string& op, const std::string& a, const std::string& from,
                   const std::string& to) {
    const std::string name = prefix_ + std::to_string(next_++);
    code_ += indent_ + name + " = " + op + " " + a + " : " + from + " to " + to + "\n";
    return name;
  }

 private:
  std::string& code_;
  std::string prefix_;
  std::string indent_;
  int next_ = 0;
};

// f16/bf16: the types computed in f64 and rounded once. Widening is exact; narrowing rounds
// to nearest even (bf16 without any library call).
bool IsNarrowFloat(ir::PrimitiveType type);
std::string WidenToF64(ScalarCode& c, const std::string& x, ir::PrimitiveType type);
std::string NarrowFromF64(ScalarCode& c, const std::string& x, ir::PrimitiveType type);
// An MLIR float literal for `value` in `type` (exact: hexadecimal bits).
std::string FloatConst(double value, ir::PrimitiveType type);
// The largest or smallest signed integer of `bits` bits, as text.
std::string SignedLimit(int bits, bool largest);
// XLA's convert of `x` from one element type to another.
StatusOr<std::string> EmitConvert(ScalarCode& c, const std::string& x, ir::PrimitiveType from,
                                  ir::PrimitiveType to);
// The scalar computation of an elementwise opcode on its operands' scalars.
StatusOr<std::string> EmitScalarOp(ScalarCode& c, const ir::Instruction& instruction,
                                   const std::vector<Scalar>& a);
// The opcodes EmitScalarOp lowers (on some element types).
bool IsLoweredElementwise(ir::Opcode opcode);

}  // namespace fusescope::runtime::mlir_text

#endif  // FUSESCOPE_RUNTIME_MLIR_SCALAR_CODE_H_
