// The scalar side of the kernel emitter: element types, affine maps, and one elementwise
// opcode as arith/math code inside a linalg.generic body.

#include "runtime/mlir_scalar_code.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace fusescope::runtime::mlir_text {

using ir::Opcode;
using ir::PrimitiveType;

namespace {

std::string Dims(int64_t rank) {
  std::vector<std::string> parts;
  for (int64_t d = 0; d < rank; ++d) parts.push_back("d" + std::to_string(d));
  return Join(parts);
}

}  // namespace

std::optional<std::string> ScalarType(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kPred:
      return "i1";
    case PrimitiveType::kS8:
    case PrimitiveType::kU8:
      return "i8";
    case PrimitiveType::kS16:
    case PrimitiveType::kU16:
      return "i16";
    case PrimitiveType::kS32:
    case PrimitiveType::kU32:
      return "i32";
    case PrimitiveType::kS64:
    case PrimitiveType::kU64:
      return "i64";
    case PrimitiveType::kF16:
      return "f16";
    case PrimitiveType::kBF16:
      return "bf16";
    case PrimitiveType::kF32:
      return "f32";
    case PrimitiveType::kF64:
      return "f64";
    default:
      return std::nullopt;
  }
}

bool IsFloat(PrimitiveType type) {
  return IsNarrowFloat(type) || type == PrimitiveType::kF32 || type == PrimitiveType::kF64;
}
bool IsNarrowFloat(PrimitiveType type) {
  return type == PrimitiveType::kF16 || type == PrimitiveType::kBF16;
}

std::string WidenToF64(ScalarCode& c, const std::string& x, PrimitiveType type) {
  if (type == PrimitiveType::kF16) return c.Cast("arith.extf", x, "f16", "f64");
  // bf16 is the high half of an f32.
  const std::string bits = c.Cast("arith.bitcast", x, "bf16", "i16");
  const std::string wide = c.Cast("arith.extui", bits, "i16", "i32");
  const std::string shifted = c.Bin("arith.shli", wide, c.Const("16", "i32"), "i32");
  return c.Cast("arith.extf", c.Cast("arith.bitcast", shifted, "i32", "f32"), "f32", "f64");
}

std::string NarrowFromF64(ScalarCode& c, const std::string& x, PrimitiveType type) {
  if (type == PrimitiveType::kF16) return c.Cast("arith.truncf", x, "f64", "f16");
  // f64 -> f32 rounding to odd (toward zero, lowest bit set when inexact), then f32 -> bf16
  // rounding to nearest even on the bits: one correct rounding, as no libm call does it.
  const std::string nearest = c.Cast("arith.truncf", x, "f64", "f32");
  const std::string back = c.Cast("arith.extf", nearest, "f32", "f64");
  const std::string bits = c.Cast("arith.bitcast", nearest, "f32", "i32");
  const std::string inexact = c.Cmp("arith.cmpf", "one", back, x, "f64");
  const std::string away = c.Cmp("arith.cmpf", "ogt", c.Un("math.absf", back, "f64"),
                                 c.Un("math.absf", x, "f64"), "f64");
  const std::string toward_zero =
      c.Select(away, c.Bin("arith.subi", bits, c.Const("1", "i32"), "i32"), bits, "i32");
  const std::string odd =
      c.Select(inexact, c.Bin("arith.ori", toward_zero, c.Const("1", "i32"), "i32"), bits, "i32");
  const std::string high = c.Bin("arith.shrui", odd, c.Const("16", "i32"), "i32");
  const std::string lsb = c.Bin("arith.andi", high, c.Const("1", "i32"), "i32");
  const std::string bias = c.Bin("arith.addi", lsb, c.Const("32767", "i32"), "i32");
  const std::string biased = c.Bin("arith.addi", odd, bias, "i32");
  const std::string rounded = c.Bin("arith.shrui", biased, c.Const("16", "i32"), "i32");
  const std::string is_nan = c.Cmp("arith.cmpf", "uno", x, x, "f64");
  const std::string result = c.Select(is_nan, c.Const("32704", "i32"), rounded, "i32");
  return c.Cast("arith.bitcast", c.Cast("arith.trunci", result, "i32", "i16"), "i16", "bf16");
}
bool IsUnsigned(PrimitiveType type) {
  return ir::IsIntegralType(type) && !ir::IsSignedIntegralType(type);
}
int Bits(PrimitiveType type) {
  return type == PrimitiveType::kPred ? 1 : ir::PrimitiveTypeBitWidth(type);
}

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}
std::string JoinInts(const std::vector<int64_t>& values, const char* separator) {
  std::vector<std::string> parts;
  for (int64_t v : values) parts.push_back(std::to_string(v));
  return Join(parts, separator);
}

// affine_map<(d0, ..., d{rank-1}) -> (results)>
std::string Map(int64_t rank, const std::vector<std::string>& results) {
  return "affine_map<(" + Dims(rank) + ") -> (" + Join(results) + ")>";
}
std::string IdentityMap(int64_t rank) {
  std::vector<std::string> results;
  for (int64_t d = 0; d < rank; ++d) results.push_back("d" + std::to_string(d));
  return Map(rank, results);
}

// An MLIR float literal for `value` in `type` (exact: hexadecimal bits).
std::string FloatConst(double value, PrimitiveType type) {
  char text[40];
  if (type == PrimitiveType::kF32) {
    const float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    std::snprintf(text, sizeof text, "0x%08X", bits);
  } else {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    std::snprintf(text, sizeof text, "0x%016llX", static_cast<unsigned long long>(bits));
  }
  return text;
}

// The largest or smallest signed integer of `bits` bits, as text.
std::string SignedLimit(int bits, bool largest) {
  if (bits == 64) return largest ? "9223372036854775807" : "-9223372036854775808";
  const int64_t magnitude = int64_t{1} << (bits - 1);
  return std::to_string(largest ? magnitude - 1 : -magnitude);
}

// XLA's convert: floats to integers saturate and NaN becomes 0; pred is "nonzero".
StatusOr<std::string> EmitConvert(ScalarCode& c, const std::string& x, PrimitiveType from,
                                  PrimitiveType to) {
  const std::string ft = *ScalarType(from);
  const std::string tt = *ScalarType(to);
  if (from == to) return x;
  if (to == PrimitiveType::kPred) {
    if (IsFloat(from)) return c.Cmp("arith.cmpf", "une", x, c.Const("0.0", ft), ft);
    return c.Cmp("arith.cmpi", "ne", x, c.Const("0", ft), ft);
  }
  if (IsFloat(from) && IsFloat(to)) {
    return Bits(from) < Bits(to) ? c.Cast("arith.extf", x, ft, tt)
                                 : c.Cast("arith.truncf", x, ft, tt);
  }
  if (!IsFloat(from) && IsFloat(to)) {
    const bool is_unsigned = IsUnsigned(from) || from == PrimitiveType::kPred;
    return c.Cast(is_unsigned ? "arith.uitofp" : "arith.sitofp", x, ft, tt);
  }
  if (!IsFloat(from) && !IsFloat(to)) {
    const int fb = Bits(from);
    const int tb = Bits(to);
    if (fb == tb) return x;
    if (fb > tb) return c.Cast("arith.trunci", x, ft, tt);
    const bool zero_extend = IsUnsigned(from) || from == PrimitiveType::kPred;
    return c.Cast(zero_extend ? "arith.extui" : "arith.extsi", x, ft, tt);
  }
  // Float to integer: clamp to the target's range in the float domain, NaN to 0.
  const bool is_unsigned = IsUnsigned(to);
  const int tb = Bits(to);
  const double low = is_unsigned ? 0.0 : -std::ldexp(1.0, tb - 1);
  const double high = is_unsigned ? std::ldexp(1.0, tb) : std::ldexp(1.0, tb - 1);
  const std::string raw = c.Cast(is_unsigned ? "arith.fptoui" : "arith.fptosi", x, ft, tt);
  const std::string max_int = c.Const(is_unsigned ? "-1" : SignedLimit(tb, true), tt);
  const std::string min_int = c.Const(is_unsigned ? "0" : SignedLimit(tb, false), tt);
  const std::string too_high =
      c.Cmp("arith.cmpf", "oge", x, c.Const(FloatConst(high, from), ft), ft);
  const std::string too_low = c.Cmp("arith.cmpf", "ole", x, c.Const(FloatConst(low, from), ft), ft);
  const std::string is_nan = c.Cmp("arith.cmpf", "uno", x, x, ft);
  std::string r = c.Select(too_high, max_int, raw, tt);
  r = c.Select(too_low, min_int, r, tt);
  return c.Select(is_nan, c.Const("0", tt), r, tt);
}

// The scalar computation of an elementwise opcode on already-converted operands.
namespace {

// EmitScalarOp on operands of `in_type` giving `out_type` (f16 already widened to f64).
StatusOr<std::string> EmitScalarOpAs(ScalarCode& c, const ir::Instruction& instruction,
                                     const std::vector<Scalar>& a, PrimitiveType in_type,
                                     PrimitiveType out_type) {
  const Opcode opcode = instruction.opcode();
  const std::string t = *ScalarType(in_type);
  const bool is_float = IsFloat(in_type);
  const bool is_unsigned = IsUnsigned(in_type) || in_type == PrimitiveType::kPred;
  const std::string op_name(instruction.opcode_name());
  auto refuse = [&]() -> StatusOr<std::string> {
    return Status::Error("opcode " + op_name + " on " +
                         std::string(ir::PrimitiveTypeName(in_type)) + " is not lowered to MLIR");
  };
  auto fbin = [&](const char* op) { return c.Bin(op, a[0].name, a[1].name, t); };
  auto fun = [&](const char* op) { return c.Un(op, a[0].name, t); };
  switch (opcode) {
    case Opcode::kAdd:
      return is_float ? fbin("arith.addf") : fbin("arith.addi");
    case Opcode::kSubtract:
      return is_float ? fbin("arith.subf") : fbin("arith.subi");
    case Opcode::kMultiply:
      return is_float ? fbin("arith.mulf") : fbin("arith.muli");
    case Opcode::kMaximum:
      return is_float ? fbin("arith.maximumf") : fbin(is_unsigned ? "arith.maxui" : "arith.maxsi");
    case Opcode::kMinimum:
      return is_float ? fbin("arith.minimumf") : fbin(is_unsigned ? "arith.minui" : "arith.minsi");
    case Opcode::kDivide:
    case Opcode::kRemainder: {
      const bool divide = opcode == Opcode::kDivide;
      if (is_float) return fbin(divide ? "arith.divf" : "arith.remf");
      if (in_type == PrimitiveType::kPred) return refuse();
      // XLA: x / 0 = -1 (all ones), x % 0 = x; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
      const std::string zero = c.Const("0", t);
      const std::string one = c.Const("1", t);
      const std::string minus_one = c.Const("-1", t);
      const std::string by_zero = c.Cmp("arith.cmpi", "eq", a[1].name, zero, t);
      std::string divisor = c.Select(by_zero, one, a[1].name, t);
      std::string guard = by_zero;
      if (!is_unsigned) {
        const int bits = Bits(in_type);
        const std::string int_min = c.Const(SignedLimit(bits, false), t);
        const std::string is_min = c.Cmp("arith.cmpi", "eq", a[0].name, int_min, t);
        const std::string by_minus_one = c.Cmp("arith.cmpi", "eq", a[1].name, minus_one, t);
        const std::string overflow = c.Bin("arith.andi", is_min, by_minus_one, "i1");
        divisor = c.Select(overflow, one, divisor, t);
        // INT_MIN / 1 = INT_MIN and INT_MIN % 1 = 0: what XLA defines for the overflow.
      }
      const char* op = divide ? (is_unsigned ? "arith.divui" : "arith.divsi")
                              : (is_unsigned ? "arith.remui" : "arith.remsi");
      const std::string q = c.Bin(op, a[0].name, divisor, t);
      return c.Select(guard, divide ? minus_one : a[0].name, q, t);
    }
    case Opcode::kPower:
      return is_float ? fbin("math.powf") : refuse();
    case Opcode::kAtan2:
      return is_float ? fbin("math.atan2") : refuse();
    case Opcode::kAnd:
      return is_float ? refuse() : fbin("arith.andi");
    case Opcode::kOr:
      return is_float ? refuse() : fbin("arith.ori");
    case Opcode::kXor:
      return is_float ? refuse() : fbin("arith.xori");
    case Opcode::kNot:
      if (is_float) return refuse();
      return c.Bin("arith.xori", a[0].name,
                   c.Const(in_type == PrimitiveType::kPred ? "true" : "-1", t), t);
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightLogical:
    case Opcode::kShiftRightArithmetic: {
      if (is_float || in_type == PrimitiveType::kPred) return refuse();
      const int bits = Bits(in_type);
      const std::string width = c.Const(std::to_string(bits), t);
      const std::string in_range = c.Cmp("arith.cmpi", "ult", a[1].name, width, t);
      const std::string zero = c.Const("0", t);
      const std::string safe = c.Select(in_range, a[1].name, zero, t);
      if (opcode == Opcode::kShiftLeft)
        return c.Select(in_range, c.Bin("arith.shli", a[0].name, safe, t), zero, t);
      if (opcode == Opcode::kShiftRightLogical)
        return c.Select(in_range, c.Bin("arith.shrui", a[0].name, safe, t), zero, t);
      const std::string all = c.Const(std::to_string(bits - 1), t);
      return c.Bin("arith.shrsi", a[0].name, c.Select(in_range, safe, all, t), t);
    }
    case Opcode::kAbs:
      if (is_float) return fun("math.absf");
      if (is_unsigned) return a[0].name;
      return fun("math.absi");
    case Opcode::kNegate:
      if (is_float) return fun("arith.negf");
      return c.Bin("arith.subi", c.Const("0", t), a[0].name, t);
    case Opcode::kSign: {
      if (in_type == PrimitiveType::kPred) return refuse();
      if (is_float) {
        const std::string zero = c.Const("0.0", t);
        const std::string gt = c.Cmp("arith.cmpf", "ogt", a[0].name, zero, t);
        const std::string lt = c.Cmp("arith.cmpf", "olt", a[0].name, zero, t);
        const std::string plus_one = c.Const("1.0", t);
        const std::string below = c.Select(lt, c.Const("-1.0", t), a[0].name, t);
        return c.Select(gt, plus_one, below, t);
      }
      const std::string zero = c.Const("0", t);
      const std::string gt = c.Cmp("arith.cmpi", is_unsigned ? "ugt" : "sgt", a[0].name, zero, t);
      const std::string lt = c.Cmp("arith.cmpi", "slt", a[0].name, zero, t);
      if (is_unsigned) return c.Select(gt, c.Const("1", t), zero, t);
      const std::string plus_one = c.Const("1", t);
      const std::string below = c.Select(lt, c.Const("-1", t), zero, t);
      return c.Select(gt, plus_one, below, t);
    }
    case Opcode::kPopulationCount:
      return is_float || in_type == PrimitiveType::kPred ? refuse() : fun("math.ctpop");
    case Opcode::kClz:
      return is_float || in_type == PrimitiveType::kPred ? refuse() : fun("math.ctlz");
    case Opcode::kIsFinite: {
      if (!is_float) return refuse();
      const std::string magnitude = fun("math.absf");
      return c.Cmp("arith.cmpf", "one", magnitude, c.Const(FloatConst(HUGE_VAL, in_type), t), t);
    }
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kSqrt:
    case Opcode::kCbrt:
    case Opcode::kSin:
    case Opcode::kCos:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kErf:
    case Opcode::kFloor:
    case Opcode::kCeil:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven: {
      if (!is_float) return refuse();
      static const std::unordered_map<Opcode, const char*> kMath = {
          {Opcode::kExp, "math.exp"},
          {Opcode::kExpm1, "math.expm1"},
          {Opcode::kLog, "math.log"},
          {Opcode::kLog1p, "math.log1p"},
          {Opcode::kSqrt, "math.sqrt"},
          {Opcode::kCbrt, "math.cbrt"},
          {Opcode::kSin, "math.sin"},
          {Opcode::kCos, "math.cos"},
          {Opcode::kTan, "math.tan"},
          {Opcode::kTanh, "math.tanh"},
          {Opcode::kErf, "math.erf"},
          {Opcode::kFloor, "math.floor"},
          {Opcode::kCeil, "math.ceil"},
          {Opcode::kRoundNearestAfz, "math.round"},
          {Opcode::kRoundNearestEven, "math.roundeven"}};
      return fun(kMath.at(opcode));
    }
    case Opcode::kRsqrt: {
      // 1 / sqrt: math.rsqrt has no LLVM or libm lowering in MLIR 19.
      if (!is_float) return refuse();
      return c.Bin("arith.divf", c.Const("1.0", t), fun("math.sqrt"), t);
    }
    case Opcode::kLogistic: {
      if (!is_float) return refuse();
      const std::string one = c.Const("1.0", t);
      const std::string e = c.Un("math.exp", c.Un("arith.negf", a[0].name, t), t);
      return c.Bin("arith.divf", one, c.Bin("arith.addf", one, e, t), t);
    }
    case Opcode::kCompare: {
      const std::string direction(instruction.attribute("direction").value_or(""));
      const std::string order(instruction.attribute("type").value_or(""));
      static const std::unordered_map<std::string, std::pair<const char*, const char*>> kFloat = {
          {"EQ", {"oeq", "eq"}},  {"NE", {"une", "ne"}},  {"LT", {"olt", "slt"}},
          {"LE", {"ole", "sle"}}, {"GT", {"ogt", "sgt"}}, {"GE", {"oge", "sge"}}};
      auto it = kFloat.find(direction);
      if (it == kFloat.end()) return Status::Error("compare has no valid direction");
      if (is_float && order == "TOTALORDER") {
        // IEEE totalOrder as the interpreter keys it: the f64 bits, negative ones with all
        // but the sign flipped, compared as signed integers.
        auto key = [&](const std::string& x) {
          const std::string wide = t == "f64" ? x : c.Cast("arith.extf", x, t, "f64");
          const std::string bits = c.Cast("arith.bitcast", wide, "f64", "i64");
          const std::string negative = c.Cmp("arith.cmpi", "slt", bits, c.Const("0", "i64"), "i64");
          const std::string flipped =
              c.Bin("arith.xori", bits, c.Const("9223372036854775807", "i64"), "i64");
          return c.Select(negative, flipped, bits, "i64");
        };
        const std::string ka = key(a[0].name);
        const std::string kb = key(a[1].name);
        return c.Cmp("arith.cmpi", it->second.second, ka, kb, "i64");
      }
      if (is_float) return c.Cmp("arith.cmpf", it->second.first, a[0].name, a[1].name, t);
      std::string predicate = it->second.second;
      if (is_unsigned && predicate[0] == 's') predicate[0] = 'u';
      return c.Cmp("arith.cmpi", predicate, a[0].name, a[1].name, t);
    }
    case Opcode::kSelect:
      return c.Select(a[0].name, a[1].name, a[2].name, t);
    case Opcode::kClamp: {
      const std::string clamp_t = *ScalarType(out_type);
      if (IsFloat(out_type)) {
        return c.Bin("arith.minimumf", c.Bin("arith.maximumf", a[1].name, a[0].name, clamp_t),
                     a[2].name, clamp_t);
      }
      const bool u = IsUnsigned(out_type) || out_type == PrimitiveType::kPred;
      return c.Bin(u ? "arith.minui" : "arith.minsi",
                   c.Bin(u ? "arith.maxui" : "arith.maxsi", a[1].name, a[0].name, clamp_t),
                   a[2].name, clamp_t);
    }
    case Opcode::kConvert:
      return EmitConvert(c, a[0].name, in_type, out_type);
    case Opcode::kBitcastConvert: {
      if (Bits(in_type) != Bits(out_type) || in_type == PrimitiveType::kPred) return refuse();
      if (*ScalarType(in_type) == *ScalarType(out_type)) return a[0].name;
      return c.Cast("arith.bitcast", a[0].name, t, *ScalarType(out_type));
    }
    case Opcode::kCopy:
      return a[0].name;
    default:
      return refuse();
  }
}

}  // namespace

// f16 and bf16 values are computed in f64 and rounded once, as the interpreter computes
// (double, one rounding per instruction): widening is exact, and only a bit-level
// reinterpretation (bitcast-convert) must see the narrow bits themselves.
StatusOr<std::string> EmitScalarOp(ScalarCode& c, const ir::Instruction& instruction,
                                   const std::vector<Scalar>& a) {
  PrimitiveType in_type =
      instruction.operand(instruction.opcode() == Opcode::kSelect ? 1 : 0)->shape().element_type();
  PrimitiveType out_type = instruction.shape().element_type();
  if (!IsNarrowFloat(in_type) && !IsNarrowFloat(out_type))
    return EmitScalarOpAs(c, instruction, a, in_type, out_type);
  if (instruction.opcode() == Opcode::kBitcastConvert)
    return Status::Error("bitcast-convert of f16/bf16 is not lowered to MLIR");
  std::vector<Scalar> wide = a;
  // `a` may end with the generic's output argument, which is never read.
  for (size_t i = 0; i < wide.size() && static_cast<int64_t>(i) < instruction.operand_count();
       ++i) {
    const PrimitiveType type = instruction.operand(static_cast<int64_t>(i))->shape().element_type();
    if (IsNarrowFloat(type)) wide[i] = {WidenToF64(c, wide[i].name, type), "f64"};
  }
  if (IsNarrowFloat(in_type)) in_type = PrimitiveType::kF64;
  const PrimitiveType narrow = out_type;
  if (IsNarrowFloat(out_type)) out_type = PrimitiveType::kF64;
  StatusOr<std::string> value = EmitScalarOpAs(c, instruction, wide, in_type, out_type);
  if (!value.ok() || !IsNarrowFloat(narrow)) return value;
  return NarrowFromF64(c, *value, narrow);
}

bool IsLoweredElementwise(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAdd:
    case Opcode::kSubtract:
    case Opcode::kMultiply:
    case Opcode::kDivide:
    case Opcode::kRemainder:
    case Opcode::kPower:
    case Opcode::kAtan2:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
    case Opcode::kNot:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightLogical:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kAbs:
    case Opcode::kNegate:
    case Opcode::kSign:
    case Opcode::kPopulationCount:
    case Opcode::kClz:
    case Opcode::kIsFinite:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kSqrt:
    case Opcode::kRsqrt:
    case Opcode::kCbrt:
    case Opcode::kSin:
    case Opcode::kCos:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kErf:
    case Opcode::kFloor:
    case Opcode::kCeil:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kLogistic:
    case Opcode::kCompare:
    case Opcode::kSelect:
    case Opcode::kClamp:
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kCopy:
      return true;
    default:
      return false;
  }
}

}  // namespace fusescope::runtime::mlir_text
