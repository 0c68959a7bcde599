// Tuples and ops that call computations as functions: fusion, call, while, conditional.

#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

Shape WithoutLayouts(Shape shape) {
  shape.clear_layout();
  for (Shape& element : shape.mutable_tuple_shapes()) element = WithoutLayouts(element);
  return shape;
}

// The callee's parameters take the given operands, in order.
Status CheckArguments(const Instruction& instruction, std::string_view key,
                      const Computation& callee, int64_t first_operand, int64_t count) {
  if (callee.parameter_count() != count) {
    return Status::Error(std::string(key) + " computation " + callee.name() + " takes " +
                         std::to_string(callee.parameter_count()) + " parameters, given " +
                         std::to_string(count) + " operands");
  }
  for (int64_t i = 0; i < count; ++i) {
    const Shape& operand = instruction.operand(first_operand + i)->shape();
    const Shape& param = callee.parameter(i)->shape();
    if (!operand.Compatible(param)) {
      return Status::Error("operand " + std::to_string(first_operand + i) + " shape " +
                           ShapeText(operand) + " does not match parameter " + std::to_string(i) +
                           " " + ShapeText(param) + " of " + callee.name());
    }
  }
  return Status::Ok();
}

Inferred InferCall(const Instruction& instruction, std::string_view key) {
  auto callee = CalledComputation(instruction, key);
  if (!callee.ok()) return callee.status();
  FS_RETURN_IF_ERROR(CheckArguments(instruction, key, **callee, 0, instruction.operand_count()));
  return std::optional<Shape>(WithoutLayouts((*callee)->root()->shape()));
}

Inferred InferWhile(const Instruction& instruction) {
  const Shape& state = instruction.operand(0)->shape();
  auto body = CalledComputation(instruction, "body");
  if (!body.ok()) return body.status();
  auto condition = CalledComputation(instruction, "condition");
  if (!condition.ok()) return condition.status();
  FS_RETURN_IF_ERROR(CheckArguments(instruction, "body", **body, 0, 1));
  FS_RETURN_IF_ERROR(CheckArguments(instruction, "condition", **condition, 0, 1));
  const Shape& next = (*body)->root()->shape();
  if (!next.Compatible(state)) {
    return Status::Error("body computation " + (*body)->name() + " returns " + ShapeText(next) +
                         ", the loop state is " + ShapeText(state));
  }
  const Shape& predicate = (*condition)->root()->shape();
  if (!predicate.IsScalar() || predicate.element_type() != PrimitiveType::kPred) {
    return Status::Error("condition computation " + (*condition)->name() + " returns " +
                         ShapeText(predicate) + ", expected pred[]");
  }
  return std::optional<Shape>(WithoutLayouts(state));
}

// pred[] selects between true_computation and false_computation; s32[] indexes
// branch_computations.
StatusOr<std::vector<const Computation*>> ConditionalBranches(const Instruction& instruction) {
  if (instruction.operand_count() == 0) return Status::Error("conditional has no operands");
  const Shape& selector = instruction.operand(0)->shape();
  const bool binary = selector.element_type() == PrimitiveType::kPred;
  if (!selector.IsScalar() || (!binary && selector.element_type() != PrimitiveType::kS32)) {
    return Status::Error("operand 0 shape " + ShapeText(selector) + " is not pred[] or s32[]");
  }
  std::vector<const Computation*> branches;
  if (binary) {
    for (std::string_view key : {"true_computation", "false_computation"}) {
      auto branch = CalledComputation(instruction, key);
      if (!branch.ok()) return branch.status();
      branches.push_back(*branch);
    }
  } else {
    for (Computation* branch : instruction.CalledComputations("branch_computations")) {
      branches.push_back(branch);
    }
  }
  if (branches.empty() ||
      static_cast<int64_t>(branches.size()) != instruction.operand_count() - 1) {
    return Status::Error("conditional has " + std::to_string(branches.size()) + " branches and " +
                         std::to_string(instruction.operand_count() - 1) + " branch operands");
  }
  return branches;
}

Inferred InferConditional(const Instruction& instruction) {
  auto branches = ConditionalBranches(instruction);
  if (!branches.ok()) return branches.status();
  const Shape& result = branches->front()->root()->shape();
  for (size_t i = 0; i < branches->size(); ++i) {
    const Computation& branch = *(*branches)[i];
    FS_RETURN_IF_ERROR(
        CheckArguments(instruction, "branch", branch, static_cast<int64_t>(i) + 1, 1));
    if (!branch.root()->shape().Compatible(result)) {
      return Status::Error("branch computation " + branch.name() + " returns " +
                           ShapeText(branch.root()->shape()) + ", branch 0 returns " +
                           ShapeText(result));
    }
  }
  return std::optional<Shape>(WithoutLayouts(result));
}

Inferred InferGetTupleElement(const Instruction& instruction) {
  const Shape& tuple = instruction.operand(0)->shape();
  if (!tuple.IsTuple()) {
    return Status::Error("operand 0 shape " + ShapeText(tuple) + " is not a tuple");
  }
  auto index = RequiredInt(instruction, "index");
  if (!index.ok()) return index.status();
  if (*index < 0 || *index >= static_cast<int64_t>(tuple.tuple_shapes().size())) {
    return Status::Error("index=" + std::to_string(*index) + " out of range for tuple of " +
                         std::to_string(tuple.tuple_shapes().size()) + " elements");
  }
  return std::optional<Shape>(WithoutLayouts(tuple.tuple_shapes()[static_cast<size_t>(*index)]));
}

Inferred InferTuple(const Instruction& instruction) {
  std::vector<Shape> elements;
  for (const Instruction* operand : instruction.operands()) {
    elements.push_back(WithoutLayouts(operand->shape()));
  }
  return std::optional<Shape>(Shape::Tuple(std::move(elements)));
}

}  // namespace

Inferred InferControlFlow(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kFusion:
      return InferCall(instruction, "calls");
    case Opcode::kCall:
      return InferCall(instruction, "to_apply");
    case Opcode::kWhile:
      return InferWhile(instruction);
    case Opcode::kConditional:
      return InferConditional(instruction);
    case Opcode::kGetTupleElement:
      return InferGetTupleElement(instruction);
    case Opcode::kTuple:
      return InferTuple(instruction);
    case Opcode::kAddDependency:
    case Opcode::kDomain:
    case Opcode::kOptimizationBarrier:
      return std::optional<Shape>(WithoutLayouts(instruction.operand(0)->shape()));
    default:
      return std::optional<Shape>();
  }
}

}  // namespace fusescope::ir::inference
