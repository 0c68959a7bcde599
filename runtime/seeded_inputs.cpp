#include "runtime/seeded_inputs.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "ir/attribute_values.h"
#include "ir/module.h"

namespace fusescope::runtime {
namespace {

using ir::Instruction;
using ir::Opcode;

// Where a called computation's result goes: the instruction that calls it.
using CallSites = std::unordered_map<const ir::Computation*, std::vector<const Instruction*>>;

CallSites FindCallSites(const ir::Module& module) {
  CallSites sites;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const Opcode opcode = instruction->opcode();
      if (opcode != Opcode::kWhile && opcode != Opcode::kCall && opcode != Opcode::kFusion &&
          opcode != Opcode::kConditional)
        continue;
      for (const ir::Computation* callee : instruction->called_computations())
        sites[callee].push_back(instruction.get());
    }
  }
  return sites;
}

// A parameter's value on its way through the graph: at an instruction, inside its tuple at
// `path`, and whether only data movement happened to it so far (a dot contracts the
// parameter itself only then; positivity survives arithmetic too).
struct TracedValue {
  const Instruction* at = nullptr;
  std::vector<int64_t> path;
  bool moved_only = true;
  bool operator<(const TracedValue& other) const {
    return std::tie(at, path, moved_only) < std::tie(other.at, other.path, other.moved_only);
  }
};

struct Contraction {
  const Instruction* consumer = nullptr;
  int64_t operand = 0;
  int64_t fan_in = 1;
};

struct Reach {
  std::vector<Contraction> contractions;
  std::vector<const Instruction*> positive_consumers;
};

bool MovesData(Opcode opcode, int64_t operand) {
  switch (opcode) {
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kTranspose:
    case Opcode::kBroadcast:
    case Opcode::kCopy:
    case Opcode::kConvert:
    case Opcode::kSlice:
    case Opcode::kConcatenate:
    case Opcode::kReverse:
      return true;
    case Opcode::kDynamicSlice:
    case Opcode::kPad:
    case Opcode::kGather:
      return operand == 0;
    case Opcode::kDynamicUpdateSlice:
      return operand <= 1;
    case Opcode::kSelect:
      return operand >= 1;
    default:
      return false;
  }
}

// Arithmetic that keeps a positive value positive (given positive other operands).
bool KeepsSign(Opcode opcode, int64_t operand, int64_t operand_count) {
  switch (opcode) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
      return true;
    case Opcode::kDivide:
      return operand == 0;
    case Opcode::kReduce:
      return operand < operand_count / 2;
    default:
      return false;
  }
}

bool NeedsPositive(Opcode opcode, int64_t operand) {
  switch (opcode) {
    case Opcode::kSqrt:
    case Opcode::kRsqrt:
    case Opcode::kLog:
    case Opcode::kLog1p:
      return true;
    case Opcode::kPower:
      return operand == 0;
    case Opcode::kDivide:
      return operand == 1;
    case Opcode::kBatchNormInference:
      return operand == 4;
    case Opcode::kBatchNormGrad:
      return operand == 3;
    default:
      return false;
  }
}

int64_t Product(const ir::Shape& shape, const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d >= 0 && d < shape.rank()) product *= std::max<int64_t>(shape.dimension(d), 1);
  }
  return product;
}

// The number of terms each output element of `consumer` sums from operand `operand`; 0 when
// the operand is not contracted.
int64_t FanIn(const Instruction& consumer, int64_t operand) {
  const ir::Shape& shape = consumer.operand(operand)->shape();
  if (consumer.opcode() == Opcode::kDot) {
    const auto dims =
        consumer.IntListAttribute(operand == 0 ? "lhs_contracting_dims" : "rhs_contracting_dims");
    return dims ? Product(shape, *dims) : 0;
  }
  if (consumer.opcode() != Opcode::kConvolution || operand != 1) return 0;
  const std::optional<std::string_view> labels_text = consumer.attribute("dim_labels");
  if (!labels_text) return 0;
  StatusOr<ir::ConvolutionDimensionLabels> labels =
      ir::ParseConvolutionDimensionLabels(*labels_text);
  if (!labels.ok() || labels->kernel_output_feature >= shape.rank()) return 0;
  int64_t fan_in = 1;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (d != labels->kernel_output_feature) fan_in *= std::max<int64_t>(shape.dimension(d), 1);
  }
  return fan_in;
}

class ParameterTracer {
 public:
  explicit ParameterTracer(const CallSites& sites) : sites_(sites) {}

  Reach Trace(const Instruction& parameter) {
    Reach reach;
    std::set<TracedValue> seen;
    std::vector<TracedValue> work = {{&parameter, {}, true}};
    while (!work.empty()) {
      TracedValue value = std::move(work.back());
      work.pop_back();
      if (!seen.insert(value).second) continue;
      for (const Instruction* user : value.at->users()) {
        for (int64_t p = 0; p < user->operand_count(); ++p) {
          if (user->operand(p) == value.at) Step(value, *user, p, reach, work);
        }
      }
      LeaveComputation(value, work);
    }
    return reach;
  }

 private:
  void Step(const TracedValue& value, const Instruction& user, int64_t p, Reach& reach,
            std::vector<TracedValue>& work) {
    const Opcode opcode = user.opcode();
    auto push = [&](const Instruction* at, std::vector<int64_t> path, bool moved_only) {
      if (at != nullptr) work.push_back({at, std::move(path), moved_only});
    };
    if (opcode == Opcode::kTuple || opcode == Opcode::kOptimizationBarrier) {
      std::vector<int64_t> path = value.path;
      if (opcode == Opcode::kTuple) path.insert(path.begin(), p);
      push(&user, std::move(path), value.moved_only);
      return;
    }
    if (opcode == Opcode::kGetTupleElement) {
      if (!value.path.empty() && user.tuple_index() == value.path.front())
        push(&user, {value.path.begin() + 1, value.path.end()}, value.moved_only);
      return;
    }
    if (opcode == Opcode::kWhile) {
      for (const ir::Computation* callee : user.called_computations())
        push(callee->parameter_count() > 0 ? callee->parameter(0) : nullptr, value.path,
             value.moved_only);
      return;
    }
    if (opcode == Opcode::kCall || opcode == Opcode::kFusion) {
      for (const ir::Computation* callee : user.called_computations())
        push(p < callee->parameter_count() ? callee->parameter(p) : nullptr, value.path,
             value.moved_only);
      return;
    }
    if (opcode == Opcode::kConditional) {
      const auto& branches = user.called_computations();
      if (p >= 1 && static_cast<size_t>(p - 1) < branches.size() &&
          branches[static_cast<size_t>(p - 1)]->parameter_count() > 0)
        push(branches[static_cast<size_t>(p - 1)]->parameter(0), value.path, value.moved_only);
      return;
    }
    if (!value.path.empty()) return;  // a tuple leaf goes on only through the cases above
    if (NeedsPositive(opcode, p)) reach.positive_consumers.push_back(&user);
    if (value.moved_only) {
      const int64_t fan_in = FanIn(user, p);
      if (fan_in > 0) reach.contractions.push_back({&user, p, fan_in});
    }
    if (MovesData(opcode, p)) {
      push(&user, {}, value.moved_only);
    } else if (KeepsSign(opcode, p, user.operand_count())) {
      push(&user, {}, false);
    }
  }

  // A value that is a called computation's root goes on at the instruction that called it
  // (and, for a while body, into the next iteration).
  void LeaveComputation(const TracedValue& value, std::vector<TracedValue>& work) {
    const ir::Computation* computation = value.at->parent();
    if (computation == nullptr || computation->root() != value.at) return;
    auto sites = sites_.find(computation);
    if (sites == sites_.end()) return;
    for (const Instruction* site : sites->second) {
      if (site->opcode() == Opcode::kWhile) {
        if (site->CalledComputations("body").front() != computation) continue;
        work.push_back({computation->parameter(0), value.path, value.moved_only});
      }
      work.push_back({site, value.path, value.moved_only});
    }
  }

  const CallSites& sites_;
};

// Whether some parameter reaches the right-hand side of each dot: the weights of x @ w.
std::set<const Instruction*> DotsWithParameterRhs(const std::vector<Reach>& reaches) {
  std::set<const Instruction*> dots;
  for (const Reach& reach : reaches) {
    for (const Contraction& c : reach.contractions) {
      if (c.consumer->opcode() == Opcode::kDot && c.operand == 1) dots.insert(c.consumer);
    }
  }
  return dots;
}

InputRange RangeOf(const Reach& reach, const std::set<const Instruction*>& rhs_dots) {
  InputRange range;
  int64_t fan_in = 0;
  const Instruction* by = nullptr;
  for (const Contraction& c : reach.contractions) {
    const bool weight = c.consumer->opcode() == Opcode::kConvolution || c.operand == 1 ||
                        rhs_dots.count(c.consumer) == 0;
    if (weight && c.fan_in > fan_in) {
      fan_in = c.fan_in;
      by = c.consumer;
    }
  }
  if (by != nullptr && fan_in > 1) {
    range.scale = 1 / std::sqrt(static_cast<double>(fan_in));
    range.reason = "contracted by " + by->name() + " (fan-in " + std::to_string(fan_in) + ")";
  }
  if (!reach.positive_consumers.empty()) {
    range.positive = true;
    range.reason += (range.reason.empty() ? "" : "; ") + std::string("feeds ") +
                    reach.positive_consumers.front()->name();
  }
  return range;
}

}  // namespace

std::vector<InputRange> ChooseInputRanges(const ir::Computation& entry) {
  std::vector<InputRange> ranges(static_cast<size_t>(entry.parameter_count()));
  if (entry.parent() == nullptr) return ranges;
  const CallSites sites = FindCallSites(*entry.parent());
  ParameterTracer tracer(sites);
  std::vector<Reach> reaches;
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    const Instruction* parameter = entry.parameter(i);
    reaches.push_back(parameter && ir::IsFloatingPointType(parameter->shape().element_type())
                          ? tracer.Trace(*parameter)
                          : Reach{});
  }
  const std::set<const Instruction*> rhs_dots = DotsWithParameterRhs(reaches);
  for (size_t i = 0; i < reaches.size(); ++i) ranges[i] = RangeOf(reaches[i], rhs_dots);
  return ranges;
}

StatusOr<Literal> SeededArray(const ir::Shape& shape, uint64_t seed, const InputRange& range) {
  if (!shape.IsArray()) return Status::Error("no seeded inputs for tuple or token parameters yet");
  StatusOr<Literal> created = Literal::Create(shape);
  if (!created.ok()) return created.status();
  Literal literal = std::move(created).value();
  SeededBits bits(seed);
  const ir::PrimitiveType type = shape.element_type();
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    if (ir::IsFloatingPointType(type)) {
      const double unit = bits.Unit();
      literal.SetDouble(i, (range.positive ? 0.5 + unit : unit * 2.0 - 1.0) * range.scale);
    } else if (type == ir::PrimitiveType::kPred) {
      literal.SetInt(i, static_cast<int64_t>(bits.Next() & 1));
    } else if (ir::IsSignedIntegralType(type)) {
      literal.SetInt(i, static_cast<int64_t>(bits.Next() % 4));
    } else {
      literal.SetInt(i, static_cast<int64_t>(bits.Next()));
    }
  }
  return literal;
}

uint64_t ParameterSeed(uint64_t seed, int64_t index) {
  return seed * 1000003 + static_cast<uint64_t>(index);
}

StatusOr<std::vector<Literal>> SeededInputs(const ir::Computation& computation, uint64_t seed,
                                            int64_t max_bytes) {
  int64_t total = 0;
  for (int64_t i = 0; i < computation.parameter_count(); ++i) {
    const ir::Instruction* parameter = computation.parameter(i);
    if (parameter == nullptr || !parameter->shape().IsArray()) continue;
    int64_t bytes = std::max(ElementByteSize(parameter->shape().element_type()), 1);
    for (int64_t dim : parameter->shape().dimensions()) {
      if (dim < 0 || __builtin_mul_overflow(bytes, dim, &bytes)) bytes = INT64_MAX;
      if (bytes == INT64_MAX) break;
    }
    if (__builtin_add_overflow(total, bytes, &total) || total > max_bytes) {
      return Status::Error("the inputs would take more than " + std::to_string(max_bytes) +
                           " bytes (parameter " + std::to_string(i) + " is " +
                           parameter->shape().ToString(false) + ")");
    }
  }
  const std::vector<InputRange> ranges = ChooseInputRanges(computation);
  std::vector<Literal> inputs;
  for (int64_t i = 0; i < computation.parameter_count(); ++i) {
    const ir::Instruction* parameter = computation.parameter(i);
    if (parameter == nullptr) {
      return Status::Error("entry parameter " + std::to_string(i) + " is missing");
    }
    StatusOr<Literal> input =
        SeededArray(parameter->shape(), ParameterSeed(seed, i), ranges[static_cast<size_t>(i)]);
    if (!input.ok())
      return Status::Error("parameter " + std::to_string(i) + ": " + input.message());
    inputs.push_back(std::move(input).value());
  }
  return inputs;
}

}  // namespace fusescope::runtime
