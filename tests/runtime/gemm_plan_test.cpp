// The row-major HLO dot -> column-major cuBLAS GEMM mapping (runtime::PlanGemm), checked
// without a GPU: the planned GEMM (operands swapped, transposes, leading dimensions, batch
// strides) runs through OpenBLAS's column-major cblas_?gemm on the dot's operands and must
// give the reference interpreter's dot.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "runtime/cuda/gemm_plan.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

#ifdef FUSESCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace fusescope::runtime {
namespace {

// A module whose root is `dot` on parameters of the given shapes.
std::string DotModule(const std::string& type, const std::string& lhs, const std::string& rhs,
                      const std::string& result, const std::string& dimensions) {
  return "HloModule dot\n\nENTRY main {\n  a = " + type + lhs + " parameter(0)\n  b = " + type +
         rhs + " parameter(1)\n  ROOT d = " + type + result + " dot(a, b)" +
         (dimensions.empty() ? "" : ", " + dimensions) + "\n}\n";
}

#ifdef FUSESCOPE_HAVE_OPENBLAS
template <typename T>
void ColumnMajorGemm(const GemmPlan& plan, const T* a, const T* b, T* c);

template <>
void ColumnMajorGemm<float>(const GemmPlan& plan, const float* a, const float* b, float* c) {
  for (int64_t i = 0; i < plan.batch; ++i) {
    cblas_sgemm(CblasColMajor, plan.transpose_a ? CblasTrans : CblasNoTrans,
                plan.transpose_b ? CblasTrans : CblasNoTrans, static_cast<int>(plan.m),
                static_cast<int>(plan.n), static_cast<int>(plan.k), 1.0f, a + i * plan.stride_a,
                static_cast<int>(plan.lda), b + i * plan.stride_b, static_cast<int>(plan.ldb), 0.0f,
                c + i * plan.stride_c, static_cast<int>(plan.ldc));
  }
}

template <>
void ColumnMajorGemm<double>(const GemmPlan& plan, const double* a, const double* b, double* c) {
  for (int64_t i = 0; i < plan.batch; ++i) {
    cblas_dgemm(CblasColMajor, plan.transpose_a ? CblasTrans : CblasNoTrans,
                plan.transpose_b ? CblasTrans : CblasNoTrans, static_cast<int>(plan.m),
                static_cast<int>(plan.n), static_cast<int>(plan.k), 1.0, a + i * plan.stride_a,
                static_cast<int>(plan.lda), b + i * plan.stride_b, static_cast<int>(plan.ldb), 0.0,
                c + i * plan.stride_c, static_cast<int>(plan.ldc));
  }
}

// `literal`'s elements with its dimensions in `order` (result dimension i = dimension
// order[i]), row-major: what the device transpose makes of an operand.
template <typename T>
std::vector<T> Transposed(const Literal& literal, const std::vector<int64_t>& order) {
  const std::vector<int64_t>& dims = literal.shape().dimensions();
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  const T* in = reinterpret_cast<const T*>(literal.data());
  std::vector<T> out(static_cast<size_t>(literal.element_count()));
  if (order.empty()) {
    std::copy(in, in + out.size(), out.begin());
    return out;
  }
  std::vector<int64_t> index(order.size(), 0);
  for (T& value : out) {
    int64_t offset = 0;
    for (size_t i = 0; i < order.size(); ++i)
      offset += index[i] * strides[static_cast<size_t>(order[i])];
    value = in[offset];
    for (size_t i = order.size(); i-- > 0;) {
      if (++index[i] < dims[static_cast<size_t>(order[i])]) break;
      index[i] = 0;
    }
  }
  return out;
}

// The planned GEMM on host data: A is the dot's rhs, B its lhs (each transposed first where the
// plan says so), C the row-major result.
template <typename T>
void CheckAgainstInterpreter(const std::string& text, const GemmPlan& plan) {
  auto module = ir::ParseHloModule(text);
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 11);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  Interpreter interpreter;
  auto expected = interpreter.Run(**module, *inputs);
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto actual = Literal::Create((*module)->entry()->root()->shape());
  ASSERT_TRUE(actual.ok());
  const std::vector<T> a = Transposed<T>((*inputs)[1], plan.rhs_permutation);
  const std::vector<T> b = Transposed<T>((*inputs)[0], plan.lhs_permutation);
  ColumnMajorGemm<T>(plan, a.data(), b.data(), reinterpret_cast<T*>(actual->data()));
  ASSERT_EQ(actual->element_count(), expected->element_count());
  const double tolerance = sizeof(T) == 4 ? 1e-4 : 1e-10;
  for (int64_t i = 0; i < expected->element_count(); ++i) {
    const double want = expected->GetDouble(i);
    ASSERT_NEAR(actual->GetDouble(i), want, tolerance * (1 + std::abs(want))) << "element " << i;
  }
}
#endif

struct DotCase {
  const char* intent;
  std::string type, lhs, rhs, result, dimensions;
  bool transpose_a, transpose_b;
  std::vector<int64_t> lhs_permutation = {}, rhs_permutation = {};
};

// Every operand order the mapping covers, with the transposes it must choose.
const std::vector<DotCase>& Cases() {
  static const std::vector<DotCase> cases = {
      {"plain matrix product", "f32", "[5,7]", "[7,3]", "[5,3]",
       "lhs_contracting_dims={1}, rhs_contracting_dims={0}", false, false},
      {"rhs contracted on its last dimension (x * W^T)", "f32", "[5,7]", "[3,7]", "[5,3]",
       "lhs_contracting_dims={1}, rhs_contracting_dims={1}", true, false},
      {"lhs contracted on its first dimension (X^T * w)", "f32", "[7,5]", "[7,3]", "[5,3]",
       "lhs_contracting_dims={0}, rhs_contracting_dims={0}", false, true},
      {"both transposed", "f64", "[7,5]", "[3,7]", "[5,3]",
       "lhs_contracting_dims={0}, rhs_contracting_dims={1}", true, true},
      {"matrix times vector", "f32", "[6,4]", "[4]", "[6]",
       "lhs_contracting_dims={1}, rhs_contracting_dims={0}", false, false},
      {"vector times matrix, matrix transposed", "f32", "[4]", "[6,4]", "[6]",
       "lhs_contracting_dims={0}, rhs_contracting_dims={1}", true, false},
      {"vector dot vector", "f64", "[9]", "[9]", "[]",
       "lhs_contracting_dims={0}, rhs_contracting_dims={0}", false, false},
      {"outer product: nothing contracted", "f32", "[4]", "[3]", "[4,3]", "", false, false},
      {"one batch dimension", "f32", "[3,4,6]", "[3,6,5]", "[3,4,5]",
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}",
       false, false},
      {"attention scores: two batch dimensions, keys contracted last", "f32", "[2,3,4,8]",
       "[2,3,5,8]", "[2,3,4,5]",
       "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, "
       "rhs_contracting_dims={3}",
       true, false},
      {"batched, lhs transposed", "f64", "[2,6,4]", "[2,6,5]", "[2,4,5]",
       "lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0}, rhs_contracting_dims={1}",
       false, true},
      {"two contracting dimensions", "f32", "[4,3,5]", "[3,5,6]", "[4,6]",
       "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}", false, false},
      {"two free dimensions on each side", "f32", "[2,3,4]", "[4,5,2]", "[2,3,5,2]",
       "lhs_contracting_dims={2}, rhs_contracting_dims={0}", false, false},
      {"batched matrix-vector", "f32", "[3,4,6]", "[3,6]", "[3,4]",
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}",
       false, false},
      {"batch of 1 and a size-1 contraction", "f64", "[1,4,1]", "[1,1,3]", "[1,4,3]",
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}",
       false, false},
      // Orders one strided GEMM cannot read: the operand is transposed first.
      {"lhs batch dimension not leading",
       "f32",
       "[4,3,6]",
       "[3,6,5]",
       "[3,4,5]",
       "lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}",
       false,
       false,
       {1, 0, 2}},
      {"contracting dimensions in opposite orders",
       "f32",
       "[4,3,5]",
       "[5,3,6]",
       "[4,6]",
       "lhs_contracting_dims={1,2}, rhs_contracting_dims={1,0}",
       false,
       false,
       {},
       {1, 0, 2}},
      {"contracting dimension between free ones",
       "f64",
       "[4,3,5]",
       "[3,6]",
       "[4,5,6]",
       "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       false,
       false,
       {0, 2, 1}},
      {"both operands transposed, batch last on the rhs",
       "f32",
       "[2,5,3,4]",
       "[5,4,6,2]",
       "[2,3,6]",
       "lhs_batch_dims={0}, lhs_contracting_dims={3,1}, rhs_batch_dims={3}, "
       "rhs_contracting_dims={1,0}",
       false,
       false,
       {0, 2, 3, 1},
       {3, 1, 0, 2}},
  };
  return cases;
}

TEST(GemmPlanTest, ThePlannedColumnMajorGemmIsTheInterpretersDot) {
#ifndef FUSESCOPE_HAVE_OPENBLAS
  GTEST_SKIP() << "this build has no OpenBLAS to run the planned GEMM on the host";
#else
  for (const DotCase& c : Cases()) {
    SCOPED_TRACE(c.intent);
    const std::string text = DotModule(c.type, c.lhs, c.rhs, c.result, c.dimensions);
    auto module = ir::ParseHloModule(text);
    ASSERT_TRUE(module.ok()) << module.message();
    StatusOr<GemmPlan> plan = PlanGemm(*(*module)->entry()->root());
    ASSERT_TRUE(plan.ok()) << plan.message();
    EXPECT_EQ(plan->transpose_a, c.transpose_a) << plan->Description();
    EXPECT_EQ(plan->transpose_b, c.transpose_b) << plan->Description();
    EXPECT_EQ(plan->lhs_permutation, c.lhs_permutation) << plan->Description();
    EXPECT_EQ(plan->rhs_permutation, c.rhs_permutation) << plan->Description();
    if (c.type == "f32")
      CheckAgainstInterpreter<float>(text, *plan);
    else
      CheckAgainstInterpreter<double>(text, *plan);
  }
#endif
}

TEST(GemmPlanTest, DescribesTheCall) {
  auto module = ir::ParseHloModule(
      DotModule("f32", "[2,3,4,8]", "[2,3,5,8]", "[2,3,4,5]",
                "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, "
                "rhs_contracting_dims={3}"));
  ASSERT_TRUE(module.ok()) << module.message();
  StatusOr<GemmPlan> plan = PlanGemm(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_EQ(plan->Description(), "cublasSgemmStridedBatched T,N m=5 n=4 k=8 batch 6");
  EXPECT_EQ(plan->stride_a, 40);
  EXPECT_EQ(plan->stride_b, 32);
  EXPECT_EQ(plan->stride_c, 20);
}

// What cuBLAS has no GEMM for, and dimension numbers that do not describe a dot, are refused
// with the reason rather than planned wrongly.
TEST(GemmPlanTest, RefusesWhatNoGemmComputes) {
  struct Refusal {
    std::string type, lhs, rhs, result, dimensions, reason;
  };
  const std::vector<Refusal> refusals = {
      {"s32", "[4,3]", "[3,5]", "[4,5]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "on s32"},
      {"f32", "[4,3]", "[3,5]", "[4,5]", "lhs_contracting_dims={1}, rhs_contracting_dims={0,1}",
       "do not pair up"},
      {"f32", "[4,3]", "[2,5]", "[4,5]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "differ in size"},
  };
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.reason);
    auto module = ir::ParseHloModule(DotModule(r.type, r.lhs, r.rhs, r.result, r.dimensions));
    ASSERT_TRUE(module.ok()) << module.message();
    StatusOr<GemmPlan> plan = PlanGemm(*(*module)->entry()->root());
    ASSERT_FALSE(plan.ok()) << plan->Description();
    EXPECT_NE(plan.message().find(r.reason), std::string::npos) << plan.message();
  }
}

TEST(GemmPlanTest, NamesTheTransposesItNeeds) {
  auto module = ir::ParseHloModule(DotModule("f32", "[4,3,6]", "[3,6,5]", "[3,4,5]",
                                             "lhs_batch_dims={1}, lhs_contracting_dims={2}, "
                                             "rhs_batch_dims={0}, rhs_contracting_dims={1}"));
  ASSERT_TRUE(module.ok()) << module.message();
  StatusOr<GemmPlan> plan = PlanGemm(*(*module)->entry()->root());
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_EQ(plan->Description(),
            "cublasSgemmStridedBatched N,N m=5 n=4 k=6 batch 3, lhs transposed {1,0,2}");
}

}  // namespace
}  // namespace fusescope::runtime
