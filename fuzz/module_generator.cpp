#include "fuzz/module_generator.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <string_view>
#include <utility>

#include "fuzz/byte_reader.h"
#include "ir/hlo_parser.h"
#include "ir/verifier.h"

namespace fusescope::fuzz {
namespace {

// Small shapes keep constant folding and the literal evaluator cheap; the passes' decisions
// depend on structure far more than on sizes.
constexpr int64_t kMaxElements = 256;
constexpr int64_t kMaxDim = 6;
constexpr int kMaxEntrySteps = 24;
constexpr int kMaxNestedSteps = 4;
constexpr int kMaxDepth = 2;
constexpr int kMaxEntryParameters = 6;
constexpr int kMaxCalleeParameters = 4;
// The whole module, counting every line, so that derivations cannot run away.
constexpr int kMaxInstructions = 600;

enum class Kind { kPred, kSigned, kUnsigned, kFloat };

struct ElementType {
  std::string_view name;
  Kind kind;
};

enum Type : int { kPred, kS8, kS32, kS64, kU8, kU32, kU64, kBF16, kF16, kF32, kF64 };

constexpr ElementType kTypes[] = {
    {"pred", Kind::kPred},    {"s8", Kind::kSigned},   {"s32", Kind::kSigned},
    {"s64", Kind::kSigned},   {"u8", Kind::kUnsigned}, {"u32", Kind::kUnsigned},
    {"u64", Kind::kUnsigned}, {"bf16", Kind::kFloat},  {"f16", Kind::kFloat},
    {"f32", Kind::kFloat},    {"f64", Kind::kFloat}};

Kind KindOf(int type) { return kTypes[type].kind; }
bool IsFloat(int type) { return KindOf(type) == Kind::kFloat; }
bool IsInteger(int type) {
  return KindOf(type) == Kind::kSigned || KindOf(type) == Kind::kUnsigned;
}

struct GenShape {
  int type = kF32;
  std::vector<int64_t> dims;
  bool tuple = false;
  std::vector<GenShape> elements;
  // Empty: the default major-to-minor layout. Not part of equality: layouts never make a
  // module invalid, only different to lay out.
  std::vector<int64_t> minor_to_major;

  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t count() const {
    return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
  }
  bool operator==(const GenShape& other) const {
    return tuple == other.tuple && type == other.type && dims == other.dims &&
           elements == other.elements;
  }
};

GenShape Array(int type, std::vector<int64_t> dims) { return GenShape{type, std::move(dims)}; }
GenShape TupleShape(std::vector<GenShape> elements) {
  return GenShape{kF32, {}, true, std::move(elements)};
}

std::string ListText(const std::vector<int64_t>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

// With the default (major-to-minor) layout, which is what XLA writes before layout assignment,
// unless the shape asks for another.
std::string ShapeText(const GenShape& shape) {
  if (shape.tuple) {
    std::string out = "(";
    for (size_t i = 0; i < shape.elements.size(); ++i) {
      if (i) out += ", ";
      out += ShapeText(shape.elements[i]);
    }
    return out + ")";
  }
  std::string out(kTypes[shape.type].name);
  out += "[";
  for (size_t i = 0; i < shape.dims.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(shape.dims[i]);
  }
  out += "]";
  if (!shape.dims.empty()) {
    std::vector<int64_t> order = shape.minor_to_major;
    if (order.empty()) {
      for (int64_t d = shape.rank() - 1; d >= 0; --d) order.push_back(d);
    }
    out += ListText(order);
  }
  return out;
}

struct Value {
  std::string name;
  GenShape shape;
};

std::string Ref(const std::string& name) { return "%" + name; }

class Generator;

// One computation under construction: its lines, the array values its operations can read
// (the pool), and how it may obtain new leaves.
class Builder {
 public:
  enum class Leaves {
    kParameters,        // the entry: new parameters whenever wanted
    kCalleeParameters,  // fused computations and call targets: the caller supplies them
    kConstants,         // fixed signature (while bodies, branches): constants only
  };

  Builder(Generator& generator, std::string name, Leaves leaves, int depth, bool fused);

  const std::string& name() const { return name_; }
  const std::vector<Value>& parameters() const { return parameters_; }
  const std::vector<Value>& pool() const { return pool_; }
  bool fused() const { return fused_; }

  Value AddParameter(const GenShape& shape);
  // Emits `%name = SHAPE rest` and returns the value; arrays join the pool.
  Value Emit(const GenShape& shape, const std::string& rest, std::string_view prefix = "v");
  // A value of exactly `want` (an array shape): reused, a new leaf, or derived from the pool.
  std::string Get(const GenShape& want);
  // One random operation.
  void Step();
  // The computation's text with `root` as its ROOT.
  std::string Finish(const std::string& root, bool entry) const;
  // Elements of a tuple-shaped value as get-tuple-elements (at least one).
  std::vector<Value> Unpack(const Value& tuple, bool all);

 private:
  ByteReader& in();
  bool CanAddParameter() const;
  std::string Constant(const GenShape& want);
  std::string Derive(const Value& source, const GenShape& want);
  // A pool value for which `accept` holds (most of the time), else a fresh one of `fallback`.
  Value Operand(const std::function<bool(const GenShape&)>& accept, const GenShape& fallback);
  Value AnyArray(int64_t min_rank = 0);
  Value FloatArray(int64_t min_rank = 0);
  Value NumericArray(int64_t min_rank = 0);

  bool Unary();
  bool Binary();
  bool Compare();
  bool Select();
  bool Clamp();
  bool Convert();
  bool BitcastConvert();
  bool Broadcast();
  bool Reshape();
  bool Transpose();
  bool Slice();
  bool DynamicSlice();
  bool DynamicUpdateSlice();
  bool Concatenate();
  bool Pad();
  bool Reverse();
  bool Iota();
  bool GetDimensionSize();
  bool Dot();
  bool Convolution();
  bool Reduce();
  bool ReduceWindow();
  bool Gather();
  bool Scatter();
  bool Sort();
  bool TopK();
  bool TupleOp();
  bool While();
  bool Conditional();
  bool Call();
  bool CustomCall();
  bool RngBitGenerator();
  bool BatchNorm();
  bool AllReduce();
  bool SelectAndScatter();
  bool Map();
  bool OptimizationBarrier();
  bool DeviceId();
  bool Fusion();

  Generator& generator_;
  std::string name_;
  Leaves leaves_;
  int depth_;
  bool fused_;
  std::vector<std::pair<std::string, std::string>> lines_;  // (name, text)
  std::vector<Value> parameters_;
  std::vector<Value> pool_;
  std::vector<Value> tuples_;
  // Set while the op that becomes a fused computation's root is generated: it may then be
  // tuple-shaped (a variadic reduce or sort) without being a multi-output tuple.
  bool tuple_root_ = false;

  friend class Generator;
};

enum class ReducerKind { kAdd, kMultiply, kMax, kMin, kOr, kAnd, kAssign };

class Generator {
 public:
  explicit Generator(ByteReader& in) : in_(in) {}

  ByteReader& in() { return in_; }
  bool full() const { return instructions_ >= kMaxInstructions; }
  void Count() { ++instructions_; }

  std::string NewName(std::string_view prefix) {
    // Names XLA and the passes also use, now and then, so that fresh names must not clash.
    static const std::vector<std::string_view> kBorrowed = {"fusion", "fused_computation", "tuple",
                                                            "copy",   "param_0",           "add"};
    std::string_view base = in_.Chance(4) ? in_.Pick(kBorrowed) : prefix;
    return std::string(base) + "." + std::to_string(next_id_++);
  }

  void AddComputation(std::string text) { computations_.push_back(std::move(text)); }

  int RandomType() {
    static const std::vector<int> kWeighted = {kF32, kF32,  kF32, kF32, kBF16, kF16, kS32,
                                               kS32, kPred, kU8,  kS8,  kU32,  kS64, kF64};
    return in_.Pick(kWeighted);
  }
  int RandomFloatType() {
    static const std::vector<int> kFloats = {kF32, kF32, kBF16, kF16, kF64};
    return in_.Pick(kFloats);
  }

  GenShape RandomShape(int type, int64_t min_rank = 0, int64_t max_rank = 3) {
    std::vector<int64_t> dims(static_cast<size_t>(in_.Range(min_rank, max_rank)));
    for (int64_t& d : dims) d = in_.Range(1, kMaxDim);
    Shrink(dims);
    return Array(type, std::move(dims));
  }

  static void Shrink(std::vector<int64_t>& dims) {
    auto count = [&] {
      return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
    };
    while (count() > kMaxElements) *std::max_element(dims.begin(), dims.end()) /= 2;
  }

  // A scalar computation combining two (or, variadic, 2N) scalars; shared between users.
  std::string Reducer(const std::vector<int>& types, ReducerKind kind);
  // A sort comparator over `types` (two parameters each).
  std::string Comparator(const std::vector<int>& types);

  std::string Run();

 private:
  ByteReader& in_;
  int next_id_ = 0;
  int instructions_ = 0;
  std::vector<std::string> computations_;
  std::map<std::string, std::string> reducers_;
};

Builder::Builder(Generator& generator, std::string name, Leaves leaves, int depth, bool fused)
    : generator_(generator),
      name_(std::move(name)),
      leaves_(leaves),
      depth_(depth),
      fused_(fused) {}

ByteReader& Builder::in() { return generator_.in(); }

bool Builder::CanAddParameter() const {
  const auto count = static_cast<int>(parameters_.size());
  switch (leaves_) {
    case Leaves::kParameters:
      return count < kMaxEntryParameters;
    case Leaves::kCalleeParameters:
      return count < kMaxCalleeParameters;
    case Leaves::kConstants:
      return false;
  }
  return false;
}

Value Builder::AddParameter(const GenShape& shape) {
  const std::string name = generator_.NewName(fused_ ? "param" : "p");
  const std::string text =
      ShapeText(shape) + " parameter(" + std::to_string(parameters_.size()) + ")";
  lines_.emplace_back(name, text);
  generator_.Count();
  Value value{name, shape};
  parameters_.push_back(value);
  (shape.tuple ? tuples_ : pool_).push_back(value);
  return value;
}

Value Builder::Emit(const GenShape& shape, const std::string& rest, std::string_view prefix) {
  const std::string name = generator_.NewName(prefix);
  lines_.emplace_back(name, ShapeText(shape) + " " + rest);
  generator_.Count();
  Value value{name, shape};
  (shape.tuple ? tuples_ : pool_).push_back(value);
  return value;
}

std::string ScalarText(ByteReader& in, int type) {
  switch (KindOf(type)) {
    case Kind::kPred:
      return in.Chance(50) ? "true" : "false";
    case Kind::kSigned:
      return std::to_string(in.Range(-4, 9));
    case Kind::kUnsigned:
      return std::to_string(in.Range(0, 9));
    case Kind::kFloat: {
      static const std::vector<std::string> kValues = {
          "0", "1", "-1", "0.5", "2.5", "-3.25", "100", "1e-3", "0", "1", "inf", "-inf", "nan"};
      // The special values are rarer: most graphs hold ordinary numbers.
      const std::string& value = in.Pick(kValues);
      if ((value == "inf" || value == "-inf" || value == "nan") && !in.Chance(30)) return "1";
      return value;
    }
  }
  return "0";
}

std::string LiteralText(ByteReader& in, int type, const std::vector<int64_t>& dims, size_t axis) {
  if (axis == dims.size()) return ScalarText(in, type);
  std::string out = "{";
  for (int64_t i = 0; i < dims[axis]; ++i) {
    if (i) out += ',';
    out += LiteralText(in, type, dims, axis + 1);
  }
  return out + "}";
}

std::string Builder::Constant(const GenShape& want) {
  if (want.count() <= 24 || in().Chance(30)) {
    return Emit(want, "constant(" + LiteralText(in(), want.type, want.dims, 0) + ")", "constant")
        .name;
  }
  const Value scalar =
      Emit(Array(want.type, {}), "constant(" + ScalarText(in(), want.type) + ")", "constant");
  return Emit(want, "broadcast(" + Ref(scalar.name) + "), dimensions={}", "broadcast").name;
}

std::string Builder::Derive(const Value& source, const GenShape& want) {
  std::string current = source.name;
  GenShape shape = source.shape;
  if (shape.type != want.type) {
    shape.type = want.type;
    current = Emit(shape, "convert(" + Ref(current) + ")", "convert").name;
  }
  if (shape.dims == want.dims) return current;
  if (shape.count() == 1 && in().Chance(50)) {
    if (shape.rank() > 0)
      current = Emit(Array(want.type, {}), "reshape(" + Ref(current) + ")").name;
    return Emit(want, "broadcast(" + Ref(current) + "), dimensions={}", "broadcast").name;
  }
  const int64_t have = shape.count();
  const int64_t need = want.count();
  if (shape.rank() != 1) {
    current = Emit(Array(want.type, {have}), "reshape(" + Ref(current) + ")", "reshape").name;
  }
  if (have > need) {
    const int64_t start = in().Range(0, have - need);
    current = Emit(Array(want.type, {need}),
                   "slice(" + Ref(current) + "), slice={[" + std::to_string(start) + ":" +
                       std::to_string(start + need) + "]}",
                   "slice")
                  .name;
  } else if (have < need) {
    const std::string fill = Get(Array(want.type, {}));
    const int64_t low = in().Range(0, need - have);
    current = Emit(Array(want.type, {need}),
                   "pad(" + Ref(current) + ", " + Ref(fill) + "), padding=" + std::to_string(low) +
                       "_" + std::to_string(need - have - low),
                   "pad")
                  .name;
  }
  if (want.rank() != 1) current = Emit(want, "reshape(" + Ref(current) + ")", "reshape").name;
  return current;
}

std::string Builder::Get(const GenShape& want) {
  std::vector<const Value*> exact;
  for (const Value& value : pool_) {
    if (value.shape == want) exact.push_back(&value);
  }
  if (!exact.empty() && in().Chance(70)) return in().Pick(exact)->name;
  if (generator_.full()) {
    if (!exact.empty()) return exact.front()->name;
    if (CanAddParameter()) return AddParameter(want).name;
    return Constant(want);
  }
  switch (in().Range(0, 5)) {
    case 0:
      if (CanAddParameter()) return AddParameter(want).name;
      return Constant(want);
    case 1:
      return Constant(want);
    default:
      if (pool_.empty()) {
        return CanAddParameter() ? AddParameter(want).name : Constant(want);
      }
      return Derive(in().Pick(pool_), want);
  }
}

Value Builder::Operand(const std::function<bool(const GenShape&)>& accept,
                       const GenShape& fallback) {
  std::vector<const Value*> fitting;
  for (const Value& value : pool_) {
    if (accept(value.shape)) fitting.push_back(&value);
  }
  if (!fitting.empty() && in().Chance(80)) return *in().Pick(fitting);
  return Value{Get(fallback), fallback};
}

Value Builder::AnyArray(int64_t min_rank) {
  return Operand(
      [&](const GenShape& s) { return s.rank() >= min_rank; },
      generator_.RandomShape(generator_.RandomType(), min_rank, std::max<int64_t>(min_rank, 3)));
}

Value Builder::FloatArray(int64_t min_rank) {
  return Operand([&](const GenShape& s) { return s.rank() >= min_rank && IsFloat(s.type); },
                 generator_.RandomShape(generator_.RandomFloatType(), min_rank,
                                        std::max<int64_t>(min_rank, 3)));
}

Value Builder::NumericArray(int64_t min_rank) {
  return Operand([&](const GenShape& s) { return s.rank() >= min_rank && s.type != kPred; },
                 generator_.RandomShape(kF32, min_rank, std::max<int64_t>(min_rank, 3)));
}

std::vector<Value> Builder::Unpack(const Value& tuple, bool all) {
  std::vector<Value> out;
  const auto count = static_cast<int64_t>(tuple.shape.elements.size());
  for (int64_t i = 0; i < count; ++i) {
    if (!all && !out.empty() && !in().Chance(50)) continue;
    out.push_back(Emit(tuple.shape.elements[static_cast<size_t>(i)],
                       "get-tuple-element(" + Ref(tuple.name) + "), index=" + std::to_string(i),
                       "get-tuple-element"));
  }
  return out;
}

std::string Builder::Finish(const std::string& root, bool entry) const {
  std::string out = entry ? "ENTRY %" + name_ + " {\n" : "%" + name_ + " {\n";
  for (const auto& [name, text] : lines_) {
    out += name == root ? "  ROOT %" : "  %";
    out += name + " = " + text + "\n";
  }
  return out + "}\n";
}

// ---------------------------------------------------------------------------------------
// Elementwise

bool Builder::Unary() {
  static const std::vector<std::string> kFloat = {"abs",
                                                  "negate",
                                                  "sign",
                                                  "exponential",
                                                  "log",
                                                  "tanh",
                                                  "sqrt",
                                                  "rsqrt",
                                                  "sine",
                                                  "cosine",
                                                  "floor",
                                                  "ceil",
                                                  "logistic",
                                                  "exponential-minus-one",
                                                  "log-plus-one",
                                                  "cbrt",
                                                  "erf",
                                                  "round-nearest-even",
                                                  "round-nearest-afz",
                                                  "is-finite",
                                                  "copy",
                                                  "tan",
                                                  "reduce-precision"};
  static const std::vector<std::string> kInteger = {
      "abs", "negate", "sign", "not", "popcnt", "count-leading-zeros", "copy"};
  static const std::vector<std::string> kPredOps = {"not", "copy"};
  const Value x = AnyArray();
  const int type = x.shape.type;
  const std::string& op = in().Pick(IsFloat(type) ? kFloat : IsInteger(type) ? kInteger : kPredOps);
  GenShape result = x.shape;
  std::string attributes;
  if (op == "is-finite") result.type = kPred;
  if (op == "reduce-precision") attributes = ", exponent_bits=5, mantissa_bits=10";
  Emit(result, op + "(" + Ref(x.name) + ")" + attributes, op == "copy" ? "copy" : "v");
  return true;
}

bool Builder::Binary() {
  static const std::vector<std::string> kFloat = {
      "add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "atan2", "remainder"};
  static const std::vector<std::string> kInteger = {"add",
                                                    "subtract",
                                                    "multiply",
                                                    "divide",
                                                    "remainder",
                                                    "maximum",
                                                    "minimum",
                                                    "and",
                                                    "or",
                                                    "xor",
                                                    "shift-left",
                                                    "shift-right-arithmetic",
                                                    "shift-right-logical",
                                                    "power"};
  static const std::vector<std::string> kPredOps = {"and", "or", "xor"};
  const Value lhs = AnyArray();
  const std::string rhs = Get(lhs.shape);
  const int type = lhs.shape.type;
  const std::string& op = in().Pick(IsFloat(type) ? kFloat : IsInteger(type) ? kInteger : kPredOps);
  Emit(lhs.shape, op + "(" + Ref(lhs.name) + ", " + Ref(rhs) + ")", op == "add" ? "add" : "v");
  return true;
}

bool Builder::Compare() {
  static const std::vector<std::string> kDirections = {"EQ", "NE", "LT", "GT", "LE", "GE"};
  const Value lhs = AnyArray();
  const std::string rhs = Get(lhs.shape);
  Emit(Array(kPred, lhs.shape.dims),
       "compare(" + Ref(lhs.name) + ", " + Ref(rhs) + "), direction=" + in().Pick(kDirections),
       "compare");
  return true;
}

bool Builder::Select() {
  const Value on_true = AnyArray();
  const bool scalar_predicate = in().Chance(20);
  const std::string predicate =
      Get(Array(kPred, scalar_predicate ? std::vector<int64_t>{} : on_true.shape.dims));
  const std::string on_false = Get(on_true.shape);
  Emit(on_true.shape,
       "select(" + Ref(predicate) + ", " + Ref(on_true.name) + ", " + Ref(on_false) + ")",
       "select");
  return true;
}

bool Builder::Clamp() {
  const Value x = NumericArray();
  const GenShape scalar = Array(x.shape.type, {});
  const std::string low = Get(in().Chance(60) ? scalar : x.shape);
  const std::string high = Get(in().Chance(60) ? scalar : x.shape);
  Emit(x.shape, "clamp(" + Ref(low) + ", " + Ref(x.name) + ", " + Ref(high) + ")", "clamp");
  return true;
}

bool Builder::Convert() {
  const Value x = AnyArray();
  Emit(Array(generator_.RandomType(), x.shape.dims), "convert(" + Ref(x.name) + ")", "convert");
  return true;
}

bool Builder::BitcastConvert() {
  const Value x =
      Operand([](const GenShape& s) { return s.type == kF32 || s.type == kS32 || s.type == kU32; },
              generator_.RandomShape(kF32));
  static const std::vector<int> kSameWidth = {kF32, kS32, kU32};
  Emit(Array(in().Pick(kSameWidth), x.shape.dims), "bitcast-convert(" + Ref(x.name) + ")",
       "bitcast-convert");
  return true;
}

// ---------------------------------------------------------------------------------------
// Data movement

bool Builder::Broadcast() {
  const Value x = AnyArray();
  const int64_t added = in().Range(0, 2);
  const int64_t rank = x.shape.rank() + (x.shape.rank() + added <= 4 ? added : 0);
  // Which output positions the operand's dimensions take (in order, as XLA requires).
  std::vector<int64_t> positions(static_cast<size_t>(rank));
  std::iota(positions.begin(), positions.end(), 0);
  while (static_cast<int64_t>(positions.size()) > x.shape.rank()) {
    positions.erase(positions.begin() + in().Range(0, static_cast<int64_t>(positions.size()) - 1));
  }
  std::vector<int64_t> dims(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < positions.size(); ++i)
    dims[static_cast<size_t>(positions[i])] = x.shape.dims[i];
  int64_t count = x.shape.count();
  for (int64_t& d : dims) {
    if (d != 0) continue;
    d = in().Range(1, 4);
    count *= d;
  }
  if (count > kMaxElements) return false;
  Emit(Array(x.shape.type, dims),
       "broadcast(" + Ref(x.name) + "), dimensions=" + ListText(positions), "broadcast");
  return true;
}

bool Builder::Reshape() {
  const Value x = AnyArray();
  // The element count's prime factors dealt out over a random number of dimensions.
  std::vector<int64_t> factors;
  int64_t n = x.shape.count();
  for (int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  std::vector<int64_t> dims(static_cast<size_t>(in().Range(0, 4)), 1);
  if (dims.empty() && !factors.empty()) dims.push_back(1);
  for (int64_t f : factors)
    dims[static_cast<size_t>(in().Range(0, static_cast<int64_t>(dims.size()) - 1))] *= f;
  Emit(Array(x.shape.type, dims), "reshape(" + Ref(x.name) + ")", "reshape");
  return true;
}

std::vector<int64_t> Permutation(ByteReader& in, int64_t rank) {
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = rank - 1; i > 0; --i)
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(in.Range(0, i))]);
  return perm;
}

// A sorted random subset of [0, rank), at least `min` long.
std::vector<int64_t> Subset(ByteReader& in, int64_t rank, int64_t min = 0) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (in.Chance(50)) out.push_back(d);
  }
  for (int64_t d = 0; static_cast<int64_t>(out.size()) < min && d < rank; ++d) {
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool Builder::Transpose() {
  const Value x = AnyArray(2);
  const std::vector<int64_t> perm = Permutation(in(), x.shape.rank());
  std::vector<int64_t> dims;
  for (int64_t p : perm) dims.push_back(x.shape.dims[static_cast<size_t>(p)]);
  Emit(Array(x.shape.type, dims), "transpose(" + Ref(x.name) + "), dimensions=" + ListText(perm),
       "transpose");
  return true;
}

bool Builder::Slice() {
  const Value x = AnyArray(1);
  std::string bounds;
  std::vector<int64_t> dims;
  for (int64_t d : x.shape.dims) {
    const int64_t start = in().Range(0, d - 1);
    const int64_t limit = in().Range(start + 1, d);
    const int64_t stride = in().Range(1, 3);
    if (!bounds.empty()) bounds += ", ";
    bounds += "[" + std::to_string(start) + ":" + std::to_string(limit) +
              (stride > 1 ? ":" + std::to_string(stride) : "") + "]";
    dims.push_back((limit - start - 1) / stride + 1);
  }
  Emit(Array(x.shape.type, dims), "slice(" + Ref(x.name) + "), slice={" + bounds + "}", "slice");
  return true;
}

bool Builder::DynamicSlice() {
  const Value x = AnyArray(1);
  std::vector<int64_t> sizes;
  std::string operands = Ref(x.name);
  // XLA wants all start indices of one integer type.
  const int index_type = in().Chance(80) ? kS32 : kU32;
  for (int64_t d : x.shape.dims) {
    sizes.push_back(in().Range(1, d));
    operands += ", " + Ref(Get(Array(index_type, {})));
  }
  Emit(Array(x.shape.type, sizes),
       "dynamic-slice(" + operands + "), dynamic_slice_sizes=" + ListText(sizes), "dynamic-slice");
  return true;
}

bool Builder::DynamicUpdateSlice() {
  const Value x = AnyArray(1);
  std::vector<int64_t> sizes;
  for (int64_t d : x.shape.dims) sizes.push_back(in().Range(1, d));
  std::string operands = Ref(x.name) + ", " + Ref(Get(Array(x.shape.type, sizes)));
  for (size_t i = 0; i < sizes.size(); ++i) operands += ", " + Ref(Get(Array(kS32, {})));
  Emit(x.shape, "dynamic-update-slice(" + operands + ")", "dynamic-update-slice");
  return true;
}

bool Builder::Concatenate() {
  const Value x = AnyArray(1);
  const int64_t axis = in().Range(0, x.shape.rank() - 1);
  std::vector<int64_t> dims = x.shape.dims;
  std::string operands = Ref(x.name);
  const int64_t others = in().Range(1, 3);
  for (int64_t i = 0; i < others; ++i) {
    std::vector<int64_t> other = x.shape.dims;
    other[static_cast<size_t>(axis)] = in().Range(1, 4);
    dims[static_cast<size_t>(axis)] += other[static_cast<size_t>(axis)];
    if (Array(x.shape.type, dims).count() > kMaxElements) return false;
    operands += ", " + Ref(Get(Array(x.shape.type, other)));
  }
  Emit(Array(x.shape.type, dims),
       "concatenate(" + operands + "), dimensions={" + std::to_string(axis) + "}", "concatenate");
  return true;
}

bool Builder::Pad() {
  const Value x = AnyArray(1);
  const std::string fill = Get(Array(x.shape.type, {}));
  std::string padding;
  std::vector<int64_t> dims;
  for (int64_t d : x.shape.dims) {
    const int64_t interior = in().Chance(25) ? 1 : 0;
    int64_t low = in().Range(-1, 2);
    const int64_t high = in().Range(-1, 2);
    int64_t size = d + (d - 1) * interior + low + high;
    if (size < 1) {
      low += 1 - size;
      size = 1;
    }
    if (!padding.empty()) padding += "x";
    padding += std::to_string(low) + "_" + std::to_string(high) +
               (interior ? "_" + std::to_string(interior) : "");
    dims.push_back(size);
  }
  if (Array(x.shape.type, dims).count() > kMaxElements) return false;
  Emit(Array(x.shape.type, dims), "pad(" + Ref(x.name) + ", " + Ref(fill) + "), padding=" + padding,
       "pad");
  return true;
}

bool Builder::Reverse() {
  const Value x = AnyArray(1);
  Emit(x.shape,
       "reverse(" + Ref(x.name) + "), dimensions=" + ListText(Subset(in(), x.shape.rank(), 1)),
       "reverse");
  return true;
}

bool Builder::Iota() {
  static const std::vector<int> kTypesForIota = {kS32, kS32, kF32, kU32, kBF16, kS64};
  const GenShape shape = generator_.RandomShape(in().Pick(kTypesForIota), 1, 3);
  Emit(shape, "iota(), iota_dimension=" + std::to_string(in().Range(0, shape.rank() - 1)), "iota");
  return true;
}

bool Builder::GetDimensionSize() {
  const Value x = AnyArray(1);
  Emit(Array(kS32, {}),
       "get-dimension-size(" + Ref(x.name) + "), dimensions={" +
           std::to_string(in().Range(0, x.shape.rank() - 1)) + "}",
       "get-dimension-size");
  return true;
}

// ---------------------------------------------------------------------------------------
// Contractions

bool Builder::Dot() {
  static const std::vector<int> kDotTypes = {kF32, kF32, kBF16, kF16, kS32, kF64};
  const int type = in().Pick(kDotTypes);
  const int64_t batch = in().Range(0, 2) == 2 ? 1 : 0;
  const int64_t contracting = in().Chance(90) ? 1 : 0;
  const int64_t lhs_free = in().Range(0, 1);
  const int64_t rhs_free = in().Range(0, 1);
  struct Axis {
    char kind;  // 'b'atch, 'c'ontracting, 'l'hs free, 'r'hs free
    int64_t size;
  };
  std::vector<Axis> lhs;
  std::vector<Axis> rhs;
  std::vector<int64_t> batch_sizes;
  for (int64_t i = 0; i < batch; ++i) {
    batch_sizes.push_back(in().Range(1, 4));
    lhs.push_back({'b', batch_sizes.back()});
    rhs.push_back({'b', batch_sizes.back()});
  }
  for (int64_t i = 0; i < contracting; ++i) {
    const int64_t size = in().Range(1, 8);
    lhs.push_back({'c', size});
    rhs.push_back({'c', size});
  }
  for (int64_t i = 0; i < lhs_free; ++i) lhs.push_back({'l', in().Range(1, 8)});
  for (int64_t i = 0; i < rhs_free; ++i) rhs.push_back({'r', in().Range(1, 8)});
  if (lhs.empty() || rhs.empty()) return false;
  const std::vector<int64_t> lhs_order = Permutation(in(), static_cast<int64_t>(lhs.size()));
  const std::vector<int64_t> rhs_order = Permutation(in(), static_cast<int64_t>(rhs.size()));
  auto arrange = [](const std::vector<Axis>& axes, const std::vector<int64_t>& order) {
    std::vector<Axis> out;
    for (int64_t i : order) out.push_back(axes[static_cast<size_t>(i)]);
    return out;
  };
  lhs = arrange(lhs, lhs_order);
  rhs = arrange(rhs, rhs_order);
  auto positions = [](const std::vector<Axis>& axes, char kind) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < axes.size(); ++i) {
      if (axes[i].kind == kind) out.push_back(static_cast<int64_t>(i));
    }
    return out;
  };
  auto dims_of = [](const std::vector<Axis>& axes) {
    std::vector<int64_t> out;
    for (const Axis& axis : axes) out.push_back(axis.size);
    return out;
  };
  std::vector<int64_t> result = batch_sizes;
  for (const Axis& axis : lhs) {
    if (axis.kind == 'l') result.push_back(axis.size);
  }
  for (const Axis& axis : rhs) {
    if (axis.kind == 'r') result.push_back(axis.size);
  }
  const std::string a = Get(Array(type, dims_of(lhs)));
  const std::string b = Get(Array(type, dims_of(rhs)));
  std::string attributes;
  if (batch) {
    attributes += ", lhs_batch_dims=" + ListText(positions(lhs, 'b')) +
                  ", rhs_batch_dims=" + ListText(positions(rhs, 'b'));
  }
  if (contracting) {
    attributes += ", lhs_contracting_dims=" + ListText(positions(lhs, 'c')) +
                  ", rhs_contracting_dims=" + ListText(positions(rhs, 'c'));
  }
  Emit(Array(type, result), "dot(" + Ref(a) + ", " + Ref(b) + ")" + attributes, "dot");
  return true;
}

bool Builder::Convolution() {
  struct Labels {
    std::string_view text;
    std::string_view lhs, rhs, out;
  };
  static const std::vector<Labels> kLabels = {{"b01f_01io->b01f", "b01f", "01io", "b01f"},
                                              {"bf01_oi01->bf01", "bf01", "oi01", "bf01"},
                                              {"b0f_0io->b0f", "b0f", "0io", "b0f"},
                                              {"bf0_oi0->bf0", "bf0", "oi0", "bf0"}};
  const Labels& labels = in().Pick(kLabels);
  const size_t spatial = labels.lhs.size() - 2;
  const int type = in().Chance(80) ? kF32 : kBF16;
  const int64_t batch = in().Range(1, 2);
  const int64_t groups = in().Chance(25) ? in().Range(2, 3) : 1;
  const int64_t kernel_inputs = in().Range(1, 3);
  const int64_t outputs = groups * in().Range(1, 2);
  std::vector<int64_t> sizes, kernel, strides, low, high, out;
  for (size_t i = 0; i < spatial; ++i) {
    sizes.push_back(in().Range(1, 6));
    low.push_back(in().Range(0, 1));
    high.push_back(in().Range(0, 1));
    kernel.push_back(in().Range(1, sizes.back() + low.back() + high.back()));
    strides.push_back(in().Range(1, 2));
    out.push_back((sizes.back() + low.back() + high.back() - kernel.back()) / strides.back() + 1);
  }
  auto dims_for = [&](std::string_view part, int64_t first, int64_t second, char first_label,
                      const std::vector<int64_t>& spatial_sizes) {
    std::vector<int64_t> dims;
    for (char c : part) {
      if (c == first_label) {
        dims.push_back(first);
      } else if (c >= '0' && c <= '9') {
        dims.push_back(spatial_sizes[static_cast<size_t>(c - '0')]);
      } else {
        dims.push_back(second);
      }
    }
    return dims;
  };
  const GenShape lhs = Array(type, dims_for(labels.lhs, batch, groups * kernel_inputs, 'b', sizes));
  const GenShape rhs = Array(type, dims_for(labels.rhs, kernel_inputs, outputs, 'i', kernel));
  const GenShape result = Array(type, dims_for(labels.out, batch, outputs, 'b', out));
  if (lhs.count() > kMaxElements || result.count() > kMaxElements) return false;
  std::string size_text, stride_text, pad_text;
  for (size_t i = 0; i < spatial; ++i) {
    const std::string x = i ? "x" : "";
    size_text += x + std::to_string(kernel[i]);
    stride_text += x + std::to_string(strides[i]);
    pad_text += x + std::to_string(low[i]) + "_" + std::to_string(high[i]);
  }
  const std::string a = Get(lhs);
  const std::string b = Get(rhs);
  Emit(result,
       "convolution(" + Ref(a) + ", " + Ref(b) + "), window={size=" + size_text + " stride=" +
           stride_text + " pad=" + pad_text + "}, dim_labels=" + std::string(labels.text) +
           (groups > 1 ? ", feature_group_count=" + std::to_string(groups) : ""),
       "convolution");
  return true;
}

bool Builder::BatchNorm() {
  const GenShape shape = generator_.RandomShape(kF32, 2, 4);
  const std::string x = Get(shape);
  const int64_t feature = in().Range(0, shape.rank() - 1);
  const GenShape features = Array(kF32, {shape.dims[static_cast<size_t>(feature)]});
  const std::string attributes = ", epsilon=0.001, feature_index=" + std::to_string(feature);
  switch (in().Range(0, 2)) {
    case 0: {
      const std::string scale = Get(features);
      const std::string offset = Get(features);
      Unpack(Emit(TupleShape({shape, features, features}),
                  "batch-norm-training(" + Ref(x) + ", " + Ref(scale) + ", " + Ref(offset) + ")" +
                      attributes,
                  "batch-norm-training"),
             false);
      return true;
    }
    case 1: {
      std::string operands = Ref(x);
      for (int i = 0; i < 4; ++i) operands += ", " + Ref(Get(features));
      Emit(shape, "batch-norm-inference(" + operands + ")" + attributes, "batch-norm-inference");
      return true;
    }
    default: {
      std::string operands = Ref(x);
      for (int i = 0; i < 3; ++i) operands += ", " + Ref(Get(features));
      operands += ", " + Ref(Get(shape));
      Unpack(Emit(TupleShape({shape, features, features}),
                  "batch-norm-grad(" + operands + ")" + attributes, "batch-norm-grad"),
             false);
      return true;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Reductions

ReducerKind ReducerFor(ByteReader& in, int type) {
  if (type == kPred) return in.Chance(50) ? ReducerKind::kOr : ReducerKind::kAnd;
  static const std::vector<ReducerKind> kKinds = {ReducerKind::kAdd, ReducerKind::kAdd,
                                                  ReducerKind::kMax, ReducerKind::kMin,
                                                  ReducerKind::kMultiply};
  return in.Pick(kKinds);
}

bool Builder::Reduce() {
  const Value x = AnyArray(1);
  const std::vector<int64_t> dims = Subset(in(), x.shape.rank(), 1);
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < x.shape.rank(); ++d) {
    if (!std::binary_search(dims.begin(), dims.end(), d)) {
      kept.push_back(x.shape.dims[static_cast<size_t>(d)]);
    }
  }
  // Fused reductions stay single unless the reduce becomes the fusion's (tuple-shaped) root.
  const bool variadic = (!fused_ || tuple_root_) && in().Chance(tuple_root_ ? 60 : 20);
  if (!variadic) {
    const std::string init = Get(Array(x.shape.type, {}));
    Emit(Array(x.shape.type, kept),
         "reduce(" + Ref(x.name) + ", " + Ref(init) + "), dimensions=" + ListText(dims) +
             ", to_apply=%" + generator_.Reducer({x.shape.type}, ReducerFor(in(), x.shape.type)),
         "reduce");
    return true;
  }
  // The arg-max shape: values and their indices reduced together.
  const int index_type = in().Chance(70) ? kS32 : generator_.RandomType();
  const std::string indices = Get(Array(index_type, x.shape.dims));
  const std::string init = Get(Array(x.shape.type, {}));
  const std::string index_init = Get(Array(index_type, {}));
  const Value tuple =
      Emit(TupleShape({Array(x.shape.type, kept), Array(index_type, kept)}),
           "reduce(" + Ref(x.name) + ", " + Ref(indices) + ", " + Ref(init) + ", " +
               Ref(index_init) + "), dimensions=" + ListText(dims) + ", to_apply=%" +
               generator_.Reducer({x.shape.type, index_type}, ReducerKind::kMax),
           "reduce");
  Unpack(tuple, false);
  return true;
}

bool Builder::ReduceWindow() {
  const Value x = AnyArray(1);
  std::string size, stride, pad;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < x.shape.dims.size(); ++i) {
    const int64_t d = x.shape.dims[i];
    const int64_t window = in().Range(1, d);
    const int64_t step = in().Range(1, 2);
    const int64_t low = in().Range(0, 1);
    const int64_t high = in().Range(0, 1);
    const std::string sep = i ? "x" : "";
    size += sep + std::to_string(window);
    stride += sep + std::to_string(step);
    pad += sep + std::to_string(low) + "_" + std::to_string(high);
    dims.push_back((d + low + high - window) / step + 1);
  }
  const std::string init = Get(Array(x.shape.type, {}));
  Emit(Array(x.shape.type, dims),
       "reduce-window(" + Ref(x.name) + ", " + Ref(init) + "), window={size=" + size +
           " stride=" + stride + " pad=" + pad + "}, to_apply=%" +
           generator_.Reducer({x.shape.type}, ReducerFor(in(), x.shape.type)),
       "reduce-window");
  return true;
}

bool Builder::AllReduce() {
  const Value x = NumericArray();
  std::vector<Value> operands = {x};
  if (in().Chance(30)) {
    const GenShape other = generator_.RandomShape(x.shape.type);
    operands.push_back(Value{Get(other), other});
  }
  std::string text = "all-reduce(";
  std::vector<GenShape> shapes;
  for (size_t i = 0; i < operands.size(); ++i) {
    text += (i ? ", " : "") + Ref(operands[i].name);
    shapes.push_back(operands[i].shape);
  }
  text +=
      "), replica_groups={}, to_apply=%" + generator_.Reducer({x.shape.type}, ReducerKind::kAdd);
  if (in().Chance(50)) text += ", channel_id=" + std::to_string(in().Range(1, 9));
  if (shapes.size() == 1) {
    Emit(shapes.front(), text, "all-reduce");
  } else {
    Unpack(Emit(TupleShape(shapes), text, "all-reduce"), false);
  }
  return true;
}

bool Builder::SelectAndScatter() {
  const Value x = NumericArray(1);
  std::string size, stride, pad;
  std::vector<int64_t> windows;
  for (size_t i = 0; i < x.shape.dims.size(); ++i) {
    const int64_t d = x.shape.dims[i];
    const int64_t window = in().Range(1, d);
    const int64_t step = in().Range(1, 2);
    const std::string sep = i ? "x" : "";
    size += sep + std::to_string(window);
    stride += sep + std::to_string(step);
    pad += sep + "0_0";
    windows.push_back((d - window) / step + 1);
  }
  const std::string source = Get(Array(x.shape.type, windows));
  const std::string init = Get(Array(x.shape.type, {}));
  Emit(x.shape,
       "select-and-scatter(" + Ref(x.name) + ", " + Ref(source) + ", " + Ref(init) +
           "), window={size=" + size + " stride=" + stride + " pad=" + pad + "}, select=%" +
           generator_.Comparator({x.shape.type}) + ", scatter=%" +
           generator_.Reducer({x.shape.type}, ReducerKind::kAdd),
       "select-and-scatter");
  return true;
}

bool Builder::Map() {
  const Value x = NumericArray();
  const std::string y = Get(x.shape);
  std::vector<int64_t> dims(static_cast<size_t>(x.shape.rank()));
  std::iota(dims.begin(), dims.end(), 0);
  Emit(x.shape,
       "map(" + Ref(x.name) + ", " + Ref(y) + "), dimensions=" + ListText(dims) + ", to_apply=%" +
           generator_.Reducer({x.shape.type}, ReducerFor(in(), x.shape.type)),
       "map");
  return true;
}

// An optimization barrier over a tuple of values: nothing may move across it.
bool Builder::OptimizationBarrier() {
  std::vector<Value> elements = {AnyArray()};
  if (in().Chance(60)) elements.push_back(AnyArray());
  std::vector<GenShape> shapes;
  std::string text = "tuple(";
  for (size_t i = 0; i < elements.size(); ++i) {
    text += (i ? ", " : "") + Ref(elements[i].name);
    shapes.push_back(elements[i].shape);
  }
  const Value tuple = Emit(TupleShape(shapes), text + ")", "tuple");
  Unpack(Emit(tuple.shape, "opt-barrier(" + Ref(tuple.name) + ")", "opt-barrier"), false);
  return true;
}

bool Builder::DeviceId() {
  const bool replica = in().Chance(50);
  Emit(Array(kU32, {}), replica ? "replica-id()" : "partition-id()",
       replica ? "replica-id" : "partition-id");
  return true;
}

// ---------------------------------------------------------------------------------------
// Indexing

bool Builder::Gather() {
  const Value x = AnyArray(1);
  const int64_t rank = x.shape.rank();
  const int64_t vector = in().Range(1, std::min<int64_t>(rank, 2));
  std::vector<int64_t> start_map = Permutation(in(), rank);
  start_map.resize(static_cast<size_t>(vector));
  std::vector<int64_t> collapsed;
  for (int64_t d : start_map) {
    if (in().Chance(50)) collapsed.push_back(d);
  }
  std::sort(collapsed.begin(), collapsed.end());
  std::vector<int64_t> slice_sizes;
  std::vector<int64_t> window_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    const bool dropped = std::binary_search(collapsed.begin(), collapsed.end(), d);
    slice_sizes.push_back(dropped ? 1 : in().Range(1, x.shape.dims[static_cast<size_t>(d)]));
    if (!dropped) window_sizes.push_back(slice_sizes.back());
  }
  std::vector<int64_t> batch(static_cast<size_t>(in().Range(1, 2)));
  for (int64_t& b : batch) b = in().Range(1, 4);
  // The index vector is the last dimension, or implicit when it holds one index.
  const bool implicit = vector == 1 && in().Chance(40);
  std::vector<int64_t> index_dims = batch;
  if (!implicit) index_dims.push_back(vector);
  const auto out_rank = static_cast<int64_t>(window_sizes.size() + batch.size());
  std::vector<int64_t> offset_dims = Permutation(in(), out_rank);
  offset_dims.resize(window_sizes.size());
  std::sort(offset_dims.begin(), offset_dims.end());
  std::vector<int64_t> dims;
  size_t next_window = 0;
  size_t next_batch = 0;
  for (int64_t d = 0; d < out_rank; ++d) {
    const bool offset = std::binary_search(offset_dims.begin(), offset_dims.end(), d);
    dims.push_back(offset ? window_sizes[next_window++] : batch[next_batch++]);
  }
  if (Array(x.shape.type, dims).count() > kMaxElements) return false;
  const std::string indices = Get(Array(kS32, index_dims));
  Emit(Array(x.shape.type, dims),
       "gather(" + Ref(x.name) + ", " + Ref(indices) + "), offset_dims=" + ListText(offset_dims) +
           ", collapsed_slice_dims=" + ListText(collapsed) + ", start_index_map=" +
           ListText(start_map) + ", index_vector_dim=" + std::to_string(batch.size()) +
           ", slice_sizes=" + ListText(slice_sizes),
       "gather");
  return true;
}

bool Builder::Scatter() {
  const Value x = NumericArray(1);
  const int64_t rank = x.shape.rank();
  const int64_t vector = in().Range(1, std::min<int64_t>(rank, 2));
  std::vector<int64_t> to_operand = Permutation(in(), rank);
  to_operand.resize(static_cast<size_t>(vector));
  std::vector<int64_t> inserted;
  for (int64_t d : to_operand) {
    if (in().Chance(50)) inserted.push_back(d);
  }
  std::sort(inserted.begin(), inserted.end());
  std::vector<int64_t> window_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!std::binary_search(inserted.begin(), inserted.end(), d)) {
      window_sizes.push_back(in().Range(1, x.shape.dims[static_cast<size_t>(d)]));
    }
  }
  const int64_t updates_count = in().Range(1, 4);
  const bool implicit = vector == 1 && in().Chance(40);
  std::vector<int64_t> index_dims = {updates_count};
  if (!implicit) index_dims.push_back(vector);
  const auto update_rank = static_cast<int64_t>(window_sizes.size() + 1);
  std::vector<int64_t> window_dims = Permutation(in(), update_rank);
  window_dims.resize(window_sizes.size());
  std::sort(window_dims.begin(), window_dims.end());
  std::vector<int64_t> update_dims;
  size_t next = 0;
  for (int64_t d = 0; d < update_rank; ++d) {
    const bool window = std::binary_search(window_dims.begin(), window_dims.end(), d);
    update_dims.push_back(window ? window_sizes[next++] : updates_count);
  }
  const std::string indices = Get(Array(kS32, index_dims));
  const std::string updates = Get(Array(x.shape.type, update_dims));
  const ReducerKind kind = in().Chance(30) ? ReducerKind::kAssign : ReducerKind::kAdd;
  Emit(x.shape,
       "scatter(" + Ref(x.name) + ", " + Ref(indices) + ", " + Ref(updates) +
           "), update_window_dims=" + ListText(window_dims) + ", inserted_window_dims=" +
           ListText(inserted) + ", scatter_dims_to_operand_dims=" + ListText(to_operand) +
           ", index_vector_dim=1, to_apply=%" + generator_.Reducer({x.shape.type}, kind),
       "scatter");
  return true;
}

// ---------------------------------------------------------------------------------------
// Sorting

bool Builder::Sort() {
  const Value keys = AnyArray(1);
  std::vector<Value> operands = {keys};
  const int64_t extra = in().Range(0, 2);
  for (int64_t i = 0; i < extra; ++i) {
    const GenShape shape = Array(i == 0 ? kS32 : generator_.RandomType(), keys.shape.dims);
    operands.push_back(Value{Get(shape), shape});
  }
  std::vector<int> types;
  std::vector<GenShape> shapes;
  std::string text = "sort(";
  for (size_t i = 0; i < operands.size(); ++i) {
    text += (i ? ", " : "") + Ref(operands[i].name);
    types.push_back(operands[i].shape.type);
    shapes.push_back(operands[i].shape);
  }
  text += "), dimensions={" + std::to_string(in().Range(0, keys.shape.rank() - 1)) + "}";
  if (in().Chance(40)) text += ", is_stable=true";
  text += ", to_apply=%" + generator_.Comparator(types);
  if (shapes.size() == 1) {
    Emit(shapes.front(), text, "sort");
    return true;
  }
  const Value sorted = Emit(TupleShape(shapes), text, "sort");
  Unpack(sorted, false);
  return true;
}

bool Builder::TopK() {
  const Value x = FloatArray(1);
  std::vector<int64_t> dims = x.shape.dims;
  dims.back() = in().Range(1, dims.back());
  const GenShape result = TupleShape({Array(x.shape.type, dims), Array(kS32, dims)});
  // XLA writes top-k both as an op and, on TPU, as a tuple-shaped custom call.
  const std::string k = std::to_string(dims.back());
  const Value topk =
      in().Chance(50) ? Emit(result, "topk(" + Ref(x.name) + "), k=" + k + ", largest=true", "topk")
                      : Emit(result,
                             "custom-call(" + Ref(x.name) +
                                 "), custom_call_target=\"TopK\", "
                                 "backend_config=\"" +
                                 k + "\"",
                             "custom-call");
  Unpack(topk, false);
  return true;
}

// ---------------------------------------------------------------------------------------
// Tuples, control flow and calls

bool Builder::TupleOp() {
  const int64_t count = in().Range(1, 3);
  std::vector<Value> elements;
  for (int64_t i = 0; i < count; ++i) {
    if (!tuples_.empty() && in().Chance(20)) {
      elements.push_back(in().Pick(tuples_));
    } else {
      elements.push_back(AnyArray());
    }
  }
  std::vector<GenShape> shapes;
  std::string text = "tuple(";
  for (size_t i = 0; i < elements.size(); ++i) {
    text += (i ? ", " : "") + Ref(elements[i].name);
    shapes.push_back(elements[i].shape);
  }
  const Value tuple = Emit(TupleShape(shapes), text + ")", "tuple");
  std::vector<Value> unpacked = Unpack(tuple, false);
  for (const Value& element : unpacked) {
    if (element.shape.tuple) Unpack(element, false);
  }
  return true;
}

bool Builder::While() {
  std::vector<GenShape> state = {Array(kS32, {})};
  std::vector<std::string> init = {in().Chance(70) ? Constant(Array(kS32, {}))
                                                   : Get(Array(kS32, {}))};
  const int64_t carried = in().Range(1, 2);
  for (int64_t i = 0; i < carried; ++i) {
    const Value value = AnyArray();
    state.push_back(value.shape);
    init.push_back(value.name);
  }
  const GenShape state_shape = TupleShape(state);

  Builder condition(generator_, generator_.NewName("region_cond"), Leaves::kConstants, depth_ + 1,
                    false);
  const Value cond_state = condition.AddParameter(state_shape);
  const Value counter = condition.Unpack(cond_state, true).front();
  const Value limit = condition.Emit(
      Array(kS32, {}), "constant(" + std::to_string(in().Range(0, 4)) + ")", "constant");
  const Value done = condition.Emit(
      Array(kPred, {}), "compare(" + Ref(counter.name) + ", " + Ref(limit.name) + "), direction=LT",
      "compare");
  generator_.AddComputation(condition.Finish(done.name, false));

  Builder body(generator_, generator_.NewName("region_body"), Leaves::kConstants, depth_ + 1,
               false);
  const Value body_state = body.AddParameter(state_shape);
  const std::vector<Value> elements = body.Unpack(body_state, true);
  const Value one = body.Emit(Array(kS32, {}), "constant(1)", "constant");
  const Value next = body.Emit(
      Array(kS32, {}), "add(" + Ref(elements.front().name) + ", " + Ref(one.name) + ")", "add");
  const int64_t steps = in().Range(0, kMaxNestedSteps);
  for (int64_t i = 0; i < steps; ++i) body.Step();
  std::string tuple = "tuple(" + Ref(next.name);
  for (size_t i = 1; i < state.size(); ++i) tuple += ", " + Ref(body.Get(state[i]));
  const Value result = body.Emit(state_shape, tuple + ")", "tuple");
  generator_.AddComputation(body.Finish(result.name, false));

  std::string init_text = "tuple(";
  for (size_t i = 0; i < init.size(); ++i) init_text += (i ? ", " : "") + Ref(init[i]);
  const Value start = Emit(state_shape, init_text + ")", "tuple");
  const Value loop = Emit(
      state_shape,
      "while(" + Ref(start.name) + "), condition=%" + condition.name() + ", body=%" + body.name(),
      "while");
  Unpack(loop, false);
  return true;
}

bool Builder::Conditional() {
  const bool binary = in().Chance(50);
  const int64_t branches = binary ? 2 : in().Range(1, 3);
  GenShape result = AnyArray().shape;
  if (in().Chance(25))
    result = TupleShape({result, generator_.RandomShape(generator_.RandomType())});
  std::vector<std::string> names;
  std::vector<std::string> operands;
  for (int64_t b = 0; b < branches; ++b) {
    const Value argument = AnyArray();
    Builder branch(generator_, generator_.NewName("branch"), Leaves::kConstants, depth_ + 1, false);
    branch.AddParameter(argument.shape);
    const int64_t steps = in().Range(0, kMaxNestedSteps);
    for (int64_t i = 0; i < steps; ++i) branch.Step();
    std::string root;
    if (result.tuple) {
      root = branch
                 .Emit(result,
                       "tuple(" + Ref(branch.Get(result.elements[0])) + ", " +
                           Ref(branch.Get(result.elements[1])) + ")",
                       "tuple")
                 .name;
    } else {
      root = branch.Get(result);
    }
    generator_.AddComputation(branch.Finish(root, false));
    names.push_back(branch.name());
    operands.push_back(argument.name);
  }
  const std::string selector = Get(Array(binary ? kPred : kS32, {}));
  std::string text = "conditional(" + Ref(selector);
  for (const std::string& operand : operands) text += ", " + Ref(operand);
  text += ")";
  if (binary) {
    text += ", true_computation=%" + names[0] + ", false_computation=%" + names[1];
  } else {
    text += ", branch_computations={";
    for (size_t i = 0; i < names.size(); ++i) text += (i ? ", %" : "%") + names[i];
    text += "}";
  }
  const Value value = Emit(result, text, "conditional");
  if (result.tuple) Unpack(value, false);
  return true;
}

bool Builder::Call() {
  Builder callee(generator_, generator_.NewName("callee"), Leaves::kCalleeParameters, depth_ + 1,
                 false);
  callee.AddParameter(AnyArray().shape);
  const int64_t steps = in().Range(1, kMaxNestedSteps);
  for (int64_t i = 0; i < steps; ++i) callee.Step();
  std::string root = callee.pool().back().name;
  GenShape shape = callee.pool().back().shape;
  if (callee.pool().size() > 1 && in().Chance(30)) {
    const Value& other = callee.pool()[callee.pool().size() - 2];
    shape = TupleShape({shape, other.shape});
    root = callee.Emit(shape, "tuple(" + Ref(root) + ", " + Ref(other.name) + ")", "tuple").name;
  }
  generator_.AddComputation(callee.Finish(root, false));
  std::string text = "call(";
  for (size_t i = 0; i < callee.parameters().size(); ++i) {
    text += (i ? ", " : "") + Ref(Get(callee.parameters()[i].shape));
  }
  const Value value = Emit(shape, text + "), to_apply=%" + callee.name(), "call");
  if (shape.tuple) Unpack(value, false);
  return true;
}

bool Builder::CustomCall() {
  static const std::vector<std::string> kTargets = {"fuzz_kernel", "Sharding", "__cublas$gemm",
                                                    "SPMDFullToShardShape", "tpu_custom_call"};
  std::string operands;
  const int64_t count = in().Range(0, 2);
  for (int64_t i = 0; i < count; ++i) operands += (i ? ", " : "") + Ref(AnyArray().name);
  GenShape shape = generator_.RandomShape(generator_.RandomType());
  if (in().Chance(30)) shape = TupleShape({shape, generator_.RandomShape(generator_.RandomType())});
  std::string text =
      "custom-call(" + operands + "), custom_call_target=\"" + in().Pick(kTargets) + "\"";
  const bool side_effect = in().Chance(40);
  if (side_effect) text += ", custom_call_has_side_effect=true";
  if (in().Chance(30)) text += ", api_version=API_VERSION_STATUS_RETURNING";
  const Value value = Emit(shape, text, "custom-call");
  // A side-effecting call is often left unused: only its effect matters, so it must survive.
  if (side_effect && in().Chance(50)) return true;
  if (shape.tuple) Unpack(value, false);
  return true;
}

bool Builder::RngBitGenerator() {
  const std::string state = Get(Array(kU64, {2}));
  static const std::vector<int> kBits = {kU32, kU64, kS32, kU8};
  const GenShape bits = generator_.RandomShape(in().Pick(kBits), 1, 3);
  static const std::vector<std::string> kAlgorithms = {"rng_default", "rng_three_fry",
                                                       "rng_philox"};
  Unpack(Emit(TupleShape({Array(kU64, {2}), bits}),
              "rng-bit-generator(" + Ref(state) + "), algorithm=" + in().Pick(kAlgorithms),
              "rng-bit-generator"),
         false);
  return true;
}

bool Builder::Fusion() {
  Builder body(generator_, generator_.NewName("fused_computation"), Leaves::kCalleeParameters,
               depth_ + 1, true);
  body.AddParameter(AnyArray().shape);
  const int64_t steps = in().Range(1, kMaxNestedSteps);
  for (int64_t i = 0; i < steps; ++i) body.Step();
  // The fusion kind follows the root, as XLA forms it: a reduction makes an input fusion, a
  // dot an output fusion, anything else a loop fusion.
  std::string kind = "kLoop";
  std::vector<Value> outputs;
  std::string root;
  GenShape shape;
  switch (in().Range(0, 4)) {
    case 1:
      if (body.Reduce() && !body.pool().empty()) {
        kind = "kInput";
        // A variadic reduce leaves its tuple among the tuples; the array result is enough.
        outputs.push_back(body.pool().back());
      }
      break;
    case 2:
      if (body.Dot()) {
        kind = "kOutput";
        outputs.push_back(body.pool().back());
      }
      break;
    case 3: {
      const int64_t count = in().Range(2, 3);
      for (int64_t i = 0; i < count; ++i) {
        const Value& candidate = in().Pick(body.pool());
        const bool taken = std::any_of(outputs.begin(), outputs.end(),
                                       [&](const Value& v) { return v.name == candidate.name; });
        const bool parameter =
            std::any_of(body.parameters().begin(), body.parameters().end(),
                        [&](const Value& p) { return p.name == candidate.name; });
        if (!taken && !parameter) outputs.push_back(candidate);
      }
      break;
    }
    case 4: {
      // One tuple-shaped op as the root: a single output that is a tuple, as TPU sort and
      // top-k fusions are.
      const size_t tuples = body.tuples_.size();
      body.tuple_root_ = true;
      const bool reduce = in().Chance(50);
      if (reduce) {
        body.Reduce();
      } else {
        body.Sort();
      }
      body.tuple_root_ = false;
      if (body.tuples_.size() > tuples) {
        root = body.tuples_[tuples].name;
        shape = body.tuples_[tuples].shape;
        kind = reduce ? "kInput" : "kLoop";
      }
      break;
    }
    default:
      break;
  }
  if (root.empty() && outputs.empty()) {
    Value last = body.pool().back();
    const bool parameter = std::any_of(body.parameters().begin(), body.parameters().end(),
                                       [&](const Value& p) { return p.name == last.name; });
    if (parameter) last = body.Emit(last.shape, "copy(" + Ref(last.name) + ")", "copy");
    outputs.push_back(last);
  }
  if (root.empty()) {
    root = outputs.front().name;
    shape = outputs.front().shape;
  }
  if (outputs.size() > 1) {
    std::vector<GenShape> shapes;
    std::string text = "tuple(";
    for (size_t i = 0; i < outputs.size(); ++i) {
      text += (i ? ", " : "") + Ref(outputs[i].name);
      shapes.push_back(outputs[i].shape);
    }
    shape = TupleShape(shapes);
    root = body.Emit(shape, text + ")", "tuple").name;
  }
  generator_.AddComputation(body.Finish(root, false));
  std::string text = "fusion(";
  for (size_t i = 0; i < body.parameters().size(); ++i) {
    text += (i ? ", " : "") + Ref(Get(body.parameters()[i].shape));
  }
  const Value fusion = Emit(shape, text + "), kind=" + kind + ", calls=%" + body.name(), "fusion");
  if (shape.tuple) Unpack(fusion, in().Chance(50));
  return true;
}

// ---------------------------------------------------------------------------------------

void Builder::Step() {
  if (generator_.full()) return;
  using Op = bool (Builder::*)();
  // Inside fused computations: what XLA fuses into loop fusions.
  static const std::vector<Op> kFusible = {&Builder::Unary,
                                           &Builder::Binary,
                                           &Builder::Binary,
                                           &Builder::Compare,
                                           &Builder::Select,
                                           &Builder::Clamp,
                                           &Builder::Convert,
                                           &Builder::Broadcast,
                                           &Builder::Reshape,
                                           &Builder::Transpose,
                                           &Builder::Slice,
                                           &Builder::DynamicSlice,
                                           &Builder::Pad,
                                           &Builder::Concatenate,
                                           &Builder::Reverse,
                                           &Builder::Iota,
                                           &Builder::DynamicUpdateSlice,
                                           &Builder::Gather,
                                           &Builder::BitcastConvert};
  static const std::vector<Op> kAll = {&Builder::Unary,
                                       &Builder::Binary,
                                       &Builder::Binary,
                                       &Builder::Compare,
                                       &Builder::Select,
                                       &Builder::Clamp,
                                       &Builder::Convert,
                                       &Builder::BitcastConvert,
                                       &Builder::Broadcast,
                                       &Builder::Reshape,
                                       &Builder::Transpose,
                                       &Builder::Slice,
                                       &Builder::DynamicSlice,
                                       &Builder::DynamicUpdateSlice,
                                       &Builder::Concatenate,
                                       &Builder::Pad,
                                       &Builder::Reverse,
                                       &Builder::Iota,
                                       &Builder::GetDimensionSize,
                                       &Builder::Dot,
                                       &Builder::Convolution,
                                       &Builder::Reduce,
                                       &Builder::Reduce,
                                       &Builder::ReduceWindow,
                                       &Builder::Gather,
                                       &Builder::Scatter,
                                       &Builder::Sort,
                                       &Builder::TopK,
                                       &Builder::TupleOp,
                                       &Builder::CustomCall,
                                       &Builder::RngBitGenerator,
                                       &Builder::BatchNorm,
                                       &Builder::AllReduce,
                                       &Builder::SelectAndScatter,
                                       &Builder::Map,
                                       &Builder::OptimizationBarrier,
                                       &Builder::DeviceId,
                                       &Builder::While,
                                       &Builder::Conditional,
                                       &Builder::Call,
                                       &Builder::Fusion,
                                       &Builder::Fusion,
                                       &Builder::Fusion};
  const std::vector<Op>& ops = fused_ ? kFusible : kAll;
  const Op op = in().Pick(ops);
  const bool nests = op == &Builder::While || op == &Builder::Conditional || op == &Builder::Call ||
                     op == &Builder::Fusion;
  if (nests && depth_ >= kMaxDepth) {
    Unary();
    return;
  }
  (this->*op)();
}

std::string Generator::Reducer(const std::vector<int>& types, ReducerKind kind) {
  std::string key = std::to_string(static_cast<int>(kind));
  for (int type : types) key += "," + std::to_string(type);
  if (auto it = reducers_.find(key); it != reducers_.end()) return it->second;
  static const std::vector<std::string_view> kNames = {"add", "multiply", "maximum", "minimum",
                                                       "or",  "and",      "assign"};
  const std::string name = NewName("region_" + std::string(kNames[static_cast<size_t>(kind)]));
  std::string text = "%" + name + " {\n";
  std::vector<std::string> params;
  const size_t n = types.size();
  for (size_t i = 0; i < 2 * n; ++i) {
    params.push_back(NewName("arg"));
    text += "  %" + params.back() + " = " + std::string(kTypes[types[i % n]].name) +
            "[] parameter(" + std::to_string(i) + ")\n";
  }
  if (n == 1) {
    const std::string root = NewName("reduced");
    if (kind == ReducerKind::kAssign) {
      text += "  ROOT %" + root + " = " + std::string(kTypes[types[0]].name) + "[] copy(%" +
              params[1] + ")\n";
    } else {
      text += "  ROOT %" + root + " = " + std::string(kTypes[types[0]].name) + "[] " +
              std::string(kNames[static_cast<size_t>(kind)]) + "(%" + params[0] + ", %" +
              params[1] + ")\n";
    }
  } else {
    // Keeps the larger value and the companions that came with it (arg-max).
    const std::string greater = NewName("greater");
    text += "  %" + greater + " = pred[] compare(%" + params[0] + ", %" + params[n] +
            "), direction=GE\n";
    std::string tuple = "(";
    std::string operands;
    for (size_t i = 0; i < n; ++i) {
      const std::string chosen = NewName("chosen");
      const std::string type(kTypes[types[i]].name);
      text += "  %" + chosen + " = " + type + "[] select(%" + greater + ", %" + params[i] + ", %" +
              params[n + i] + ")\n";
      tuple += (i ? ", " : "") + type + "[]";
      operands += (i ? ", %" : "%") + chosen;
    }
    text += "  ROOT %" + NewName("reduced") + " = " + tuple + ") tuple(" + operands + ")\n";
  }
  AddComputation(text + "}\n");
  reducers_.emplace(key, name);
  return name;
}

std::string Generator::Comparator(const std::vector<int>& types) {
  static const std::vector<std::string> kDirections = {"LT", "GT"};
  const std::string name = NewName("region_compare");
  std::string text = "%" + name + " {\n";
  std::vector<std::string> params;
  for (size_t i = 0; i < 2 * types.size(); ++i) {
    params.push_back(NewName("cmp"));
    text += "  %" + params.back() + " = " + std::string(kTypes[types[i / 2]].name) +
            "[] parameter(" + std::to_string(i) + ")\n";
  }
  text += "  ROOT %" + NewName("less") + " = pred[] compare(%" + params[0] + ", %" + params[1] +
          "), direction=" + in_.Pick(kDirections) + "\n";
  AddComputation(text + "}\n");
  return name;
}

std::string Generator::Run() {
  Builder entry(*this, NewName("main"), Builder::Leaves::kParameters, 0, false);
  const int64_t parameters = in_.Range(1, 3);
  for (int64_t i = 0; i < parameters; ++i) {
    GenShape shape = RandomShape(RandomType());
    // Parameters laid out column-major or otherwise, as compiled modules have them.
    if (shape.rank() >= 2 && in_.Chance(20)) shape.minor_to_major = Permutation(in_, shape.rank());
    entry.AddParameter(shape);
  }
  const int64_t steps = in_.Range(1, kMaxEntrySteps);
  for (int64_t i = 0; i < steps && !in_.exhausted(); ++i) entry.Step();

  // Several outputs as a tuple, as jitted functions return them.
  std::vector<Value> outputs = {entry.tuples_.empty() || in_.Chance(70) ? entry.pool_.back()
                                                                        : entry.tuples_.back()};
  const int64_t more = in_.Range(0, 2);
  for (int64_t i = 0; i < more; ++i) {
    const Value& candidate = in_.Pick(entry.pool_);
    if (std::none_of(outputs.begin(), outputs.end(),
                     [&](const Value& v) { return v.name == candidate.name; })) {
      outputs.push_back(candidate);
    }
  }
  std::string root = outputs.front().name;
  GenShape root_shape = outputs.front().shape;
  if (outputs.size() > 1) {
    std::vector<GenShape> shapes;
    std::string text = "tuple(";
    for (size_t i = 0; i < outputs.size(); ++i) {
      text += (i ? ", " : "") + Ref(outputs[i].name);
      shapes.push_back(outputs[i].shape);
    }
    root_shape = TupleShape(shapes);
    root = entry.Emit(root_shape, text + ")", "tuple").name;
  }

  std::string header = "HloModule fuzz";
  if (in_.Chance(40)) {
    // An output that may reuse a parameter's buffer; it must have that parameter's shape.
    for (size_t p = 0; p < entry.parameters().size(); ++p) {
      const GenShape& param = entry.parameters()[p].shape;
      if (!root_shape.tuple && root_shape == param) {
        header += ", input_output_alias={ {}: (" + std::to_string(p) + ", {}, may-alias) }";
        break;
      }
      const auto& elements = root_shape.elements;
      const auto match = std::find(elements.begin(), elements.end(), param);
      if (root_shape.tuple && match != elements.end()) {
        header += ", input_output_alias={ {" + std::to_string(match - elements.begin()) + "}: (" +
                  std::to_string(p) + ", {}, must-alias) }";
        break;
      }
    }
  }
  if (in_.Chance(30)) {
    // The layouts the caller wants, which layout assignment applies to parameters and result.
    auto laid_out = [&](GenShape shape) {
      if (shape.rank() >= 2 && in_.Chance(50))
        shape.minor_to_major = Permutation(in_, shape.rank());
      for (GenShape& element : shape.elements) {
        if (element.rank() >= 2 && in_.Chance(50)) {
          element.minor_to_major = Permutation(in_, element.rank());
        }
      }
      return ShapeText(shape);
    };
    std::string layout = ", entry_computation_layout={(";
    for (size_t p = 0; p < entry.parameters().size(); ++p) {
      layout += (p ? ", " : "") + laid_out(entry.parameters()[p].shape);
    }
    header += layout + ")->" + laid_out(root_shape) + "}";
  }
  std::string text = header + "\n\n";
  for (const std::string& computation : computations_) text += computation + "\n";
  return text + entry.Finish(root, true);
}

}  // namespace

std::string GenerateModuleText(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  Generator generator(in);
  return generator.Run();
}

StatusOr<std::unique_ptr<ir::Module>> GenerateModule(const uint8_t* data, size_t size) {
  const std::string text = GenerateModuleText(data, size);
  auto module = ir::ParseHloModule(text, "generated");
  if (!module.ok()) {
    return Status::Error("generated text does not parse: " + module.message() + "\n" + text);
  }
  if (Status verified = ir::VerifyModule(**module); !verified.ok()) {
    return Status::Error("generated module is invalid: " + verified.message() + "\n" + text);
  }
  return std::move(*module);
}

std::vector<uint8_t> SeedBytes(uint64_t seed, size_t size) {
  std::mt19937_64 engine(seed);
  std::vector<uint8_t> bytes(size);
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(engine() & 0xff);
  return bytes;
}

}  // namespace fusescope::fuzz
