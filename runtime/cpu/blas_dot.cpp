#include "runtime/cpu/blas_dot.h"

#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

#ifdef FUSESCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace fusescope::runtime {
namespace {

// How the GEMM reads its operands: each in `order` (copied where that is no identity), as
// the matrix itself or, where the operand is stored with its two matrix dimensions the other
// way round, as its transpose (CblasTrans on the operand in place, no copy).
struct DotPlan {
  std::vector<int64_t> lhs_order;  // batch, free, contracting (or batch, contracting, free)
  std::vector<int64_t> rhs_order;  // batch, contracting, free (or batch, free, contracting)
  bool lhs_transposed = false;     // lhs is read as batch, contracting, free
  bool rhs_transposed = false;     // rhs is read as batch, free, contracting
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

bool IsIdentity(const std::vector<int64_t>& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

std::vector<int64_t> Concatenated(std::vector<int64_t> a, const std::vector<int64_t>& b,
                                  const std::vector<int64_t>& c) {
  a.insert(a.end(), b.begin(), b.end());
  a.insert(a.end(), c.begin(), c.end());
  return a;
}

std::vector<int64_t> Attribute(const ir::Instruction& dot, const char* key) {
  return dot.IntListAttribute(key).value_or(std::vector<int64_t>{});
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
  plan.lhs_order = Concatenated(lb, lhs_free, lc);
  plan.rhs_order = Concatenated(rb, rc, rhs_free);
  // An operand whose matrix dimensions are stored the other way round is read transposed in
  // place rather than copied into the GEMM's order.
  if (!IsIdentity(plan.lhs_order) && IsIdentity(Concatenated(lb, lc, lhs_free))) {
    plan.lhs_order = Concatenated(lb, lc, lhs_free);
    plan.lhs_transposed = true;
  }
  if (!IsIdentity(plan.rhs_order) && IsIdentity(Concatenated(rb, rhs_free, rc))) {
    plan.rhs_order = Concatenated(rb, rhs_free, rc);
    plan.rhs_transposed = true;
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

#ifdef FUSESCOPE_HAVE_OPENBLAS
// C (m x n) = A (m x k) B (k x n), A and B each stored as itself or as its transpose.
void Gemm(const DotPlan& plan, const float* a, const float* b, float* c) {
  const int m = static_cast<int>(plan.m), n = static_cast<int>(plan.n),
            k = static_cast<int>(plan.k);
  cblas_sgemm(CblasRowMajor, plan.lhs_transposed ? CblasTrans : CblasNoTrans,
              plan.rhs_transposed ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
              plan.lhs_transposed ? m : k, b, plan.rhs_transposed ? k : n, 0.0f, c, n);
}
void Gemm(const DotPlan& plan, const double* a, const double* b, double* c) {
  const int m = static_cast<int>(plan.m), n = static_cast<int>(plan.n),
            k = static_cast<int>(plan.k);
  cblas_dgemm(CblasRowMajor, plan.lhs_transposed ? CblasTrans : CblasNoTrans,
              plan.rhs_transposed ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a,
              plan.lhs_transposed ? m : k, b, plan.rhs_transposed ? k : n, 0.0, c, n);
}
#endif

template <typename T>
void RunTyped(const DotPlan& plan, const Literal& lhs, const Literal& rhs, Literal& result) {
  // Operands already in the GEMM's order are read in place; others are reordered into copies.
  std::vector<T> lhs_copy, rhs_copy;
  const T* a = reinterpret_cast<const T*>(lhs.data());
  const T* b = reinterpret_cast<const T*>(rhs.data());
  if (!IsIdentity(plan.lhs_order)) {
    lhs_copy = Permuted<T>(lhs, plan.lhs_order);
    a = lhs_copy.data();
  }
  if (!IsIdentity(plan.rhs_order)) {
    rhs_copy = Permuted<T>(rhs, plan.rhs_order);
    b = rhs_copy.data();
  }
  T* c = reinterpret_cast<T*>(result.data());
  for (int64_t i = 0; i < plan.batch; ++i) {
    T* out = c + i * plan.m * plan.n;
    if (plan.k == 0) {
      std::fill(out, out + plan.m * plan.n, T{0});
      continue;
    }
#ifdef FUSESCOPE_HAVE_OPENBLAS
    Gemm(plan, a + i * plan.m * plan.k, b + i * plan.k * plan.n, out);
#endif
  }
}

// f32 operands widened to f64, one cblas_dgemm, the result rounded once: the numbers of the
// interpreter, which computes in double.
void RunWidened(const DotPlan& plan, const Literal& lhs, const Literal& rhs, Literal& result) {
  const std::vector<float> a32 = Permuted<float>(lhs, plan.lhs_order);
  const std::vector<float> b32 = Permuted<float>(rhs, plan.rhs_order);
  const std::vector<double> a(a32.begin(), a32.end());
  const std::vector<double> b(b32.begin(), b32.end());
  std::vector<double> c(static_cast<size_t>(plan.batch * plan.m * plan.n), 0.0);
  for (int64_t i = 0; i < plan.batch && plan.k > 0; ++i) {
#ifdef FUSESCOPE_HAVE_OPENBLAS
    Gemm(plan, a.data() + i * plan.m * plan.k, b.data() + i * plan.k * plan.n,
         c.data() + i * plan.m * plan.n);
#endif
  }
  float* out = reinterpret_cast<float*>(result.data());
  for (size_t i = 0; i < c.size(); ++i) out[i] = static_cast<float>(c[i]);
}

}  // namespace

bool BlasAvailable() {
#ifdef FUSESCOPE_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

Status CheckBlasDot(const ir::Instruction& dot) {
  if (!BlasAvailable()) return Status::Error("this build has no OpenBLAS");
  if (dot.opcode() != ir::Opcode::kDot) return Status::Error(dot.name() + " is not a dot");
  const ir::PrimitiveType type = dot.shape().element_type();
  if (type != ir::PrimitiveType::kF32 && type != ir::PrimitiveType::kF64)
    return Status::Error("a dot on " + std::string(ir::PrimitiveTypeName(type)) +
                         " has no BLAS call");
  for (const ir::Instruction* operand : dot.operands()) {
    if (operand->shape().element_type() != type)
      return Status::Error("a dot mixing element types has no BLAS call");
  }
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  const int64_t limit = int64_t{1} << 31;
  if (plan->m >= limit || plan->n >= limit || plan->k >= limit)
    return Status::Error("a dot dimension exceeds BLAS's int range");
  return Status::Ok();
}

StatusOr<Literal> RunBlasDot(const ir::Instruction& dot, const Literal& lhs, const Literal& rhs,
                             BlasPrecision precision, std::vector<uint8_t> storage) {
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return plan.status();
  // Every element is written below (a zero contraction fills zeros).
  StatusOr<Literal> result = Literal::CreateInto(dot.shape(), std::move(storage));
  if (!result.ok()) return result.status();
  if (dot.shape().element_type() == ir::PrimitiveType::kF32 && precision == BlasPrecision::kWidened)
    RunWidened(*plan, lhs, rhs, *result);
  else if (dot.shape().element_type() == ir::PrimitiveType::kF32)
    RunTyped<float>(*plan, lhs, rhs, *result);
  else
    RunTyped<double>(*plan, lhs, rhs, *result);
  return result;
}

std::string BlasCallDescription(const ir::Instruction& dot, BlasPrecision precision) {
  StatusOr<DotPlan> plan = Plan(dot);
  if (!plan.ok()) return "no BLAS call";
  const bool f32 =
      dot.shape().element_type() == ir::PrimitiveType::kF32 && precision == BlasPrecision::kNative;
  std::string text = std::string(f32 ? "cblas_sgemm " : "cblas_dgemm ") + std::to_string(plan->m) +
                     "x" + std::to_string(plan->n) + "x" + std::to_string(plan->k);
  if (plan->batch != 1) text += " (batch " + std::to_string(plan->batch) + ")";
  if (!f32 && dot.shape().element_type() == ir::PrimitiveType::kF32)
    text += " on f32 widened to f64";
  if (plan->lhs_transposed) text += ", lhs transposed";
  if (plan->rhs_transposed) text += ", rhs transposed";
  if (!IsIdentity(plan->lhs_order) || !IsIdentity(plan->rhs_order)) text += ", operands reordered";
  return text;
}

}  // namespace fusescope::runtime
