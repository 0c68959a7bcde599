#include "importers/mlir/chlo_expansion.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "ir/instruction.h"

namespace fusescope::ir::mlir_import {
namespace {

constexpr double kLogHalf = -0.69314718055994530942;
constexpr double kLogTwo = 0.69314718055994530942;
constexpr double kPi = 3.14159265358979323846;

// Builds elementwise HLO over one array shape into a computation.
class Emitter {
 public:
  Emitter(const Shape& shape, Computation& computation,
          const std::function<std::string(std::string_view)>& unique_name)
      : shape_(shape), computation_(computation), unique_name_(unique_name) {}

  Instruction* Parameter() {
    auto parameter = Instruction::Create(Opcode::kParameter, shape_, {}, unique_name_("x"));
    parameter->set_parameter_number(0);
    return Add(std::move(parameter));
  }

  Instruction* Op(Opcode opcode, std::vector<Instruction*> operands) {
    return Add(Instruction::Create(opcode, shape_, std::move(operands),
                                   unique_name_(std::string(OpcodeName(opcode)))));
  }
  Instruction* Add(Instruction* a, Instruction* b) { return Op(Opcode::kAdd, {a, b}); }
  Instruction* Sub(Instruction* a, Instruction* b) { return Op(Opcode::kSubtract, {a, b}); }
  Instruction* Mul(Instruction* a, Instruction* b) { return Op(Opcode::kMultiply, {a, b}); }
  Instruction* Div(Instruction* a, Instruction* b) { return Op(Opcode::kDivide, {a, b}); }

  // `value` in every element.
  Instruction* Constant(double value) {
    auto scalar = Instruction::Create(Opcode::kConstant, Shape(shape_.element_type(), {}), {},
                                      unique_name_("constant"));
    scalar->set_literal(LiteralText(value));
    Instruction* added = Add(std::move(scalar));
    if (shape_.rank() == 0) return added;
    auto broadcast =
        Instruction::Create(Opcode::kBroadcast, shape_, {added}, unique_name_("broadcast"));
    broadcast->SetAttribute("dimensions", "{}");
    return Add(std::move(broadcast));
  }

  Instruction* Compare(Instruction* a, Instruction* b, std::string_view direction) {
    auto compare =
        Instruction::Create(Opcode::kCompare, Shape(PrimitiveType::kPred, shape_.dimensions()),
                            {a, b}, unique_name_("compare"));
    compare->SetAttribute("direction", std::string(direction));
    return Add(std::move(compare));
  }

  Instruction* Select(Instruction* predicate, Instruction* on_true, Instruction* on_false) {
    return Op(Opcode::kSelect, {predicate, on_true, on_false});
  }

  // c0 * w^(n-1) + ... + c(n-1), by Horner's rule.
  Instruction* Polynomial(Instruction* w, std::initializer_list<double> coefficients) {
    Instruction* p = nullptr;
    for (double coefficient : coefficients) {
      p = p == nullptr ? Constant(coefficient) : Add(Constant(coefficient), Mul(p, w));
    }
    return p;
  }

 private:
  static std::string LiteralText(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
  }

  Instruction* Add(std::unique_ptr<Instruction> instruction) {
    return computation_.AddInstruction(std::move(instruction));
  }

  const Shape& shape_;
  Computation& computation_;
  const std::function<std::string(std::string_view)>& unique_name_;
};

// Giles' single-precision approximation ("Approximating the erfinv function", 2010), with
// erf_inv(+-1) = +-inf.
Instruction* ErfInv(Emitter& e, Instruction* x) {
  Instruction* w =
      e.Op(Opcode::kNegate, {e.Op(Opcode::kLog1p, {e.Op(Opcode::kNegate, {e.Mul(x, x)})})});
  Instruction* central =
      e.Polynomial(e.Sub(w, e.Constant(2.5)),
                   {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                    -0.00125372503, -0.00417768164, 0.246640727, 1.50140941});
  Instruction* tail =
      e.Polynomial(e.Sub(e.Op(Opcode::kSqrt, {w}), e.Constant(3.0)),
                   {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                    -0.0076224613, 0.00943887047, 1.00167406, 2.83297682});
  Instruction* p = e.Select(e.Compare(w, e.Constant(5.0), "LT"), central, tail);
  Instruction* at_one = e.Compare(e.Op(Opcode::kAbs, {x}), e.Constant(1.0), "EQ");
  return e.Select(at_one, e.Mul(x, e.Constant(std::numeric_limits<double>::infinity())),
                  e.Mul(p, x));
}

// (e^x - e^-x) / 2: through expm1 near zero, where the difference would cancel; halves taken
// inside the exponentials elsewhere, so that sinh(89) does not overflow on the way.
Instruction* Sinh(Emitter& e, Instruction* x) {
  Instruction* m = e.Op(Opcode::kExpm1, {x});
  Instruction* small = e.Mul(e.Constant(0.5), e.Add(m, e.Div(m, e.Add(m, e.Constant(1.0)))));
  Instruction* large = e.Sub(e.Op(Opcode::kExp, {e.Add(x, e.Constant(kLogHalf))}),
                             e.Op(Opcode::kExp, {e.Sub(e.Constant(kLogHalf), x)}));
  return e.Select(e.Compare(e.Op(Opcode::kAbs, {x}), e.Constant(1.0), "LT"), small, large);
}

Instruction* Cosh(Emitter& e, Instruction* x) {
  return e.Add(e.Op(Opcode::kExp, {e.Add(x, e.Constant(kLogHalf))}),
               e.Op(Opcode::kExp, {e.Sub(e.Constant(kLogHalf), x)}));
}

// sqrt(1 - x^2), the other side of the unit circle.
Instruction* Cosine(Emitter& e, Instruction* x) {
  return e.Op(Opcode::kSqrt, {e.Sub(e.Constant(1.0), e.Mul(x, x))});
}

Instruction* Asin(Emitter& e, Instruction* x) {
  Instruction* half = e.Op(Opcode::kAtan2, {x, e.Add(e.Constant(1.0), Cosine(e, x))});
  return e.Mul(e.Constant(2.0), half);
}

Instruction* Acos(Emitter& e, Instruction* x) {
  Instruction* half = e.Op(Opcode::kAtan2, {Cosine(e, x), e.Add(e.Constant(1.0), x)});
  return e.Select(e.Compare(x, e.Constant(-1.0), "NE"), e.Mul(e.Constant(2.0), half),
                  e.Constant(kPi));
}

Instruction* Atanh(Emitter& e, Instruction* x) {
  Instruction* value =
      e.Mul(e.Constant(0.5),
            e.Sub(e.Op(Opcode::kLog1p, {x}), e.Op(Opcode::kLog1p, {e.Op(Opcode::kNegate, {x})})));
  Instruction* outside = e.Compare(e.Op(Opcode::kAbs, {x}), e.Constant(1.0), "GT");
  return e.Select(outside, e.Constant(std::numeric_limits<double>::quiet_NaN()), value);
}

// sign(x) * log(|x| + sqrt(x^2 + 1)), written with log1p for small |x| and as log|x| + log 2
// where x^2 would overflow.
Instruction* Asinh(Emitter& e, Instruction* x) {
  Instruction* a = e.Op(Opcode::kAbs, {x});
  Instruction* a2 = e.Mul(a, a);
  Instruction* root = e.Op(Opcode::kSqrt, {e.Add(a2, e.Constant(1.0))});
  Instruction* moderate = e.Op(Opcode::kLog1p, {e.Add(a, e.Div(a2, e.Add(e.Constant(1.0), root)))});
  Instruction* huge = e.Add(e.Op(Opcode::kLog, {a}), e.Constant(kLogTwo));
  Instruction* big = e.Compare(a, e.Constant(1e18), "GE");
  return e.Mul(e.Op(Opcode::kSign, {x}), e.Select(big, huge, moderate));
}

using Expansion = Instruction* (*)(Emitter&, Instruction*);

Expansion Find(std::string_view name) {
  static const std::pair<std::string_view, Expansion> kExpansions[] = {
      {"erf_inv", ErfInv}, {"sinh", Sinh},   {"cosh", Cosh},   {"asin", Asin},
      {"acos", Acos},      {"atanh", Atanh}, {"asinh", Asinh},
  };
  for (const auto& [known, expansion] : kExpansions) {
    if (known == name) return expansion;
  }
  return nullptr;
}

}  // namespace

bool HasChloExpansion(std::string_view name) { return Find(name) != nullptr; }

bool ExpandChlo(std::string_view name, const Shape& shape, Computation& computation,
                const std::function<std::string(std::string_view)>& unique_name) {
  const Expansion expansion = Find(name);
  if (expansion == nullptr || !shape.IsArray() || !IsFloatingPointType(shape.element_type()))
    return false;
  // Giles' coefficients are for single precision; a double erf_inv would be visibly coarser
  // than XLA's.
  if (name == "erf_inv" && shape.element_type() != PrimitiveType::kF32) return false;
  Emitter emitter(shape, computation, unique_name);
  computation.set_root(expansion(emitter, emitter.Parameter()));
  return true;
}

}  // namespace fusescope::ir::mlir_import
