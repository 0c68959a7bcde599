#include "runtime/cpu/blas_convolution.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "ir/attribute_values.h"

namespace fusescope::runtime {
namespace {

// The im2col matrix of one group may take at most this many bytes.
constexpr int64_t kMaxPatchBytes = int64_t{512} << 20;

struct ConvolutionPlan {
  ir::ConvolutionDimensionLabels labels;
  std::vector<ir::WindowDimension> window;
  std::vector<int64_t> kernel_dims;  // spatial, in label order
  std::vector<int64_t> out_dims;     // spatial, in label order
  int64_t groups = 1;
  int64_t batch = 1;
  int64_t rows = 1;          // batch x output positions
  int64_t positions = 1;     // kernel positions
  int64_t in_features = 1;   // per group
  int64_t out_features = 1;  // per group
};

StatusOr<ConvolutionPlan> Plan(const ir::Instruction& convolution) {
  const std::string& name = convolution.name();
  if (convolution.operand_count() != 2)
    return Status::Error(name + ": convolution needs two operands");
  const ir::Shape& lhs = convolution.operand(0)->shape();
  const ir::Shape& rhs = convolution.operand(1)->shape();
  const ir::Shape& out = convolution.shape();
  ConvolutionPlan plan;
  auto labels =
      ir::ParseConvolutionDimensionLabels(convolution.attribute("dim_labels").value_or(""));
  if (!labels.ok()) return Status::Error(name + ": " + labels.message());
  plan.labels = *labels;
  const size_t spatial = plan.labels.input_spatial.size();
  if (plan.labels.kernel_spatial.size() != spatial ||
      plan.labels.output_spatial.size() != spatial ||
      lhs.rank() != static_cast<int64_t>(spatial + 2) ||
      rhs.rank() != static_cast<int64_t>(spatial + 2) ||
      out.rank() != static_cast<int64_t>(spatial + 2))
    return Status::Error(name + ": dim_labels do not fit the operands");
  plan.window.assign(spatial, ir::WindowDimension{});
  if (std::optional<std::string_view> text = convolution.attribute("window")) {
    auto parsed = ir::ParseWindow(*text);
    if (!parsed.ok()) return Status::Error(name + ": " + parsed.message());
    plan.window = *parsed;
  } else {
    for (size_t i = 0; i < spatial; ++i)
      plan.window[i].size = rhs.dimension(plan.labels.kernel_spatial[i]);
  }
  if (plan.window.size() != spatial)
    return Status::Error(name + ": window does not fit the operands");
  plan.groups = convolution.IntAttribute("feature_group_count").value_or(1);
  if (convolution.IntAttribute("batch_group_count").value_or(1) != 1)
    return Status::Error("batch_group_count > 1 has no im2col lowering");
  const int64_t all_out_features = out.dimension(plan.labels.output_feature);
  plan.in_features = rhs.dimension(plan.labels.kernel_input_feature);
  plan.batch = out.dimension(plan.labels.output_batch);
  if (plan.groups < 1 || all_out_features % plan.groups != 0 ||
      lhs.dimension(plan.labels.input_feature) != plan.in_features * plan.groups ||
      lhs.dimension(plan.labels.input_batch) != plan.batch ||
      rhs.dimension(plan.labels.kernel_output_feature) != all_out_features)
    return Status::Error(name + ": feature group count does not fit the operands");
  plan.out_features = all_out_features / plan.groups;
  plan.rows = plan.batch;
  for (size_t i = 0; i < spatial; ++i) {
    plan.kernel_dims.push_back(rhs.dimension(plan.labels.kernel_spatial[i]));
    plan.out_dims.push_back(out.dimension(plan.labels.output_spatial[i]));
    if (plan.window[i].stride < 1 || plan.window[i].base_dilation < 1 ||
        plan.window[i].window_dilation < 1)
      return Status::Error(name + ": window strides and dilations must be positive");
    plan.positions *= plan.kernel_dims.back();
    plan.rows *= plan.out_dims.back();
  }
  int64_t bytes = 8;
  if (__builtin_mul_overflow(bytes, plan.rows, &bytes) ||
      __builtin_mul_overflow(bytes, plan.positions, &bytes) ||
      __builtin_mul_overflow(bytes, plan.in_features, &bytes) || bytes > kMaxPatchBytes)
    return Status::Error("its im2col matrix would exceed " + std::to_string(kMaxPatchBytes >> 20) +
                         " MiB");
  const int64_t limit = int64_t{1} << 31;
  if (plan.rows >= limit || plan.positions * plan.in_features >= limit ||
      plan.out_features >= limit)
    return Status::Error("a GEMM dimension exceeds BLAS's int range");
  return plan;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  return strides;
}

bool Next(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (size_t d = index.size(); d-- > 0;) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

// One GEMM of row-major matrices.
template <typename T>
Status Gemm(const GemmConfig& gemm, const T* a, const T* b, T* c, int64_t m, int64_t n,
            int64_t k) {
  return RunGemm(gemm, GemmProblem{1, m, n, k, false, false}, a, b, c);
}

// Whether `order` is 0, 1, ..., n-1: the dimensions in row-major storage order.
bool InOrder(const std::vector<int64_t>& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// Channels-first layouts (NCHW input and output, OIHW kernel, dimensions in that order, no
// reversal): per batch element and group, the GEMM W[out features, in features x kernel
// positions] x patches[in features x kernel positions, output positions] reads the kernel in
// place and writes the output in place; the patches are built row by row along the last
// spatial dimension. Nothing when the layouts are not these; otherwise the GEMMs' status.
// Whether the channels-first layouts (NCHW input, OIHW kernel, NCHW output, no reversal) hold.
bool ChannelsFirst(const ConvolutionPlan& plan) {
  const ir::ConvolutionDimensionLabels& l = plan.labels;
  std::vector<int64_t> input_order = {l.input_batch, l.input_feature};
  input_order.insert(input_order.end(), l.input_spatial.begin(), l.input_spatial.end());
  std::vector<int64_t> kernel_order = {l.kernel_output_feature, l.kernel_input_feature};
  kernel_order.insert(kernel_order.end(), l.kernel_spatial.begin(), l.kernel_spatial.end());
  std::vector<int64_t> output_order = {l.output_batch, l.output_feature};
  output_order.insert(output_order.end(), l.output_spatial.begin(), l.output_spatial.end());
  for (const ir::WindowDimension& wd : plan.window) {
    if (wd.reversal) return false;
  }
  return !plan.kernel_dims.empty() && InOrder(input_order) && InOrder(kernel_order) &&
         InOrder(output_order);
}

template <typename T>
std::optional<Status> RunChannelsFirst(const GemmConfig& gemm, const ConvolutionPlan& plan,
                                       const Literal& input, const Literal& kernel,
                                       Literal& result) {
  const ir::ConvolutionDimensionLabels& l = plan.labels;
  const size_t spatial = plan.kernel_dims.size();
  if (!ChannelsFirst(plan)) return std::nullopt;
  const T* in = reinterpret_cast<const T*>(input.data());
  const T* w = reinterpret_cast<const T*>(kernel.data());
  T* out = reinterpret_cast<T*>(result.data());
  std::vector<int64_t> in_sizes(spatial);
  int64_t in_positions = 1;
  int64_t out_positions = 1;
  for (size_t i = 0; i < spatial; ++i) {
    in_sizes[i] = input.shape().dimension(l.input_spatial[i]);
    in_positions *= in_sizes[i];
    out_positions *= plan.out_dims[i];
  }
  const std::vector<int64_t> in_steps = Strides(in_sizes);
  const int64_t depth = plan.in_features * plan.positions;  // the GEMM's K
  const int64_t last = plan.out_dims.back();
  const ir::WindowDimension& last_window = plan.window.back();
  std::unique_ptr<T[]> patches(new T[static_cast<size_t>(depth * out_positions)]);
  // The output positions without the last dimension, iterated as an index vector.
  std::vector<int64_t> outer_dims(plan.out_dims.begin(), plan.out_dims.end() - 1);
  std::vector<int64_t> outer(outer_dims.size(), 0);
  std::vector<int64_t> k(spatial, 0);
  // Input index along one dimension, or -1 outside the input (padding, between dilated cells).
  auto at = [&](size_t i, int64_t output_index, int64_t kernel_index) -> int64_t {
    const ir::WindowDimension& wd = plan.window[i];
    const int64_t position =
        output_index * wd.stride - wd.padding_low + kernel_index * wd.window_dilation;
    if (position < 0 || position % wd.base_dilation != 0) return -1;
    const int64_t index = position / wd.base_dilation;
    return index < in_sizes[i] ? index : -1;
  };
  for (int64_t b = 0; b < plan.batch; ++b) {
    for (int64_t g = 0; g < plan.groups; ++g) {
      for (int64_t c = 0; c < plan.in_features; ++c) {
        const T* channel =
            in + (b * plan.in_features * plan.groups + g * plan.in_features + c) * in_positions;
        std::fill(k.begin(), k.end(), 0);
        for (int64_t p = 0; p < plan.positions; ++p, Next(k, plan.kernel_dims)) {
          T* dst = patches.get() + (c * plan.positions + p) * out_positions;
          std::fill(outer.begin(), outer.end(), 0);
          for (int64_t o = 0; o < out_positions; o += last, Next(outer, outer_dims)) {
            int64_t base = 0;
            bool inside = true;
            for (size_t i = 0; i + 1 < spatial && inside; ++i) {
              const int64_t index = at(i, outer[i], k[i]);
              inside = index >= 0;
              base += index * in_steps[i];
            }
            T* row = dst + o;
            if (!inside) {
              std::fill(row, row + last, T{0});
              continue;
            }
            const T* from = channel + base;
            if (last_window.stride == 1 && last_window.base_dilation == 1) {
              // A run of consecutive input cells, zeros where it leaves the input.
              const int64_t start =
                  k[spatial - 1] * last_window.window_dilation - last_window.padding_low;
              for (int64_t j = 0; j < last; ++j) {
                const int64_t index = start + j;
                row[j] = index >= 0 && index < in_sizes[spatial - 1] ? from[index] : T{0};
              }
            } else {
              for (int64_t j = 0; j < last; ++j) {
                const int64_t index = at(spatial - 1, j, k[spatial - 1]);
                row[j] = index >= 0 ? from[index] : T{0};
              }
            }
          }
        }
      }
      const T* weights = w + g * plan.out_features * depth;
      T* product = out + (b * plan.out_features * plan.groups + g * plan.out_features) * out_positions;
      FS_RETURN_IF_ERROR(
          Gemm(gemm, weights, patches.get(), product, plan.out_features, out_positions, depth));
    }
  }
  return Status::Ok();
}

template <typename Stored, typename T>
Status RunTyped(const GemmConfig& gemm, const ConvolutionPlan& plan, const Literal& input,
                const Literal& kernel, Literal& result) {
  if constexpr (std::is_same_v<Stored, T>) {
    if (std::optional<Status> ran = RunChannelsFirst<T>(gemm, plan, input, kernel, result))
      return *ran;
  }
  const ir::ConvolutionDimensionLabels& l = plan.labels;
  const size_t spatial = plan.kernel_dims.size();
  const std::vector<int64_t> is = Strides(input.shape().dimensions());
  const std::vector<int64_t> ks = Strides(kernel.shape().dimensions());
  const std::vector<int64_t> os = Strides(result.shape().dimensions());
  const Stored* in = reinterpret_cast<const Stored*>(input.data());
  const Stored* w = reinterpret_cast<const Stored*>(kernel.data());
  Stored* out = reinterpret_cast<Stored*>(result.data());
  const int64_t columns = plan.positions * plan.in_features;
  constexpr bool kSameType = std::is_same_v<Stored, T>;
  const int64_t feature_stride = is[static_cast<size_t>(l.input_feature)];
  // Where the layouts allow it (one group, the GEMM's own type, NHWC-like input, HWIO-like
  // kernel without reversal, NHWC-like output), the GEMM reads the kernel in place and writes
  // the result in place; otherwise both are rearranged through scratch matrices.
  bool reversed = false;
  for (const ir::WindowDimension& wd : plan.window) reversed = reversed || wd.reversal;
  std::vector<int64_t> kernel_order(l.kernel_spatial.begin(), l.kernel_spatial.end());
  kernel_order.push_back(l.kernel_input_feature);
  kernel_order.push_back(l.kernel_output_feature);
  std::vector<int64_t> output_order = {l.output_batch};
  output_order.insert(output_order.end(), l.output_spatial.begin(), l.output_spatial.end());
  output_order.push_back(l.output_feature);
  const bool kernel_in_place = kSameType && plan.groups == 1 && !reversed && InOrder(kernel_order);
  const bool output_in_place = kSameType && plan.groups == 1 && InOrder(output_order);
  // Every cell of the scratch matrices is written before it is read: no zero-filling.
  std::unique_ptr<T[]> patches(new T[static_cast<size_t>(plan.rows * columns)]);
  std::unique_ptr<T[]> weights(kernel_in_place ? nullptr
                                               : new T[static_cast<size_t>(columns * plan.out_features)]);
  std::unique_ptr<T[]> product(output_in_place ? nullptr
                                               : new T[static_cast<size_t>(plan.rows * plan.out_features)]);
  std::vector<int64_t> row_dims = {plan.batch};
  row_dims.insert(row_dims.end(), plan.out_dims.begin(), plan.out_dims.end());
  std::vector<int64_t> sizes(spatial), steps(spatial);
  for (size_t i = 0; i < spatial; ++i) {
    sizes[i] = input.shape().dimension(l.input_spatial[i]);
    steps[i] = is[static_cast<size_t>(l.input_spatial[i])];
  }
  std::vector<int64_t> row(row_dims.size(), 0);
  std::vector<int64_t> k(spatial, 0);
  // One group whose window moves one input cell per kernel cell along the last spatial
  // dimension: a patch row's cells along it are one run of the input, copied whole, where the
  // input's features are innermost. An input of another layout (a weight gradient's f01b) is
  // first copied into that order: a 12x12-window weight gradient's im2col took 208 us cell
  // by cell, four features at a time with its index arithmetic around each.
  const bool by_runs = kSameType && plan.groups == 1 && spatial > 0 && plan.rows > 0 &&
                       input.shape().ElementCount() > 0 &&
                       plan.window.back().window_dilation == 1 &&
                       plan.window.back().base_dilation == 1;
  std::unique_ptr<Stored[]> reordered;
  const Stored* source = in;
  int64_t batch_step = is[static_cast<size_t>(l.input_batch)];
  if (by_runs && !(feature_stride == 1 && steps.back() == plan.in_features)) {
    // (batch, spatial..., feature), row-major.
    std::vector<int64_t> order = {l.input_batch};
    order.insert(order.end(), l.input_spatial.begin(), l.input_spatial.end());
    order.push_back(l.input_feature);
    std::vector<int64_t> dims(order.size()), from(order.size());
    for (size_t d = 0; d < order.size(); ++d) {
      dims[d] = input.shape().dimension(order[d]);
      from[d] = is[static_cast<size_t>(order[d])];
    }
    reordered.reset(new Stored[static_cast<size_t>(input.shape().ElementCount())]);
    std::vector<int64_t> at(order.size(), 0);
    const int64_t inner = dims.back(), inner_step = from.back();
    Stored* to = reordered.get();
    do {
      int64_t offset = 0;
      for (size_t d = 0; d + 1 < order.size(); ++d) offset += at[d] * from[d];
      for (int64_t c = 0; c < inner; ++c) *to++ = in[offset + c * inner_step];
      at.back() = inner - 1;
    } while (Next(at, dims));
    const std::vector<int64_t> strides = Strides(dims);
    batch_step = strides[0];
    for (size_t i = 0; i < spatial; ++i) steps[i] = strides[i + 1];
    source = reordered.get();
  }
  const int64_t run = plan.kernel_dims.empty() ? 1 : plan.kernel_dims.back();
  const std::vector<int64_t> outer_dims(plan.kernel_dims.begin(),
                                        plan.kernel_dims.end() - (spatial > 0 ? 1 : 0));
  std::vector<int64_t> outer(outer_dims.size(), 0);
  for (int64_t g = 0; by_runs && g < plan.groups; ++g) {
    std::fill(row.begin(), row.end(), 0);
    const ir::WindowDimension& last = plan.window.back();
    for (int64_t r = 0; r < plan.rows; ++r, Next(row, row_dims)) {
      T* dst = patches.get() + r * columns;
      // The run's first input cell along the last dimension, and the part inside the input.
      const int64_t start = row[spatial] * last.stride - last.padding_low;
      const int64_t low = std::clamp<int64_t>(-start, 0, run);
      const int64_t high = std::clamp<int64_t>(sizes.back() - start, low, run);
      std::fill(outer.begin(), outer.end(), 0);
      do {
        T* cell = dst;
        int64_t base = row[0] * batch_step;
        bool inside = true;
        for (size_t i = 0; i + 1 < spatial; ++i) {
          const ir::WindowDimension& wd = plan.window[i];
          const int64_t position =
              row[i + 1] * wd.stride - wd.padding_low + outer[i] * wd.window_dilation;
          int64_t at = position;
          if (wd.base_dilation != 1) {
            if (position % wd.base_dilation != 0) at = -1;
            at = at < 0 ? -1 : position / wd.base_dilation;
          }
          if (at < 0 || at >= sizes[i]) {
            inside = false;
            break;
          }
          base += at * steps[i];
        }
        if (!inside) {
          std::fill(cell, cell + run * plan.in_features, T{0});
        } else {
          std::fill(cell, cell + low * plan.in_features, T{0});
          const Stored* from = source + base + (start + low) * steps.back();
          std::copy(from, from + (high - low) * plan.in_features, cell + low * plan.in_features);
          std::fill(cell + high * plan.in_features, cell + run * plan.in_features, T{0});
        }
        dst += run * plan.in_features;
      } while (Next(outer, outer_dims));
    }
  }
  for (int64_t g = 0; g < plan.groups; ++g) {
    // Patches: row (b, o...), column (k..., c).
    std::fill(row.begin(), row.end(), 0);
    for (int64_t r = 0; !by_runs && r < plan.rows; ++r, Next(row, row_dims)) {
      T* dst = patches.get() + r * columns;
      std::fill(k.begin(), k.end(), 0);
      for (int64_t p = 0; p < plan.positions; ++p, Next(k, plan.kernel_dims)) {
        int64_t base = row[0] * is[static_cast<size_t>(l.input_batch)];
        bool inside = true;
        for (size_t i = 0; i < spatial; ++i) {
          const ir::WindowDimension& wd = plan.window[i];
          const int64_t position =
              row[i + 1] * wd.stride - wd.padding_low + k[i] * wd.window_dilation;
          if (position < 0) {
            inside = false;
            break;
          }
          int64_t at = position;
          if (wd.base_dilation != 1) {
            if (position % wd.base_dilation != 0) {
              inside = false;
              break;
            }
            at = position / wd.base_dilation;
          }
          if (at >= sizes[i]) {
            inside = false;
            break;
          }
          base += at * steps[i];
        }
        T* cell = dst + p * plan.in_features;
        if (!inside) {
          std::fill(cell, cell + plan.in_features, T{0});
        } else if (kSameType && feature_stride == 1) {
          const Stored* from = in + base + g * plan.in_features;
          std::copy(from, from + plan.in_features, cell);
        } else {
          for (int64_t c = 0; c < plan.in_features; ++c)
            cell[c] = static_cast<T>(in[base + (g * plan.in_features + c) * feature_stride]);
        }
      }
    }
    // Weights: row (k..., c), column f.
    const T* weight_matrix = nullptr;
    if (kernel_in_place) {
      weight_matrix = reinterpret_cast<const T*>(w);
    } else {
      std::fill(k.begin(), k.end(), 0);
      for (int64_t p = 0; p < plan.positions; ++p, Next(k, plan.kernel_dims)) {
        int64_t base = 0;
        for (size_t i = 0; i < spatial; ++i) {
          const int64_t index = plan.window[i].reversal ? plan.kernel_dims[i] - 1 - k[i] : k[i];
          base += index * ks[static_cast<size_t>(l.kernel_spatial[i])];
        }
        for (int64_t c = 0; c < plan.in_features; ++c) {
          for (int64_t f = 0; f < plan.out_features; ++f) {
            weights[static_cast<size_t>((p * plan.in_features + c) * plan.out_features + f)] =
                static_cast<T>(w[base + c * ks[static_cast<size_t>(l.kernel_input_feature)] +
                                 (g * plan.out_features + f) *
                                     ks[static_cast<size_t>(l.kernel_output_feature)]]);
          }
        }
      }
      weight_matrix = weights.get();
    }
    T* product_matrix = output_in_place ? reinterpret_cast<T*>(out) : product.get();
    FS_RETURN_IF_ERROR(Gemm(gemm, patches.get(), weight_matrix, product_matrix, plan.rows,
                            plan.out_features, columns));
    if (output_in_place) continue;
    // Scatter into the output's dimension order.
    std::fill(row.begin(), row.end(), 0);
    for (int64_t r = 0; r < plan.rows; ++r, Next(row, row_dims)) {
      int64_t base = row[0] * os[static_cast<size_t>(l.output_batch)];
      for (size_t i = 0; i < spatial; ++i)
        base += row[i + 1] * os[static_cast<size_t>(l.output_spatial[i])];
      for (int64_t f = 0; f < plan.out_features; ++f) {
        out[base + (g * plan.out_features + f) * os[static_cast<size_t>(l.output_feature)]] =
            static_cast<Stored>(product[static_cast<size_t>(r * plan.out_features + f)]);
      }
    }
  }
  return Status::Ok();
}

GemmType TypeOfGemm(const ir::Instruction& convolution, BlasPrecision precision) {
  return convolution.shape().element_type() == ir::PrimitiveType::kF32 &&
                 precision == BlasPrecision::kNative
             ? GemmType::kF32
             : GemmType::kF64;
}

// The convolution in oneDNN's terms: dimensions in its order with this runtime's row-major
// strides. Errors: what oneDNN's convolution cannot express.
StatusOr<DirectConvolution> DirectOf(const ir::Instruction& convolution,
                                     const ConvolutionPlan& plan) {
  const ir::ConvolutionDimensionLabels& l = plan.labels;
  DirectConvolution direct;
  direct.groups = plan.groups;
  for (const ir::WindowDimension& wd : plan.window) {
    if (wd.base_dilation != 1)
      return Status::Error("it dilates its input (a transposed convolution)");
    if (wd.reversal) return Status::Error("it reverses its window");
    if (wd.padding_low < 0 || wd.padding_high < 0) return Status::Error("it has negative padding");
    direct.strides.push_back(wd.stride);
    direct.dilations.push_back(wd.window_dilation);
    direct.padding_low.push_back(wd.padding_low);
    direct.padding_high.push_back(wd.padding_high);
  }
  const ir::Shape& lhs = convolution.operand(0)->shape();
  const ir::Shape& rhs = convolution.operand(1)->shape();
  const ir::Shape& out = convolution.shape();
  const std::vector<int64_t> is = Strides(lhs.dimensions());
  const std::vector<int64_t> ks = Strides(rhs.dimensions());
  const std::vector<int64_t> os = Strides(out.dimensions());
  auto add = [](std::vector<int64_t>& dims, std::vector<int64_t>& strides, const ir::Shape& shape,
                const std::vector<int64_t>& shape_strides, int64_t dim) {
    dims.push_back(shape.dimension(dim));
    strides.push_back(shape_strides[static_cast<size_t>(dim)]);
  };
  add(direct.src_dims, direct.src_strides, lhs, is, l.input_batch);
  add(direct.src_dims, direct.src_strides, lhs, is, l.input_feature);
  add(direct.weight_dims, direct.weight_strides, rhs, ks, l.kernel_output_feature);
  add(direct.weight_dims, direct.weight_strides, rhs, ks, l.kernel_input_feature);
  add(direct.dst_dims, direct.dst_strides, out, os, l.output_batch);
  add(direct.dst_dims, direct.dst_strides, out, os, l.output_feature);
  for (size_t i = 0; i < plan.window.size(); ++i) {
    add(direct.src_dims, direct.src_strides, lhs, is, l.input_spatial[i]);
    add(direct.weight_dims, direct.weight_strides, rhs, ks, l.kernel_spatial[i]);
    add(direct.dst_dims, direct.dst_strides, out, os, l.output_spatial[i]);
  }
  return direct;
}

StatusOr<std::shared_ptr<const PreparedConvolution>> Direct(const ir::Instruction& convolution,
                                                            const ConvolutionPlan& plan,
                                                            BlasPrecision precision,
                                                            const GemmConfig& gemm) {
  if (gemm.library != GemmLibrary::kOneDnn)
    return Status::Error("only oneDNN runs a convolution itself");
  if (TypeOfGemm(convolution, precision) != GemmType::kF32)
    return Status::Error("oneDNN's convolution is f32 only");
  StatusOr<DirectConvolution> direct = DirectOf(convolution, plan);
  if (!direct.ok()) return direct.status();
  direct->threads = gemm.threads;
  return PrepareOneDnnConvolution(*direct);
}

}  // namespace

StatusOr<std::shared_ptr<const PreparedConvolution>> PrepareDirectConvolution(
    const ir::Instruction& convolution, BlasPrecision precision, const GemmConfig& gemm) {
  StatusOr<ConvolutionPlan> plan = Plan(convolution);
  if (!plan.ok()) return plan.status();
  return Direct(convolution, *plan, precision, gemm);
}

Status CheckBlasConvolution(const ir::Instruction& convolution, GemmLibrary library,
                            BlasPrecision precision) {
  const ir::PrimitiveType type = convolution.shape().element_type();
  if (type != ir::PrimitiveType::kF32 && type != ir::PrimitiveType::kF64)
    return Status::Error("a convolution on " + std::string(ir::PrimitiveTypeName(type)) +
                         " has no BLAS call");
  for (const ir::Instruction* operand : convolution.operands()) {
    if (operand->shape().element_type() != type)
      return Status::Error("a convolution mixing element types has no BLAS call");
  }
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(library, TypeOfGemm(convolution, precision)));
  StatusOr<ConvolutionPlan> plan = Plan(convolution);
  return plan.ok() ? Status::Ok() : plan.status();
}

StatusOr<Literal> RunBlasConvolution(const ir::Instruction& convolution, const Literal& input,
                                     const Literal& kernel, BlasPrecision precision,
                                     std::vector<uint8_t> storage, const GemmConfig& gemm,
                                     const PreparedConvolution* direct) {
  StatusOr<ConvolutionPlan> plan = Plan(convolution);
  if (!plan.ok()) return plan.status();
  // Every element is written below (an empty contraction fills zeros).
  StatusOr<Literal> result = Literal::CreateInto(convolution.shape(), std::move(storage));
  if (!result.ok()) return result.status();
  if (result->element_count() == 0) return result;
  std::shared_ptr<const PreparedConvolution> found;
  if (direct == nullptr && gemm.library == GemmLibrary::kOneDnn) {
    StatusOr<std::shared_ptr<const PreparedConvolution>> prepared =
        Direct(convolution, *plan, precision, gemm);
    if (prepared.ok()) found = *prepared;
    direct = found.get();
  }
  Status ran = Status::Ok();
  if (direct != nullptr) {
    ran = RunOneDnnConvolution(*direct, reinterpret_cast<const float*>(input.data()),
                               reinterpret_cast<const float*>(kernel.data()),
                               reinterpret_cast<float*>(result->data()));
  } else if (convolution.shape().element_type() == ir::PrimitiveType::kF64)
    ran = RunTyped<double, double>(gemm, *plan, input, kernel, *result);
  else if (precision == BlasPrecision::kWidened)
    ran = RunTyped<float, double>(gemm, *plan, input, kernel, *result);
  else
    ran = RunTyped<float, float>(gemm, *plan, input, kernel, *result);
  if (!ran.ok()) return Status::Error(convolution.name() + ": " + ran.message());
  return result;
}

Status PrepareBlasConvolution(const ir::Instruction& convolution, BlasPrecision precision,
                              const GemmConfig& gemm, recording::KernelRecord* record) {
  if (gemm.library != GemmLibrary::kMlir && gemm.library != GemmLibrary::kOneDnn)
    return Status::Ok();
  StatusOr<ConvolutionPlan> plan = Plan(convolution);
  if (!plan.ok()) return plan.status();
  // oneDNN generates its convolution's code here (a refusal leaves im2col to run).
  if (gemm.library == GemmLibrary::kOneDnn) {
    (void)Direct(convolution, *plan, precision, gemm);
    return Status::Ok();
  }
  const GemmType type = TypeOfGemm(convolution, precision);
  // The GEMM RunTyped calls: the channels-first one where the element type is the GEMM's own
  // (f32 widened to f64 takes the general path), else patches x weights.
  const bool own_type = (type == GemmType::kF64) ==
                        (convolution.shape().element_type() == ir::PrimitiveType::kF64);
  GemmProblem problem{1, plan->rows, plan->out_features, plan->positions * plan->in_features,
                      false, false};
  if (own_type && ChannelsFirst(*plan)) {
    int64_t out_positions = 1;
    for (int64_t d : plan->out_dims) out_positions *= d;
    problem = {1, plan->out_features, out_positions, plan->positions * plan->in_features, false,
               false};
  }
  return PrepareGemmInto(gemm, problem, type, record);
}

std::string BlasConvolutionDescription(const ir::Instruction& convolution, BlasPrecision precision,
                                       const GemmConfig& gemm) {
  StatusOr<ConvolutionPlan> plan = Plan(convolution);
  if (!plan.ok()) return "no BLAS call";
  std::string direct_refused;
  if (gemm.library == GemmLibrary::kOneDnn) {
    StatusOr<std::shared_ptr<const PreparedConvolution>> direct =
        Direct(convolution, *plan, precision, gemm);
    if (direct.ok()) {
      std::string text = "oneDNN convolution " + (*direct)->implementation();
      if (plan->groups > 1) text += " (" + std::to_string(plan->groups) + " groups)";
      if (gemm.threads > 0)
        text +=
            " on " + std::to_string(gemm.threads) + (gemm.threads == 1 ? " thread" : " threads");
      return text;
    }
    direct_refused = "; not oneDNN's own convolution: " + direct.message();
  }
  const GemmProblem problem{1, plan->rows, plan->out_features,
                            plan->positions * plan->in_features, false, false};
  std::string text = "im2col + " + GemmCallDescription(gemm, problem, TypeOfGemm(convolution, precision));
  if (plan->groups > 1) text += " (" + std::to_string(plan->groups) + " groups)";
  if (TypeOfGemm(convolution, precision) == GemmType::kF64 &&
      convolution.shape().element_type() == ir::PrimitiveType::kF32)
    text += " on f32 widened to f64";
  return text + direct_refused;
}

}  // namespace fusescope::runtime
