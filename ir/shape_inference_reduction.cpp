// Ops that apply a called scalar computation: reduce, reduce-window, select-and-scatter,
// all-reduce and map.

#include <algorithm>

#include "ir/attribute_values.h"
#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

// N input arrays of one set of dimensions followed by N scalar initial values.
struct VariadicOperands {
  std::vector<const Shape*> inputs;
  std::vector<PrimitiveType> input_types;
  std::vector<PrimitiveType> init_types;
};

StatusOr<VariadicOperands> ReadVariadicOperands(const Instruction& instruction) {
  const int64_t count = instruction.operand_count();
  if (count < 2 || count % 2 != 0) {
    return Status::Error(std::string(instruction.opcode_name()) +
                         " takes N inputs and N initial values, has " + std::to_string(count) +
                         " operands");
  }
  VariadicOperands out;
  for (int64_t i = 0; i < count / 2; ++i) {
    auto input = ArrayOperand(instruction, i);
    if (!input.ok()) return input.status();
    if (i > 0 && (*input)->dimensions() != out.inputs.front()->dimensions()) {
      return Status::Error("operand " + std::to_string(i) + " shape " + ShapeText(**input) +
                           " does not match the dimensions of " + ShapeText(*out.inputs[0]));
    }
    out.inputs.push_back(*input);
    out.input_types.push_back((*input)->element_type());
  }
  for (int64_t i = count / 2; i < count; ++i) {
    auto init = ArrayOperand(instruction, i);
    if (!init.ok()) return init.status();
    if (!(*init)->IsScalar()) {
      return Status::Error("operand " + std::to_string(i) + " initial value " + ShapeText(**init) +
                           " is not a scalar");
    }
    out.init_types.push_back((*init)->element_type());
  }
  return out;
}

// Results of the reducer's element types over `dims`; a tuple when the reducer returns one.
std::optional<Shape> ReducedShape(const Instruction& instruction,
                                  const std::vector<PrimitiveType>& types,
                                  const std::vector<int64_t>& dims) {
  std::vector<Shape> results;
  for (PrimitiveType type : types) results.emplace_back(type, dims);
  const Computation* reducer = instruction.CalledComputations("to_apply").front();
  if (!reducer->root()->shape().IsTuple()) return results.front();
  return Shape::Tuple(std::move(results));
}

Inferred InferReduce(const Instruction& instruction) {
  auto operands = ReadVariadicOperands(instruction);
  if (!operands.ok()) return operands.status();
  const Shape& input = *operands->inputs.front();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, input.rank()));
  auto types = CheckReducer(instruction, "to_apply", operands->init_types, operands->input_types);
  if (!types.ok()) return types.status();
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (std::find(dims->begin(), dims->end(), d) == dims->end()) {
      kept.push_back(input.dimension(d));
    }
  }
  return ReducedShape(instruction, *types, kept);
}

StatusOr<std::vector<WindowDimension>> ReadWindow(const Instruction& instruction,
                                                  const Shape& base) {
  std::optional<std::string_view> text = instruction.attribute("window");
  // XLA omits an empty window, which is what a scalar base has.
  StatusOr<std::vector<WindowDimension>> window =
      text ? ParseWindow(*text) : std::vector<WindowDimension>{};
  if (!window.ok()) return window.status();
  if (static_cast<int64_t>(window->size()) != base.rank()) {
    return Status::Error("window has " + std::to_string(window->size()) +
                         " dimensions for operand " + ShapeText(base));
  }
  for (const WindowDimension& dim : *window) {
    if (dim.size < 1 || dim.stride < 1 || dim.base_dilation < 1 || dim.window_dilation < 1) {
      return Status::Error("window " + std::string(text ? *text : "") +
                           " has a size, stride or dilation below 1");
    }
  }
  return window;
}

StatusOr<std::vector<int64_t>> WindowedDims(const Shape& base,
                                            const std::vector<WindowDimension>& window) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < window.size(); ++i) {
    auto size = WindowedSize(base.dimension(static_cast<int64_t>(i)), window[i]);
    if (!size.ok()) return size.status();
    dims.push_back(*size);
  }
  return dims;
}

Inferred InferReduceWindow(const Instruction& instruction) {
  auto operands = ReadVariadicOperands(instruction);
  if (!operands.ok()) return operands.status();
  const Shape& input = *operands->inputs.front();
  auto window = ReadWindow(instruction, input);
  if (!window.ok()) return window.status();
  auto types = CheckReducer(instruction, "to_apply", operands->init_types, operands->input_types);
  if (!types.ok()) return types.status();
  auto dims = WindowedDims(input, *window);
  if (!dims.ok()) return dims.status();
  return ReducedShape(instruction, *types, *dims);
}

Inferred InferSelectAndScatter(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto source = ArrayOperand(instruction, 1);
  if (!source.ok()) return source.status();
  auto init = ArrayOperand(instruction, 2);
  if (!init.ok()) return init.status();
  const PrimitiveType type = (*operand)->element_type();
  FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 2, Shape(type, {})));
  auto window = ReadWindow(instruction, **operand);
  if (!window.ok()) return window.status();
  auto windows = WindowedDims(**operand, *window);
  if (!windows.ok()) return windows.status();
  FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 1, Shape(type, *windows)));
  FS_RETURN_IF_ERROR(CheckComparator(instruction, "select", {type, type}));
  auto scattered = CheckReducer(instruction, "scatter", {type}, {type});
  if (!scattered.ok()) return scattered.status();
  return std::optional<Shape>(Shape(type, (*operand)->dimensions()));
}

Inferred InferAllReduce(const Instruction& instruction) {
  if (instruction.operand_count() == 0) return Status::Error("all-reduce has no operands");
  std::vector<Shape> results;
  bool one_type = true;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
    results.emplace_back((*operand)->element_type(), (*operand)->dimensions());
    one_type = one_type && results.back().element_type() == results.front().element_type();
  }
  // Combined all-reduces of mixed types share one reducer that XLA applies per type.
  if (one_type) {
    const PrimitiveType type = results.front().element_type();
    auto reduced = CheckReducer(instruction, "to_apply", {type}, {type});
    if (!reduced.ok()) return reduced.status();
  }
  if (results.size() == 1) return std::optional<Shape>(results.front());
  return std::optional<Shape>(Shape::Tuple(std::move(results)));
}

Inferred InferMap(const Instruction& instruction) {
  if (instruction.operand_count() == 0) return Status::Error("map has no operands");
  auto first = ArrayOperand(instruction, 0);
  if (!first.ok()) return first.status();
  std::vector<Shape> params;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
    if ((*operand)->dimensions() != (*first)->dimensions()) {
      return Status::Error("operand " + std::to_string(i) + " shape " + ShapeText(**operand) +
                           " does not match the dimensions of " + ShapeText(**first));
    }
    params.emplace_back((*operand)->element_type(), std::vector<int64_t>{});
  }
  auto mapped = CalledComputation(instruction, "to_apply");
  if (!mapped.ok()) return mapped.status();
  if ((*mapped)->parameter_count() != instruction.operand_count()) {
    return Status::Error("to_apply computation " + (*mapped)->name() + " takes " +
                         std::to_string((*mapped)->parameter_count()) + " parameters, map has " +
                         std::to_string(instruction.operand_count()) + " operands");
  }
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    const Shape& param = (*mapped)->parameter(i)->shape();
    if (!SameArrayShape(param, params[static_cast<size_t>(i)])) {
      return Status::Error("to_apply computation " + (*mapped)->name() + " parameter " +
                           std::to_string(i) + " is " + ShapeText(param) + ", expected " +
                           ShapeText(params[static_cast<size_t>(i)]));
    }
  }
  auto types = ScalarResults(**mapped, "to_apply", 1);
  if (!types.ok()) return types.status();
  return std::optional<Shape>(Shape(types->front(), (*first)->dimensions()));
}

}  // namespace

Inferred InferReduction(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kReduce:
      return InferReduce(instruction);
    case Opcode::kReduceWindow:
      return InferReduceWindow(instruction);
    case Opcode::kSelectAndScatter:
      return InferSelectAndScatter(instruction);
    case Opcode::kAllReduce:
      return InferAllReduce(instruction);
    case Opcode::kMap:
      return InferMap(instruction);
    default:
      return std::optional<Shape>();
  }
}

}  // namespace fusescope::ir::inference
