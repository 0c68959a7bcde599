// Gather and scatter: index arrays select windows of an operand (XLA's "general" forms,
// including the batching dimensions newer XLA writes).

#include <algorithm>

#include "ir/shape_inference_internal.h"

namespace fusescope::ir::inference {
namespace {

Status CheckSortedDimensions(std::string_view what, const std::vector<int64_t>& dims,
                             int64_t rank) {
  FS_RETURN_IF_ERROR(CheckDimensions(what, dims, rank));
  if (!std::is_sorted(dims.begin(), dims.end())) {
    return Status::Error(std::string(what) + "=" + ListText(dims) + " is not sorted");
  }
  return Status::Ok();
}

// The index array with the index vector dimension made explicit: when index_vector_dim equals
// the rank, each index is a scalar, i.e. a trailing dimension of size 1.
struct Indices {
  std::vector<int64_t> dims;
  int64_t vector_dim = 0;

  int64_t vector_size() const { return dims[static_cast<size_t>(vector_dim)]; }
  // Dimensions other than the index vector one, in order.
  std::vector<int64_t> BatchDims() const {
    std::vector<int64_t> batch;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (static_cast<int64_t>(i) != vector_dim) batch.push_back(dims[i]);
    }
    return batch;
  }
};

StatusOr<Indices> ReadIndices(const Instruction& instruction, int64_t index) {
  auto shape = ArrayOperand(instruction, index);
  if (!shape.ok()) return shape.status();
  if (!IsIntegralType((*shape)->element_type())) {
    return Status::Error("operand " + std::to_string(index) + " shape " + ShapeText(**shape) +
                         " is not an integer index array");
  }
  auto vector_dim = RequiredInt(instruction, "index_vector_dim");
  if (!vector_dim.ok()) return vector_dim.status();
  if (*vector_dim < 0 || *vector_dim > (*shape)->rank()) {
    return Status::Error("index_vector_dim=" + std::to_string(*vector_dim) +
                         " out of range for indices " + ShapeText(**shape));
  }
  Indices indices{(*shape)->dimensions(), *vector_dim};
  if (*vector_dim == (*shape)->rank()) indices.dims.push_back(1);
  return indices;
}

Status CheckIndexMap(std::string_view what, const std::vector<int64_t>& map, const Indices& indices,
                     int64_t operand_rank) {
  if (static_cast<int64_t>(map.size()) != indices.vector_size()) {
    return Status::Error(std::string(what) + "=" + ListText(map) + " has " +
                         std::to_string(map.size()) + " entries for index vectors of size " +
                         std::to_string(indices.vector_size()));
  }
  return CheckDimensions(what, map, operand_rank);
}

// Operand dimensions that remain as window dimensions: neither collapsed/inserted nor batch.
std::vector<int64_t> WindowOperandDims(int64_t rank, const std::vector<int64_t>& dropped_a,
                                       const std::vector<int64_t>& dropped_b) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(dropped_a.begin(), dropped_a.end(), d) == dropped_a.end() &&
        std::find(dropped_b.begin(), dropped_b.end(), d) == dropped_b.end()) {
      dims.push_back(d);
    }
  }
  return dims;
}

struct GatherAttributes {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed;
  std::vector<int64_t> batching;
  std::vector<int64_t> start_index_map;
  std::vector<int64_t> slice_sizes;
};

StatusOr<GatherAttributes> ReadGatherAttributes(const Instruction& instruction) {
  GatherAttributes a;
  std::pair<std::string_view, std::vector<int64_t>*> lists[] = {
      {"offset_dims", &a.offset_dims},
      {"collapsed_slice_dims", &a.collapsed},
      {"operand_batching_dims", &a.batching},
      {"start_index_map", &a.start_index_map},
      {"slice_sizes", &a.slice_sizes}};
  for (auto& [key, target] : lists) {
    const bool required = key == "start_index_map" || key == "slice_sizes";
    auto values = required ? RequiredIntList(instruction, key) : OptionalIntList(instruction, key);
    if (!values.ok()) return values.status();
    *target = std::move(*values);
  }
  return a;
}

Status CheckSliceSizes(const GatherAttributes& a, const Shape& operand) {
  if (static_cast<int64_t>(a.slice_sizes.size()) != operand.rank()) {
    return Status::Error("slice_sizes=" + ListText(a.slice_sizes) + " does not fit operand " +
                         ShapeText(operand));
  }
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const int64_t size = a.slice_sizes[static_cast<size_t>(d)];
    const bool dropped = std::count(a.collapsed.begin(), a.collapsed.end(), d) +
                             std::count(a.batching.begin(), a.batching.end(), d) >
                         0;
    if (size < 0 || size > operand.dimension(d) || (dropped && size > 1)) {
      return Status::Error("slice_sizes=" + ListText(a.slice_sizes) + " does not fit operand " +
                           ShapeText(operand) + " at dimension " + std::to_string(d));
    }
  }
  return Status::Ok();
}

Inferred InferGather(const Instruction& instruction) {
  auto operand = ArrayOperand(instruction, 0);
  if (!operand.ok()) return operand.status();
  auto indices = ReadIndices(instruction, 1);
  if (!indices.ok()) return indices.status();
  auto a = ReadGatherAttributes(instruction);
  if (!a.ok()) return a.status();
  const int64_t rank = (*operand)->rank();
  FS_RETURN_IF_ERROR(CheckSortedDimensions("collapsed_slice_dims", a->collapsed, rank));
  FS_RETURN_IF_ERROR(CheckSortedDimensions("operand_batching_dims", a->batching, rank));
  FS_RETURN_IF_ERROR(CheckIndexMap("start_index_map", a->start_index_map, *indices, rank));
  FS_RETURN_IF_ERROR(CheckSliceSizes(*a, **operand));
  std::vector<int64_t> window = WindowOperandDims(rank, a->collapsed, a->batching);
  if (window.size() != a->offset_dims.size()) {
    return Status::Error("offset_dims=" + ListText(a->offset_dims) + " has " +
                         std::to_string(a->offset_dims.size()) + " entries, but " +
                         std::to_string(window.size()) + " operand dimensions are not collapsed");
  }
  std::vector<int64_t> batch = indices->BatchDims();
  const auto out_rank = static_cast<int64_t>(window.size() + batch.size());
  FS_RETURN_IF_ERROR(CheckSortedDimensions("offset_dims", a->offset_dims, out_rank));
  std::vector<int64_t> dims;
  size_t next_window = 0;
  size_t next_batch = 0;
  for (int64_t d = 0; d < out_rank; ++d) {
    const bool offset = std::binary_search(a->offset_dims.begin(), a->offset_dims.end(), d);
    dims.push_back(offset ? a->slice_sizes[static_cast<size_t>(window[next_window++])]
                          : batch[next_batch++]);
  }
  return std::optional<Shape>(Shape((*operand)->element_type(), std::move(dims)));
}

struct ScatterAttributes {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted;
  std::vector<int64_t> batching;
  std::vector<int64_t> to_operand;
};

StatusOr<ScatterAttributes> ReadScatterAttributes(const Instruction& instruction) {
  ScatterAttributes a;
  std::pair<std::string_view, std::vector<int64_t>*> lists[] = {
      {"update_window_dims", &a.update_window_dims},
      {"inserted_window_dims", &a.inserted},
      {"input_batching_dims", &a.batching},
      {"scatter_dims_to_operand_dims", &a.to_operand}};
  for (auto& [key, target] : lists) {
    auto values = key == "scatter_dims_to_operand_dims" ? RequiredIntList(instruction, key)
                                                        : OptionalIntList(instruction, key);
    if (!values.ok()) return values.status();
    *target = std::move(*values);
  }
  return a;
}

// Each update array: window dimensions fit the operand's window, scatter dimensions equal
// the index batch dimensions.
Status CheckUpdates(const Instruction& instruction, int64_t index, const Shape& operand,
                    const ScatterAttributes& a, const Indices& indices) {
  const Shape& updates = instruction.operand(index)->shape();
  std::vector<int64_t> window = WindowOperandDims(operand.rank(), a.inserted, a.batching);
  std::vector<int64_t> batch = indices.BatchDims();
  const auto rank = static_cast<int64_t>(a.update_window_dims.size() + batch.size());
  bool fits = updates.rank() == rank && updates.element_type() == operand.element_type();
  size_t next_window = 0;
  size_t next_batch = 0;
  for (int64_t d = 0; fits && d < rank; ++d) {
    const bool is_window =
        std::binary_search(a.update_window_dims.begin(), a.update_window_dims.end(), d);
    fits = is_window ? updates.dimension(d) <= operand.dimension(window[next_window++])
                     : updates.dimension(d) == batch[next_batch++];
  }
  if (fits) return Status::Ok();
  return Status::Error(
      "operand " + std::to_string(index) + " updates " + ShapeText(updates) +
      " do not fit operand " + ShapeText(operand) + " and indices " +
      ShapeText(instruction.operand((instruction.operand_count() - 1) / 2)->shape()));
}

Inferred InferScatter(const Instruction& instruction) {
  const int64_t count = instruction.operand_count();
  if (count < 3 || count % 2 == 0) {
    return Status::Error("scatter takes N operands, indices and N updates, has " +
                         std::to_string(count) + " operands");
  }
  const int64_t n = (count - 1) / 2;
  auto first = ArrayOperand(instruction, 0);
  if (!first.ok()) return first.status();
  auto indices = ReadIndices(instruction, n);
  if (!indices.ok()) return indices.status();
  auto a = ReadScatterAttributes(instruction);
  if (!a.ok()) return a.status();
  const int64_t rank = (*first)->rank();
  FS_RETURN_IF_ERROR(CheckSortedDimensions("inserted_window_dims", a->inserted, rank));
  FS_RETURN_IF_ERROR(CheckSortedDimensions("input_batching_dims", a->batching, rank));
  FS_RETURN_IF_ERROR(CheckIndexMap("scatter_dims_to_operand_dims", a->to_operand, *indices, rank));
  const size_t window = WindowOperandDims(rank, a->inserted, a->batching).size();
  if (a->update_window_dims.size() != window) {
    return Status::Error("update_window_dims=" + ListText(a->update_window_dims) + " has " +
                         std::to_string(a->update_window_dims.size()) + " entries, but " +
                         std::to_string(window) + " operand dimensions are not inserted");
  }
  const auto update_rank = static_cast<int64_t>(window + indices->BatchDims().size());
  FS_RETURN_IF_ERROR(
      CheckSortedDimensions("update_window_dims", a->update_window_dims, update_rank));
  std::vector<Shape> results;
  std::vector<PrimitiveType> types;
  for (int64_t i = 0; i < n; ++i) {
    auto operand = ArrayOperand(instruction, i);
    if (!operand.ok()) return operand.status();
    if ((*operand)->dimensions() != (*first)->dimensions()) {
      return Status::Error("operand " + std::to_string(i) + " shape " + ShapeText(**operand) +
                           " does not match the dimensions of " + ShapeText(**first));
    }
    FS_RETURN_IF_ERROR(CheckUpdates(instruction, n + 1 + i, **operand, *a, *indices));
    results.emplace_back((*operand)->element_type(), (*operand)->dimensions());
    types.push_back((*operand)->element_type());
  }
  auto reduced = CheckReducer(instruction, "to_apply", types, types);
  if (!reduced.ok()) return reduced.status();
  if (n == 1) return std::optional<Shape>(results.front());
  return std::optional<Shape>(Shape::Tuple(std::move(results)));
}

}  // namespace

Inferred InferGatherScatter(const Instruction& instruction) {
  if (instruction.opcode() == Opcode::kGather) return InferGather(instruction);
  return InferScatter(instruction);
}

}  // namespace fusescope::ir::inference
