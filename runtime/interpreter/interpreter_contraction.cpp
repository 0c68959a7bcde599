// dot and convolution. Products are summed in double (int64 for integer types) and rounded
// to the result type once, so f32 results are at least as accurate as XLA's f32 sums.

#include "ir/attribute_values.h"
#include "runtime/interpreter/interpreter_ops.h"

namespace fusescope::runtime::internal {
namespace {

std::vector<int64_t> ListAttribute(const ir::Instruction& instruction, std::string_view key) {
  return instruction.IntListAttribute(key).value_or(std::vector<int64_t>{});
}

// The operand's elements reordered so that its dimensions come in `order` (a permutation).
template <typename T>
std::vector<T> Permuted(const Literal& operand, const std::vector<int64_t>& order) {
  const std::vector<int64_t>& dims = operand.shape().dimensions();
  const std::vector<int64_t> strides = Strides(dims);
  std::vector<int64_t> new_dims;
  for (int64_t d : order) new_dims.push_back(dims[static_cast<size_t>(d)]);
  std::vector<T> out;
  out.reserve(static_cast<size_t>(operand.element_count()));
  if (operand.element_count() == 0) return out;
  std::vector<int64_t> index(new_dims.size(), 0);
  do {
    int64_t linear = 0;
    for (size_t i = 0; i < index.size(); ++i)
      linear += index[i] * strides[static_cast<size_t>(order[i])];
    if constexpr (std::is_same_v<T, double>) {
      out.push_back(operand.GetDouble(linear));
    } else {
      out.push_back(operand.GetInt(linear));
    }
  } while (NextIndex(index, new_dims));
  return out;
}

bool Contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// [batch..., free..., contracting...] for lhs; [batch..., contracting..., free...] for rhs.
std::vector<int64_t> Order(int64_t rank, const std::vector<int64_t>& batch,
                           const std::vector<int64_t>& contracting, bool contracting_last,
                           int64_t& free_size, const std::vector<int64_t>& dims) {
  std::vector<int64_t> free;
  free_size = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(batch, d) && !Contains(contracting, d)) {
      free.push_back(d);
      free_size *= dims[static_cast<size_t>(d)];
    }
  }
  std::vector<int64_t> order = batch;
  const std::vector<int64_t>& middle = contracting_last ? free : contracting;
  const std::vector<int64_t>& last = contracting_last ? contracting : free;
  order.insert(order.end(), middle.begin(), middle.end());
  order.insert(order.end(), last.begin(), last.end());
  return order;
}

template <typename T>
void Contract(const std::vector<T>& lhs, const std::vector<T>& rhs, int64_t batch, int64_t m,
              int64_t k, int64_t n, Literal& result) {
  std::vector<T> row(static_cast<size_t>(n));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < m; ++i) {
      std::fill(row.begin(), row.end(), T{0});
      const T* a = lhs.data() + (b * m + i) * k;
      for (int64_t c = 0; c < k; ++c) {
        const T x = a[c];
        const T* r = rhs.data() + (b * k + c) * n;
        for (int64_t j = 0; j < n; ++j) {
          if constexpr (std::is_same_v<T, double>) {
            row[static_cast<size_t>(j)] += x * r[j];
          } else {
            row[static_cast<size_t>(j)] =
                static_cast<T>(static_cast<uint64_t>(row[static_cast<size_t>(j)]) +
                               static_cast<uint64_t>(x) * static_cast<uint64_t>(r[j]));
          }
        }
      }
      const int64_t base = (b * m + i) * n;
      for (int64_t j = 0; j < n; ++j) {
        if constexpr (std::is_same_v<T, double>) {
          result.SetDouble(base + j, row[static_cast<size_t>(j)]);
        } else {
          result.SetInt(base + j, row[static_cast<size_t>(j)]);
        }
      }
    }
  }
}

}  // namespace

StatusOr<Literal> EvaluateDot(const ir::Instruction& instruction, const Operands& operands) {
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  const std::vector<int64_t> lb = ListAttribute(instruction, "lhs_batch_dims");
  const std::vector<int64_t> lc = ListAttribute(instruction, "lhs_contracting_dims");
  const std::vector<int64_t> rb = ListAttribute(instruction, "rhs_batch_dims");
  const std::vector<int64_t> rc = ListAttribute(instruction, "rhs_contracting_dims");
  const std::vector<int64_t>& ld = lhs.shape().dimensions();
  const std::vector<int64_t>& rd = rhs.shape().dimensions();
  auto valid = [](const std::vector<int64_t>& list, const std::vector<int64_t>& dims) {
    for (int64_t d : list) {
      if (d < 0 || d >= static_cast<int64_t>(dims.size())) return false;
    }
    return true;
  };
  if (lb.size() != rb.size() || lc.size() != rc.size() || !valid(lb, ld) || !valid(lc, ld) ||
      !valid(rb, rd) || !valid(rc, rd)) {
    return InstructionError(instruction, "dot dimension numbers do not fit the operands");
  }
  int64_t batch = 1;
  int64_t k = 1;
  for (size_t i = 0; i < lb.size(); ++i) {
    if (ld[static_cast<size_t>(lb[i])] != rd[static_cast<size_t>(rb[i])]) {
      return InstructionError(instruction, "dot batch dimensions differ in size");
    }
    batch *= ld[static_cast<size_t>(lb[i])];
  }
  for (size_t i = 0; i < lc.size(); ++i) {
    if (ld[static_cast<size_t>(lc[i])] != rd[static_cast<size_t>(rc[i])]) {
      return InstructionError(instruction, "dot contracting dimensions differ in size");
    }
    k *= ld[static_cast<size_t>(lc[i])];
  }
  int64_t m = 1;
  int64_t n = 1;
  const std::vector<int64_t> lhs_order = Order(lhs.shape().rank(), lb, lc, true, m, ld);
  const std::vector<int64_t> rhs_order = Order(rhs.shape().rank(), rb, rc, false, n, rd);
  if (batch * m * n != result.element_count()) {
    return InstructionError(instruction, "dot result shape does not match its operands");
  }
  if (result.is_floating()) {
    Contract(Permuted<double>(lhs, lhs_order), Permuted<double>(rhs, rhs_order), batch, m, k, n,
             result);
  } else {
    Contract(Permuted<int64_t>(lhs, lhs_order), Permuted<int64_t>(rhs, rhs_order), batch, m, k, n,
             result);
  }
  return result;
}

StatusOr<Literal> EvaluateConvolution(const ir::Instruction& instruction,
                                      const Operands& operands) {
  StatusOr<Literal> created = NewArray(instruction);
  if (!created.ok()) return created.status();
  Literal result = std::move(created).value();
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  auto labels =
      ir::ParseConvolutionDimensionLabels(instruction.attribute("dim_labels").value_or(""));
  if (!labels.ok()) return InstructionError(instruction, labels.message());
  const size_t spatial = labels->input_spatial.size();
  if (labels->kernel_spatial.size() != spatial || labels->output_spatial.size() != spatial ||
      lhs.shape().rank() != static_cast<int64_t>(spatial + 2) ||
      rhs.shape().rank() != static_cast<int64_t>(spatial + 2) ||
      result.shape().rank() != static_cast<int64_t>(spatial + 2)) {
    return InstructionError(instruction, "dim_labels do not fit the operands");
  }
  std::vector<ir::WindowDimension> window(spatial);
  if (std::optional<std::string_view> text = instruction.attribute("window")) {
    auto parsed = ir::ParseWindow(*text);
    if (!parsed.ok()) return InstructionError(instruction, parsed.message());
    window = *parsed;
  } else {
    for (size_t i = 0; i < spatial; ++i)
      window[i].size = rhs.shape().dimension(labels->kernel_spatial[i]);
  }
  if (window.size() != spatial)
    return InstructionError(instruction, "window does not fit the operands");
  const int64_t groups = instruction.IntAttribute("feature_group_count").value_or(1);
  const int64_t batch_groups = instruction.IntAttribute("batch_group_count").value_or(1);
  const ir::Shape& out_shape = result.shape();
  const int64_t out_features = out_shape.dimension(labels->output_feature);
  const int64_t kernel_in = rhs.shape().dimension(labels->kernel_input_feature);
  const int64_t out_batch = out_shape.dimension(labels->output_batch);
  if (groups < 1 || batch_groups < 1 || out_features % groups != 0 ||
      out_features % batch_groups != 0 ||
      lhs.shape().dimension(labels->input_feature) != kernel_in * groups ||
      lhs.shape().dimension(labels->input_batch) != out_batch * batch_groups) {
    return InstructionError(instruction, "feature or batch group counts do not fit the operands");
  }
  const std::vector<int64_t> ls = Strides(lhs.shape().dimensions());
  const std::vector<int64_t> rs = Strides(rhs.shape().dimensions());
  std::vector<int64_t> kernel_dims(spatial);
  for (size_t i = 0; i < spatial; ++i)
    kernel_dims[i] = rhs.shape().dimension(labels->kernel_spatial[i]);
  const std::vector<double> lhs_values = Permuted<double>(lhs, [&] {
    std::vector<int64_t> identity;
    for (int64_t d = 0; d < lhs.shape().rank(); ++d) identity.push_back(d);
    return identity;
  }());
  if (result.element_count() == 0) return result;
  std::vector<int64_t> out(static_cast<size_t>(out_shape.rank()), 0);
  int64_t linear = 0;
  do {
    const int64_t b = out[static_cast<size_t>(labels->output_batch)];
    const int64_t f = out[static_cast<size_t>(labels->output_feature)];
    const int64_t group = f / (out_features / groups);
    const int64_t batch_group = f / (out_features / batch_groups);
    const int64_t in_batch = batch_group * out_batch + b;
    double sum = 0;
    std::vector<int64_t> k(spatial, 0);
    bool more = true;
    while (more) {
      int64_t lhs_base = in_batch * ls[static_cast<size_t>(labels->input_batch)];
      int64_t rhs_base = f * rs[static_cast<size_t>(labels->kernel_output_feature)];
      bool inside = true;
      for (size_t i = 0; i < spatial && inside; ++i) {
        const ir::WindowDimension& w = window[i];
        const int64_t o = out[static_cast<size_t>(labels->output_spatial[i])];
        const int64_t position = o * w.stride - w.padding_low + k[i] * w.window_dilation;
        const int64_t in_size = lhs.shape().dimension(labels->input_spatial[i]);
        if (position < 0 || position % w.base_dilation != 0 ||
            position / w.base_dilation >= in_size) {
          inside = false;
          break;
        }
        lhs_base +=
            (position / w.base_dilation) * ls[static_cast<size_t>(labels->input_spatial[i])];
        const int64_t kernel_index = w.reversal ? kernel_dims[i] - 1 - k[i] : k[i];
        rhs_base += kernel_index * rs[static_cast<size_t>(labels->kernel_spatial[i])];
      }
      if (inside) {
        for (int64_t c = 0; c < kernel_in; ++c) {
          const int64_t lhs_index =
              lhs_base + (group * kernel_in + c) * ls[static_cast<size_t>(labels->input_feature)];
          const int64_t rhs_index =
              rhs_base + c * rs[static_cast<size_t>(labels->kernel_input_feature)];
          sum += lhs_values[static_cast<size_t>(lhs_index)] * rhs.GetDouble(rhs_index);
        }
      }
      more = spatial > 0 && NextIndex(k, kernel_dims);
    }
    result.SetDouble(linear++, sum);
  } while (NextIndex(out, out_shape.dimensions()));
  return result;
}

}  // namespace fusescope::runtime::internal
