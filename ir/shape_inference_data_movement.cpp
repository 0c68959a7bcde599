// Ops that rearrange, select or extend elements without computing on them.

#include "ir/attribute_values.h"
#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

Inferred Result(PrimitiveType type, std::vector<int64_t> dims) {
  return std::optional<Shape>(Shape(type, std::move(dims)));
}

// Broadcast's new dimensions are known only from the written shape; the operand fixes the
// rest.
Inferred InferBroadcast(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  if (static_cast<int64_t>(dims->size()) != (*operand)->rank()) {
    return Status::Error("dimensions=" + ListText(*dims) + " has " + std::to_string(dims->size()) +
                         " entries for operand " + ShapeText(**operand));
  }
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, (*written)->rank()));
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    const int64_t out = (*dims)[static_cast<size_t>(i)];
    if ((*operand)->dimension(i) != (*written)->dimension(out)) {
      return Status::Error("operand dimension " + std::to_string(i) + " of " +
                           ShapeText(**operand) + " does not match dimension " +
                           std::to_string(out) + " of " + ShapeText(**written));
    }
  }
  return Result((*operand)->element_type(), (*written)->dimensions());
}

Inferred InferReshape(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  if ((*operand)->ElementCount() != (*written)->ElementCount()) {
    return Status::Error("reshape from " + ShapeText(**operand) + " to " + ShapeText(**written) +
                         " changes the element count from " +
                         std::to_string((*operand)->ElementCount()) + " to " +
                         std::to_string((*written)->ElementCount()));
  }
  return Result((*operand)->element_type(), (*written)->dimensions());
}

Inferred InferTranspose(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto perm = RequiredIntList(instruction, "dimensions");
  if (!perm.ok()) return perm.status();
  if (static_cast<int64_t>(perm->size()) != (*operand)->rank()) {
    return Status::Error("dimensions=" + ListText(*perm) + " is not a permutation of the " +
                         std::to_string((*operand)->rank()) + " dimensions of " +
                         ShapeText(**operand));
  }
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *perm, (*operand)->rank()));
  std::vector<int64_t> dims;
  for (int64_t from : *perm) dims.push_back((*operand)->dimension(from));
  return Result((*operand)->element_type(), std::move(dims));
}

Inferred InferReverse(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, (*operand)->rank()));
  return Result((*operand)->element_type(), (*operand)->dimensions());
}

Inferred InferSlice(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto text = RequiredAttribute(instruction, "slice");
  if (!text.ok()) return text.status();
  auto bounds = ParseSliceBounds(*text);
  if (!bounds.ok()) return bounds.status();
  if (static_cast<int64_t>(bounds->size()) != (*operand)->rank()) {
    return Status::Error("slice has " + std::to_string(bounds->size()) +
                         " dimensions for operand " + ShapeText(**operand));
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    const SliceBounds& b = (*bounds)[static_cast<size_t>(i)];
    if (b.start < 0 || b.start > b.limit || b.limit > (*operand)->dimension(i) || b.stride < 1) {
      return Status::Error("slice dimension " + std::to_string(i) + " [" + std::to_string(b.start) +
                           ":" + std::to_string(b.limit) + ":" + std::to_string(b.stride) +
                           "] does not fit operand " + ShapeText(**operand));
    }
    dims.push_back(b.limit > b.start ? (b.limit - b.start - 1) / b.stride + 1 : 0);
  }
  return Result((*operand)->element_type(), std::move(dims));
}

// Start indices come as one scalar per dimension, or (older XLA) as one rank-1 array.
Status CheckStartIndices(const Instruction& instruction, int64_t first, int64_t rank) {
  const int64_t count = instruction.operand_count() - first;
  if (count == 1 && rank != 1 && instruction.operand(first)->shape().rank() == 1) {
    const Shape& indices = instruction.operand(first)->shape();
    if (indices.dimension(0) == rank && IsIntegralType(indices.element_type())) {
      return Status::Ok();
    }
  }
  if (count != rank) {
    return Status::Error(std::to_string(count) + " start indices for rank " + std::to_string(rank));
  }
  for (int64_t i = first; i < instruction.operand_count(); ++i) {
    const Shape& index = instruction.operand(i)->shape();
    if (!index.IsScalar() || !IsIntegralType(index.element_type())) {
      return Status::Error("operand " + std::to_string(i) + " shape " + ShapeText(index) +
                           " is not an integer scalar");
    }
  }
  return Status::Ok();
}

Inferred InferDynamicSlice(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  FS_RETURN_IF_ERROR(CheckStartIndices(instruction, 1, (*operand)->rank()));
  auto sizes = RequiredIntList(instruction, "dynamic_slice_sizes");
  if (!sizes.ok()) return sizes.status();
  if (static_cast<int64_t>(sizes->size()) != (*operand)->rank()) {
    return Status::Error("dynamic_slice_sizes=" + ListText(*sizes) + " does not fit operand " +
                         ShapeText(**operand));
  }
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    const int64_t size = (*sizes)[static_cast<size_t>(i)];
    if (size < 0 || size > (*operand)->dimension(i)) {
      return Status::Error("dynamic_slice_sizes=" + ListText(*sizes) + " exceeds operand " +
                           ShapeText(**operand));
    }
  }
  return Result((*operand)->element_type(), *sizes);
}

Inferred InferDynamicUpdateSlice(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto update = ArrayOperand(instruction, 1);
  if (!update.ok()) return update.status();
  FS_RETURN_IF_ERROR(CheckStartIndices(instruction, 2, (*operand)->rank()));
  bool fits = (*update)->rank() == (*operand)->rank() &&
              (*update)->element_type() == (*operand)->element_type();
  for (int64_t i = 0; fits && i < (*operand)->rank(); ++i) {
    fits = (*update)->dimension(i) <= (*operand)->dimension(i);
  }
  if (!fits) {
    return Status::Error("update " + ShapeText(**update) + " does not fit operand " +
                         ShapeText(**operand));
  }
  return Result((*operand)->element_type(), (*operand)->dimensions());
}

Inferred InferConcatenate(const Instruction& instruction) {
  if (instruction.operand_count() == 0) return Status::Error("concatenate has no operands");
  auto first = ArrayOperand(instruction, 0);
  if (!first.ok()) return first.status();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  if (dims->size() != 1) {
    return Status::Error("dimensions=" + ListText(*dims) + " must name one dimension");
  }
  const int64_t axis = dims->front();
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, (*first)->rank()));
  std::vector<int64_t> result = (*first)->dimensions();
  for (int64_t i = 1; i < instruction.operand_count(); ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
    Shape expected((*first)->element_type(), (*operand)->dimensions());
    if ((*operand)->rank() == (*first)->rank()) {
      std::vector<int64_t> same = (*first)->dimensions();
      same[static_cast<size_t>(axis)] = (*operand)->dimension(axis);
      expected.set_dimensions(std::move(same));
    }
    FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, i, expected));
    if ((*operand)->rank() != (*first)->rank()) {
      return Status::Error("operand " + std::to_string(i) + " has rank " +
                           std::to_string((*operand)->rank()) + ", operand 0 rank " +
                           std::to_string((*first)->rank()));
    }
    auto sum = CheckedSum(result[static_cast<size_t>(axis)], (*operand)->dimension(axis));
    if (!sum.ok()) return sum.status();
    result[static_cast<size_t>(axis)] = *sum;
  }
  return Result((*first)->element_type(), std::move(result));
}

// Edge padding plus `interior` elements between each pair; attribute values are arbitrary, so
// overflow is reported rather than left undefined.
StatusOr<int64_t> PaddedSize(int64_t size, const PaddingDimension& pad) {
  int64_t interior = 0;
  int64_t padded = 0;
  if ((size > 0 && __builtin_mul_overflow(size - 1, pad.interior, &interior)) ||
      __builtin_add_overflow(size, interior, &padded) ||
      __builtin_add_overflow(padded, pad.low, &padded) ||
      __builtin_add_overflow(padded, pad.high, &padded)) {
    return Status::Error("padding arithmetic overflows int64");
  }
  return padded;
}

Inferred InferPad(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto value = ArrayOperand(instruction, 1);
  if (!value.ok()) return value.status();
  FS_RETURN_IF_ERROR(ExpectOperandShape(instruction, 1, Shape((*operand)->element_type(), {})));
  auto text = RequiredAttribute(instruction, "padding");
  if (!text.ok()) return text.status();
  auto padding = ParsePadding(*text);
  if (!padding.ok()) return padding.status();
  if (static_cast<int64_t>(padding->size()) != (*operand)->rank()) {
    return Status::Error("padding=" + std::string(*text) + " has " +
                         std::to_string(padding->size()) + " dimensions for operand " +
                         ShapeText(**operand));
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    const PaddingDimension& pad = (*padding)[static_cast<size_t>(i)];
    auto padded = PaddedSize((*operand)->dimension(i), pad);
    if (!padded.ok()) return padded.status();
    if (pad.interior < 0 || *padded < 0) {
      return Status::Error("padding=" + std::string(*text) + " leaves dimension " +
                           std::to_string(i) + " of " + ShapeText(**operand) +
                           " with negative size or interior padding");
    }
    dims.push_back(*padded);
  }
  return Result((*operand)->element_type(), std::move(dims));
}

Inferred InferIota(const Instruction& instruction) {
  auto written = ArrayResult(instruction);
  if (!written.ok()) return written.status();
  auto dim = RequiredInt(instruction, "iota_dimension");
  if (!dim.ok()) return dim.status();
  if (*dim < 0 || *dim >= (*written)->rank()) {
    return Status::Error("iota_dimension=" + std::to_string(*dim) + " out of range for " +
                         ShapeText(**written));
  }
  return Result((*written)->element_type(), (*written)->dimensions());
}

Inferred InferGetDimensionSize(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  if (dims->size() != 1) {
    return Status::Error("dimensions=" + ListText(*dims) + " must name one dimension");
  }
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, (*operand)->rank()));
  return Result(PrimitiveType::kS32, {});
}

Inferred InferSort(const Instruction& instruction) {
  if (instruction.operand_count() == 0) return Status::Error("sort has no operands");
  auto first = ArrayOperand(instruction, 0);
  if (!first.ok()) return first.status();
  auto dims = RequiredIntList(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  if (dims->size() != 1) {
    return Status::Error("dimensions=" + ListText(*dims) + " must name one dimension");
  }
  FS_RETURN_IF_ERROR(CheckDimensions("dimensions", *dims, (*first)->rank()));
  std::vector<Shape> results;
  std::vector<PrimitiveType> comparator_types;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
    if ((*operand)->dimensions() != (*first)->dimensions()) {
      return Status::Error("operand " + std::to_string(i) + " shape " + ShapeText(**operand) +
                           " does not match the dimensions of " + ShapeText(**first));
    }
    results.emplace_back((*operand)->element_type(), (*operand)->dimensions());
    comparator_types.insert(comparator_types.end(), 2, (*operand)->element_type());
  }
  FS_RETURN_IF_ERROR(CheckComparator(instruction, "to_apply", comparator_types));
  if (results.size() == 1) return std::optional<Shape>(results.front());
  return std::optional<Shape>(Shape::Tuple(std::move(results)));
}

Inferred InferTopK(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto k = RequiredInt(instruction, "k");
  if (!k.ok()) return k.status();
  if ((*operand)->rank() == 0 || *k < 0 || *k > (*operand)->dimensions().back()) {
    return Status::Error("k=" + std::to_string(*k) + " does not fit operand " +
                         ShapeText(**operand));
  }
  std::vector<int64_t> dims = (*operand)->dimensions();
  dims.back() = *k;
  return std::optional<Shape>(
      Shape::Tuple({Shape((*operand)->element_type(), dims), Shape(PrimitiveType::kS32, dims)}));
}

}  // namespace

Inferred InferDataMovement(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kBroadcast:
      return InferBroadcast(instruction);
    case Opcode::kReshape:
      return InferReshape(instruction);
    case Opcode::kTranspose:
      return InferTranspose(instruction);
    case Opcode::kReverse:
      return InferReverse(instruction);
    case Opcode::kSlice:
      return InferSlice(instruction);
    case Opcode::kDynamicSlice:
      return InferDynamicSlice(instruction);
    case Opcode::kDynamicUpdateSlice:
      return InferDynamicUpdateSlice(instruction);
    case Opcode::kConcatenate:
      return InferConcatenate(instruction);
    case Opcode::kPad:
      return InferPad(instruction);
    case Opcode::kIota:
      return InferIota(instruction);
    case Opcode::kGetDimensionSize:
      return InferGetDimensionSize(instruction);
    case Opcode::kSort:
      return InferSort(instruction);
    case Opcode::kTopK:
      return InferTopK(instruction);
    default:
      return std::optional<Shape>();
  }
}

}  // namespace fusescope::ir::inference
