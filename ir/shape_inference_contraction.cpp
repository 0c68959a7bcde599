// Dot, convolution and the linear-algebra ops (batch norm, cholesky, triangular solve).

#include <algorithm>

#include "ir/attribute_values.h"
#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

// Dot and convolution accept mixed operand precisions (bf16 x f32, s8 x s32) as long as both
// sides are of one kind; their result type is the written one.
Status CheckContractionOperandTypes(const Shape& lhs, const Shape& rhs) {
  const PrimitiveType a = lhs.element_type();
  const PrimitiveType b = rhs.element_type();
  const bool same_kind = a == b || (IsFloatingPointType(a) && IsFloatingPointType(b)) ||
                         (IsIntegralType(a) && IsIntegralType(b)) ||
                         (IsComplexType(a) && IsComplexType(b));
  if (same_kind) return Status::Ok();
  return Status::Error("operand element types " + TypeText(a) + " and " + TypeText(b) +
                       " cannot be combined");
}

struct DotDimensions {
  std::vector<int64_t> lhs_batch;
  std::vector<int64_t> rhs_batch;
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
};

StatusOr<DotDimensions> ReadDotDimensions(const Instruction& instruction) {
  DotDimensions d;
  std::pair<std::string_view, std::vector<int64_t>*> lists[] = {
      {"lhs_batch_dims", &d.lhs_batch},
      {"rhs_batch_dims", &d.rhs_batch},
      {"lhs_contracting_dims", &d.lhs_contracting},
      {"rhs_contracting_dims", &d.rhs_contracting}};
  for (auto& [key, target] : lists) {
    auto values = OptionalIntList(instruction, key);
    if (!values.ok()) return values.status();
    *target = std::move(*values);
  }
  return d;
}

// Batch and contracting dimensions of one side: in range, disjoint.
Status CheckDotSide(std::string_view side, const std::vector<int64_t>& batch,
                    const std::vector<int64_t>& contracting, const Shape& shape) {
  std::vector<int64_t> all = batch;
  all.insert(all.end(), contracting.begin(), contracting.end());
  return CheckDimensions(
      std::string(side) + "_batch_dims+" + std::string(side) + "_contracting_dims", all,
      shape.rank());
}

Status CheckPairedSizes(std::string_view what, const std::vector<int64_t>& lhs_dims,
                        const std::vector<int64_t>& rhs_dims, const Shape& lhs, const Shape& rhs) {
  if (lhs_dims.size() != rhs_dims.size()) {
    return Status::Error("lhs has " + std::to_string(lhs_dims.size()) + " " + std::string(what) +
                         " dimensions, rhs has " + std::to_string(rhs_dims.size()));
  }
  for (size_t i = 0; i < lhs_dims.size(); ++i) {
    if (lhs.dimension(lhs_dims[i]) != rhs.dimension(rhs_dims[i])) {
      return Status::Error("lhs " + std::string(what) + " dimension " +
                           std::to_string(lhs_dims[i]) + " of " + ShapeText(lhs) +
                           " does not match rhs " + std::string(what) + " dimension " +
                           std::to_string(rhs_dims[i]) + " of " + ShapeText(rhs));
    }
  }
  return Status::Ok();
}

void AppendFreeDims(const Shape& shape, const std::vector<int64_t>& batch,
                    const std::vector<int64_t>& contracting, std::vector<int64_t>& out) {
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      out.push_back(shape.dimension(d));
    }
  }
}

Inferred InferDot(const Instruction& instruction) {
  // Sparse dots carry metadata operands whose layout the sparsity descriptor defines.
  if (instruction.attribute("sparsity")) return std::optional<Shape>();
  auto lhs = ArrayOperand(instruction, 0);
  if (!lhs.ok()) return lhs.status();
  auto rhs = ArrayOperand(instruction, 1);
  if (!rhs.ok()) return rhs.status();
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  FS_RETURN_IF_ERROR(CheckContractionOperandTypes(**lhs, **rhs));
  auto d = ReadDotDimensions(instruction);
  if (!d.ok()) return d.status();
  FS_RETURN_IF_ERROR(CheckDotSide("lhs", d->lhs_batch, d->lhs_contracting, **lhs));
  FS_RETURN_IF_ERROR(CheckDotSide("rhs", d->rhs_batch, d->rhs_contracting, **rhs));
  FS_RETURN_IF_ERROR(CheckPairedSizes("batch", d->lhs_batch, d->rhs_batch, **lhs, **rhs));
  FS_RETURN_IF_ERROR(
      CheckPairedSizes("contracting", d->lhs_contracting, d->rhs_contracting, **lhs, **rhs));
  std::vector<int64_t> dims;
  for (int64_t b : d->lhs_batch) dims.push_back((*lhs)->dimension(b));
  AppendFreeDims(**lhs, d->lhs_batch, d->lhs_contracting, dims);
  AppendFreeDims(**rhs, d->rhs_batch, d->rhs_contracting, dims);
  return std::optional<Shape>(Shape((*written)->element_type(), std::move(dims)));
}

StatusOr<int64_t> GroupCount(const Instruction& instruction, std::string_view key) {
  if (!instruction.attribute(key)) return int64_t{1};
  auto count = RequiredInt(instruction, key);
  if (!count.ok()) return count.status();
  if (*count < 1) {
    return Status::Error(std::string(key) + "=" + std::to_string(*count) + " is below 1");
  }
  return *count;
}

struct ConvolutionGroups {
  int64_t feature = 1;
  int64_t batch = 1;
};

// Feature and batch grouping: the input features split into `feature` groups, each matched
// by the kernel's input features; batch groups split the batch across output features.
Status CheckConvolutionGroups(const ConvolutionDimensionLabels& labels, const Shape& lhs,
                              const Shape& rhs, ConvolutionGroups groups) {
  const int64_t input_features = lhs.dimension(labels.input_feature);
  const int64_t kernel_inputs = rhs.dimension(labels.kernel_input_feature);
  const int64_t kernel_outputs = rhs.dimension(labels.kernel_output_feature);
  const int64_t batch = lhs.dimension(labels.input_batch);
  if (input_features % groups.feature != 0 || input_features / groups.feature != kernel_inputs) {
    return Status::Error("input features " + std::to_string(input_features) + " of " +
                         ShapeText(lhs) + " do not match kernel input features " +
                         std::to_string(kernel_inputs) + " of " + ShapeText(rhs) +
                         " times feature_group_count=" + std::to_string(groups.feature));
  }
  if (kernel_outputs % groups.feature != 0 || kernel_outputs % groups.batch != 0 ||
      batch % groups.batch != 0) {
    return Status::Error("kernel output features " + std::to_string(kernel_outputs) + " or batch " +
                         std::to_string(batch) + " is not divisible by the group counts");
  }
  return Status::Ok();
}

Status CheckConvolutionRanks(const ConvolutionDimensionLabels& labels, const Shape& lhs,
                             const Shape& rhs, size_t window_dims) {
  const auto rank = static_cast<int64_t>(labels.input_spatial.size() + 2);
  if (lhs.rank() != rank || rhs.rank() != rank) {
    return Status::Error("dim_labels need rank " + std::to_string(rank) + " operands, have " +
                         ShapeText(lhs) + " and " + ShapeText(rhs));
  }
  if (window_dims != labels.input_spatial.size()) {
    return Status::Error("window has " + std::to_string(window_dims) + " dimensions for " +
                         std::to_string(labels.input_spatial.size()) + " spatial dimensions");
  }
  return Status::Ok();
}

StatusOr<std::vector<WindowDimension>> ReadConvolutionWindow(const Instruction& instruction) {
  std::optional<std::string_view> text = instruction.attribute("window");
  if (!text) return std::vector<WindowDimension>{};
  return ParseWindow(*text);
}

Inferred InferConvolution(const Instruction& instruction) {
  auto lhs = ArrayOperand(instruction, 0);
  if (!lhs.ok()) return lhs.status();
  auto rhs = ArrayOperand(instruction, 1);
  if (!rhs.ok()) return rhs.status();
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  FS_RETURN_IF_ERROR(CheckContractionOperandTypes(**lhs, **rhs));
  auto label_text = RequiredAttribute(instruction, "dim_labels");
  if (!label_text.ok()) return label_text.status();
  auto labels = ParseConvolutionDimensionLabels(*label_text);
  if (!labels.ok()) return labels.status();
  auto window = ReadConvolutionWindow(instruction);
  if (!window.ok()) return window.status();
  FS_RETURN_IF_ERROR(CheckConvolutionRanks(*labels, **lhs, **rhs, window->size()));
  auto feature_groups = GroupCount(instruction, "feature_group_count");
  if (!feature_groups.ok()) return feature_groups.status();
  auto batch_groups = GroupCount(instruction, "batch_group_count");
  if (!batch_groups.ok()) return batch_groups.status();
  FS_RETURN_IF_ERROR(
      CheckConvolutionGroups(*labels, **lhs, **rhs, {*feature_groups, *batch_groups}));
  std::vector<int64_t> dims(labels->input_spatial.size() + 2, 0);
  dims[static_cast<size_t>(labels->output_batch)] =
      (*lhs)->dimension(labels->input_batch) / *batch_groups;
  dims[static_cast<size_t>(labels->output_feature)] =
      (*rhs)->dimension(labels->kernel_output_feature);
  for (size_t i = 0; i < window->size(); ++i) {
    const WindowDimension& w = (*window)[i];
    const int64_t kernel = (*rhs)->dimension(labels->kernel_spatial[i]);
    if (w.size != kernel || w.stride < 1 || w.base_dilation < 1 || w.window_dilation < 1) {
      return Status::Error("window dimension " + std::to_string(i) + " (size " +
                           std::to_string(w.size) + ") does not fit kernel " + ShapeText(**rhs));
    }
    auto size = WindowedSize((*lhs)->dimension(labels->input_spatial[i]), w);
    if (!size.ok()) return size.status();
    dims[static_cast<size_t>(labels->output_spatial[i])] = *size;
  }
  return std::optional<Shape>(Shape((*written)->element_type(), std::move(dims)));
}

// The per-feature vectors of batch norm: rank 1, the operand's feature size and type.
Status CheckFeatureVectors(const Instruction& instruction, const Shape& operand,
                           int64_t feature_index, std::initializer_list<int64_t> indices) {
  const Shape expected(operand.element_type(), {operand.dimension(feature_index)});
  for (int64_t i : indices) FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, i, expected));
  return Status::Ok();
}

Inferred InferBatchNorm(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto feature_index = RequiredInt(instruction, "feature_index");
  if (!feature_index.ok()) return feature_index.status();
  if (*feature_index < 0 || *feature_index >= (*operand)->rank()) {
    return Status::Error("feature_index=" + std::to_string(*feature_index) + " out of range for " +
                         ShapeText(**operand));
  }
  const Shape result((*operand)->element_type(), (*operand)->dimensions());
  const Shape features((*operand)->element_type(), {(*operand)->dimension(*feature_index)});
  switch (instruction.opcode()) {
    case Opcode::kBatchNormTraining:
      FS_RETURN_IF_ERROR(CheckFeatureVectors(instruction, **operand, *feature_index, {1, 2}));
      return std::optional<Shape>(Shape::Tuple({result, features, features}));
    case Opcode::kBatchNormInference:
      FS_RETURN_IF_ERROR(CheckFeatureVectors(instruction, **operand, *feature_index, {1, 2, 3, 4}));
      return std::optional<Shape>(result);
    default:
      FS_RETURN_IF_ERROR(CheckFeatureVectors(instruction, **operand, *feature_index, {1, 2, 3}));
      FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 4, result));
      return std::optional<Shape>(Shape::Tuple({result, features, features}));
  }
}

Status CheckSquareMatrices(const Shape& shape, int64_t index) {
  const int64_t rank = shape.rank();
  if (rank < 2 || shape.dimension(rank - 1) != shape.dimension(rank - 2)) {
    return Status::Error("operand " + std::to_string(index) + " shape " + ShapeText(shape) +
                         " is not a batch of square matrices");
  }
  return Status::Ok();
}

Inferred InferLinearAlgebra(const Instruction& instruction) {
  auto a = ArrayOperand(instruction, 0);
  if (!a.ok()) return a.status();
  FS_RETURN_IF_ERROR(CheckSquareMatrices(**a, 0));
  if (instruction.opcode() == Opcode::kCholesky) {
    return std::optional<Shape>(Shape((*a)->element_type(), (*a)->dimensions()));
  }
  auto b = ArrayOperand(instruction, 1);
  if (!b.ok()) return b.status();
  if ((*b)->rank() != (*a)->rank() || (*b)->element_type() != (*a)->element_type()) {
    return Status::Error("operand 1 shape " + ShapeText(**b) + " does not fit matrices " +
                         ShapeText(**a));
  }
  return std::optional<Shape>(Shape((*b)->element_type(), (*b)->dimensions()));
}

}  // namespace

Inferred InferContraction(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kDot:
      return InferDot(instruction);
    case Opcode::kConvolution:
      return InferConvolution(instruction);
    case Opcode::kBatchNormGrad:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormTraining:
      return InferBatchNorm(instruction);
    case Opcode::kCholesky:
    case Opcode::kTriangularSolve:
      return InferLinearAlgebra(instruction);
    default:
      return std::optional<Shape>();
  }
}

}  // namespace fusescope::ir::inference
