// Lowering of ONNX ops (default domain, opsets 7-21) to HLO instructions, spelled the way XLA
// spells the same computation: explicit broadcasts, dot with contracting and batch
// dimensions, convolution with dim_labels, reduce and reduce-window with to_apply reducers.

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <unordered_map>

#include "importers/onnx/onnx_internal.h"

namespace fusescope::ir::onnx_import {

namespace {

// A double as int64, saturating (NaN as 0): known values come from the file and may be
// anything.
int64_t SaturatedInt(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(v);
}

}  // namespace

// ---- NodeContext ----

const onnx::AttributeProto* NodeContext::Attr(const std::string& name) const {
  for (const auto& attribute : node_.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

int64_t NodeContext::Int(const std::string& name, int64_t fallback) const {
  const onnx::AttributeProto* a = Attr(name);
  return a && a->has_i() ? a->i() : fallback;
}

float NodeContext::Float(const std::string& name, float fallback) const {
  const onnx::AttributeProto* a = Attr(name);
  return a && a->has_f() ? a->f() : fallback;
}

std::string NodeContext::String(const std::string& name, const std::string& fallback) const {
  const onnx::AttributeProto* a = Attr(name);
  return a && a->has_s() ? a->s() : fallback;
}

std::optional<std::vector<int64_t>> NodeContext::Ints(const std::string& name) const {
  const onnx::AttributeProto* a = Attr(name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<double>> NodeContext::Known(int64_t i) const {
  const LoweredValue* value = input(i);
  if (!value || !value->known) return std::nullopt;
  return value->known;
}

StatusOr<std::vector<int64_t>> NodeContext::KnownInts(int64_t i, const std::string& what) const {
  std::optional<std::vector<double>> known = Known(i);
  if (!known) {
    opaque_reason_ = what + " computed at run time";
    return Status::Error(what + " (input " + std::to_string(i) + ") is not known at import time");
  }
  std::vector<int64_t> out;
  out.reserve(known->size());
  for (double v : *known) out.push_back(SaturatedInt(v));
  return out;
}

void NodeContext::SetOutput(int64_t i, Instruction* instruction,
                            std::optional<std::vector<double>> known) {
  if (outputs_.size() <= static_cast<size_t>(i)) outputs_.resize(static_cast<size_t>(i) + 1);
  outputs_[static_cast<size_t>(i)] = LoweredValue{instruction, std::move(known)};
}

namespace {

using Dims = std::vector<int64_t>;

Status Fail(const std::string& message) { return Status::Error(message); }

// Kernel sizes, strides, dilations, pads, block sizes, repeats and scales beyond this are not
// real models; refusing them keeps all shape arithmetic far from overflow (dimensions are
// already bounded by max_tensor_elements).
constexpr int64_t kMaxSizeAttribute = int64_t{1} << 24;

Status CheckSizes(const std::vector<int64_t>& values, const std::string& what) {
  for (int64_t v : values) {
    if (v > kMaxSizeAttribute || v < -kMaxSizeAttribute) {
      return Fail(what + " value " + std::to_string(v) + " is out of range");
    }
  }
  return Status::Ok();
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank, const std::string& what = "axis") {
  if (axis < -rank || axis >= rank) {
    return Fail(what + " " + std::to_string(axis) + " out of range for rank " +
                std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

StatusOr<Dims> NormalizeAxes(const Dims& axes, int64_t rank) {
  Dims out;
  for (int64_t axis : axes) {
    auto a = NormalizeAxis(axis, rank);
    if (!a.ok()) return a.status();
    out.push_back(*a);
  }
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) return Fail("repeated axis");
  return out;
}

int64_t Product(const Dims& dims, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end && i < dims.size(); ++i) p *= dims[i];
  return p;
}

PrimitiveType TypeOf(const Instruction* x) { return x->shape().element_type(); }
const Dims& DimsOf(const Instruction* x) { return x->shape().dimensions(); }
int64_t RankOf(const Instruction* x) { return x->shape().rank(); }

Dims AllBut(int64_t rank, const Dims& removed) {
  Dims out;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(removed.begin(), removed.end(), d) == removed.end()) out.push_back(d);
  }
  return out;
}

Dims Iota(int64_t begin, int64_t end) {
  Dims out;
  for (int64_t i = begin; i < end; ++i) out.push_back(i);
  return out;
}

std::optional<std::vector<double>> KnownIfSmall(const std::vector<double>& values) {
  if (static_cast<int64_t>(values.size()) > kMaxKnownElements) return std::nullopt;
  return values;
}

std::vector<double> ToDoubles(const Dims& dims) {
  return std::vector<double>(dims.begin(), dims.end());
}

std::string LiteralOf(PrimitiveType type, const std::vector<double>& values, const Dims& dims) {
  TensorData data;
  data.shape = Shape(type, dims);
  data.has_values = true;
  for (double v : values) {
    if (IsFloatingPointType(type)) {
      data.floats.push_back(v);
    } else {
      data.ints.push_back(SaturatedInt(v));
    }
  }
  return LiteralText(data);
}

// A constant whose contents are known (shape arithmetic results); tracked as known too.
void SetKnownConstant(NodeContext& c, int64_t output, PrimitiveType type, const Dims& dims,
                      const std::vector<double>& values) {
  c.SetOutput(output, c.b().Constant(Shape(type, dims), LiteralOf(type, values, dims)),
              KnownIfSmall(values));
}

// `x` or `alpha * x` when alpha is not 1.
Instruction* Scaled(GraphBuilder& b, Instruction* x, double alpha) {
  if (alpha == 1.0) return x;
  Instruction* factor = b.Splat(TypeOf(x), alpha, DimsOf(x));
  return b.Emit(Opcode::kMultiply, x->shape(), {x, factor});
}

Instruction* Elementwise(GraphBuilder& b, Opcode opcode, Instruction* x, Instruction* y) {
  return b.Emit(opcode, Shape(TypeOf(x), DimsOf(x)), {x, y});
}

Instruction* CompareSame(GraphBuilder& b, Instruction* x, Instruction* y, const char* direction) {
  return b.Emit(Opcode::kCompare, Shape(PrimitiveType::kPred, DimsOf(x)), {x, y},
                {{"direction", direction}});
}

// ---- elementwise ----

const std::unordered_map<std::string, Opcode>& UnaryOps() {
  static const auto* ops = new std::unordered_map<std::string, Opcode>{
      {"Abs", Opcode::kAbs},          {"Neg", Opcode::kNegate},
      {"Exp", Opcode::kExp},          {"Log", Opcode::kLog},
      {"Sqrt", Opcode::kSqrt},        {"Tanh", Opcode::kTanh},
      {"Sigmoid", Opcode::kLogistic}, {"Erf", Opcode::kErf},
      {"Ceil", Opcode::kCeil},        {"Floor", Opcode::kFloor},
      {"Sin", Opcode::kSin},          {"Cos", Opcode::kCos},
      {"Tan", Opcode::kTan},          {"Not", Opcode::kNot},
      {"Sign", Opcode::kSign},        {"Round", Opcode::kRoundNearestEven}};
  return *ops;
}

StatusOr<bool> LowerUnary(NodeContext& c) {
  c.SetOutput(0, c.b().Unary(UnaryOps().at(c.node().op_type()), c.in(0)));
  return true;
}

std::optional<std::vector<double>> FoldBinary(const std::string& op, PrimitiveType type,
                                              const std::optional<std::vector<double>>& a,
                                              const std::optional<std::vector<double>>& b) {
  if (!a || !b) return std::nullopt;
  const size_t n = std::max(a->size(), b->size());
  if ((a->size() != n && a->size() != 1) || (b->size() != n && b->size() != 1)) return std::nullopt;
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
    const double x = (*a)[a->size() == 1 ? 0 : i];
    const double y = (*b)[b->size() == 1 ? 0 : i];
    if (op == "Add")
      out[i] = x + y;
    else if (op == "Sub")
      out[i] = x - y;
    else if (op == "Mul")
      out[i] = x * y;
    else if (op == "Div") {
      if (y == 0 && !IsFloatingPointType(type)) return std::nullopt;
      out[i] = IsFloatingPointType(type) ? x / y : std::trunc(x / y);
    } else if (op == "Equal")
      out[i] = x == y;
    else if (op == "Less")
      out[i] = x < y;
    else if (op == "LessOrEqual")
      out[i] = x <= y;
    else if (op == "Greater")
      out[i] = x > y;
    else if (op == "GreaterOrEqual")
      out[i] = x >= y;
    else if (op == "And")
      out[i] = (x != 0) && (y != 0);
    else if (op == "Or")
      out[i] = (x != 0) || (y != 0);
    else if (op == "Xor")
      out[i] = (x != 0) != (y != 0);
    else if (op == "Max")
      out[i] = std::max(x, y);
    else if (op == "Min")
      out[i] = std::min(x, y);
    else if (op == "Sum")
      out[i] = x + y;
    else
      return std::nullopt;
  }
  return out;
}

StatusOr<bool> LowerBinary(NodeContext& c) {
  static const std::unordered_map<std::string, std::pair<Opcode, const char*>> ops = {
      {"Add", {Opcode::kAdd, ""}},
      {"Sub", {Opcode::kSubtract, ""}},
      {"Mul", {Opcode::kMultiply, ""}},
      {"Div", {Opcode::kDivide, ""}},
      {"Pow", {Opcode::kPower, ""}},
      {"And", {Opcode::kAnd, ""}},
      {"Or", {Opcode::kOr, ""}},
      {"Xor", {Opcode::kXor, ""}},
      {"Equal", {Opcode::kCompare, "EQ"}},
      {"Less", {Opcode::kCompare, "LT"}},
      {"LessOrEqual", {Opcode::kCompare, "LE"}},
      {"Greater", {Opcode::kCompare, "GT"}},
      {"GreaterOrEqual", {Opcode::kCompare, "GE"}}};
  const std::string& op = c.node().op_type();
  const auto& [opcode, direction] = ops.at(op);
  Instruction* a = c.in(0);
  Instruction* b = c.in(1);
  if (op == "Pow") b = c.b().Convert(b, TypeOf(a));
  // Before opset 7, broadcast=1 laid B along A's dimensions from `axis` (default: the
  // trailing ones, as numpy does).
  if (c.opset() < 7 && c.Int("broadcast", 0) != 0 && c.Attr("axis") && RankOf(b) > 0) {
    auto axis = NormalizeAxis(c.Int("axis", 0), RankOf(a));
    if (!axis.ok()) return axis.status();
    if (*axis + RankOf(b) > RankOf(a)) return Fail("B does not fit A from axis");
    Dims kept;
    Dims mapping;
    for (int64_t d = 0; d < RankOf(b); ++d) {
      if (DimsOf(b)[static_cast<size_t>(d)] == DimsOf(a)[static_cast<size_t>(*axis + d)]) {
        kept.push_back(DimsOf(b)[static_cast<size_t>(d)]);
        mapping.push_back(*axis + d);
      } else if (DimsOf(b)[static_cast<size_t>(d)] != 1) {
        return Fail("B does not broadcast to A at axis " + std::to_string(*axis));
      }
    }
    b = c.b().BroadcastInDim(c.b().Reshape(b, kept), DimsOf(a), mapping);
  }
  auto result = c.b().Binary(opcode, a, b, direction);
  if (!result.ok()) return result.status();
  std::optional<std::vector<double>> known;
  if (RankOf(*result) <= 1) known = FoldBinary(op, TypeOf(a), c.Known(0), c.Known(1));
  c.SetOutput(0, *result, known);
  return true;
}

StatusOr<bool> LowerVariadic(NodeContext& c) {
  const std::string& op = c.node().op_type();
  const Opcode opcode = op == "Max"   ? Opcode::kMaximum
                        : op == "Min" ? Opcode::kMinimum
                                      : Opcode::kAdd;
  Instruction* acc = c.in(0);
  for (int64_t i = 1; i < c.input_count(); ++i) {
    auto next = c.b().Binary(opcode, acc, c.in(i));
    if (!next.ok()) return next.status();
    acc = *next;
  }
  if (op == "Mean" && c.input_count() > 1) {
    acc = Elementwise(c.b(), Opcode::kDivide, acc,
                      c.b().Splat(TypeOf(acc), static_cast<double>(c.input_count()), DimsOf(acc)));
  }
  // Shape arithmetic (the smaller of two lengths, say) stays known.
  std::optional<std::vector<double>> known;
  if (op != "Mean" && RankOf(acc) <= 1) {
    known = c.Known(0);
    for (int64_t i = 1; i < c.input_count() && known; ++i)
      known = FoldBinary(op, TypeOf(acc), known, c.Known(i));
  }
  c.SetOutput(0, acc, known);
  return true;
}

StatusOr<bool> LowerMod(NodeContext& c) {
  auto rem = c.b().Binary(Opcode::kRemainder, c.in(0), c.in(1));
  if (!rem.ok()) return rem.status();
  Instruction* r = *rem;
  if (c.Int("fmod", 0) == 1 || IsFloatingPointType(TypeOf(r))) {
    c.SetOutput(0, r);
    return true;
  }
  // Integer Mod takes the divisor's sign: r + b where r and b differ in sign.
  GraphBuilder& b = c.b();
  Instruction* divisor = b.BroadcastTo(c.in(1), DimsOf(r));
  Instruction* zero = b.Splat(TypeOf(r), 0, DimsOf(r));
  Instruction* nonzero = CompareSame(b, r, zero, "NE");
  Instruction* r_negative = CompareSame(b, r, zero, "LT");
  Instruction* b_negative = CompareSame(b, divisor, zero, "LT");
  Instruction* differ = CompareSame(b, r_negative, b_negative, "NE");
  Instruction* fix = Elementwise(b, Opcode::kAnd, nonzero, differ);
  Instruction* shifted = Elementwise(b, Opcode::kAdd, r, divisor);
  c.SetOutput(0, b.Select(fix, shifted, r));
  return true;
}

StatusOr<bool> LowerActivation(NodeContext& c) {
  GraphBuilder& b = c.b();
  const std::string& op = c.node().op_type();
  Instruction* x = c.in(0);
  const PrimitiveType type = TypeOf(x);
  const Dims& dims = DimsOf(x);
  auto splat = [&](double v) { return b.Splat(type, v, dims); };
  auto positive = [&] { return CompareSame(b, x, splat(0), "GT"); };
  Instruction* out = nullptr;
  if (op == "Relu") {
    out = Elementwise(b, Opcode::kMaximum, x, splat(0));
  } else if (op == "LeakyRelu") {
    out = b.Select(positive(), x, Scaled(b, x, c.Float("alpha", 0.01f)));
  } else if (op == "Elu" || op == "Selu") {
    const double alpha = c.Float("alpha", op == "Elu" ? 1.0f : 1.67326319217681884765625f);
    Instruction* negative_part = Scaled(b, b.Unary(Opcode::kExpm1, x), alpha);
    out = b.Select(positive(), x, negative_part);
    if (op == "Selu") out = Scaled(b, out, c.Float("gamma", 1.05070102214813232421875f));
  } else if (op == "HardSigmoid" || op == "HardSwish") {
    const double alpha = op == "HardSwish" ? 1.0 / 6 : c.Float("alpha", 0.2f);
    const double beta = op == "HardSwish" ? 0.5 : c.Float("beta", 0.5f);
    Instruction* linear = Elementwise(b, Opcode::kAdd, Scaled(b, x, alpha), splat(beta));
    out = b.Emit(Opcode::kClamp, x->shape(), {splat(0), linear, splat(1)});
    if (op == "HardSwish") out = Elementwise(b, Opcode::kMultiply, x, out);
  } else if (op == "Softplus") {
    out = b.Unary(Opcode::kLog1p, b.Unary(Opcode::kExp, x));
  } else if (op == "Softsign") {
    Instruction* denominator = Elementwise(b, Opcode::kAdd, splat(1), b.Unary(Opcode::kAbs, x));
    out = Elementwise(b, Opcode::kDivide, x, denominator);
  } else if (op == "ThresholdedRelu") {
    out = b.Select(CompareSame(b, x, splat(c.Float("alpha", 1.0f)), "GT"), x, splat(0));
  } else if (op == "Reciprocal") {
    out = Elementwise(b, Opcode::kDivide, splat(1), x);
  } else if (op == "IsNaN") {
    out = CompareSame(b, x, x, "NE");
  } else if (op == "Gelu") {
    Instruction* inner;
    if (c.String("approximate", "none") == "tanh") {
      Instruction* cube =
          Elementwise(b, Opcode::kMultiply, x, Elementwise(b, Opcode::kMultiply, x, x));
      Instruction* sum = Elementwise(b, Opcode::kAdd, x, Scaled(b, cube, 0.044715));
      inner = b.Unary(Opcode::kTanh, Scaled(b, sum, std::sqrt(2.0 / M_PI)));
    } else {
      inner = b.Unary(Opcode::kErf, Scaled(b, x, M_SQRT1_2));
    }
    Instruction* one_plus = Elementwise(b, Opcode::kAdd, splat(1), inner);
    out = Scaled(b, Elementwise(b, Opcode::kMultiply, x, one_plus), 0.5);
  } else if (op == "PRelu") {
    Instruction* slope = c.in(1);
    // Before opset 7 a [C] slope applied along dimension 1.
    if (c.opset() < 7 && RankOf(slope) == 1 && dims.size() >= 2 && DimsOf(slope)[0] == dims[1]) {
      slope = b.BroadcastInDim(slope, dims, {1});
    }
    if (!BroadcastDims(DimsOf(slope), dims) || *BroadcastDims(DimsOf(slope), dims) != dims) {
      return Fail("slope " + slope->shape().ToString(false) + " does not broadcast to " +
                  x->shape().ToString(false));
    }
    Instruction* scaled = Elementwise(b, Opcode::kMultiply, x, b.BroadcastTo(slope, dims));
    out = b.Select(CompareSame(b, x, splat(0), "LT"), scaled, x);
  }
  if (!out) return false;
  c.SetOutput(0, out);
  return true;
}

// Inverse and hyperbolic trigonometric functions from exp, log, sqrt and atan2, as XLA's
// expanders write them.
StatusOr<bool> LowerTrigonometric(NodeContext& c) {
  GraphBuilder& b = c.b();
  const std::string& op = c.node().op_type();
  Instruction* x = c.in(0);
  if (!IsFloatingPointType(TypeOf(x))) return false;
  const Dims& dims = DimsOf(x);
  auto splat = [&](double v) { return b.Splat(TypeOf(x), v, dims); };
  auto op2 = [&](Opcode opcode, Instruction* l, Instruction* r) {
    return Elementwise(b, opcode, l, r);
  };
  Instruction* square = op2(Opcode::kMultiply, x, x);
  Instruction* out = nullptr;
  if (op == "Atan") {
    out = op2(Opcode::kAtan2, x, splat(1));
  } else if (op == "Asin" || op == "Acos") {
    Instruction* root = b.Unary(Opcode::kSqrt, op2(Opcode::kSubtract, splat(1), square));
    out = op == "Asin" ? op2(Opcode::kAtan2, x, root) : op2(Opcode::kAtan2, root, x);
  } else if (op == "Sinh" || op == "Cosh") {
    Instruction* up = b.Unary(Opcode::kExp, x);
    Instruction* down = b.Unary(Opcode::kExp, b.Unary(Opcode::kNegate, x));
    out = Scaled(b, op2(op == "Sinh" ? Opcode::kSubtract : Opcode::kAdd, up, down), 0.5);
  } else if (op == "Asinh" || op == "Acosh") {
    Instruction* inner = op2(op == "Asinh" ? Opcode::kAdd : Opcode::kSubtract, square, splat(1));
    out = b.Unary(Opcode::kLog, op2(Opcode::kAdd, x, b.Unary(Opcode::kSqrt, inner)));
  } else if (op == "Atanh") {
    Instruction* ratio =
        op2(Opcode::kDivide, op2(Opcode::kAdd, splat(1), x), op2(Opcode::kSubtract, splat(1), x));
    out = Scaled(b, b.Unary(Opcode::kLog, ratio), 0.5);
  }
  c.SetOutput(0, out);
  return true;
}

StatusOr<bool> LowerShrinkCelu(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const Dims& dims = DimsOf(x);
  auto splat = [&](double v) { return b.Splat(TypeOf(x), v, dims); };
  if (c.node().op_type() == "Celu") {
    const double alpha = c.Float("alpha", 1.0f);
    if (alpha == 0) return Fail("alpha must not be 0");
    Instruction* negative = Scaled(b, b.Unary(Opcode::kExpm1, Scaled(b, x, 1.0 / alpha)), alpha);
    c.SetOutput(0, Elementwise(b, Opcode::kAdd, Elementwise(b, Opcode::kMaximum, x, splat(0)),
                               Elementwise(b, Opcode::kMinimum, negative, splat(0))));
    return true;
  }
  const double lambd = c.Float("lambd", 0.5f);
  const double bias = c.Float("bias", 0.0f);
  Instruction* below = CompareSame(b, x, splat(-lambd), "LT");
  Instruction* above = CompareSame(b, x, splat(lambd), "GT");
  Instruction* outer = b.Select(above, Elementwise(b, Opcode::kSubtract, x, splat(bias)), splat(0));
  c.SetOutput(0, b.Select(below, Elementwise(b, Opcode::kAdd, x, splat(bias)), outer));
  return true;
}

StatusOr<bool> LowerClip(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const PrimitiveType type = TypeOf(x);
  auto bound = [&](int64_t input, const char* attribute, double fallback) -> Instruction* {
    if (c.opset() < 11)
      return b.Splat(type, c.Float(attribute, static_cast<float>(fallback)), DimsOf(x));
    if (!c.input(input)) return b.Splat(type, fallback, DimsOf(x));
    return b.BroadcastTo(b.Reshape(c.in(input), {}), DimsOf(x));
  };
  Instruction* low = bound(1, "min", LowestValue(type));
  Instruction* high = bound(2, "max", HighestValue(type));
  c.SetOutput(0, b.Emit(Opcode::kClamp, x->shape(), {low, x, high}));
  return true;
}

StatusOr<bool> LowerWhere(NodeContext& c) {
  auto dims = BroadcastDims(DimsOf(c.in(0)), DimsOf(c.in(1)));
  if (dims) dims = BroadcastDims(*dims, DimsOf(c.in(2)));
  if (!dims) return Fail("condition and branches do not broadcast");
  GraphBuilder& b = c.b();
  // Exporters pick between shape values with Where (a -1 in a shape replaced, say).
  std::optional<std::vector<double>> known;
  if (dims->size() <= 1 && c.Known(0) && c.Known(1) && c.Known(2)) {
    const size_t n = dims->empty() ? 1 : static_cast<size_t>((*dims)[0]);
    known.emplace(n);
    for (size_t i = 0; i < n; ++i) {
      auto at = [i](const std::vector<double>& v) { return v[v.size() == 1 ? 0 : i]; };
      (*known)[i] = at(*c.Known(0)) != 0 ? at(*c.Known(1)) : at(*c.Known(2));
    }
  }
  c.SetOutput(0,
              b.Select(b.BroadcastTo(c.in(0), *dims), b.BroadcastTo(c.in(1), *dims),
                       b.BroadcastTo(c.in(2), *dims)),
              known);
  return true;
}

StatusOr<bool> LowerCast(NodeContext& c) {
  std::optional<PrimitiveType> to = ElementTypeFromOnnx(static_cast<int32_t>(c.Int("to", 0)));
  if (!to) return false;
  std::optional<std::vector<double>> known = c.Known(0);
  if (known && !IsFloatingPointType(*to)) {
    for (double& v : *known) v = *to == PrimitiveType::kPred ? (v != 0) : std::trunc(v);
  }
  c.SetOutput(0, c.b().Convert(c.in(0), *to), known);
  return true;
}

StatusOr<bool> LowerIdentity(NodeContext& c) {
  c.SetOutput(0, c.in(0), c.Known(0));
  if (c.WantsOutput(1)) {  // Dropout's mask: nothing dropped at inference
    if (c.Known(2) && !c.Known(2)->empty() && (*c.Known(2))[0] != 0) return false;
    c.SetOutput(1, c.b().Splat(PrimitiveType::kPred, 1, DimsOf(c.in(0))));
  }
  return true;
}

// ---- contractions ----

StatusOr<bool> LowerMatMul(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* lhs = c.in(0);
  Instruction* rhs = c.in(1);
  const bool lhs_vector = RankOf(lhs) == 1;
  const bool rhs_vector = RankOf(rhs) == 1;
  if (RankOf(lhs) == 0 || RankOf(rhs) == 0) return Fail("MatMul of a scalar");
  if (lhs_vector) lhs = b.Reshape(lhs, {1, DimsOf(lhs)[0]});
  if (rhs_vector) rhs = b.Reshape(rhs, {DimsOf(rhs)[0], 1});
  const Dims& ld = DimsOf(lhs);
  const Dims& rd = DimsOf(rhs);
  const int64_t lr = RankOf(lhs);
  const int64_t rr = RankOf(rhs);
  if (ld[static_cast<size_t>(lr - 1)] != rd[static_cast<size_t>(rr - 2)]) {
    return Fail("contracting dimensions of " + lhs->shape().ToString(false) + " and " +
                rhs->shape().ToString(false) + " differ");
  }
  Instruction* dot;
  if (rr == 2) {
    // [..., M, K] x [K, N]: one dot, as XLA writes x @ w.
    Dims out(ld.begin(), ld.end() - 1);
    out.push_back(rd[1]);
    dot = b.Emit(Opcode::kDot, Shape(TypeOf(lhs), out), {lhs, rhs},
                 {{"lhs_contracting_dims", IntListText({lr - 1})},
                  {"rhs_contracting_dims", IntListText({0})}});
  } else {
    auto batch = BroadcastDims(Dims(ld.begin(), ld.end() - 2), Dims(rd.begin(), rd.end() - 2));
    if (!batch) return Fail("batch dimensions do not broadcast");
    const auto nb = static_cast<int64_t>(batch->size());
    Dims lhs_dims = *batch;
    lhs_dims.insert(lhs_dims.end(), ld.end() - 2, ld.end());
    Dims rhs_dims = *batch;
    rhs_dims.insert(rhs_dims.end(), rd.end() - 2, rd.end());
    lhs = b.BroadcastTo(lhs, lhs_dims);
    rhs = b.BroadcastTo(rhs, rhs_dims);
    Dims out = *batch;
    out.push_back(lhs_dims[static_cast<size_t>(nb)]);
    out.push_back(rhs_dims[static_cast<size_t>(nb + 1)]);
    dot = b.Emit(Opcode::kDot, Shape(TypeOf(lhs), out), {lhs, rhs},
                 {{"lhs_batch_dims", IntListText(Iota(0, nb))},
                  {"lhs_contracting_dims", IntListText({nb + 1})},
                  {"rhs_batch_dims", IntListText(Iota(0, nb))},
                  {"rhs_contracting_dims", IntListText({nb})}});
  }
  if (lhs_vector || rhs_vector) {
    Dims out = DimsOf(dot);
    if (rhs_vector) out.pop_back();
    if (lhs_vector) out.erase(out.end() - (rhs_vector ? 1 : 2));
    dot = b.Reshape(dot, out);
  }
  c.SetOutput(0, dot);
  return true;
}

StatusOr<bool> LowerGemm(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* a = c.in(0);
  Instruction* w = c.in(1);
  if (RankOf(a) != 2 || RankOf(w) != 2) return Fail("Gemm needs rank-2 A and B");
  const bool trans_a = c.Int("transA", 0) != 0;
  const bool trans_b = c.Int("transB", 0) != 0;
  const int64_t m = DimsOf(a)[trans_a ? 1 : 0];
  const int64_t k = DimsOf(a)[trans_a ? 0 : 1];
  const int64_t k2 = DimsOf(w)[trans_b ? 1 : 0];
  const int64_t n = DimsOf(w)[trans_b ? 0 : 1];
  if (k != k2)
    return Fail("inner dimensions " + std::to_string(k) + " and " + std::to_string(k2) + " differ");
  // Transposition is folded into the contracting dimensions, as XLA's dot_general does.
  Instruction* out = b.Emit(Opcode::kDot, Shape(TypeOf(a), {m, n}), {a, w},
                            {{"lhs_contracting_dims", IntListText({trans_a ? 0 : 1})},
                             {"rhs_contracting_dims", IntListText({trans_b ? 1 : 0})}});
  out = Scaled(b, out, c.Float("alpha", 1.0f));
  if (c.input(2)) {
    Instruction* bias = c.in(2);
    auto dims = BroadcastDims(DimsOf(bias), {m, n});
    if (!dims || *dims != Dims{m, n}) return Fail("C does not broadcast to [M, N]");
    bias = Scaled(b, bias, c.Float("beta", 1.0f));
    out = Elementwise(b, Opcode::kAdd, out, b.BroadcastTo(bias, {m, n}));
  }
  c.SetOutput(0, out);
  return true;
}

struct WindowSpec {
  Dims size, stride, pad_low, pad_high, lhs_dilate, rhs_dilate;
  std::string Text() const {
    auto join = [](const Dims& v, const std::function<std::string(size_t)>& f) {
      std::string s;
      for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + f(i);
      return s;
    };
    auto all = [](const Dims& v, int64_t value) {
      return std::all_of(v.begin(), v.end(), [&](int64_t x) { return x == value; });
    };
    std::string out = "{size=" + join(size, [&](size_t i) { return std::to_string(size[i]); });
    if (!all(stride, 1))
      out += " stride=" + join(stride, [&](size_t i) { return std::to_string(stride[i]); });
    if (!all(pad_low, 0) || !all(pad_high, 0)) {
      out += " pad=" + join(pad_low, [&](size_t i) {
               return std::to_string(pad_low[i]) + "_" + std::to_string(pad_high[i]);
             });
    }
    if (!all(lhs_dilate, 1)) {
      out += " lhs_dilate=" +
             join(lhs_dilate, [&](size_t i) { return std::to_string(lhs_dilate[i]); });
    }
    if (!all(rhs_dilate, 1)) {
      out += " rhs_dilate=" +
             join(rhs_dilate, [&](size_t i) { return std::to_string(rhs_dilate[i]); });
    }
    return out + "}";
  }
  // Output extent of dimension i over an input of `in`.
  int64_t Output(size_t i, int64_t in) const {
    const int64_t dilated_in = (in - 1) * lhs_dilate[i] + 1;
    const int64_t padded = dilated_in + pad_low[i] + pad_high[i];
    const int64_t window = (size[i] - 1) * rhs_dilate[i] + 1;
    if (in == 0 || padded < window) return 0;
    return (padded - window) / stride[i] + 1;
  }
};

// Spatial attributes shared by Conv and the pools: kernel, strides, dilations, pads with
// auto_pad resolved, ceil_mode folded into extra high padding.
StatusOr<WindowSpec> SpatialWindow(const NodeContext& c, const Dims& spatial_in, const Dims& kernel,
                                   bool ceil_mode) {
  const size_t n = spatial_in.size();
  WindowSpec w;
  w.size = kernel;
  w.stride = c.Ints("strides").value_or(Dims(n, 1));
  w.rhs_dilate = c.Ints("dilations").value_or(Dims(n, 1));
  w.lhs_dilate = Dims(n, 1);
  Dims pads = c.Ints("pads").value_or(Dims(2 * n, 0));
  if (w.size.size() != n || w.stride.size() != n || w.rhs_dilate.size() != n ||
      pads.size() != 2 * n) {
    return Fail(
        "kernel_shape, strides, dilations or pads do not have one entry per spatial dimension");
  }
  for (const Dims* v : {&w.size, &w.stride, &w.rhs_dilate, &pads})
    FS_RETURN_IF_ERROR(CheckSizes(*v, "window"));
  for (size_t i = 0; i < n; ++i) {
    if (w.size[i] < 1 || w.stride[i] < 1 || w.rhs_dilate[i] < 1 || pads[i] < 0 || pads[n + i] < 0) {
      return Fail("kernel_shape, strides, dilations and pads must be positive");
    }
  }
  const std::string auto_pad = c.String("auto_pad", "NOTSET");
  w.pad_low.assign(pads.begin(), pads.begin() + static_cast<int64_t>(n));
  w.pad_high.assign(pads.begin() + static_cast<int64_t>(n), pads.end());
  for (size_t i = 0; i < n; ++i) {
    const int64_t window = (w.size[i] - 1) * w.rhs_dilate[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t out = (spatial_in[i] + w.stride[i] - 1) / w.stride[i];
      const int64_t total = std::max<int64_t>(0, (out - 1) * w.stride[i] + window - spatial_in[i]);
      const int64_t small = total / 2;
      w.pad_low[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      w.pad_high[i] = total - w.pad_low[i];
    } else if (auto_pad == "VALID") {
      w.pad_low[i] = w.pad_high[i] = 0;
    } else if (ceil_mode) {
      const int64_t padded = spatial_in[i] + w.pad_low[i] + w.pad_high[i];
      if (padded >= window) {
        const int64_t out = (padded - window + w.stride[i] - 1) / w.stride[i] + 1;
        w.pad_high[i] += std::max<int64_t>(0, (out - 1) * w.stride[i] + window - padded);
      }
    }
  }
  return w;
}

std::string ConvLabels(size_t n, bool transposed) {
  const std::string digits = std::string("0123456789").substr(0, n);
  return "bf" + digits + (transposed ? "_io" : "_oi") + digits + "->bf" + digits;
}

StatusOr<bool> LowerConv(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  Instruction* w = c.in(1);
  const int64_t rank = RankOf(x);
  if (rank < 3 || rank > 5 || RankOf(w) != rank) return false;
  const size_t n = static_cast<size_t>(rank - 2);
  const Dims& xd = DimsOf(x);
  const Dims& wd = DimsOf(w);
  const int64_t groups = c.Int("group", 1);
  if (groups < 1 || xd[1] != wd[1] * groups || wd[0] % groups != 0) {
    return Fail("input channels " + std::to_string(xd[1]) + " do not match weights " +
                w->shape().ToString(false) + " with group=" + std::to_string(groups));
  }
  const Dims kernel(wd.begin() + 2, wd.end());
  if (c.Ints("kernel_shape") && *c.Ints("kernel_shape") != kernel) {
    return Fail("kernel_shape does not match the weights");
  }
  auto window = SpatialWindow(c, Dims(xd.begin() + 2, xd.end()), kernel, false);
  if (!window.ok()) return window.status();
  Dims out = {xd[0], wd[0]};
  for (size_t i = 0; i < n; ++i) out.push_back(window->Output(i, xd[2 + i]));
  std::vector<std::pair<std::string, std::string>> attributes = {
      {"window", window->Text()}, {"dim_labels", ConvLabels(n, false)}};
  if (groups > 1) attributes.emplace_back("feature_group_count", std::to_string(groups));
  Instruction* conv = b.Emit(Opcode::kConvolution, Shape(TypeOf(x), out), {x, w}, attributes);
  if (c.input(2)) {
    if (DimsOf(c.in(2)) != Dims{wd[0]}) return Fail("bias is not [M]");
    conv = Elementwise(b, Opcode::kAdd, conv, b.BroadcastInDim(c.in(2), out, {1}));
  }
  c.SetOutput(0, conv);
  return true;
}

StatusOr<bool> LowerConvTranspose(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  Instruction* w = c.in(1);
  const int64_t rank = RankOf(x);
  if (rank < 3 || rank > 5 || RankOf(w) != rank || c.Int("group", 1) != 1) return false;
  const size_t n = static_cast<size_t>(rank - 2);
  const Dims& xd = DimsOf(x);
  const Dims& wd = DimsOf(w);
  if (xd[1] != wd[0]) return Fail("input channels do not match the weights");
  const Dims kernel(wd.begin() + 2, wd.end());
  const Dims stride = c.Ints("strides").value_or(Dims(n, 1));
  const Dims dilation = c.Ints("dilations").value_or(Dims(n, 1));
  const Dims output_padding = c.Ints("output_padding").value_or(Dims(n, 0));
  Dims pads = c.Ints("pads").value_or(Dims(2 * n, 0));
  if (stride.size() != n || dilation.size() != n || output_padding.size() != n ||
      pads.size() != 2 * n) {
    return Fail("strides, dilations, output_padding or pads do not fit the spatial dimensions");
  }
  for (const Dims* v :
       std::initializer_list<const Dims*>{&kernel, &stride, &dilation, &output_padding, &pads}) {
    FS_RETURN_IF_ERROR(CheckSizes(*v, "window"));
  }
  const std::string auto_pad = c.String("auto_pad", "NOTSET");
  std::optional<Dims> output_shape = c.Ints("output_shape");
  if (output_shape) FS_RETURN_IF_ERROR(CheckSizes(*output_shape, "output_shape"));
  if (output_shape && output_shape->size() == n + 2)
    output_shape->erase(output_shape->begin(), output_shape->begin() + 2);
  if ((output_shape && output_shape->size() != n)) return Fail("output_shape does not fit");
  for (size_t i = 0; i < n; ++i) {
    if (stride[i] < 1 || dilation[i] < 1) return Fail("strides and dilations must be positive");
    const int64_t full =
        stride[i] * (xd[2 + i] - 1) + output_padding[i] + (kernel[i] - 1) * dilation[i] + 1;
    if (output_shape || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t target = output_shape ? (*output_shape)[i] : xd[2 + i] * stride[i];
      const int64_t total = full - target;
      if (auto_pad == "SAME_UPPER") {
        pads[i] = total / 2;
        pads[n + i] = total - total / 2;
      } else {
        pads[i] = total - total / 2;
        pads[n + i] = total / 2;
      }
    } else if (auto_pad == "VALID") {
      pads[i] = pads[n + i] = 0;
    }
  }
  WindowSpec window;
  window.size = kernel;
  window.stride = Dims(n, 1);
  window.lhs_dilate = stride;
  window.rhs_dilate = dilation;
  Dims out = {xd[0], wd[1]};
  for (size_t i = 0; i < n; ++i) {
    const int64_t reach = (kernel[i] - 1) * dilation[i];
    window.pad_low.push_back(reach - pads[i]);
    window.pad_high.push_back(reach - pads[n + i] + output_padding[i]);
    if (window.pad_low.back() < 0 || window.pad_high.back() < 0) return false;
    out.push_back(window.Output(i, xd[2 + i]));
  }
  // A transposed convolution is a convolution over the stride-dilated input with the kernel
  // flipped in space and its feature dimensions swapped (io instead of oi).
  Instruction* flipped =
      b.Emit(Opcode::kReverse, w->shape(), {w}, {{"dimensions", IntListText(Iota(2, rank))}});
  Instruction* conv = b.Emit(Opcode::kConvolution, Shape(TypeOf(x), out), {x, flipped},
                             {{"window", window.Text()}, {"dim_labels", ConvLabels(n, true)}});
  if (c.input(2)) {
    if (DimsOf(c.in(2)) != Dims{wd[1]}) return Fail("bias is not [M]");
    conv = Elementwise(b, Opcode::kAdd, conv, b.BroadcastInDim(c.in(2), out, {1}));
  }
  c.SetOutput(0, conv);
  return true;
}

// ---- normalization ----

StatusOr<bool> LowerBatchNorm(NodeContext& c) {
  if (c.Int("training_mode", 0) != 0 || c.WantsOutput(1) || c.WantsOutput(2)) return false;
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  if (RankOf(x) < 2) return Fail("input must have a channel dimension");
  const Dims& dims = DimsOf(x);
  const Dims channel = {dims[1]};
  for (int64_t i = 1; i <= 4; ++i) {
    if (DimsOf(c.in(i)) != channel) return Fail("scale, bias, mean and var must be [C]");
  }
  const PrimitiveType type = TypeOf(x);
  Instruction* var_eps =
      Elementwise(b, Opcode::kAdd, c.in(4), b.Splat(type, c.Float("epsilon", 1e-5f), channel));
  Instruction* factor =
      Elementwise(b, Opcode::kMultiply, c.in(1), b.Unary(Opcode::kRsqrt, var_eps));
  Instruction* centered =
      Elementwise(b, Opcode::kSubtract, x, b.BroadcastInDim(c.in(3), dims, {1}));
  Instruction* scaled =
      Elementwise(b, Opcode::kMultiply, centered, b.BroadcastInDim(factor, dims, {1}));
  c.SetOutput(0, Elementwise(b, Opcode::kAdd, scaled, b.BroadcastInDim(c.in(2), dims, {1})));
  return true;
}

Instruction* ReduceMean(GraphBuilder& b, Instruction* x, const Dims& axes) {
  const PrimitiveType type = TypeOf(x);
  Instruction* sum = b.Reduce(x, b.Scalar(type, 0), axes, Opcode::kAdd);
  int64_t count = 1;
  for (int64_t a : axes) count *= DimsOf(x)[static_cast<size_t>(a)];
  return Elementwise(b, Opcode::kDivide, sum,
                     b.Splat(type, static_cast<double>(count), DimsOf(sum)));
}

StatusOr<bool> LowerLayerNorm(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  auto axis = NormalizeAxis(c.Int("axis", -1), rank);
  if (!axis.ok()) return axis.status();
  const Dims& dims = DimsOf(x);
  const Dims axes = Iota(*axis, rank);
  const Dims outer = Iota(0, *axis);
  const PrimitiveType type = TypeOf(x);
  Instruction* mean = ReduceMean(b, x, axes);
  Instruction* centered = Elementwise(b, Opcode::kSubtract, x, b.BroadcastInDim(mean, dims, outer));
  Instruction* variance =
      ReduceMean(b, Elementwise(b, Opcode::kMultiply, centered, centered), axes);
  Instruction* var_eps = Elementwise(b, Opcode::kAdd, variance,
                                     b.Splat(type, c.Float("epsilon", 1e-5f), DimsOf(variance)));
  Instruction* inv_std = b.Unary(Opcode::kRsqrt, var_eps);
  Instruction* out =
      Elementwise(b, Opcode::kMultiply, centered, b.BroadcastInDim(inv_std, dims, outer));
  for (int64_t i = 1; i <= 2; ++i) {
    if (!c.input(i)) continue;
    auto to = BroadcastDims(DimsOf(c.in(i)), dims);
    if (!to || *to != dims)
      return Fail(std::string(i == 1 ? "scale" : "bias") + " does not broadcast");
    out = Elementwise(b, i == 1 ? Opcode::kMultiply : Opcode::kAdd, out,
                      b.BroadcastTo(c.in(i), dims));
  }
  c.SetOutput(0, out);
  Dims kept_shape(dims.begin(), dims.begin() + *axis);
  kept_shape.resize(static_cast<size_t>(rank), 1);
  if (c.WantsOutput(1)) c.SetOutput(1, b.Reshape(mean, kept_shape));
  if (c.WantsOutput(2)) c.SetOutput(2, b.Reshape(inv_std, kept_shape));
  return true;
}

Instruction* SoftmaxOnAxis(GraphBuilder& b, Instruction* x, int64_t axis, bool log) {
  const PrimitiveType type = TypeOf(x);
  const Dims& dims = DimsOf(x);
  const Dims others = AllBut(RankOf(x), {axis});
  Instruction* max = b.Reduce(x, b.Scalar(type, LowestValue(type)), {axis}, Opcode::kMaximum);
  Instruction* shifted = Elementwise(b, Opcode::kSubtract, x, b.BroadcastInDim(max, dims, others));
  Instruction* exp = b.Unary(Opcode::kExp, shifted);
  Instruction* sum = b.Reduce(exp, b.Scalar(type, 0), {axis}, Opcode::kAdd);
  if (log) {
    return Elementwise(b, Opcode::kSubtract, shifted,
                       b.BroadcastInDim(b.Unary(Opcode::kLog, sum), dims, others));
  }
  return Elementwise(b, Opcode::kDivide, exp, b.BroadcastInDim(sum, dims, others));
}

StatusOr<bool> LowerSoftmax(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  const bool coerced = c.opset() < 13;
  auto axis = NormalizeAxis(c.Int("axis", coerced ? 1 : -1), rank);
  if (!axis.ok()) return axis.status();
  const bool log = c.node().op_type() == "LogSoftmax";
  if (coerced && *axis != rank - 1) {
    // Before opset 13 the input is seen as [prod(dims before axis), prod(the rest)].
    const Dims& dims = DimsOf(x);
    const auto a = static_cast<size_t>(*axis);
    Instruction* flat = b.Reshape(x, {Product(dims, 0, a), Product(dims, a, dims.size())});
    c.SetOutput(0, b.Reshape(SoftmaxOnAxis(b, flat, 1, log), dims));
    return true;
  }
  c.SetOutput(0, SoftmaxOnAxis(b, x, *axis, log));
  return true;
}

// ---- pooling and reductions ----

StatusOr<bool> LowerPool(NodeContext& c) {
  GraphBuilder& b = c.b();
  const std::string& op = c.node().op_type();
  const bool max = op == "MaxPool";
  if (max && c.WantsOutput(1)) return false;  // indices
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  if (rank < 3) return Fail("input must be [N, C, spatial...]");
  const Dims& xd = DimsOf(x);
  const Dims spatial_in(xd.begin() + 2, xd.end());
  const Dims kernel = c.Ints("kernel_shape").value_or(Dims());
  if (kernel.size() != spatial_in.size()) return Fail("kernel_shape does not fit the input");
  auto spatial = SpatialWindow(c, spatial_in, kernel, c.Int("ceil_mode", 0) != 0);
  if (!spatial.ok()) return spatial.status();
  // The pooling window covers batch and channel with size 1.
  WindowSpec w;
  w.size = {1, 1};
  w.stride = {1, 1};
  w.pad_low = {0, 0};
  w.pad_high = {0, 0};
  w.lhs_dilate = {1, 1};
  w.rhs_dilate = {1, 1};
  auto append = [](Dims& to, const Dims& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(w.size, spatial->size);
  append(w.stride, spatial->stride);
  append(w.pad_low, spatial->pad_low);
  append(w.pad_high, spatial->pad_high);
  append(w.lhs_dilate, spatial->lhs_dilate);
  append(w.rhs_dilate, spatial->rhs_dilate);
  Dims out;
  for (size_t i = 0; i < xd.size(); ++i) out.push_back(w.Output(i, xd[i]));
  const PrimitiveType type = TypeOf(x);
  auto reduce_window = [&](Instruction* operand, double init, Opcode reducer,
                           const WindowSpec& spec) {
    return b.Emit(Opcode::kReduceWindow, Shape(type, out), {operand, b.Scalar(type, init)},
                  {{"window", spec.Text()}}, {}, b.Reducer(reducer, type));
  };
  if (max) {
    c.SetOutput(0, reduce_window(x, LowestValue(type), Opcode::kMaximum, w));
    return true;
  }
  if (!IsFloatingPointType(type)) return false;
  Instruction* sum = reduce_window(x, 0, Opcode::kAdd, w);
  const Dims pads = c.Ints("pads").value_or(Dims());
  const bool explicit_pads =
      std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; });
  const bool padded =
      std::any_of(w.pad_low.begin(), w.pad_low.end(), [](int64_t p) { return p != 0; }) ||
      std::any_of(w.pad_high.begin(), w.pad_high.end(), [](int64_t p) { return p != 0; });
  const bool include_pad = c.Int("count_include_pad", 0) != 0;
  Instruction* count;
  if (!padded || (include_pad && explicit_pads && pads.size() == 2 * spatial_in.size() &&
                  Dims(w.pad_high.begin() + 2, w.pad_high.end()) ==
                      Dims(pads.begin() + static_cast<int64_t>(spatial_in.size()), pads.end()) &&
                  c.String("auto_pad", "NOTSET") == "NOTSET")) {
    count =
        b.Splat(type, static_cast<double>(Product(spatial->size, 0, spatial->size.size())), out);
  } else {
    // Divide by how many real (or, with count_include_pad, explicitly padded) elements each
    // window covers: the same reduce-window over ones.
    Instruction* ones = b.Splat(type, 1, xd);
    WindowSpec count_window = w;
    if (include_pad && explicit_pads && c.String("auto_pad", "NOTSET") == "NOTSET") {
      std::string padding = "0_0x0_0";
      Dims padded_dims = {xd[0], xd[1]};
      const size_t n = spatial_in.size();
      for (size_t i = 0; i < n; ++i) {
        padding += "x" + std::to_string(pads[i]) + "_" + std::to_string(pads[n + i]);
        padded_dims.push_back(xd[2 + i] + pads[i] + pads[n + i]);
        count_window.pad_low[2 + i] -= pads[i];
        count_window.pad_high[2 + i] -= pads[n + i];
      }
      ones = b.Emit(Opcode::kPad, Shape(type, padded_dims), {ones, b.Scalar(type, 1)},
                    {{"padding", padding}});
    }
    count = reduce_window(ones, 0, Opcode::kAdd, count_window);
  }
  c.SetOutput(0, Elementwise(b, Opcode::kDivide, sum, count));
  return true;
}

StatusOr<bool> LowerGlobalPool(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  if (rank < 3) return Fail("input must be [N, C, spatial...]");
  const Dims axes = Iota(2, rank);
  const PrimitiveType type = TypeOf(x);
  Instruction* reduced =
      c.node().op_type() == "GlobalMaxPool"
          ? b.Reduce(x, b.Scalar(type, LowestValue(type)), axes, Opcode::kMaximum)
          : ReduceMean(b, x, axes);
  Dims out = {DimsOf(x)[0], DimsOf(x)[1]};
  out.resize(static_cast<size_t>(rank), 1);
  c.SetOutput(0, b.Reshape(reduced, out));
  return true;
}

StatusOr<bool> LowerReduce(NodeContext& c) {
  GraphBuilder& b = c.b();
  const std::string& op = c.node().op_type();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  std::optional<Dims> axes;
  if (c.input(1)) {
    auto known = c.KnownInts(1, "axes");
    if (!known.ok()) return known.status();
    axes = *known;
  } else {
    axes = c.Ints("axes");
  }
  if (!axes || axes->empty()) {
    if (c.Int("noop_with_empty_axes", 0) != 0) {
      c.SetOutput(0, x);
      return true;
    }
    axes = Iota(0, rank);
  }
  auto normalized = NormalizeAxes(*axes, rank);
  if (!normalized.ok()) return normalized.status();
  const PrimitiveType type = TypeOf(x);
  Instruction* operand = x;
  if (op == "ReduceL1") operand = b.Unary(Opcode::kAbs, x);
  if (op == "ReduceL2" || op == "ReduceSumSquare")
    operand = Elementwise(b, Opcode::kMultiply, x, x);
  if (op == "ReduceLogSumExp") operand = b.Unary(Opcode::kExp, x);
  Instruction* out;
  if (op == "ReduceMax") {
    out = b.Reduce(operand, b.Scalar(type, LowestValue(type)), *normalized, Opcode::kMaximum);
  } else if (op == "ReduceMin") {
    out = b.Reduce(operand, b.Scalar(type, HighestValue(type)), *normalized, Opcode::kMinimum);
  } else if (op == "ReduceProd") {
    out = b.Reduce(operand, b.Scalar(type, 1), *normalized, Opcode::kMultiply);
  } else if (op == "ReduceMean") {
    out = ReduceMean(b, operand, *normalized);
  } else {
    out = b.Reduce(operand, b.Scalar(type, 0), *normalized, Opcode::kAdd);
  }
  if (op == "ReduceL2") out = b.Unary(Opcode::kSqrt, out);
  if (op == "ReduceLogSum" || op == "ReduceLogSumExp") out = b.Unary(Opcode::kLog, out);
  if (c.Int("keepdims", 1) != 0) {
    Dims kept = DimsOf(x);
    for (int64_t a : *normalized) kept[static_cast<size_t>(a)] = 1;
    out = b.Reshape(out, kept);
  }
  c.SetOutput(0, out);
  return true;
}

// argmax / argmin over `axis` as XLA writes it: a variadic reduce of (x, iota) pairs.
Instruction* ArgReduce(GraphBuilder& b, Instruction* x, int64_t axis, bool max, bool last_index) {
  const PrimitiveType type = TypeOf(x);
  Dims kept = DimsOf(x);
  kept.erase(kept.begin() + axis);
  Instruction* iota = b.Iota(DimsOf(x), axis);
  const Shape result = Shape::Tuple({Shape(type, kept), Shape(PrimitiveType::kS64, kept)});
  Instruction* init_value = b.Scalar(type, max ? LowestValue(type) : HighestValue(type));
  Instruction* init_index = b.Scalar(PrimitiveType::kS64, 0);
  Instruction* reduce =
      b.Emit(Opcode::kReduce, result, {x, iota, init_value, init_index},
             {{"dimensions", IntListText({axis})}}, {}, b.ArgReducer(type, max, last_index));
  return b.Emit(Opcode::kGetTupleElement, Shape(PrimitiveType::kS64, kept), {reduce},
                {{"index", "1"}});
}

StatusOr<bool> LowerArgMax(NodeContext& c) {
  Instruction* x = c.in(0);
  if (RankOf(x) == 0) return Fail("input is a scalar");
  auto axis = NormalizeAxis(c.Int("axis", 0), RankOf(x));
  if (!axis.ok()) return axis.status();
  Instruction* out = ArgReduce(c.b(), x, *axis, c.node().op_type() == "ArgMax",
                               c.Int("select_last_index", 0) != 0);
  if (c.Int("keepdims", 1) != 0) {
    Dims kept = DimsOf(x);
    kept[static_cast<size_t>(*axis)] = 1;
    out = c.b().Reshape(out, kept);
  }
  c.SetOutput(0, out);
  return true;
}

StatusOr<bool> LowerHardmax(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  auto axis = NormalizeAxis(c.Int("axis", c.opset() < 13 ? 1 : -1), rank);
  if (!axis.ok()) return axis.status();
  if (c.opset() < 13 && *axis != rank - 1) return false;
  Instruction* index = ArgReduce(b, x, *axis, true, false);
  Instruction* spread = b.BroadcastInDim(index, DimsOf(x), AllBut(rank, {*axis}));
  Instruction* hot = CompareSame(b, b.Iota(DimsOf(x), *axis), spread, "EQ");
  c.SetOutput(0, b.Convert(hot, TypeOf(x)));
  return true;
}

StatusOr<bool> LowerInstanceNorm(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  if (rank < 3) return Fail("input must be [N, C, spatial...]");
  const Dims& dims = DimsOf(x);
  for (int64_t i = 1; i <= 2; ++i) {
    if (DimsOf(c.in(i)) != Dims{dims[1]}) return Fail("scale and bias must be [C]");
  }
  const Dims axes = Iota(2, rank);
  const Dims outer = {0, 1};
  Instruction* mean = ReduceMean(b, x, axes);
  Instruction* centered = Elementwise(b, Opcode::kSubtract, x, b.BroadcastInDim(mean, dims, outer));
  Instruction* variance =
      ReduceMean(b, Elementwise(b, Opcode::kMultiply, centered, centered), axes);
  Instruction* var_eps = Elementwise(
      b, Opcode::kAdd, variance, b.Splat(TypeOf(x), c.Float("epsilon", 1e-5f), DimsOf(variance)));
  Instruction* normalized =
      Elementwise(b, Opcode::kMultiply, centered,
                  b.BroadcastInDim(b.Unary(Opcode::kRsqrt, var_eps), dims, outer));
  Instruction* scaled =
      Elementwise(b, Opcode::kMultiply, normalized, b.BroadcastInDim(c.in(1), dims, {1}));
  c.SetOutput(0, Elementwise(b, Opcode::kAdd, scaled, b.BroadcastInDim(c.in(2), dims, {1})));
  return true;
}

StatusOr<bool> LowerIsInf(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  if (!IsFloatingPointType(TypeOf(x))) return false;
  const double inf = HighestValue(TypeOf(x));
  Instruction* out = nullptr;
  for (const auto& [attribute, value] :
       {std::pair{"detect_positive", inf}, std::pair{"detect_negative", -inf}}) {
    if (c.Int(attribute, 1) == 0) continue;
    Instruction* hit = CompareSame(b, x, b.Splat(TypeOf(x), value, DimsOf(x)), "EQ");
    out = out ? Elementwise(b, Opcode::kOr, out, hit) : hit;
  }
  c.SetOutput(0, out ? out : b.Splat(PrimitiveType::kPred, 0, DimsOf(x)));
  return true;
}

StatusOr<bool> LowerTrilu(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  if (rank < 2) return Fail("input must have rank 2 or more");
  int64_t k = 0;
  if (c.input(1)) {
    auto known = c.KnownInts(1, "k");
    if (!known.ok()) return known.status();
    if (known->size() != 1) return Fail("k must hold one value");
    k = (*known)[0];
  }
  const Dims& dims = DimsOf(x);
  const Dims matrix = {dims[static_cast<size_t>(rank - 2)], dims[static_cast<size_t>(rank - 1)]};
  // Keep element (i, j) where j - i >= k (upper) or j - i <= k (lower).
  Instruction* shifted_row =
      Elementwise(b, Opcode::kAdd, b.Iota(matrix, 0),
                  b.Splat(PrimitiveType::kS64, static_cast<double>(k), matrix));
  const bool upper = c.Int("upper", 1) != 0;
  Instruction* keep = CompareSame(b, b.Iota(matrix, 1), shifted_row, upper ? "GE" : "LE");
  keep = b.BroadcastInDim(keep, dims, {rank - 2, rank - 1});
  c.SetOutput(0, b.Select(keep, x, b.Splat(TypeOf(x), 0, dims)));
  return true;
}

StatusOr<bool> LowerDepthToSpace(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  if (RankOf(x) != 4) return Fail("input must be [N, C, H, W]");
  const int64_t s = c.Int("blocksize", 0);
  const Dims& d = DimsOf(x);
  if (s < 1 || s > kMaxSizeAttribute) return Fail("blocksize out of range");
  if (c.node().op_type() == "SpaceToDepth") {
    if (d[2] % s || d[3] % s) return Fail("H and W must be multiples of blocksize");
    Instruction* split = b.Reshape(x, {d[0], d[1], d[2] / s, s, d[3] / s, s});
    Instruction* moved = b.Transpose(split, {0, 3, 5, 1, 2, 4});
    c.SetOutput(0, b.Reshape(moved, {d[0], d[1] * s * s, d[2] / s, d[3] / s}));
    return true;
  }
  if (d[1] % (s * s)) return Fail("C must be a multiple of blocksize squared");
  const int64_t channels = d[1] / (s * s);
  const bool crd = c.String("mode", "DCR") == "CRD";
  Instruction* split = crd ? b.Reshape(x, {d[0], channels, s, s, d[2], d[3]})
                           : b.Reshape(x, {d[0], s, s, channels, d[2], d[3]});
  Instruction* moved =
      crd ? b.Transpose(split, {0, 1, 4, 2, 5, 3}) : b.Transpose(split, {0, 3, 4, 1, 5, 2});
  c.SetOutput(0, b.Reshape(moved, {d[0], channels, d[2] * s, d[3] * s}));
  return true;
}

// NegativeLogLikelihoodLoss on `input` [N, C, d...] with class `target` [N, d...]: the target
// class picked through a one-hot mask (iota over C compared with the target), weighted, and
// reduced as `reduction` says. Targets equal to ignore_index weigh 0.
StatusOr<Instruction*> NllLoss(NodeContext& c, Instruction* input, Instruction* target,
                               Instruction* weight) {
  GraphBuilder& b = c.b();
  const int64_t rank = RankOf(input);
  const Dims& dims = DimsOf(input);
  if (rank < 2) return Fail("input must be [N, C, ...]");
  Dims target_dims = dims;
  target_dims.erase(target_dims.begin() + 1);
  if (DimsOf(target) != target_dims) return Fail("target shape does not match the input");
  if (!IsIntegralType(TypeOf(target))) return Fail("target is not an integer array");
  if (weight && DimsOf(weight) != Dims{dims[1]}) return Fail("weight must be [C]");
  const PrimitiveType type = TypeOf(input);
  Instruction* target64 = b.Convert(target, PrimitiveType::kS64);
  Dims spread = AllBut(rank, {1});
  Instruction* hot =
      CompareSame(b, b.Iota(dims, 1), b.BroadcastInDim(target64, dims, spread), "EQ");
  Instruction* zeros = b.Splat(type, 0, dims);
  Instruction* picked = b.Reduce(b.Select(hot, input, zeros), b.Scalar(type, 0), {1}, Opcode::kAdd);
  Instruction* per_class = weight ? b.BroadcastInDim(weight, dims, {1}) : b.Splat(type, 1, dims);
  Instruction* weights =
      b.Reduce(b.Select(hot, per_class, zeros), b.Scalar(type, 0), {1}, Opcode::kAdd);
  if (const onnx::AttributeProto* ignore = c.Attr("ignore_index")) {
    Instruction* kept = CompareSame(
        b, target64, b.Splat(PrimitiveType::kS64, static_cast<double>(ignore->i()), target_dims),
        "NE");
    weights = b.Select(kept, weights, b.Splat(type, 0, target_dims));
  }
  Instruction* loss = b.Unary(Opcode::kNegate, Elementwise(b, Opcode::kMultiply, picked, weights));
  const std::string reduction = c.String("reduction", "mean");
  if (reduction == "none") return loss;
  const Dims all = Iota(0, RankOf(loss));
  Instruction* total = b.Reduce(loss, b.Scalar(type, 0), all, Opcode::kAdd);
  if (reduction == "sum") return total;
  if (reduction != "mean") return Fail("unknown reduction '" + reduction + "'");
  Instruction* weight_total = b.Reduce(weights, b.Scalar(type, 0), all, Opcode::kAdd);
  return Elementwise(b, Opcode::kDivide, total, weight_total);
}

StatusOr<bool> LowerNllLoss(NodeContext& c) {
  auto loss = NllLoss(c, c.in(0), c.in(1), c.input(2) ? c.in(2) : nullptr);
  if (!loss.ok()) return loss.status();
  c.SetOutput(0, *loss);
  return true;
}

StatusOr<bool> LowerSoftmaxCrossEntropy(NodeContext& c) {
  if (RankOf(c.in(0)) < 2) return Fail("scores must be [N, C, ...]");
  Instruction* log_prob = SoftmaxOnAxis(c.b(), c.in(0), 1, true);
  auto loss = NllLoss(c, log_prob, c.in(1), c.input(2) ? c.in(2) : nullptr);
  if (!loss.ok()) return loss.status();
  c.SetOutput(0, *loss);
  if (c.WantsOutput(1)) c.SetOutput(1, log_prob);
  return true;
}

Instruction* EmitSliceOf(GraphBuilder& b, Instruction* x, int64_t i);

StatusOr<bool> LowerEyeLike(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  if (RankOf(x) != 2) return Fail("input must be 2-D");
  PrimitiveType type = TypeOf(x);
  if (c.Attr("dtype")) {
    std::optional<PrimitiveType> dtype =
        ElementTypeFromOnnx(static_cast<int32_t>(c.Int("dtype", 0)));
    if (!dtype) return false;
    type = *dtype;
  }
  const Dims& dims = DimsOf(x);
  const int64_t k = c.Int("k", 0);
  FS_RETURN_IF_ERROR(CheckSizes({k}, "k"));
  Instruction* shifted_row = Elementwise(
      b, Opcode::kAdd, b.Iota(dims, 0), b.Splat(PrimitiveType::kS64, static_cast<double>(k), dims));
  c.SetOutput(0, b.Convert(CompareSame(b, b.Iota(dims, 1), shifted_row, "EQ"), type));
  return true;
}

StatusOr<bool> LowerOneHot(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* indices = c.in(0);
  Instruction* values = c.in(2);
  std::optional<std::vector<double>> depth_value = c.Known(1);
  if (!depth_value || depth_value->size() != 1) {
    auto known = c.KnownInts(1, "depth");
    if (!known.ok()) return known.status();
    return Fail("depth must hold one value");
  }
  const double depth_double = (*depth_value)[0];
  if (!(depth_double >= 1 && depth_double <= static_cast<double>(kMaxSizeAttribute))) {
    return Fail("depth out of range");
  }
  const auto depth = static_cast<int64_t>(depth_double);
  if (DimsOf(values) != Dims{2}) return Fail("values must hold [off, on]");
  const int64_t rank = RankOf(indices) + 1;
  auto axis = NormalizeAxis(c.Int("axis", -1), rank);
  if (!axis.ok()) return axis.status();
  Dims out = DimsOf(indices);
  out.insert(out.begin() + *axis, depth);
  Instruction* index = b.Convert(indices, PrimitiveType::kS64);
  // Negative indices count from the end of the depth.
  Instruction* zero = b.Splat(PrimitiveType::kS64, 0, DimsOf(index));
  Instruction* wrapped =
      Elementwise(b, Opcode::kAdd, index,
                  b.Splat(PrimitiveType::kS64, static_cast<double>(depth), DimsOf(index)));
  index = b.Select(CompareSame(b, index, zero, "LT"), wrapped, index);
  Instruction* hot =
      CompareSame(b, b.Iota(out, *axis), b.BroadcastInDim(index, out, AllBut(rank, {*axis})), "EQ");
  Instruction* off = b.Reshape(EmitSliceOf(b, values, 0), {});
  Instruction* on = b.Reshape(EmitSliceOf(b, values, 1), {});
  c.SetOutput(0, b.Select(hot, b.BroadcastInDim(on, out, {}), b.BroadcastInDim(off, out, {})));
  return true;
}

// Local response normalization across channels: x / (bias + alpha / size * sum of squares
// over `size` neighbouring channels) ^ beta, the sum a reduce-window over dimension 1.
StatusOr<bool> LowerLrn(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  const int64_t size = c.Int("size", 0);
  if (rank < 3 || size < 1 || size > kMaxSizeAttribute)
    return Fail("needs [N, C, ...] and a positive size");
  if (!IsFloatingPointType(TypeOf(x))) return false;
  const PrimitiveType type = TypeOf(x);
  const Dims& dims = DimsOf(x);
  WindowSpec w;
  w.size = Dims(static_cast<size_t>(rank), 1);
  w.stride = w.size;
  w.lhs_dilate = w.size;
  w.rhs_dilate = w.size;
  w.pad_low = Dims(static_cast<size_t>(rank), 0);
  w.pad_high = w.pad_low;
  w.size[1] = size;
  w.pad_low[1] = (size - 1) / 2;
  w.pad_high[1] = size - 1 - (size - 1) / 2;
  Instruction* square = Elementwise(b, Opcode::kMultiply, x, x);
  Instruction* sum = b.Emit(Opcode::kReduceWindow, Shape(type, dims), {square, b.Scalar(type, 0)},
                            {{"window", w.Text()}}, {}, b.Reducer(Opcode::kAdd, type));
  Instruction* base =
      Elementwise(b, Opcode::kAdd, b.Splat(type, c.Float("bias", 1.0f), dims),
                  Scaled(b, sum, c.Float("alpha", 1e-4f) / static_cast<double>(size)));
  Instruction* power =
      Elementwise(b, Opcode::kPower, base, b.Splat(type, c.Float("beta", 0.75f), dims));
  c.SetOutput(0, Elementwise(b, Opcode::kDivide, x, power));
  return true;
}

StatusOr<bool> LowerCastLike(NodeContext& c) {
  c.SetOutput(0, c.b().Convert(c.in(0), TypeOf(c.in(1))));
  return true;
}

// ---- data movement ----

StatusOr<bool> LowerReshape(NodeContext& c) {
  Instruction* x = c.in(0);
  const std::string& op = c.node().op_type();
  Dims target;
  const Dims& dims = DimsOf(x);
  if (op == "Flatten") {
    int64_t axis = c.Int("axis", 1);
    if (axis < 0) axis += RankOf(x);
    if (axis < 0 || axis > RankOf(x)) return Fail("axis out of range");
    const auto a = static_cast<size_t>(axis);
    target = {Product(dims, 0, a), Product(dims, a, dims.size())};
  } else {
    auto shape =
        c.opset() < 5 ? StatusOr<Dims>(c.Ints("shape").value_or(Dims())) : c.KnownInts(1, "shape");
    if (!shape.ok()) return shape.status();
    target = *shape;
    const bool allow_zero = c.Int("allowzero", 0) != 0;
    int64_t inferred = -1;
    int64_t known_product = 1;
    for (size_t i = 0; i < target.size(); ++i) {
      if (target[i] == 0 && !allow_zero) {
        if (i >= dims.size())
          return Fail("shape copies dimension " + std::to_string(i) + " the input lacks");
        target[i] = dims[i];
      }
      if (target[i] == -1) {
        if (inferred >= 0) return Fail("shape has more than one -1");
        inferred = static_cast<int64_t>(i);
      } else if (target[i] < 0) {
        return Fail("shape has negative dimension " + std::to_string(target[i]));
      } else if (__builtin_mul_overflow(known_product, target[i], &known_product)) {
        return Fail("shape " + IntListText(target) + " overflows");
      }
    }
    const int64_t total = x->shape().ElementCount();
    if (inferred >= 0) {
      if (known_product == 0 || total % known_product != 0)
        return Fail("cannot infer the -1 dimension");
      target[static_cast<size_t>(inferred)] = total / known_product;
    }
  }
  int64_t target_count = 1;
  for (int64_t d : target) {
    if (__builtin_mul_overflow(target_count, d, &target_count)) return Fail("shape overflows");
  }
  if (target_count != x->shape().ElementCount()) {
    return Fail("cannot reshape " + x->shape().ToString(false) + " to " + IntListText(target));
  }
  c.SetOutput(0, c.b().Reshape(x, target), c.Known(0));
  return true;
}

StatusOr<bool> LowerTranspose(NodeContext& c) {
  Instruction* x = c.in(0);
  Dims perm = c.Ints("perm").value_or(Dims());
  if (perm.empty()) {
    for (int64_t d = RankOf(x) - 1; d >= 0; --d) perm.push_back(d);
  }
  Dims sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != Iota(0, RankOf(x)))
    return Fail("perm " + IntListText(perm) + " is not a permutation");
  c.SetOutput(0, c.b().Transpose(x, perm));
  return true;
}

StatusOr<bool> LowerSqueeze(NodeContext& c) {
  Instruction* x = c.in(0);
  const bool unsqueeze = c.node().op_type() == "Unsqueeze";
  std::optional<Dims> axes;
  if (c.opset() >= 13 && c.input(1)) {
    auto known = c.KnownInts(1, "axes");
    if (!known.ok()) return known.status();
    axes = *known;
  } else {
    axes = c.Ints("axes");
  }
  const Dims& dims = DimsOf(x);
  Dims out;
  if (unsqueeze) {
    if (!axes) return Fail("Unsqueeze without axes");
    const int64_t rank = RankOf(x) + static_cast<int64_t>(axes->size());
    auto normalized = NormalizeAxes(*axes, rank);
    if (!normalized.ok()) return normalized.status();
    size_t next = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::binary_search(normalized->begin(), normalized->end(), d)) {
        out.push_back(1);
      } else {
        out.push_back(dims[next++]);
      }
    }
  } else {
    Dims removed;
    if (axes && !axes->empty()) {
      auto normalized = NormalizeAxes(*axes, RankOf(x));
      if (!normalized.ok()) return normalized.status();
      removed = *normalized;
      for (int64_t a : removed) {
        if (dims[static_cast<size_t>(a)] != 1)
          return Fail("axis " + std::to_string(a) + " is not of size 1");
      }
    } else {
      for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 1) removed.push_back(static_cast<int64_t>(d));
      }
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!std::binary_search(removed.begin(), removed.end(), static_cast<int64_t>(d)))
        out.push_back(dims[d]);
    }
  }
  c.SetOutput(0, c.b().Reshape(x, out), c.Known(0));
  return true;
}

StatusOr<bool> LowerConcat(NodeContext& c) {
  std::vector<Instruction*> parts;
  for (int64_t i = 0; i < c.input_count(); ++i) {
    if (c.input(i)) parts.push_back(c.in(i));
  }
  if (parts.empty()) return Fail("no inputs");
  auto axis = NormalizeAxis(c.Int("axis", 0), RankOf(parts[0]));
  if (!axis.ok()) return axis.status();
  Dims out = DimsOf(parts[0]);
  std::optional<std::vector<double>> known = std::vector<double>();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (RankOf(parts[i]) != RankOf(parts[0]) || TypeOf(parts[i]) != TypeOf(parts[0])) {
      return Fail("inputs differ in rank or element type");
    }
    if (i > 0) out[static_cast<size_t>(*axis)] += DimsOf(parts[i])[static_cast<size_t>(*axis)];
    std::optional<std::vector<double>> part = c.Known(static_cast<int64_t>(i));
    if (known && part && RankOf(parts[0]) == 1) {
      known->insert(known->end(), part->begin(), part->end());
    } else {
      known.reset();
    }
  }
  Instruction* result = parts.size() == 1
                            ? parts[0]
                            : c.b().Emit(Opcode::kConcatenate, Shape(TypeOf(parts[0]), out), parts,
                                         {{"dimensions", IntListText({*axis})}});
  c.SetOutput(0, result, known ? KnownIfSmall(*known) : std::nullopt);
  return true;
}

std::string SliceText(const Dims& start, const Dims& limit, const Dims& stride) {
  std::string out = "{";
  for (size_t i = 0; i < start.size(); ++i) {
    out += (i ? ", [" : "[") + std::to_string(start[i]) + ":" + std::to_string(limit[i]);
    if (stride[i] != 1) out += ":" + std::to_string(stride[i]);
    out += "]";
  }
  return out + "}";
}

// slice(x) with per-dimension start/limit/stride; the result's known contents when x's are.
Instruction* EmitSlice(GraphBuilder& b, Instruction* x, const Dims& start, const Dims& limit,
                       const Dims& stride) {
  Dims out;
  for (size_t i = 0; i < start.size(); ++i) {
    out.push_back(limit[i] <= start[i] ? 0 : (limit[i] - start[i] + stride[i] - 1) / stride[i]);
  }
  if (out == DimsOf(x)) return x;
  return b.Emit(Opcode::kSlice, Shape(TypeOf(x), out), {x},
                {{"slice", SliceText(start, limit, stride)}});
}

// Element `i` of a 1-D array, as a [1] slice.
Instruction* EmitSliceOf(GraphBuilder& b, Instruction* x, int64_t i) {
  return EmitSlice(b, x, {i}, {i + 1}, {1});
}

StatusOr<bool> LowerSlice(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  Dims starts, ends, axes, steps;
  if (c.opset() < 10) {
    starts = c.Ints("starts").value_or(Dims());
    ends = c.Ints("ends").value_or(Dims());
    axes = c.Ints("axes").value_or(Iota(0, static_cast<int64_t>(starts.size())));
  } else {
    auto s = c.KnownInts(1, "starts");
    auto e = c.KnownInts(2, "ends");
    if (!s.ok()) return s.status();
    if (!e.ok()) return e.status();
    starts = *s;
    ends = *e;
    if (c.input(3)) {
      auto a = c.KnownInts(3, "axes");
      if (!a.ok()) return a.status();
      axes = *a;
    } else {
      axes = Iota(0, static_cast<int64_t>(starts.size()));
    }
    if (c.input(4)) {
      auto st = c.KnownInts(4, "steps");
      if (!st.ok()) return st.status();
      steps = *st;
    }
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    return Fail("starts, ends, axes and steps differ in length");
  }
  const Dims& dims = DimsOf(x);
  Dims start(static_cast<size_t>(rank), 0), limit = dims, stride(static_cast<size_t>(rank), 1);
  Dims reversed;
  for (size_t i = 0; i < axes.size(); ++i) {
    auto axis = NormalizeAxis(axes[i], rank);
    if (!axis.ok()) return axis.status();
    const auto a = static_cast<size_t>(*axis);
    const int64_t n = dims[a];
    if (steps[i] == 0) return Fail("step 0");
    int64_t s = starts[i] < 0 ? starts[i] + n : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + n : ends[i];
    if (steps[i] > 0) {
      start[a] = std::clamp<int64_t>(s, 0, n);
      limit[a] = std::max(start[a], std::clamp<int64_t>(e, 0, n));
      stride[a] = steps[i];
    } else {
      // Walking backwards is walking forwards over the reversed dimension.
      s = std::clamp<int64_t>(s, 0, n - 1);
      e = std::clamp<int64_t>(e, -1, n - 1);
      reversed.push_back(*axis);
      start[a] = n - 1 - s;
      limit[a] = std::max(start[a], n - 1 - e);
      stride[a] = -steps[i];
      if (n == 0) start[a] = limit[a] = 0;
    }
  }
  std::sort(reversed.begin(), reversed.end());
  Instruction* operand = x;
  if (!reversed.empty()) {
    operand = b.Emit(Opcode::kReverse, x->shape(), {x}, {{"dimensions", IntListText(reversed)}});
  }
  Instruction* out = EmitSlice(b, operand, start, limit, stride);
  std::optional<std::vector<double>> known;
  if (rank == 1 && reversed.empty() && c.Known(0)) {
    known.emplace();
    for (int64_t i = start[0]; i < limit[0]; i += stride[0])
      known->push_back((*c.Known(0))[static_cast<size_t>(i)]);
  }
  c.SetOutput(0, out, known);
  return true;
}

// Negative indices count from the end of a dimension of `size`.
Instruction* WrapNegativeIndices(GraphBuilder& b, Instruction* indices, int64_t size) {
  if (!IsSignedIntegralType(TypeOf(indices))) return indices;
  const Dims& dims = DimsOf(indices);
  Instruction* negative = CompareSame(b, indices, b.Splat(TypeOf(indices), 0, dims), "LT");
  Instruction* wrapped = Elementwise(b, Opcode::kAdd, indices,
                                     b.Splat(TypeOf(indices), static_cast<double>(size), dims));
  return b.Select(negative, wrapped, indices);
}

StatusOr<bool> LowerGather(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* data = c.in(0);
  Instruction* indices = c.in(1);
  const int64_t rank = RankOf(data);
  auto axis_or = NormalizeAxis(c.Int("axis", 0), rank);
  if (!axis_or.ok()) return axis_or.status();
  const int64_t axis = *axis_or;
  const int64_t n = DimsOf(data)[static_cast<size_t>(axis)];
  if (!IsIntegralType(TypeOf(indices))) return Fail("indices are not integers");
  std::optional<std::vector<double>> known_indices = c.Known(1);
  if (known_indices) {
    for (double& i : *known_indices) {
      if (i < -n || i >= n)
        return Fail("index " + std::to_string(static_cast<int64_t>(i)) + " out of range");
      if (i < 0) i += n;
    }
    indices = b.Constant(Shape(TypeOf(indices), DimsOf(indices)),
                         LiteralOf(TypeOf(indices), *known_indices, DimsOf(indices)));
  } else {
    indices = WrapNegativeIndices(b, indices, n);
  }
  const int64_t q = RankOf(indices);
  const Dims& dd = DimsOf(data);
  Dims out(dd.begin(), dd.begin() + axis);
  out.insert(out.end(), DimsOf(indices).begin(), DimsOf(indices).end());
  out.insert(out.end(), dd.begin() + axis + 1, dd.end());
  Dims offset_dims = Iota(0, axis);
  for (int64_t d = axis + 1; d < rank; ++d) offset_dims.push_back(d - 1 + q);
  Dims slice_sizes = dd;
  slice_sizes[static_cast<size_t>(axis)] = 1;
  Instruction* gathered = b.Emit(Opcode::kGather, Shape(TypeOf(data), out), {data, indices},
                                 {{"offset_dims", IntListText(offset_dims)},
                                  {"collapsed_slice_dims", IntListText({axis})},
                                  {"start_index_map", IntListText({axis})},
                                  {"index_vector_dim", std::to_string(q)},
                                  {"slice_sizes", IntListText(slice_sizes)}});
  std::optional<std::vector<double>> known;
  if (rank == 1 && c.Known(0) && known_indices) {
    known.emplace();
    for (double i : *known_indices) known->push_back((*c.Known(0))[static_cast<size_t>(i)]);
  }
  c.SetOutput(0, gathered, known);
  return true;
}

// GatherElements as XLA's take_along_axis: a gather of single elements whose index vectors
// are the iota of each output position with `indices` in the axis dimension.
StatusOr<bool> LowerGatherElements(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* data = c.in(0);
  const int64_t rank = RankOf(data);
  if (rank == 0 || RankOf(c.in(1)) != rank) return Fail("indices must have the rank of data");
  if (!IsIntegralType(TypeOf(c.in(1)))) return Fail("indices are not integers");
  auto axis = NormalizeAxis(c.Int("axis", 0), rank);
  if (!axis.ok()) return axis.status();
  Instruction* indices =
      b.Convert(WrapNegativeIndices(b, c.in(1), DimsOf(data)[static_cast<size_t>(*axis)]),
                PrimitiveType::kS64);
  const Dims& out = DimsOf(indices);
  for (int64_t d = 0; d < rank; ++d) {
    if (d != *axis && out[static_cast<size_t>(d)] > DimsOf(data)[static_cast<size_t>(d)]) {
      return Fail("indices are larger than data outside the axis");
    }
  }
  Dims with_vector = out;
  with_vector.push_back(1);
  std::vector<Instruction*> parts;
  for (int64_t d = 0; d < rank; ++d) {
    Instruction* part = d == *axis ? indices : b.Iota(out, d);
    parts.push_back(b.Reshape(part, with_vector));
  }
  Dims all = with_vector;
  all.back() = rank;
  Instruction* index_vectors = parts.size() == 1
                                   ? parts[0]
                                   : b.Emit(Opcode::kConcatenate, Shape(PrimitiveType::kS64, all),
                                            parts, {{"dimensions", IntListText({rank})}});
  c.SetOutput(0, b.Emit(Opcode::kGather, Shape(TypeOf(data), out), {data, index_vectors},
                        {{"offset_dims", "{}"},
                         {"collapsed_slice_dims", IntListText(Iota(0, rank))},
                         {"start_index_map", IntListText(Iota(0, rank))},
                         {"index_vector_dim", std::to_string(rank)},
                         {"slice_sizes", IntListText(Dims(static_cast<size_t>(rank), 1))}}));
  return true;
}

// GatherND as one gather: each index vector (the last dimension of `indices`, its negative
// entries wrapped per data dimension) picks a slice of data; batch_dims leading dimensions
// shared by both become the first components of every index vector, from iotas.
StatusOr<bool> LowerGatherND(NodeContext& c) {
  GraphBuilder& b = c.b();
  Instruction* data = c.in(0);
  const int64_t r = RankOf(data);
  const int64_t q = RankOf(c.in(1));
  const int64_t batch = c.Int("batch_dims", 0);
  if (!IsIntegralType(TypeOf(c.in(1)))) return Fail("indices are not integers");
  if (r < 1 || q < 1) return Fail("data and indices must have a rank of 1 or more");
  const Dims& dd = DimsOf(data);
  const Dims& id = DimsOf(c.in(1));
  const int64_t k = id.back();
  if (batch < 0 || batch >= std::min(q, r)) return Fail("batch_dims is out of range");
  if (k < 1 || batch + k > r) {
    return Fail("index vectors of " + std::to_string(k) + " entries do not fit " +
                std::to_string(r - batch) + " data dimensions");
  }
  for (int64_t d = 0; d < batch; ++d) {
    if (id[static_cast<size_t>(d)] != dd[static_cast<size_t>(d)])
      return Fail("batch dimension " + std::to_string(d) + " differs between data and indices");
  }
  Instruction* indices = b.Convert(c.in(1), PrimitiveType::kS64);
  Dims sizes(dd.begin() + batch, dd.begin() + batch + k);
  Instruction* limit =
      b.BroadcastInDim(b.Constant(Shape(PrimitiveType::kS64, {k}),
                                  LiteralOf(PrimitiveType::kS64, ToDoubles(sizes), {k})),
                       id, {q - 1});
  Instruction* zero = b.Splat(PrimitiveType::kS64, 0, id);
  auto negative = b.Binary(Opcode::kCompare, indices, zero, "LT");
  if (!negative.ok()) return negative.status();
  indices = Elementwise(b, Opcode::kAdd, indices, b.Select(*negative, limit, zero));
  const int64_t width = batch + k;
  if (batch > 0) {
    const Dims leading(id.begin(), id.end() - 1);
    Dims one = leading;
    one.push_back(1);
    std::vector<Instruction*> parts;
    for (int64_t d = 0; d < batch; ++d) parts.push_back(b.Reshape(b.Iota(leading, d), one));
    parts.push_back(indices);
    Dims all = leading;
    all.push_back(width);
    indices = b.Emit(Opcode::kConcatenate, Shape(PrimitiveType::kS64, all), parts,
                     {{"dimensions", IntListText({q - 1})}});
  }
  Dims out(id.begin(), id.end() - 1);
  out.insert(out.end(), dd.begin() + width, dd.end());
  Dims slice_sizes(static_cast<size_t>(width), 1);
  slice_sizes.insert(slice_sizes.end(), dd.begin() + width, dd.end());
  c.SetOutput(0, b.Emit(Opcode::kGather, Shape(TypeOf(data), out), {data, indices},
                        {{"offset_dims", IntListText(Iota(q - 1, q - 1 + r - width))},
                         {"collapsed_slice_dims", IntListText(Iota(0, width))},
                         {"start_index_map", IntListText(Iota(0, width))},
                         {"index_vector_dim", std::to_string(q - 1)},
                         {"slice_sizes", IntListText(slice_sizes)}}));
  return true;
}

StatusOr<bool> LowerBitShift(NodeContext& c) {
  const std::string direction = c.String("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") return Fail("direction must be LEFT or RIGHT");
  if (IsSignedIntegralType(TypeOf(c.in(0))) || !IsIntegralType(TypeOf(c.in(0)))) {
    return Fail("BitShift takes unsigned integers");
  }
  auto out = c.b().Binary(direction == "LEFT" ? Opcode::kShiftLeft : Opcode::kShiftRightLogical,
                          c.in(0), c.in(1));
  if (!out.ok()) return out.status();
  c.SetOutput(0, *out);
  return true;
}

StatusOr<bool> LowerSplit(NodeContext& c) {
  Instruction* x = c.in(0);
  auto axis = NormalizeAxis(c.Int("axis", 0), RankOf(x));
  if (!axis.ok()) return axis.status();
  const auto a = static_cast<size_t>(*axis);
  const int64_t n = DimsOf(x)[a];
  Dims sizes;
  if (c.input(1)) {
    auto known = c.KnownInts(1, "split");
    if (!known.ok()) return known.status();
    sizes = *known;
  } else if (c.Ints("split")) {
    sizes = *c.Ints("split");
  } else {
    const int64_t parts = c.Int("num_outputs", c.output_count());
    if (parts < 1) return Fail("no outputs");
    const int64_t each = (n + parts - 1) / parts;
    for (int64_t i = 0; i < parts; ++i)
      sizes.push_back(std::max<int64_t>(0, std::min(each, n - i * each)));
  }
  if (std::any_of(sizes.begin(), sizes.end(), [](int64_t v) { return v < 0; })) {
    return Fail("negative split size");
  }
  if (static_cast<int64_t>(sizes.size()) != c.output_count() ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != n) {
    return Fail("split sizes " + IntListText(sizes) + " do not cover dimension " +
                std::to_string(n));
  }
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Dims start(static_cast<size_t>(RankOf(x)), 0);
    Dims limit = DimsOf(x);
    start[a] = offset;
    limit[a] = offset + sizes[i];
    offset += sizes[i];
    if (c.WantsOutput(static_cast<int64_t>(i))) {
      c.SetOutput(static_cast<int64_t>(i),
                  EmitSlice(c.b(), x, start, limit, Dims(start.size(), 1)));
    }
  }
  return true;
}

StatusOr<bool> LowerExpand(NodeContext& c) {
  auto shape = c.KnownInts(1, "shape");
  if (!shape.ok()) return shape.status();
  auto dims = BroadcastDims(DimsOf(c.in(0)), *shape);
  if (!dims)
    return Fail("cannot expand " + c.in(0)->shape().ToString(false) + " to " + IntListText(*shape));
  std::optional<std::vector<double>> known;
  if (dims->size() <= 1 && c.Known(0) && c.Known(0)->size() == 1) {
    known =
        std::vector<double>(dims->empty() ? 1 : static_cast<size_t>((*dims)[0]), (*c.Known(0))[0]);
  } else if (dims->size() <= 1 && c.Known(0) && DimsOf(c.in(0)) == *dims) {
    known = c.Known(0);
  }
  c.SetOutput(0, c.b().BroadcastTo(c.in(0), *dims), known ? KnownIfSmall(*known) : std::nullopt);
  return true;
}

StatusOr<bool> LowerTile(NodeContext& c) {
  auto repeats = c.KnownInts(1, "repeats");
  if (!repeats.ok()) return repeats.status();
  Instruction* x = c.in(0);
  const Dims& dims = DimsOf(x);
  if (repeats->size() != dims.size()) return Fail("repeats does not have one entry per dimension");
  FS_RETURN_IF_ERROR(CheckSizes(*repeats, "repeats"));
  // [d0, d1] tiled [r0, r1] is broadcast to [r0, d0, r1, d1] and reshaped.
  Dims wide, mapping, out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((*repeats)[i] < 0) return Fail("negative repeat");
    wide.push_back((*repeats)[i]);
    wide.push_back(dims[i]);
    mapping.push_back(static_cast<int64_t>(2 * i + 1));
    out.push_back((*repeats)[i] * dims[i]);
  }
  if (out == dims) {
    c.SetOutput(0, x);
    return true;
  }
  c.SetOutput(0, c.b().Reshape(c.b().BroadcastInDim(x, wide, mapping), out));
  return true;
}

StatusOr<bool> LowerPad(NodeContext& c) {
  GraphBuilder& b = c.b();
  if (c.String("mode", "constant") != "constant") return false;
  Instruction* x = c.in(0);
  const int64_t rank = RankOf(x);
  Dims pads;
  Instruction* value = nullptr;
  if (c.opset() < 11) {
    pads = c.Ints("pads").value_or(Dims());
    value = b.Scalar(TypeOf(x), c.Float("value", 0));
  } else {
    auto known = c.KnownInts(1, "pads");
    if (!known.ok()) return known.status();
    pads = *known;
    value = c.input(2) ? b.Reshape(c.in(2), {}) : b.Scalar(TypeOf(x), 0);
  }
  Dims axes = Iota(0, rank);
  if (c.input(3)) {
    auto known = c.KnownInts(3, "axes");
    if (!known.ok()) return known.status();
    axes.clear();
    for (int64_t axis : *known) {
      auto a = NormalizeAxis(axis, rank);
      if (!a.ok()) return a.status();
      axes.push_back(*a);
    }
  }
  const size_t n = axes.size();
  if (pads.size() != 2 * n) return Fail("pads does not have two entries per axis");
  FS_RETURN_IF_ERROR(CheckSizes(pads, "pads"));
  Dims low(static_cast<size_t>(rank), 0), high(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < n; ++i) {
    low[static_cast<size_t>(axes[i])] = pads[i];
    high[static_cast<size_t>(axes[i])] = pads[n + i];
  }
  std::string padding;
  Dims out;
  for (int64_t d = 0; d < rank; ++d) {
    const auto i = static_cast<size_t>(d);
    padding += (d ? "x" : "") + std::to_string(low[i]) + "_" + std::to_string(high[i]);
    out.push_back(DimsOf(x)[i] + low[i] + high[i]);
    if (out.back() < 0) return Fail("pads remove more than the dimension holds");
  }
  if (rank == 0) {
    c.SetOutput(0, x);
    return true;
  }
  c.SetOutput(0, b.Emit(Opcode::kPad, Shape(TypeOf(x), out), {x, value}, {{"padding", padding}}));
  return true;
}

// Nearest-neighbour upsampling by whole factors, the only resize that is a pure data
// movement: each element repeated `s` times per dimension (broadcast + reshape).
StatusOr<bool> LowerResize(NodeContext& c) {
  Instruction* x = c.in(0);
  const Dims& dims = DimsOf(x);
  const bool upsample = c.node().op_type() == "Upsample";
  if (c.String("mode", "nearest") != "nearest") return false;
  if (!upsample && c.opset() >= 11) {
    const std::string transform = c.String("coordinate_transformation_mode", "half_pixel");
    const std::string nearest = c.String("nearest_mode", "round_prefer_floor");
    const bool floor_ok = transform == "asymmetric" && nearest == "floor";
    const bool round_ok = (transform == "half_pixel" || transform == "pytorch_half_pixel") &&
                          (nearest == "round_prefer_floor" || nearest == "round_prefer_ceil");
    if (!floor_ok && !round_ok) return false;
  }
  std::optional<std::vector<double>> scales;
  if (upsample && c.opset() < 9) {
    if (const onnx::AttributeProto* a = c.Attr("scales"))
      scales = std::vector<double>(a->floats().begin(), a->floats().end());
  } else {
    const int64_t scales_input = upsample || c.opset() < 11 ? 1 : 2;
    if (c.input(scales_input) && c.Known(scales_input) && !c.Known(scales_input)->empty()) {
      scales = c.Known(scales_input);
    } else if (!upsample && c.input(3) && c.Known(3)) {
      scales.emplace();
      for (size_t i = 0; i < dims.size() && i < c.Known(3)->size(); ++i) {
        scales->push_back(dims[i] ? (*c.Known(3))[i] / static_cast<double>(dims[i]) : 1.0);
      }
    }
  }
  if (!scales || scales->size() != dims.size()) return false;
  Dims wide, mapping, out;
  for (size_t i = 0; i < dims.size(); ++i) {
    const double s = (*scales)[i];
    if (!(s >= 1 && s <= static_cast<double>(kMaxSizeAttribute)) || s != std::floor(s))
      return false;
    mapping.push_back(static_cast<int64_t>(wide.size()));
    wide.push_back(dims[i]);
    if (s > 1) wide.push_back(static_cast<int64_t>(s));
    out.push_back(dims[i] * static_cast<int64_t>(s));
  }
  if (out == dims) {
    c.SetOutput(0, x);
    return true;
  }
  c.SetOutput(0, c.b().Reshape(c.b().BroadcastInDim(x, wide, mapping), out));
  return true;
}

// ---- constants and shapes ----

StatusOr<bool> LowerConstant(NodeContext& c) {
  GraphBuilder& b = c.b();
  const onnx::AttributeProto* a = nullptr;
  for (const char* name : {"value", "value_float", "value_floats", "value_int", "value_ints"}) {
    if ((a = c.Attr(name))) break;
  }
  if (!a) return false;  // sparse_value, value_string(s)
  if (a->name() == "value") {
    auto data = ReadTensor(a->t(), c.base_dir(), c.options(), "value");
    if (!data.ok()) return data.status();
    std::optional<std::vector<double>> known;
    if (data->has_values && data->shape.ElementCount() <= kMaxKnownElements &&
        !IsComplexType(data->shape.element_type())) {
      known.emplace();
      if (IsFloatingPointType(data->shape.element_type())) {
        known->assign(data->floats.begin(), data->floats.end());
      } else {
        for (int64_t v : data->ints) known->push_back(static_cast<double>(v));
      }
    }
    c.SetOutput(0, ConstantOf(b, *data), known);
    return true;
  }
  if (a->name() == "value_float") {
    SetKnownConstant(c, 0, PrimitiveType::kF32, {}, {a->f()});
  } else if (a->name() == "value_int") {
    SetKnownConstant(c, 0, PrimitiveType::kS64, {}, {static_cast<double>(a->i())});
  } else if (a->name() == "value_floats") {
    SetKnownConstant(c, 0, PrimitiveType::kF32, {a->floats_size()},
                     std::vector<double>(a->floats().begin(), a->floats().end()));
  } else {
    SetKnownConstant(c, 0, PrimitiveType::kS64, {a->ints_size()},
                     std::vector<double>(a->ints().begin(), a->ints().end()));
  }
  return true;
}

StatusOr<bool> LowerConstantOfShape(NodeContext& c) {
  auto shape = c.KnownInts(0, "shape");
  if (!shape.ok()) return shape.status();
  auto count = CheckedElementCount(*shape, c.options().max_tensor_elements);
  if (!count) return Fail("shape " + IntListText(*shape) + " is negative or too large");
  PrimitiveType type = PrimitiveType::kF32;
  double value = 0;
  if (const onnx::AttributeProto* a = c.Attr("value")) {
    auto data = ReadTensor(a->t(), c.base_dir(), c.options(), "value");
    if (!data.ok()) return data.status();
    if (data->shape.ElementCount() != 1 || !data->has_values)
      return Fail("value must hold one element");
    type = data->shape.element_type();
    if (IsComplexType(type)) return false;
    value = IsFloatingPointType(type) ? data->floats[0] : static_cast<double>(data->ints[0]);
  }
  std::optional<std::vector<double>> known;
  if (*count <= kMaxKnownElements) known = std::vector<double>(static_cast<size_t>(*count), value);
  c.SetOutput(0, c.b().Splat(type, value, *shape), known);
  return true;
}

StatusOr<bool> LowerShape(NodeContext& c) {
  const Dims& dims = DimsOf(c.in(0));
  const auto rank = static_cast<int64_t>(dims.size());
  if (c.node().op_type() == "Size") {
    SetKnownConstant(c, 0, PrimitiveType::kS64, {},
                     {static_cast<double>(c.in(0)->shape().ElementCount())});
    return true;
  }
  int64_t start = c.Int("start", 0);
  int64_t end = c.Int("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  const Dims part(dims.begin() + start, dims.begin() + end);
  SetKnownConstant(c, 0, PrimitiveType::kS64, {static_cast<int64_t>(part.size())}, ToDoubles(part));
  return true;
}

StatusOr<bool> LowerRange(NodeContext& c) {
  if (!c.Known(0) || !c.Known(1) || !c.Known(2)) return false;
  for (int64_t i = 0; i < 3; ++i) {
    if (c.Known(i)->size() != 1) return Fail("start, limit and delta must be scalars");
  }
  const double start = (*c.Known(0))[0];
  const double limit = (*c.Known(1))[0];
  const double delta = (*c.Known(2))[0];
  if (delta == 0) return Fail("delta is 0");
  const double steps = std::ceil((limit - start) / delta);
  if (!(steps <= static_cast<double>(c.options().max_tensor_elements))) {
    return Fail("the range has " + std::to_string(steps) + " elements, over the limit of " +
                std::to_string(c.options().max_tensor_elements));
  }
  const auto count = static_cast<int64_t>(std::max(0.0, steps));
  const PrimitiveType type = TypeOf(c.in(0));
  if (count <= kMaxKnownElements) {
    std::vector<double> values;
    for (int64_t i = 0; i < count; ++i) values.push_back(start + static_cast<double>(i) * delta);
    SetKnownConstant(c, 0, type, {count}, values);
    return true;
  }
  // Too long to track: start + i * delta computed in the graph, as ONNX defines it.
  GraphBuilder& b = c.b();
  Instruction* index = b.Convert(b.Iota({count}, 0), type);
  Instruction* scaled = Elementwise(b, Opcode::kMultiply, index, b.Splat(type, delta, {count}));
  c.SetOutput(0, Elementwise(b, Opcode::kAdd, scaled, b.Splat(type, start, {count})));
  return true;
}

using Lowering = StatusOr<bool> (*)(NodeContext&);

const std::unordered_map<std::string, Lowering>& Lowerings() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string, Lowering>;
    for (const auto& [name, opcode] : UnaryOps()) (*t)[name] = LowerUnary;
    for (const char* name : {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Less",
                             "LessOrEqual", "Greater", "GreaterOrEqual"}) {
      (*t)[name] = LowerBinary;
    }
    for (const char* name : {"Max", "Min", "Sum", "Mean"}) (*t)[name] = LowerVariadic;
    for (const char* name :
         {"Relu", "LeakyRelu", "Elu", "Selu", "HardSigmoid", "HardSwish", "Softplus", "Softsign",
          "ThresholdedRelu", "Reciprocal", "IsNaN", "Gelu", "PRelu"}) {
      (*t)[name] = LowerActivation;
    }
    for (const char* name :
         {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
          "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"}) {
      (*t)[name] = LowerReduce;
    }
    (*t)["Mod"] = LowerMod;
    (*t)["ArgMax"] = LowerArgMax;
    (*t)["ArgMin"] = LowerArgMax;
    (*t)["Hardmax"] = LowerHardmax;
    (*t)["InstanceNormalization"] = LowerInstanceNorm;
    (*t)["IsInf"] = LowerIsInf;
    (*t)["Trilu"] = LowerTrilu;
    (*t)["DepthToSpace"] = LowerDepthToSpace;
    (*t)["SpaceToDepth"] = LowerDepthToSpace;
    (*t)["CastLike"] = LowerCastLike;
    for (const char* name : {"Atan", "Asin", "Acos", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"}) {
      (*t)[name] = LowerTrigonometric;
    }
    (*t)["Celu"] = LowerShrinkCelu;
    (*t)["Shrink"] = LowerShrinkCelu;
    (*t)["EyeLike"] = LowerEyeLike;
    (*t)["OneHot"] = LowerOneHot;
    (*t)["LRN"] = LowerLrn;
    (*t)["GatherElements"] = LowerGatherElements;
    (*t)["BitShift"] = LowerBitShift;
    (*t)["NegativeLogLikelihoodLoss"] = LowerNllLoss;
    (*t)["SoftmaxCrossEntropyLoss"] = LowerSoftmaxCrossEntropy;
    (*t)["Clip"] = LowerClip;
    (*t)["Where"] = LowerWhere;
    (*t)["GatherND"] = LowerGatherND;
    (*t)["Cast"] = LowerCast;
    (*t)["Identity"] = LowerIdentity;
    (*t)["Dropout"] = LowerIdentity;
    (*t)["MatMul"] = LowerMatMul;
    (*t)["Gemm"] = LowerGemm;
    (*t)["Conv"] = LowerConv;
    (*t)["ConvTranspose"] = LowerConvTranspose;
    (*t)["BatchNormalization"] = LowerBatchNorm;
    (*t)["LayerNormalization"] = LowerLayerNorm;
    (*t)["Softmax"] = LowerSoftmax;
    (*t)["LogSoftmax"] = LowerSoftmax;
    (*t)["MaxPool"] = LowerPool;
    (*t)["AveragePool"] = LowerPool;
    (*t)["GlobalAveragePool"] = LowerGlobalPool;
    (*t)["GlobalMaxPool"] = LowerGlobalPool;
    (*t)["Reshape"] = LowerReshape;
    (*t)["Flatten"] = LowerReshape;
    (*t)["Transpose"] = LowerTranspose;
    (*t)["Squeeze"] = LowerSqueeze;
    (*t)["Unsqueeze"] = LowerSqueeze;
    (*t)["Concat"] = LowerConcat;
    (*t)["Slice"] = LowerSlice;
    (*t)["Gather"] = LowerGather;
    (*t)["Split"] = LowerSplit;
    (*t)["Expand"] = LowerExpand;
    (*t)["Tile"] = LowerTile;
    (*t)["Pad"] = LowerPad;
    (*t)["Resize"] = LowerResize;
    (*t)["Upsample"] = LowerResize;
    (*t)["Constant"] = LowerConstant;
    (*t)["ConstantOfShape"] = LowerConstantOfShape;
    (*t)["Shape"] = LowerShape;
    (*t)["Size"] = LowerShape;
    (*t)["Range"] = LowerRange;
    return t;
  }();
  return *table;
}

// Inputs each op needs present (optional ones after these may be absent).
int64_t RequiredInputs(const std::string& op, int64_t opset) {
  static const std::unordered_map<std::string, int64_t> counts = {{"MatMul", 2},
                                                                  {"Gemm", 2},
                                                                  {"Conv", 2},
                                                                  {"ConvTranspose", 2},
                                                                  {"BatchNormalization", 5},
                                                                  {"LayerNormalization", 2},
                                                                  {"Where", 3},
                                                                  {"PRelu", 2},
                                                                  {"Expand", 2},
                                                                  {"Tile", 2},
                                                                  {"Range", 3},
                                                                  {"Gather", 2},
                                                                  {"Mod", 2},
                                                                  {"InstanceNormalization", 3},
                                                                  {"CastLike", 2},
                                                                  {"NegativeLogLikelihoodLoss", 2},
                                                                  {"SoftmaxCrossEntropyLoss", 2},
                                                                  {"GatherElements", 2},
                                                                  {"BitShift", 2},
                                                                  {"OneHot", 3}};
  if (auto it = counts.find(op); it != counts.end()) return it->second;
  if (op == "Reshape") return opset < 5 ? 1 : 2;
  if (op == "Slice") return opset < 10 ? 1 : 3;
  if (op == "Constant") return 0;
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Pow" || op == "And" ||
      op == "Or" || op == "Xor" || op == "Equal" || op == "Less" || op == "LessOrEqual" ||
      op == "Greater" || op == "GreaterOrEqual") {
    return 2;
  }
  return 1;
}

}  // namespace

StatusOr<bool> LowerNode(NodeContext& context) {
  const std::string& op = context.node().op_type();
  auto it = Lowerings().find(op);
  if (it == Lowerings().end()) return false;
  const int64_t required = RequiredInputs(op, context.opset());
  for (int64_t i = 0; i < required; ++i) {
    if (!context.input(i)) return Fail("input " + std::to_string(i) + " is missing");
  }
  for (int64_t i = 0; i < context.input_count(); ++i) {
    const LoweredValue* value = context.input(i);
    if (value && !value->shape().IsArray()) return false;
  }
  StatusOr<bool> lowered = it->second(context);
  if (!lowered.ok() && !context.opaque_reason().empty()) return false;
  return lowered;
}

}  // namespace fusescope::ir::onnx_import
