#include "runtime/cpu/blas_dot.h"

#include <cstring>
#include <optional>
#include <vector>

#include "runtime/executable_planning.h"

namespace fusescope::runtime {
namespace {

struct DotPlan {
  std::vector<int64_t> lhs_order;  // batch, free, contracting
  std::vector<int64_t> rhs_order;  // batch, contracting, free
  // The same with the last two groups swapped: the operand's order when the GEMM reads it
  // transposed.
  std::vector<int64_t> lhs_transposed_order;  // batch, contracting, free
  std::vector<int64_t> rhs_transposed_order;  // batch, free, contracting
  int64_t batch = 1, m = 1, n = 1, k = 1;
  // A lhs in neither order whose leading dimensions are free (a mixture of experts' weights
  // [experts, d, f] contracted on d) is read in place as `outer` GEMMs, one per slice of those
  // dimensions, each of m / outer rows; the slice's dimensions in the two orders, as above.
  int64_t outer = 1;
  std::vector<int64_t> slice_order, slice_transposed_order;
};

std::vector<int64_t> Attribute(const ir::Instruction& dot, const char* key) {
  return dot.IntListAttribute(key).value_or(std::vector<int64_t>{});
}

bool IsIdentity(const std::vector<int64_t>& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

StatusOr<DotPlan> Plan(const ir::Instruction& dot) {
  if (dot.operand_count() != 2) return Status::Error(dot.name() + ": dot needs two operands");
  const ir::Shape& lhs = dot.operand(0)->shape();
  const ir::Shape& rhs = dot.operand(1)->shape();
  const std::vector<int64_t> lb = Attribute(dot, "lhs_batch_dims");
  const std::vector<int64_t> rb = Attribute(dot, "rhs_batch_dims");
  const std::vector<int64_t> lc = Attribute(dot, "lhs_contracting_dims");
  const std::vector<int64_t> rc = Attribute(dot, "rhs_contracting_dims");
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return Status::Error(dot.name() + ": dot dimension numbers do not pair up");
  DotPlan plan;
  std::vector<bool> lhs_used(static_cast<size_t>(lhs.rank()), false);
  std::vector<bool> rhs_used(static_cast<size_t>(rhs.rank()), false);
  auto use = [](std::vector<bool>& used, int64_t d) {
    if (d < 0 || d >= static_cast<int64_t>(used.size()) || used[static_cast<size_t>(d)])
      return false;
    used[static_cast<size_t>(d)] = true;
    return true;
  };
  for (size_t i = 0; i < lb.size(); ++i) {
    if (!use(lhs_used, lb[i]) || !use(rhs_used, rb[i]) ||
        lhs.dimension(lb[i]) != rhs.dimension(rb[i]))
      return Status::Error(dot.name() + ": bad batch dimensions");
    plan.batch *= lhs.dimension(lb[i]);
  }
  for (size_t i = 0; i < lc.size(); ++i) {
    if (!use(lhs_used, lc[i]) || !use(rhs_used, rc[i]) ||
        lhs.dimension(lc[i]) != rhs.dimension(rc[i]))
      return Status::Error(dot.name() + ": bad contracting dimensions");
    plan.k *= lhs.dimension(lc[i]);
  }
  std::vector<int64_t> lhs_free, rhs_free;
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (!lhs_used[static_cast<size_t>(d)]) {
      lhs_free.push_back(d);
      plan.m *= lhs.dimension(d);
    }
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (!rhs_used[static_cast<size_t>(d)]) {
      rhs_free.push_back(d);
      plan.n *= rhs.dimension(d);
    }
  }
  auto order = [](std::vector<int64_t> first, const std::vector<int64_t>& second,
                  const std::vector<int64_t>& third) {
    first.insert(first.end(), second.begin(), second.end());
    first.insert(first.end(), third.begin(), third.end());
    return first;
  };
  plan.lhs_order = order(lb, lhs_free, lc);
  plan.lhs_transposed_order = order(lb, lc, lhs_free);
  plan.rhs_order = order(rb, rc, rhs_free);
  plan.rhs_transposed_order = order(rb, rhs_free, rc);
  if (lb.empty() && !IsIdentity(plan.lhs_order) && !IsIdentity(plan.lhs_transposed_order)) {
    // The fewest leading free dimensions whose slices are stored in one of the two orders.
    for (size_t lead = 1;
         lead <= lhs_free.size() && lhs_free[lead - 1] == static_cast<int64_t>(lead - 1); ++lead) {
      const std::vector<int64_t> rest(lhs_free.begin() + static_cast<std::ptrdiff_t>(lead),
                                      lhs_free.end());
      auto in_slice = [&](std::vector<int64_t> dims) {
        for (int64_t& d : dims) d -= static_cast<int64_t>(lead);
        return dims;
      };
      std::vector<int64_t> in_order = in_slice(order({}, rest, lc));
      std::vector<int64_t> transposed = in_slice(order({}, lc, rest));
      if (!IsIdentity(in_order) && !IsIdentity(transposed)) continue;
      for (size_t d = 0; d < lead; ++d) plan.outer *= lhs.dimension(static_cast<int64_t>(d));
      plan.slice_order = std::move(in_order);
      plan.slice_transposed_order = std::move(transposed);
      break;
    }
  }
  if (plan.batch * plan.m * plan.n != dot.shape().ElementCount())
    return Status::Error(dot.name() + ": the result shape disagrees with the dimension numbers");
  return plan;
}

// `source`'s elements with its dimensions reordered to `order`, row-major.
template <typename T>
std::vector<T> Permuted(const Literal& source, const std::vector<int64_t>& order) {
  const std::vector<int64_t>& dims = source.shape().dimensions();
  const size_t rank = dims.size();
  std::vector<T> out(static_cast<size_t>(source.element_count()));
  if (out.empty()) return out;
  const T* in = reinterpret_cast<const T*>(source.data());
  if (IsIdentity(order)) {
    std::memcpy(out.data(), in, out.size() * sizeof(T));
    return out;
  }
  std::vector<int64_t> strides(rank);
  int64_t stride = 1;
  for (size_t d = rank; d > 0; --d) {
    strides[d - 1] = stride;
    stride *= dims[d - 1];
  }
  std::vector<int64_t> out_dims, out_strides;
  for (int64_t d : order) {
    out_dims.push_back(dims[static_cast<size_t>(d)]);
    out_strides.push_back(strides[static_cast<size_t>(d)]);
  }
  // The innermost dimension stays innermost (a batch dimension moved to the front, as
  // attention's heads are): whole rows are copied. Element by element, a GPT block's
  // 4x64x64 head products spent most of their 84 us reordering their operands.
  if (static_cast<size_t>(order.back()) == rank - 1) {
    const int64_t row = out_dims.back();
    const int64_t rows = static_cast<int64_t>(out.size()) / row;
    std::vector<int64_t> index(rank - 1, 0);
    int64_t offset = 0;
    for (int64_t r = 0; r < rows; ++r) {
      std::memcpy(out.data() + r * row, in + offset, static_cast<size_t>(row) * sizeof(T));
      for (size_t d = rank - 1; d-- > 0;) {
        offset += out_strides[d];
        if (++index[d] < out_dims[d]) break;
        offset -= out_strides[d] * out_dims[d];
        index[d] = 0;
      }
    }
    return out;
  }
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (T& value : out) {
    value = in[offset];
    for (size_t d = rank; d-- > 0;) {
      offset += out_strides[d];
      if (++index[d] < out_dims[d]) break;
      offset -= out_strides[d] * out_dims[d];
      index[d] = 0;
    }
  }
  return out;
}

// How the GEMM reads one operand: in place, in place transposed, or from a copy in the
// GEMM's order or in its transposed order.
enum class OperandAccess { kInPlace, kTransposed, kCopied, kCopiedTransposed };

bool Copied(OperandAccess access) {
  return access == OperandAccess::kCopied || access == OperandAccess::kCopiedTransposed;
}

// An operand in neither order is copied into the one that keeps its innermost dimension
// innermost, where one does (`transposed_copy` allows the transposed one): whole rows are
// copied, not elements. A GPT block's attention product [heads, 64, 64] of operands
// [64, heads, 64] read its rhs into [heads, contracted, columns] one element at a time, 47 of
// the dot's 76 us.
OperandAccess Access(const std::vector<int64_t>& order,
                     const std::vector<int64_t>& transposed_order, bool transposed_copy = true) {
  if (IsIdentity(order)) return OperandAccess::kInPlace;
  if (IsIdentity(transposed_order)) return OperandAccess::kTransposed;
  const int64_t innermost = static_cast<int64_t>(order.size()) - 1;
  if (transposed_copy && !order.empty() && order.back() != innermost &&
      transposed_order.back() == innermost)
    return OperandAccess::kCopiedTransposed;
  return OperandAccess::kCopied;
}

GemmProblem Problem(const DotPlan& plan, OperandAccess lhs, OperandAccess rhs) {
  auto transposed = [](OperandAccess access) {
    return access == OperandAccess::kTransposed || access == OperandAccess::kCopiedTransposed;
  };
  return {plan.batch, plan.m, plan.n, plan.k, transposed(lhs), transposed(rhs)};
}

// The GEMM a native-precision dot calls, `outer` times (on consecutive slices of A and C)
// where the plan slices its lhs; an operand in neither order is copied first.
struct NativeCall {
  GemmProblem problem;
  OperandAccess lhs = OperandAccess::kInPlace, rhs = OperandAccess::kInPlace;
  int64_t outer = 1;
};
NativeCall Native(const DotPlan& plan) {
  NativeCall call;
  call.rhs = Access(plan.rhs_order, plan.rhs_transposed_order);
  if (plan.outer > 1) {
    // The slices are cut from a copy in the GEMM's own order (RunTyped).
    call.lhs = Access(plan.slice_order, plan.slice_transposed_order, /*transposed_copy=*/false);
    call.outer = plan.outer;
    call.problem = Problem(plan, call.lhs, call.rhs);
    call.problem.m = plan.m / plan.outer;
    return call;
  }
  call.lhs = Access(plan.lhs_order, plan.lhs_transposed_order);
  call.problem = Problem(plan, call.lhs, call.rhs);
  return call;
}

GemmType TypeOfGemm(const ir::Instruction& dot, BlasPrecision precision) {
  return dot.shape().element_type() == ir::PrimitiveType::kF32 &&
                 precision == BlasPrecision::kNative
             ? GemmType::kF32
             : GemmType::kF64;
}

template <typename T>
Status RunTyped(const GemmConfig& gemm, const DotPlan& plan, const Literal& lhs, const Literal& rhs,
                Literal& result) {
  const NativeCall call = Native(plan);
  std::vector<T> lhs_copy, rhs_copy;
  const T* a = reinterpret_cast<const T*>(lhs.data());
  const T* b = reinterpret_cast<const T*>(rhs.data());
  if (Copied(call.lhs)) {
    lhs_copy =
        Permuted<T>(lhs, call.lhs == OperandAccess::kCopiedTransposed ? plan.lhs_transposed_order
                                                                      : plan.lhs_order);
    a = lhs_copy.data();
  }
  if (Copied(call.rhs)) {
    rhs_copy =
        Permuted<T>(rhs, call.rhs == OperandAccess::kCopiedTransposed ? plan.rhs_transposed_order
                                                                      : plan.rhs_order);
    b = rhs_copy.data();
  }
  T* c = reinterpret_cast<T*>(result.data());
  const int64_t a_slice = call.problem.m * call.problem.k;
  const int64_t c_slice = call.problem.m * call.problem.n;
  for (int64_t o = 0; o < call.outer; ++o)
    FS_RETURN_IF_ERROR(RunGemm(gemm, call.problem, a + o * a_slice, b, c + o * c_slice));
  return Status::Ok();
}

// f32 operands widened to f64, one f64 GEMM, the result rounded once: the numbers of the
// interpreter, which computes in double.
Status RunWidened(const GemmConfig& gemm, const DotPlan& plan, const Literal& lhs,
                  const Literal& rhs, Literal& result) {
  const std::vector<float> a32 = Permuted<float>(lhs, plan.lhs_order);
  const std::vector<float> b32 = Permuted<float>(rhs, plan.rhs_order);
  const std::vector<double> a(a32.begin(), a32.end());
  const std::vector<double> b(b32.begin(), b32.end());
  std::vector<double> c(static_cast<size_t>(plan.batch * plan.m * plan.n), 0.0);
  FS_RETURN_IF_ERROR(RunGemm(gemm, Problem(plan, OperandAccess::kInPlace, OperandAccess::kInPlace),
                             a.data(), b.data(), c.data()));
  float* out = reinterpret_cast<float*>(result.data());
  for (size_t i = 0; i < c.size(); ++i) out[i] = static_cast<float>(c[i]);
  return Status::Ok();
}

}  // namespace

bool BlasAvailable() {
#ifdef FUSESCOPE_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

Status CheckBlasDot(const ir::Instruction& dot, GemmLibrary library, BlasPrecision precision) {
  if (dot.opcode() != ir::Opcode::kDot) return Status::Error(dot.name() + " is not a dot");
  const ir::PrimitiveType type = dot.shape().element_type();
  if (type != ir::PrimitiveType::kF32 && type != ir::PrimitiveType::kF64)
    return Status::Error("a dot on " + std::string(ir::PrimitiveTypeName(type)) +
                         " has no BLAS call");
  for (const ir::Instruction* operand : dot.operands()) {
    if (operand->shape().element_type() != type)
      return Status::Error("a dot mixing element types has no BLAS call");
  }
  FS_RETURN_IF_ERROR(GemmLibraryAvailable(library, TypeOfGemm(dot, precision)));
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  const int64_t limit = int64_t{1} << 31;
  if (plan->m >= limit || plan->n >= limit || plan->k >= limit)
    return Status::Error("a dot dimension exceeds BLAS's int range");
  return Status::Ok();
}

struct BlasDotPlan {
  DotPlan plan;
};

StatusOr<std::shared_ptr<const BlasDotPlan>> PlanBlasDot(const ir::Instruction& dot) {
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  return std::shared_ptr<const BlasDotPlan>(new BlasDotPlan{std::move(plan).value()});
}

Status RunBlasDotInto(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                      BlasPrecision precision, Literal& result, const GemmConfig& gemm,
                      const BlasDotPlan* planned) {
  if (result.is_tuple() || static_cast<int64_t>(result.byte_size()) != ShapeBytes(dot.shape()))
    return Status::Error(dot.name() + ": the result buffer has another size");
  std::optional<DotPlan> own;
  const DotPlan* plan = planned != nullptr ? &planned->plan : nullptr;
  if (plan == nullptr) {
    StatusOr<DotPlan> made = Plan(dot);
    if (!made.ok()) return made.status();
    own = std::move(made).value();
    plan = &*own;
  }
  Status ran = Status::Ok();
  if (dot.shape().element_type() == ir::PrimitiveType::kF32 && precision == BlasPrecision::kWidened)
    ran = RunWidened(gemm, *plan, lhs, rhs, result);
  else if (dot.shape().element_type() == ir::PrimitiveType::kF32)
    ran = RunTyped<float>(gemm, *plan, lhs, rhs, result);
  else
    ran = RunTyped<double>(gemm, *plan, lhs, rhs, result);
  if (!ran.ok()) return Status::Error(dot.name() + ": " + ran.message());
  return Status::Ok();
}

StatusOr<Literal> RunBlasDot(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                             BlasPrecision precision, std::vector<uint8_t> storage,
                             const GemmConfig& gemm, const BlasDotPlan* planned) {
  // Every element is written (a zero contraction fills zeros).
  StatusOr<Literal> result = Literal::CreateInto(dot.shape(), std::move(storage));
  if (!result.ok()) return result.status();
  Status ran = RunBlasDotInto(dot, lhs, rhs, precision, *result, gemm, planned);
  if (!ran.ok()) return ran;
  return result;
}

Status PrepareGemmInto(const GemmConfig& gemm, const GemmProblem& problem, GemmType type,
                       recording::KernelRecord* record) {
  recording::KernelRecord compiled;
  Status prepared = PrepareGemm(gemm, problem, type, &compiled);
  if (record != nullptr) {
    record->stages = std::move(compiled.stages);
    record->options = compiled.options;
    record->failed_stage = compiled.failed_stage;
    record->error = compiled.error;
    record->compile_seconds = compiled.compile_seconds;
  }
  return prepared;
}

Status PrepareBlasDot(const ir::Instruction& dot, BlasPrecision precision, const GemmConfig& gemm,
                      recording::KernelRecord* record) {
  if (gemm.library != GemmLibrary::kMlir) return Status::Ok();
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  // The problem RunTyped or RunWidened will pass: the widened GEMM reads copies in its order.
  const bool widened =
      dot.shape().element_type() == ir::PrimitiveType::kF32 && precision == BlasPrecision::kWidened;
  const GemmProblem problem = widened
                                  ? Problem(*plan, OperandAccess::kInPlace, OperandAccess::kInPlace)
                                  : Native(*plan).problem;
  return PrepareGemmInto(gemm, problem, TypeOfGemm(dot, precision), record);
}

StatusOr<GemmProblem> DotGemmProblem(const ir::Instruction& dot) {
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  return Native(*plan).problem;
}

std::string BlasCallDescription(const ir::Instruction& dot, BlasPrecision precision,
                                const GemmConfig& gemm) {
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return "no BLAS call";
  const bool widened =
      dot.shape().element_type() == ir::PrimitiveType::kF32 && precision == BlasPrecision::kWidened;
  NativeCall call = Native(*plan);
  // The widened GEMM reads copies in the GEMM's order, whole.
  if (widened) {
    call.lhs = IsIdentity(plan->lhs_order) ? OperandAccess::kInPlace : OperandAccess::kCopied;
    call.rhs = IsIdentity(plan->rhs_order) ? OperandAccess::kInPlace : OperandAccess::kCopied;
    call.problem = Problem(*plan, call.lhs, call.rhs);
    call.outer = 1;
  }
  const OperandAccess lhs = call.lhs, rhs = call.rhs;
  std::string text = GemmCallDescription(gemm, call.problem, TypeOfGemm(dot, precision));
  if (call.outer > 1)
    text += " x" + std::to_string(call.outer) + " (one per slice of the lhs's leading dimensions)";
  if (widened) text += " on f32 widened to f64";
  if (Copied(lhs) || Copied(rhs)) text += ", operands reordered";
  return text;
}

}  // namespace fusescope::runtime
