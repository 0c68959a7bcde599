// gather and scatter with XLA's full dimension numbers (operand batching dimensions
// included), and the batch-norm ops. Gather clamps each slice start into the operand; scatter
// skips an update window that would not lie wholly inside the operand, as XLA does.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "ir/computation.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime::internal {
namespace {

std::vector<int64_t> List(const ir::Instruction& instruction, std::string_view key) {
  return instruction.IntListAttribute(key).value_or(std::vector<int64_t>{});
}

bool Has(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Reads the index vector for batch position `batch` (indices dims without index_vector_dim).
struct IndexReader {
  const Literal& indices;
  int64_t index_vector_dim;
  std::vector<int64_t> strides;

  IndexReader(const Literal& literal, int64_t vector_dim)
      : indices(literal),
        index_vector_dim(vector_dim),
        strides(Strides(literal.shape().dimensions())) {}

  // Element `k` of the index vector at `batch`.
  int64_t Component(const std::vector<int64_t>& batch, int64_t k) const {
    int64_t linear = 0;
    size_t b = 0;
    for (int64_t d = 0; d < indices.shape().rank(); ++d) {
      const int64_t i = d == index_vector_dim ? k : batch[b++];
      linear += i * strides[static_cast<size_t>(d)];
    }
    return indices.GetInt(linear);
  }
  // The batch position's coordinate along indices dimension `dim` (not index_vector_dim).
  int64_t BatchCoordinate(const std::vector<int64_t>& batch, int64_t dim) const {
    return batch[static_cast<size_t>(dim < index_vector_dim ? dim : dim - 1)];
  }
};

}  // namespace

StatusOr<Literal> EvaluateGather(const ir::Instruction& instruction, const Operands& operands) {
  const Literal& operand = *operands[0];
  const Literal& indices = *operands[1];
  const std::vector<int64_t> offset_dims = List(instruction, "offset_dims");
  const std::vector<int64_t> collapsed = List(instruction, "collapsed_slice_dims");
  const std::vector<int64_t> start_index_map = List(instruction, "start_index_map");
  const std::vector<int64_t> operand_batching = List(instruction, "operand_batching_dims");
  const std::vector<int64_t> indices_batching = List(instruction, "start_indices_batching_dims");
  const std::vector<int64_t> slice_sizes = List(instruction, "slice_sizes");
  const std::optional<int64_t> vector_dim = instruction.IntAttribute("index_vector_dim");
  const std::vector<int64_t>& in_dims = operand.shape().dimensions();
  if (!vector_dim || slice_sizes.size() != in_dims.size() ||
      operand_batching.size() != indices_batching.size()) {
    return InstructionError(instruction, "gather dimension numbers do not fit the operand");
  }
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  const IndexReader reader(indices, *vector_dim);
  // Operand dimensions that the offset dims of the output walk, in order.
  std::vector<int64_t> window_operand_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(in_dims.size()); ++d) {
    if (!Has(collapsed, d) && !Has(operand_batching, d)) window_operand_dims.push_back(d);
  }
  if (window_operand_dims.size() != offset_dims.size()) {
    return InstructionError(instruction, "gather offset_dims do not fit the operand");
  }
  const std::vector<int64_t> strides = Strides(in_dims);
  const std::vector<int64_t>& out_dims = result.shape().dimensions();
  if (result.element_count() == 0) return result;
  std::vector<int64_t> out(out_dims.size(), 0);
  std::vector<int64_t> batch;
  int64_t linear = 0;
  do {
    batch.clear();
    for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
      if (!Has(offset_dims, d)) batch.push_back(out[static_cast<size_t>(d)]);
    }
    std::vector<int64_t> start(in_dims.size(), 0);
    for (size_t k = 0; k < start_index_map.size(); ++k) {
      const auto d = static_cast<size_t>(start_index_map[k]);
      start[d] = std::clamp<int64_t>(reader.Component(batch, static_cast<int64_t>(k)), 0,
                                     in_dims[d] - slice_sizes[d]);
    }
    for (size_t j = 0; j < operand_batching.size(); ++j) {
      start[static_cast<size_t>(operand_batching[j])] =
          reader.BatchCoordinate(batch, indices_batching[j]);
    }
    int64_t source = 0;
    for (size_t d = 0; d < in_dims.size(); ++d) source += start[d] * strides[d];
    for (size_t k = 0; k < offset_dims.size(); ++k) {
      source += out[static_cast<size_t>(offset_dims[k])] *
                strides[static_cast<size_t>(window_operand_dims[k])];
    }
    CopyElement(operand, source, result, linear++);
  } while (NextIndex(out, out_dims));
  return result;
}

StatusOr<Literal> EvaluateScatter(const ir::Instruction& instruction, const Operands& operands,
                                  const CallComputation& call) {
  std::vector<ir::Computation*> called = instruction.CalledComputations("to_apply");
  if (called.size() != 1 || operands.size() < 3 || operands.size() % 2 != 1) {
    return InstructionError(instruction, "scatter needs operands, indices, updates and to_apply=");
  }
  const size_t n = (operands.size() - 1) / 2;
  const Literal& indices = *operands[n];
  const std::vector<int64_t> window_dims = List(instruction, "update_window_dims");
  const std::vector<int64_t> inserted = List(instruction, "inserted_window_dims");
  const std::vector<int64_t> to_operand = List(instruction, "scatter_dims_to_operand_dims");
  const std::vector<int64_t> input_batching = List(instruction, "input_batching_dims");
  const std::vector<int64_t> indices_batching = List(instruction, "scatter_indices_batching_dims");
  const std::optional<int64_t> vector_dim = instruction.IntAttribute("index_vector_dim");
  const std::vector<int64_t>& in_dims = operands[0]->shape().dimensions();
  if (!vector_dim || input_batching.size() != indices_batching.size()) {
    return InstructionError(instruction, "scatter dimension numbers do not fit the operand");
  }
  std::vector<Literal> results;
  for (size_t i = 0; i < n; ++i) {
    StatusOr<Literal> copy = Literal::Create(operands[i]->shape());
    if (!copy.ok()) return InstructionError(instruction, copy.message());
    std::copy(operands[i]->data(), operands[i]->data() + operands[i]->byte_size(), copy->data());
    results.push_back(std::move(copy).value());
  }
  std::vector<int64_t> window_operand_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(in_dims.size()); ++d) {
    if (!Has(inserted, d) && !Has(input_batching, d)) window_operand_dims.push_back(d);
  }
  if (window_operand_dims.size() != window_dims.size()) {
    return InstructionError(instruction, "scatter update_window_dims do not fit the operand");
  }
  const Literal& updates = *operands[n + 1];
  const std::vector<int64_t>& update_dims = updates.shape().dimensions();
  // The window's extent along each operand dimension (1 where inserted or batching).
  std::vector<int64_t> window_size(in_dims.size(), 1);
  for (size_t k = 0; k < window_dims.size(); ++k) {
    window_size[static_cast<size_t>(window_operand_dims[k])] =
        update_dims[static_cast<size_t>(window_dims[k])];
  }
  const IndexReader reader(indices, *vector_dim);
  const std::vector<int64_t> strides = Strides(in_dims);
  const ScalarBinaryOp fast = n == 1 ? RecogniseScalarBinaryOp(*called[0]) : ScalarBinaryOp{};
  if (updates.element_count() == 0) {
    if (n == 1) return std::move(results[0]);
    return Literal::Tuple(std::move(results));
  }
  std::vector<int64_t> u(update_dims.size(), 0);
  std::vector<int64_t> batch;
  int64_t update_linear = 0;
  do {
    batch.clear();
    for (int64_t d = 0; d < static_cast<int64_t>(u.size()); ++d) {
      if (!Has(window_dims, d)) batch.push_back(u[static_cast<size_t>(d)]);
    }
    std::vector<int64_t> start(in_dims.size(), 0);
    for (size_t k = 0; k < to_operand.size(); ++k) {
      start[static_cast<size_t>(to_operand[k])] = reader.Component(batch, static_cast<int64_t>(k));
    }
    for (size_t j = 0; j < input_batching.size(); ++j) {
      start[static_cast<size_t>(input_batching[j])] =
          reader.BatchCoordinate(batch, indices_batching[j]);
    }
    bool inside = true;
    for (size_t d = 0; d < in_dims.size(); ++d) {
      if (start[d] < 0 || start[d] > in_dims[d] - window_size[d]) inside = false;
    }
    if (inside) {
      int64_t target = 0;
      for (size_t d = 0; d < in_dims.size(); ++d) target += start[d] * strides[d];
      for (size_t k = 0; k < window_dims.size(); ++k) {
        target += u[static_cast<size_t>(window_dims[k])] *
                  strides[static_cast<size_t>(window_operand_dims[k])];
      }
      if (fast.valid()) {
        Literal& out = results[0];
        if (out.is_floating()) {
          out.SetDouble(target, ApplyScalarFloat(fast.opcode, out.GetDouble(target),
                                                 updates.GetDouble(update_linear)));
        } else {
          const bool is_unsigned =
              ir::IsIntegralType(out.type()) && !ir::IsSignedIntegralType(out.type());
          out.SetInt(target, ApplyScalarInt(fast.opcode, out.GetInt(target),
                                            updates.GetInt(update_linear), is_unsigned));
        }
      } else {
        std::vector<Literal> args;
        for (size_t i = 0; i < n; ++i) {
          Literal scalar = Literal::Create(ir::Shape(results[i].type(), {})).value();
          CopyElement(results[i], target, scalar, 0);
          args.push_back(std::move(scalar));
        }
        for (size_t i = 0; i < n; ++i) {
          const Literal& update = *operands[n + 1 + i];
          Literal scalar = Literal::Create(ir::Shape(update.type(), {})).value();
          CopyElement(update, update_linear, scalar, 0);
          args.push_back(std::move(scalar));
        }
        StatusOr<Literal> value = call(*called[0], std::move(args));
        if (!value.ok()) return value.status();
        if (n == 1 && !value->is_tuple()) {
          CopyElement(*value, 0, results[0], target);
        } else if (value->is_tuple() && value->elements().size() == n) {
          for (size_t i = 0; i < n; ++i) CopyElement(value->elements()[i], 0, results[i], target);
        } else {
          return InstructionError(instruction,
                                  "scatter computation returns the wrong number of values");
        }
      }
    }
    ++update_linear;
  } while (NextIndex(u, update_dims));
  if (n == 1 && !instruction.shape().IsTuple()) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

StatusOr<Literal> EvaluateBatchNorm(const ir::Instruction& instruction, const Operands& operands) {
  const std::optional<int64_t> feature = instruction.IntAttribute("feature_index");
  const std::string epsilon_text(instruction.attribute("epsilon").value_or("0"));
  const double epsilon = std::strtod(epsilon_text.c_str(), nullptr);
  const Literal& x = *operands[0];
  if (!feature || *feature < 0 || *feature >= x.shape().rank()) {
    return InstructionError(instruction, "batch norm needs a valid feature_index=");
  }
  const std::vector<int64_t>& dims = x.shape().dimensions();
  const int64_t features = dims[static_cast<size_t>(*feature)];
  const int64_t inner = Strides(dims)[static_cast<size_t>(*feature)];
  const int64_t per_feature = features == 0 ? 0 : x.element_count() / features;
  auto feature_of = [&](int64_t i) { return (i / inner) % features; };
  StatusOr<Literal> created = Literal::Create(x.shape());
  if (!created.ok()) return InstructionError(instruction, created.message());
  Literal out = std::move(created).value();
  std::vector<double> mean(static_cast<size_t>(features), 0.0);
  std::vector<double> variance(static_cast<size_t>(features), 0.0);
  const ir::Opcode opcode = instruction.opcode();
  if (opcode == ir::Opcode::kBatchNormTraining) {
    for (int64_t i = 0; i < x.element_count(); ++i)
      mean[static_cast<size_t>(feature_of(i))] += x.GetDouble(i);
    for (double& m : mean) m /= static_cast<double>(std::max<int64_t>(per_feature, 1));
    for (int64_t i = 0; i < x.element_count(); ++i) {
      const double d = x.GetDouble(i) - mean[static_cast<size_t>(feature_of(i))];
      variance[static_cast<size_t>(feature_of(i))] += d * d;
    }
    for (double& v : variance) v /= static_cast<double>(std::max<int64_t>(per_feature, 1));
  } else {
    const size_t mean_operand = opcode == ir::Opcode::kBatchNormInference ? 3 : 2;
    for (int64_t f = 0; f < features; ++f) {
      mean[static_cast<size_t>(f)] = operands[mean_operand]->GetDouble(f);
      variance[static_cast<size_t>(f)] = operands[mean_operand + 1]->GetDouble(f);
    }
  }
  const Literal& scale = *operands[1];
  auto vector_of = [&](const std::vector<double>& values) {
    Literal literal = Literal::Create(ir::Shape(x.type(), {features})).value();
    for (int64_t f = 0; f < features; ++f) literal.SetDouble(f, values[static_cast<size_t>(f)]);
    return literal;
  };
  if (opcode != ir::Opcode::kBatchNormGrad) {
    const Literal& offset = *operands[2];
    for (int64_t i = 0; i < x.element_count(); ++i) {
      const auto f = static_cast<size_t>(feature_of(i));
      out.SetDouble(i, scale.GetDouble(feature_of(i)) * (x.GetDouble(i) - mean[f]) /
                               std::sqrt(variance[f] + epsilon) +
                           offset.GetDouble(feature_of(i)));
    }
    if (opcode == ir::Opcode::kBatchNormInference) return out;
    std::vector<Literal> parts;
    parts.push_back(std::move(out));
    parts.push_back(vector_of(mean));
    parts.push_back(vector_of(variance));
    return Literal::Tuple(std::move(parts));
  }
  const Literal& grad = *operands[4];
  std::vector<double> sum_grad(static_cast<size_t>(features), 0.0);
  std::vector<double> sum_grad_centered(static_cast<size_t>(features), 0.0);
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const auto f = static_cast<size_t>(feature_of(i));
    sum_grad[f] += grad.GetDouble(i);
    sum_grad_centered[f] += grad.GetDouble(i) * (x.GetDouble(i) - mean[f]);
  }
  const double count = static_cast<double>(std::max<int64_t>(per_feature, 1));
  std::vector<double> grad_scale(static_cast<size_t>(features));
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const auto f = static_cast<size_t>(feature_of(i));
    const double inv_std = 1.0 / std::sqrt(variance[f] + epsilon);
    const double centered = x.GetDouble(i) - mean[f];
    out.SetDouble(i, scale.GetDouble(feature_of(i)) * inv_std *
                         (grad.GetDouble(i) - sum_grad[f] / count -
                          centered * sum_grad_centered[f] / count * inv_std * inv_std));
  }
  for (size_t f = 0; f < grad_scale.size(); ++f)
    grad_scale[f] = sum_grad_centered[f] / std::sqrt(variance[f] + epsilon);
  std::vector<Literal> parts;
  parts.push_back(std::move(out));
  parts.push_back(vector_of(grad_scale));
  parts.push_back(vector_of(sum_grad));
  return Literal::Tuple(std::move(parts));
}

}  // namespace fusescope::runtime::internal
