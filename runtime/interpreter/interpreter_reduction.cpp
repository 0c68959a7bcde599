// Ops that apply a called computation over groups of elements: reduce, reduce-window,
// select-and-scatter, sort, map, and topk. A reducer of the form `(a, b) -> a OP b` runs
// directly, summing in double (int64 for integers) and rounding once; any other computation
// is run by the interpreter on scalars, one call per step, with rounding at every step as XLA
// does.

#include <algorithm>
#include <cstring>
#include <numeric>

#include "ir/attribute_values.h"
#include "ir/computation.h"
#include "ir/narrow_float.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime::internal {
namespace {

using ir::Opcode;

Literal Scalar(const Literal& array, int64_t index) {
  Literal scalar = Literal::Create(ir::Shape(array.type(), {})).value();
  CopyElement(array, index, scalar, 0);
  return scalar;
}

// The leaves of a computation's result: the value itself, or a tuple's elements.
std::vector<Literal> Leaves(Literal value) {
  if (!value.is_tuple()) {
    std::vector<Literal> one;
    one.push_back(std::move(value));
    return one;
  }
  return std::move(value.elements());
}

Literal PackResults(std::vector<Literal> results, bool tuple) {
  if (!tuple) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

StatusOr<std::vector<Literal>> NewResults(const ir::Instruction& instruction, size_t count) {
  std::vector<Literal> results;
  const ir::Shape& shape = instruction.shape();
  for (size_t i = 0; i < count; ++i) {
    const ir::Shape& leaf = shape.IsTuple() ? shape.tuple_shapes()[i] : shape;
    StatusOr<Literal> created = Literal::Create(leaf);
    if (!created.ok()) return InstructionError(instruction, created.message());
    results.push_back(std::move(created).value());
  }
  return results;
}

double RoundTo(ir::PrimitiveType type, double value) {
  return type == ir::PrimitiveType::kF16 ? ir::RoundToBinaryFormat(value, 5, 10)
                                         : ir::RoundToBinaryFormat(value, 8, 7);
}

// Runs `reducer` over the elements at `offsets` (relative to `base`) of each input,
// starting from `inits`, writing element `out_index` of each result.
class Accumulator {
 public:
  Accumulator(const ir::Instruction& instruction, const ir::Computation& reducer,
              const CallComputation& call, const Operands& inputs, const Operands& inits)
      : instruction_(instruction),
        reducer_(reducer),
        call_(call),
        inputs_(inputs),
        inits_(inits),
        fast_(inputs.size() == 1 ? RecogniseScalarBinaryOp(reducer) : ScalarBinaryOp{}),
        narrow_(!inputs.empty() && (inputs[0]->type() == ir::PrimitiveType::kF16 ||
                                    inputs[0]->type() == ir::PrimitiveType::kBF16)) {}

  Status Reduce(const std::vector<int64_t>& indices, std::vector<Literal>& results,
                int64_t out_index) {
    if (fast_.valid()) {
      const Literal& input = *inputs_[0];
      Literal& out = results[0];
      if (input.is_floating()) {
        double acc = inits_[0]->GetDouble(0);
        if (narrow_) {
          // f16/bf16: every step rounds to the element type, as the reducer's HLO says; a
          // double sum would be far more precise than any backend's.
          for (int64_t i : indices) {
            acc = RoundTo(input.type(), ApplyScalarFloat(fast_.opcode, acc, input.GetDouble(i)));
          }
        } else {
          for (int64_t i : indices) acc = ApplyScalarFloat(fast_.opcode, acc, input.GetDouble(i));
        }
        out.SetDouble(out_index, acc);
      } else {
        const bool is_unsigned =
            ir::IsIntegralType(input.type()) && !ir::IsSignedIntegralType(input.type());
        int64_t acc = inits_[0]->GetInt(0);
        for (int64_t i : indices)
          acc = ApplyScalarInt(fast_.opcode, acc, input.GetInt(i), is_unsigned);
        out.SetInt(out_index, acc);
      }
      return Status::Ok();
    }
    std::vector<Literal> acc;
    for (const Literal* init : inits_) acc.push_back(Scalar(*init, 0));
    for (int64_t i : indices) {
      std::vector<Literal> args;
      for (Literal& a : acc) args.push_back(std::move(a));
      for (const Literal* input : inputs_) args.push_back(Scalar(*input, i));
      StatusOr<Literal> value = call_(reducer_, std::move(args));
      if (!value.ok()) return value.status();
      acc = Leaves(std::move(value).value());
      if (acc.size() != inputs_.size())
        return InstructionError(instruction_, "reducer returns the wrong number of values");
    }
    for (size_t r = 0; r < acc.size(); ++r) CopyElement(acc[r], 0, results[r], out_index);
    return Status::Ok();
  }

 private:
  const ir::Instruction& instruction_;
  const ir::Computation& reducer_;
  const CallComputation& call_;
  const Operands& inputs_;
  const Operands& inits_;
  ScalarBinaryOp fast_;
  bool narrow_;
};

const ir::Computation* Called(const ir::Instruction& instruction, std::string_view key) {
  std::vector<ir::Computation*> called = instruction.CalledComputations(key);
  return called.size() == 1 ? called[0] : nullptr;
}

// For compare-rooted comparators `compare(p0, p1)`: the direction and total-order flag.
struct SimpleComparator {
  bool valid = false;
  bool less = true;  // LT: ascending; GT: descending
  bool total_order = false;
};

SimpleComparator RecogniseComparator(const ir::Computation& comparator) {
  const ir::Instruction* root = comparator.root();
  if (root == nullptr || root->opcode() != Opcode::kCompare || comparator.parameter_count() < 2)
    return {};
  if (root->operand(0) != comparator.parameter(0) || root->operand(1) != comparator.parameter(1))
    return {};
  const std::string_view direction = root->attribute("direction").value_or("");
  if (direction != "LT" && direction != "GT") return {};
  SimpleComparator simple;
  simple.valid = true;
  simple.less = direction == "LT";
  simple.total_order = root->attribute("type") == std::optional<std::string_view>("TOTALORDER");
  return simple;
}

int64_t OrderKey(double value) {
  int64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

}  // namespace

StatusOr<Literal> EvaluateReduce(const ir::Instruction& instruction, const Operands& operands,
                                 const CallComputation& call) {
  const ir::Computation* reducer = Called(instruction, "to_apply");
  if (reducer == nullptr || operands.size() % 2 != 0 || operands.empty()) {
    return InstructionError(instruction, "reduce needs inputs, as many inits and to_apply=");
  }
  const size_t n = operands.size() / 2;
  const Operands inputs(operands.begin(), operands.begin() + static_cast<int64_t>(n));
  const Operands inits(operands.begin() + static_cast<int64_t>(n), operands.end());
  const std::vector<int64_t> reduced = instruction.dimensions().value_or(std::vector<int64_t>{});
  const std::vector<int64_t>& in_dims = inputs[0]->shape().dimensions();
  std::vector<bool> is_reduced(in_dims.size(), false);
  for (int64_t d : reduced) {
    if (d < 0 || d >= static_cast<int64_t>(in_dims.size()))
      return InstructionError(instruction, "bad reduce dimension");
    is_reduced[static_cast<size_t>(d)] = true;
  }
  StatusOr<std::vector<Literal>> results = NewResults(instruction, n);
  if (!results.ok()) return results.status();
  const std::vector<int64_t> strides = Strides(in_dims);
  std::vector<int64_t> kept_dims;
  std::vector<int64_t> kept_strides;
  std::vector<int64_t> reduced_dims;
  std::vector<int64_t> reduced_strides;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    (is_reduced[d] ? reduced_dims : kept_dims).push_back(in_dims[d]);
    (is_reduced[d] ? reduced_strides : kept_strides).push_back(strides[d]);
  }
  std::vector<int64_t> offsets;
  if (inputs[0]->element_count() > 0) {
    std::vector<int64_t> index(reduced_dims.size(), 0);
    do {
      int64_t offset = 0;
      for (size_t i = 0; i < index.size(); ++i) offset += index[i] * reduced_strides[i];
      offsets.push_back(offset);
    } while (NextIndex(index, reduced_dims));
  }
  Accumulator accumulator(instruction, *reducer, call, inputs, inits);
  const int64_t out_count = (*results)[0].element_count();
  std::vector<int64_t> out(kept_dims.size(), 0);
  std::vector<int64_t> indices(offsets.size());
  for (int64_t o = 0; o < out_count; ++o) {
    int64_t base = 0;
    for (size_t i = 0; i < out.size(); ++i) base += out[i] * kept_strides[i];
    for (size_t i = 0; i < offsets.size(); ++i) indices[i] = base + offsets[i];
    FS_RETURN_IF_ERROR(accumulator.Reduce(indices, *results, o));
    NextIndex(out, kept_dims);
  }
  return PackResults(std::move(results).value(), instruction.shape().IsTuple());
}

StatusOr<Literal> EvaluateReduceWindow(const ir::Instruction& instruction, const Operands& operands,
                                       const CallComputation& call) {
  const ir::Computation* reducer = Called(instruction, "to_apply");
  if (reducer == nullptr || operands.size() % 2 != 0 || operands.empty()) {
    return InstructionError(instruction, "reduce-window needs inputs, as many inits and to_apply=");
  }
  const size_t n = operands.size() / 2;
  const Operands inputs(operands.begin(), operands.begin() + static_cast<int64_t>(n));
  const Operands inits(operands.begin() + static_cast<int64_t>(n), operands.end());
  const std::vector<int64_t>& in_dims = inputs[0]->shape().dimensions();
  auto window = ir::ParseWindow(instruction.attribute("window").value_or(""));
  if (!window.ok() || window->size() != in_dims.size()) {
    return InstructionError(instruction,
                            "reduce-window needs window= with one entry per dimension");
  }
  StatusOr<std::vector<Literal>> results = NewResults(instruction, n);
  if (!results.ok()) return results.status();
  const std::vector<int64_t>& out_dims = (*results)[0].shape().dimensions();
  const std::vector<int64_t> strides = Strides(in_dims);
  std::vector<int64_t> window_dims;
  for (const ir::WindowDimension& w : *window) window_dims.push_back(w.size);
  Accumulator accumulator(instruction, *reducer, call, inputs, inits);
  if ((*results)[0].element_count() == 0)
    return PackResults(std::move(results).value(), instruction.shape().IsTuple());
  std::vector<int64_t> out(out_dims.size(), 0);
  std::vector<int64_t> indices;
  int64_t o = 0;
  do {
    indices.clear();
    std::vector<int64_t> k(window_dims.size(), 0);
    bool more =
        std::all_of(window_dims.begin(), window_dims.end(), [](int64_t s) { return s > 0; });
    while (more) {
      int64_t linear = 0;
      bool inside = true;
      for (size_t d = 0; d < k.size(); ++d) {
        const ir::WindowDimension& w = (*window)[d];
        const int64_t position = out[d] * w.stride - w.padding_low + k[d] * w.window_dilation;
        if (position < 0 || position % w.base_dilation != 0 ||
            position / w.base_dilation >= in_dims[d]) {
          inside = false;
          break;
        }
        linear += position / w.base_dilation * strides[d];
      }
      if (inside) indices.push_back(linear);
      more = !k.empty() && NextIndex(k, window_dims);
    }
    FS_RETURN_IF_ERROR(accumulator.Reduce(indices, *results, o++));
  } while (NextIndex(out, out_dims));
  return PackResults(std::move(results).value(), instruction.shape().IsTuple());
}

StatusOr<Literal> EvaluateSelectAndScatter(const ir::Instruction& instruction,
                                           const Operands& operands, const CallComputation& call) {
  const ir::Computation* select = Called(instruction, "select");
  const ir::Computation* scatter = Called(instruction, "scatter");
  if (select == nullptr || scatter == nullptr || operands.size() != 3) {
    return InstructionError(instruction,
                            "select-and-scatter needs select=, scatter= and three operands");
  }
  const Literal& operand = *operands[0];
  const Literal& source = *operands[1];
  const std::vector<int64_t>& in_dims = operand.shape().dimensions();
  std::vector<ir::WindowDimension> window(in_dims.size());
  if (std::optional<std::string_view> text = instruction.attribute("window")) {
    auto parsed = ir::ParseWindow(*text);
    if (!parsed.ok() || parsed->size() != in_dims.size()) {
      return InstructionError(instruction, "window= does not fit the operand");
    }
    window = *parsed;
  }
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  for (int64_t i = 0; i < result.element_count(); ++i) CopyElement(*operands[2], 0, result, i);
  if (source.element_count() == 0) return result;
  const std::vector<int64_t> strides = Strides(in_dims);
  std::vector<int64_t> window_dims;
  for (const ir::WindowDimension& w : window) window_dims.push_back(w.size);
  const std::vector<int64_t>& source_dims = source.shape().dimensions();
  std::vector<int64_t> s(source_dims.size(), 0);
  int64_t source_linear = 0;
  do {
    int64_t selected = -1;
    std::vector<int64_t> k(window_dims.size(), 0);
    bool more = true;
    while (more) {
      int64_t linear = 0;
      bool inside = true;
      for (size_t d = 0; d < k.size(); ++d) {
        const int64_t position = s[d] * window[d].stride - window[d].padding_low + k[d];
        if (position < 0 || position >= in_dims[d]) {
          inside = false;
          break;
        }
        linear += position * strides[d];
      }
      if (inside) {
        if (selected < 0) {
          selected = linear;
        } else {
          StatusOr<Literal> keep =
              call(*select, {Scalar(operand, selected), Scalar(operand, linear)});
          if (!keep.ok()) return keep.status();
          if (keep->is_tuple() || keep->GetInt(0) == 0) selected = linear;
        }
      }
      more = !k.empty() && NextIndex(k, window_dims);
    }
    if (selected >= 0) {
      StatusOr<Literal> value =
          call(*scatter, {Scalar(result, selected), Scalar(source, source_linear)});
      if (!value.ok()) return value.status();
      if (value->is_tuple())
        return InstructionError(instruction, "scatter computation returns a tuple");
      CopyElement(*value, 0, result, selected);
    }
    ++source_linear;
  } while (NextIndex(s, source_dims));
  return result;
}

StatusOr<Literal> EvaluateSort(const ir::Instruction& instruction, const Operands& operands,
                               const CallComputation& call) {
  const ir::Computation* comparator = Called(instruction, "to_apply");
  const std::vector<int64_t> dims = instruction.dimensions().value_or(std::vector<int64_t>{});
  if (comparator == nullptr || operands.empty() || dims.size() != 1) {
    return InstructionError(instruction, "sort needs to_apply= and one dimension");
  }
  const std::vector<int64_t>& in_dims = operands[0]->shape().dimensions();
  const int64_t axis = dims[0];
  if (axis < 0 || axis >= static_cast<int64_t>(in_dims.size()))
    return InstructionError(instruction, "bad sort dimension");
  StatusOr<std::vector<Literal>> results = NewResults(instruction, operands.size());
  if (!results.ok()) return results.status();
  const std::vector<int64_t> strides = Strides(in_dims);
  const int64_t length = in_dims[static_cast<size_t>(axis)];
  const int64_t step = strides[static_cast<size_t>(axis)];
  std::vector<int64_t> outer_dims = in_dims;
  outer_dims[static_cast<size_t>(axis)] = 1;
  const SimpleComparator simple = RecogniseComparator(*comparator);
  const Literal& keys = *operands[0];
  Status failure = Status::Ok();
  if (operands[0]->element_count() == 0)
    return PackResults(std::move(results).value(), instruction.shape().IsTuple());
  std::vector<int64_t> outer(outer_dims.size(), 0);
  do {
    int64_t base = 0;
    for (size_t d = 0; d < outer.size(); ++d) base += outer[d] * strides[d];
    std::vector<int64_t> order(static_cast<size_t>(length));
    std::iota(order.begin(), order.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      const int64_t ia = base + a * step;
      const int64_t ib = base + b * step;
      if (simple.valid) {
        if (keys.is_floating()) {
          const double x = keys.GetDouble(ia);
          const double y = keys.GetDouble(ib);
          if (simple.total_order)
            return simple.less ? OrderKey(x) < OrderKey(y) : OrderKey(x) > OrderKey(y);
          return simple.less ? x < y : x > y;
        }
        const bool is_unsigned =
            ir::IsIntegralType(keys.type()) && !ir::IsSignedIntegralType(keys.type());
        const int64_t x = keys.GetInt(ia);
        const int64_t y = keys.GetInt(ib);
        if (is_unsigned) {
          return simple.less ? static_cast<uint64_t>(x) < static_cast<uint64_t>(y)
                             : static_cast<uint64_t>(x) > static_cast<uint64_t>(y);
        }
        return simple.less ? x < y : x > y;
      }
      if (!failure.ok()) return false;
      std::vector<Literal> args;
      for (const Literal* operand : operands) {
        args.push_back(Scalar(*operand, ia));
        args.push_back(Scalar(*operand, ib));
      }
      StatusOr<Literal> verdict = call(*comparator, std::move(args));
      if (!verdict.ok()) {
        failure = verdict.status();
        return false;
      }
      return !verdict->is_tuple() && verdict->GetInt(0) != 0;
    };
    // Stable whatever is_stable says: XLA's unstable sort may order equal keys either way.
    std::stable_sort(order.begin(), order.end(), less);
    FS_RETURN_IF_ERROR(failure);
    for (size_t r = 0; r < operands.size(); ++r) {
      for (int64_t i = 0; i < length; ++i) {
        CopyElement(*operands[r], base + order[static_cast<size_t>(i)] * step, (*results)[r],
                    base + i * step);
      }
    }
  } while (NextIndex(outer, outer_dims));
  return PackResults(std::move(results).value(), instruction.shape().IsTuple());
}

StatusOr<Literal> EvaluateTopK(const ir::Instruction& instruction, const Operands& operands) {
  const Literal& input = *operands[0];
  std::optional<int64_t> k = instruction.IntAttribute("k");
  if (!k && instruction.shape().IsTuple() && !instruction.shape().tuple_shapes().empty() &&
      instruction.shape().tuple_shapes()[0].rank() > 0) {
    k = instruction.shape().tuple_shapes()[0].dimensions().back();  // the TopK custom-call
  }
  const bool largest = instruction.attribute("largest").value_or("true") != "false";
  if (!k || input.shape().rank() < 1 || !instruction.shape().IsTuple() ||
      instruction.shape().tuple_shapes().size() != 2 || *k > input.shape().dimensions().back() ||
      *k < 0) {
    return InstructionError(
        instruction,
        "topk needs k= no larger than the last dimension and a (values, indices) result");
  }
  StatusOr<std::vector<Literal>> results = NewResults(instruction, 2);
  if (!results.ok()) return results.status();
  const int64_t length = input.shape().dimensions().back();
  const int64_t rows = length == 0 ? 0 : input.element_count() / length;
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<int64_t> order(static_cast<size_t>(length));
    std::iota(order.begin(), order.end(), 0);
    const int64_t base = row * length;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      if (input.is_floating()) {
        const int64_t x = OrderKey(input.GetDouble(base + a));
        const int64_t y = OrderKey(input.GetDouble(base + b));
        return largest ? x > y : x < y;
      }
      return largest ? input.GetInt(base + a) > input.GetInt(base + b)
                     : input.GetInt(base + a) < input.GetInt(base + b);
    });
    for (int64_t i = 0; i < *k; ++i) {
      CopyElement(input, base + order[static_cast<size_t>(i)], (*results)[0], row * *k + i);
      (*results)[1].SetInt(row * *k + i, order[static_cast<size_t>(i)]);
    }
  }
  return PackResults(std::move(results).value(), true);
}

StatusOr<Literal> EvaluateMap(const ir::Instruction& instruction, const Operands& operands,
                              const CallComputation& call) {
  const ir::Computation* function = Called(instruction, "to_apply");
  if (function == nullptr) return InstructionError(instruction, "map needs to_apply=");
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  for (int64_t i = 0; i < result.element_count(); ++i) {
    std::vector<Literal> args;
    for (const Literal* operand : operands) args.push_back(Scalar(*operand, i));
    StatusOr<Literal> value = call(*function, std::move(args));
    if (!value.ok()) return value.status();
    if (value->is_tuple()) return InstructionError(instruction, "map computation returns a tuple");
    CopyElement(*value, 0, result, i);
  }
  return result;
}

}  // namespace fusescope::runtime::internal
