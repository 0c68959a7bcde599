// Ops that move elements without computing on them. Each maps an output index to the source
// element it comes from; XLA clamps dynamic-slice and dynamic-update-slice starts so that the
// slice stays inside the operand.

#include <cstring>

#include "ir/attribute_values.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime::internal {
namespace {

using ir::Opcode;

// Fills `result` element by element: `source(index)` gives the linear index into `operand`,
// or -1 for `fill` (element 0 of it).
template <typename SourceFn>
Literal MapIndices(Literal result, const Literal& operand, const Literal* fill, SourceFn source) {
  const std::vector<int64_t>& dims = result.shape().dimensions();
  if (result.element_count() == 0) return result;
  std::vector<int64_t> index(dims.size(), 0);
  int64_t linear = 0;
  do {
    const int64_t from = source(index);
    if (from >= 0) {
      CopyElement(operand, from, result, linear);
    } else {
      CopyElement(*fill, 0, result, linear);
    }
    ++linear;
  } while (NextIndex(index, dims));
  return result;
}

int64_t Linear(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t linear = 0;
  for (size_t i = 0; i < index.size(); ++i) linear += index[i] * strides[i];
  return linear;
}

// Physical position of each logical element under `shape`'s layout (row-major without one).
std::vector<int64_t> PhysicalPositions(const ir::Shape& shape) {
  const std::vector<int64_t>& dims = shape.dimensions();
  std::vector<int64_t> physical_strides(dims.size(), 0);
  std::vector<int64_t> minor_to_major;
  if (shape.layout() && shape.layout()->minor_to_major.size() == dims.size()) {
    minor_to_major = shape.layout()->minor_to_major;
  } else {
    for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d)
      minor_to_major.push_back(d);
  }
  int64_t stride = 1;
  for (int64_t d : minor_to_major) {
    physical_strides[static_cast<size_t>(d)] = stride;
    stride *= dims[static_cast<size_t>(d)];
  }
  std::vector<int64_t> positions;
  positions.reserve(static_cast<size_t>(stride));
  if (stride == 0) return positions;
  std::vector<int64_t> index(dims.size(), 0);
  do positions.push_back(Linear(index, physical_strides));
  while (NextIndex(index, dims));
  return positions;
}

StatusOr<Literal> Bitcast(const ir::Instruction& instruction, const Literal& operand,
                          Literal result) {
  if (operand.byte_size() != result.byte_size()) {
    return InstructionError(instruction, "bitcast changes the byte size");
  }
  const ir::Shape& from = instruction.operand(0)->shape();
  if (from.IsRowMajor() && instruction.shape().IsRowMajor()) {
    std::memcpy(result.data(), operand.data(), result.byte_size());
    return result;
  }
  // Same bytes in memory: logical -> physical under the operand's layout, then physical ->
  // logical under the result's.
  const std::vector<int64_t> source_positions = PhysicalPositions(from);
  std::vector<int64_t> by_physical(source_positions.size());
  for (size_t i = 0; i < source_positions.size(); ++i) {
    by_physical[static_cast<size_t>(source_positions[i])] = static_cast<int64_t>(i);
  }
  const std::vector<int64_t> target_positions = PhysicalPositions(instruction.shape());
  for (size_t i = 0; i < target_positions.size(); ++i) {
    CopyElement(operand, by_physical[static_cast<size_t>(target_positions[i])], result,
                static_cast<int64_t>(i));
  }
  return result;
}

StatusOr<std::vector<int64_t>> DimensionsAttribute(const ir::Instruction& instruction,
                                                   std::string_view key) {
  std::optional<std::vector<int64_t>> dims = instruction.IntListAttribute(key);
  if (!dims) return InstructionError(instruction, "missing " + std::string(key) + "=");
  return *dims;
}

// Clamped start indices from scalar operands [first, first + rank).
std::vector<int64_t> ClampedStarts(const Operands& operands, size_t first,
                                   const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& sizes) {
  std::vector<int64_t> starts(dims.size(), 0);
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t start = operands[first + d]->GetInt(0);
    starts[d] = std::clamp<int64_t>(start, 0, dims[d] - sizes[d]);
  }
  return starts;
}

StatusOr<Literal> Pad(const ir::Instruction& instruction, const Operands& operands,
                      Literal result) {
  auto padding = ir::ParsePadding(instruction.attribute("padding").value_or(""));
  const Literal& operand = *operands[0];
  const std::vector<int64_t>& in_dims = operand.shape().dimensions();
  if (!padding.ok() || padding->size() != in_dims.size()) {
    return InstructionError(instruction, "pad needs padding= with one entry per dimension");
  }
  const std::vector<int64_t> strides = Strides(in_dims);
  return MapIndices(std::move(result), operand, operands[1], [&](const std::vector<int64_t>& out) {
    int64_t linear = 0;
    for (size_t d = 0; d < out.size(); ++d) {
      const ir::PaddingDimension& p = (*padding)[d];
      const int64_t shifted = out[d] - p.low;
      if (shifted < 0 || shifted % (p.interior + 1) != 0) return int64_t{-1};
      const int64_t i = shifted / (p.interior + 1);
      if (i >= in_dims[d]) return int64_t{-1};
      linear += i * strides[d];
    }
    return linear;
  });
}

StatusOr<Literal> Concatenate(const ir::Instruction& instruction, const Operands& operands,
                              Literal result) {
  auto dims = DimensionsAttribute(instruction, "dimensions");
  if (!dims.ok()) return dims.status();
  if (dims->size() != 1) return InstructionError(instruction, "concatenate needs one dimension");
  const auto axis = static_cast<size_t>((*dims)[0]);
  if (axis >= result.shape().dimensions().size())
    return InstructionError(instruction, "bad dimension");
  int64_t total = 0;
  for (const Literal* operand : operands) {
    if (operand->shape().rank() != result.shape().rank() || operand->type() != result.type()) {
      return InstructionError(instruction, "concatenate operands do not match the result");
    }
    for (size_t d = 0; d < result.shape().dimensions().size(); ++d) {
      if (d != axis && operand->shape().dimensions()[d] != result.shape().dimensions()[d]) {
        return InstructionError(instruction, "concatenate operands do not match the result");
      }
    }
    total += operand->shape().dimensions()[axis];
  }
  if (total != result.shape().dimensions()[axis]) {
    return InstructionError(instruction, "concatenate operands do not add up to the result");
  }
  // Outer blocks: each operand contributes a contiguous run per outer index.
  int64_t outer = 1;
  for (size_t d = 0; d < axis; ++d) outer *= result.shape().dimension(static_cast<int64_t>(d));
  const int element_bytes = ElementByteSize(result.type());
  uint8_t* out = result.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Literal* operand : operands) {
      const int64_t run = outer == 0 ? 0 : operand->element_count() / outer;
      const size_t bytes = static_cast<size_t>(run * element_bytes);
      std::memcpy(out, operand->data() + static_cast<size_t>(o) * bytes, bytes);
      out += bytes;
    }
  }
  return result;
}

}  // namespace

bool IsDataMovementKind(Opcode opcode) {
  switch (opcode) {
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kCopy:
    case Opcode::kTranspose:
    case Opcode::kSlice:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kConcatenate:
    case Opcode::kPad:
    case Opcode::kReverse:
    case Opcode::kIota:
      return true;
    default:
      return false;
  }
}

StatusOr<Literal> EvaluateDataMovement(const ir::Instruction& instruction,
                                       const Operands& operands) {
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  for (const Literal* operand : operands) {
    if (operand->is_tuple()) return InstructionError(instruction, "an operand is a tuple");
  }
  const std::vector<int64_t>& out_dims = result.shape().dimensions();
  switch (instruction.opcode()) {
    case Opcode::kReshape:
    case Opcode::kCopy:
      if (operands[0]->byte_size() != result.byte_size()) {
        return InstructionError(instruction, "operand and result sizes differ");
      }
      std::memcpy(result.data(), operands[0]->data(), result.byte_size());
      return result;
    case Opcode::kBitcast:
      return Bitcast(instruction, *operands[0], std::move(result));
    case Opcode::kIota: {
      const std::optional<int64_t> dim = instruction.IntAttribute("iota_dimension");
      if (!dim || *dim < 0 || *dim >= static_cast<int64_t>(out_dims.size())) {
        return InstructionError(instruction, "iota needs a valid iota_dimension=");
      }
      if (result.element_count() == 0) return result;
      std::vector<int64_t> index(out_dims.size(), 0);
      int64_t linear = 0;
      do {
        const int64_t value = index[static_cast<size_t>(*dim)];
        if (result.is_floating())
          result.SetDouble(linear, static_cast<double>(value));
        else
          result.SetInt(linear, value);
        ++linear;
      } while (NextIndex(index, out_dims));
      return result;
    }
    case Opcode::kPad:
      return Pad(instruction, operands, std::move(result));
    case Opcode::kConcatenate:
      return Concatenate(instruction, operands, std::move(result));
    default:
      break;
  }
  const Literal& operand = *operands[0];
  const std::vector<int64_t>& in_dims = operand.shape().dimensions();
  const std::vector<int64_t> strides = Strides(in_dims);
  switch (instruction.opcode()) {
    case Opcode::kBroadcast: {
      auto dims = DimensionsAttribute(instruction, "dimensions");
      if (!dims.ok()) return dims.status();
      if (dims->size() != in_dims.size())
        return InstructionError(instruction, "broadcast dimensions do not match the operand");
      for (size_t i = 0; i < dims->size(); ++i) {
        if ((*dims)[i] < 0 || (*dims)[i] >= static_cast<int64_t>(out_dims.size()) ||
            out_dims[static_cast<size_t>((*dims)[i])] != in_dims[i]) {
          return InstructionError(instruction, "broadcast dimensions do not match the operand");
        }
      }
      return MapIndices(std::move(result), operand, nullptr, [&](const std::vector<int64_t>& out) {
        int64_t linear = 0;
        for (size_t i = 0; i < dims->size(); ++i)
          linear += out[static_cast<size_t>((*dims)[i])] * strides[i];
        return linear;
      });
    }
    case Opcode::kTranspose: {
      auto perm = DimensionsAttribute(instruction, "dimensions");
      if (!perm.ok()) return perm.status();
      std::vector<bool> seen(in_dims.size(), false);
      bool valid = perm->size() == in_dims.size() && out_dims.size() == in_dims.size();
      for (size_t i = 0; valid && i < perm->size(); ++i) {
        const int64_t d = (*perm)[i];
        valid = d >= 0 && d < static_cast<int64_t>(in_dims.size()) &&
                !seen[static_cast<size_t>(d)] && out_dims[i] == in_dims[static_cast<size_t>(d)];
        if (valid) seen[static_cast<size_t>(d)] = true;
      }
      if (!valid)
        return InstructionError(instruction, "transpose dimensions do not match the operand");
      return MapIndices(std::move(result), operand, nullptr, [&](const std::vector<int64_t>& out) {
        int64_t linear = 0;
        for (size_t i = 0; i < out.size(); ++i)
          linear += out[i] * strides[static_cast<size_t>((*perm)[i])];
        return linear;
      });
    }
    case Opcode::kReverse: {
      auto dims = DimensionsAttribute(instruction, "dimensions");
      if (!dims.ok()) return dims.status();
      std::vector<bool> reversed(in_dims.size(), false);
      for (int64_t d : *dims) {
        if (d < 0 || d >= static_cast<int64_t>(in_dims.size()))
          return InstructionError(instruction, "bad dimension");
        reversed[static_cast<size_t>(d)] = true;
      }
      return MapIndices(std::move(result), operand, nullptr, [&](const std::vector<int64_t>& out) {
        int64_t linear = 0;
        for (size_t i = 0; i < out.size(); ++i)
          linear += (reversed[i] ? in_dims[i] - 1 - out[i] : out[i]) * strides[i];
        return linear;
      });
    }
    case Opcode::kSlice: {
      auto bounds = ir::ParseSliceBounds(instruction.attribute("slice").value_or(""));
      if (!bounds.ok() || bounds->size() != in_dims.size() || out_dims.size() != in_dims.size()) {
        return InstructionError(instruction, "slice needs slice= with one entry per dimension");
      }
      for (size_t i = 0; i < in_dims.size(); ++i) {
        const ir::SliceBounds& b = (*bounds)[i];
        if (b.start < 0 || b.stride < 1 ||
            (out_dims[i] > 0 && b.start + (out_dims[i] - 1) * b.stride >= in_dims[i])) {
          return InstructionError(instruction, "slice reaches outside the operand");
        }
      }
      return MapIndices(std::move(result), operand, nullptr, [&](const std::vector<int64_t>& out) {
        int64_t linear = 0;
        for (size_t i = 0; i < out.size(); ++i)
          linear += ((*bounds)[i].start + out[i] * (*bounds)[i].stride) * strides[i];
        return linear;
      });
    }
    case Opcode::kDynamicSlice: {
      if (operands.size() != in_dims.size() + 1 || out_dims.size() != in_dims.size()) {
        return InstructionError(instruction,
                                "dynamic-slice needs one scalar start index per dimension");
      }
      for (size_t i = 0; i < in_dims.size(); ++i) {
        if (out_dims[i] > in_dims[i] || operands[i + 1]->element_count() != 1) {
          return InstructionError(instruction, "dynamic-slice is larger than its operand");
        }
      }
      const std::vector<int64_t> starts = ClampedStarts(operands, 1, in_dims, out_dims);
      return MapIndices(std::move(result), operand, nullptr, [&](const std::vector<int64_t>& out) {
        int64_t linear = 0;
        for (size_t i = 0; i < out.size(); ++i) linear += (starts[i] + out[i]) * strides[i];
        return linear;
      });
    }
    case Opcode::kDynamicUpdateSlice: {
      const Literal& update = *operands[1];
      const std::vector<int64_t>& update_dims = update.shape().dimensions();
      if (operands.size() != in_dims.size() + 2 || update_dims.size() != in_dims.size()) {
        return InstructionError(instruction,
                                "dynamic-update-slice needs one scalar start index per dimension");
      }
      for (size_t i = 0; i < in_dims.size(); ++i) {
        if (update_dims[i] > in_dims[i] || operands[i + 2]->element_count() != 1 ||
            update.type() != operand.type()) {
          return InstructionError(instruction,
                                  "dynamic-update-slice update does not fit its operand");
        }
      }
      if (result.byte_size() != operand.byte_size())
        return InstructionError(instruction, "result and operand sizes differ");
      std::memcpy(result.data(), operand.data(), result.byte_size());
      const std::vector<int64_t> starts = ClampedStarts(operands, 2, in_dims, update_dims);
      if (update.element_count() == 0) return result;
      std::vector<int64_t> index(update_dims.size(), 0);
      int64_t linear = 0;
      do {
        int64_t target = 0;
        for (size_t i = 0; i < index.size(); ++i) target += (starts[i] + index[i]) * strides[i];
        CopyElement(update, linear++, result, target);
      } while (NextIndex(index, update_dims));
      return result;
    }
    default:
      return InstructionError(instruction, "not a data movement op");
  }
}

}  // namespace fusescope::runtime::internal
