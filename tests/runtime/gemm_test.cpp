// The GEMM libraries behind dots and convolutions (runtime/cpu/gemm.h): every library this
// build has agrees with the reference interpreter on dots with batch dimensions, operands read
// transposed or copied, sizes 1, 3, 17 and 129, f32 and f64, and on convolutions; a library
// that cannot run a call says why; names, options and call descriptions.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "runtime/cpu/blas_convolution.h"
#include "runtime/cpu/blas_dot.h"
#include "runtime/cpu/gemm.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

std::string Shape(const std::string& type, const std::vector<int64_t>& dims) {
  std::string text = type + "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

struct DotCase {
  std::string name;
  std::vector<int64_t> lhs, rhs, out;
  std::string dimensions;  // the dot's dimension numbers
};

std::string DotModule(const DotCase& c, const std::string& type) {
  return "HloModule " + c.name + "\nENTRY e {\n a = " + Shape(type, c.lhs) +
         " parameter(0)\n b = " + Shape(type, c.rhs) +
         " parameter(1)\n ROOT d = " + Shape(type, c.out) + " dot(a, b), " + c.dimensions + "\n}\n";
}

// Plain, transposed operands (read in place with a transpose flag), batch dimensions (leading:
// in place; not leading: copied), sizes 1, 3, 17 and 129, and an empty contraction.
std::vector<DotCase> DotCases() {
  const std::string plain = "lhs_contracting_dims={1}, rhs_contracting_dims={0}";
  std::vector<DotCase> cases = {
      {"ones", {1, 1}, {1, 1}, {1, 1}, plain},
      {"m3_n17_k129", {3, 129}, {129, 17}, {3, 17}, plain},
      {"m17_n129_k3", {17, 3}, {3, 129}, {17, 129}, plain},
      {"m129_n3_k17", {129, 17}, {17, 3}, {129, 3}, plain},
      {"m129_n129_k129", {129, 129}, {129, 129}, {129, 129}, plain},
      {"m1_n129_k17", {1, 17}, {17, 129}, {1, 129}, plain},
      {"rhs_transposed",
       {17, 129},
       {3, 129},
       {17, 3},
       "lhs_contracting_dims={1}, rhs_contracting_dims={1}"},
      {"lhs_transposed",
       {129, 3},
       {129, 17},
       {3, 17},
       "lhs_contracting_dims={0}, rhs_contracting_dims={0}"},
      {"both_transposed",
       {17, 3},
       {129, 17},
       {3, 129},
       "lhs_contracting_dims={0}, rhs_contracting_dims={1}"},
      {"batch",
       {3, 17, 129},
       {3, 129, 1},
       {3, 17, 1},
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
       "rhs_contracting_dims={1}"},
      {"batch_rhs_transposed",
       {3, 17, 3},
       {3, 129, 3},
       {3, 17, 129},
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
       "rhs_contracting_dims={2}"},
      {"batch_not_leading",
       {17, 3, 129},
       {129, 3, 17},
       {3, 17, 17},
       "lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={1}, "
       "rhs_contracting_dims={0}"},
      {"two_batch_dims",
       {2, 3, 17, 3},
       {2, 3, 3, 129},
       {2, 3, 17, 129},
       "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, "
       "rhs_contracting_dims={2}"},
      {"empty_contraction", {3, 0}, {0, 17}, {3, 17}, plain},
      // A mixture of experts' weights [experts, d, f] contracted on d: three GEMMs on the
      // slices, each A stored transposed; then two leading free dimensions.
      {"lhs_leading_free",
       {3, 5, 7},
       {4, 5},
       {3, 7, 4},
       "lhs_contracting_dims={1}, rhs_contracting_dims={1}"},
      {"lhs_two_leading_free",
       {2, 3, 5, 7},
       {5, 4},
       {2, 3, 7, 4},
       "lhs_contracting_dims={2}, rhs_contracting_dims={0}"},
      // Attention's scores from [sequence, heads, depth] operands: the rhs is copied into
      // the GEMM's transposed order, which keeps its rows, and read with the transpose flag.
      {"heads_not_leading",
       {17, 3, 129},
       {19, 3, 129},
       {3, 17, 19},
       "lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={1}, "
       "rhs_contracting_dims={2}"},
  };
  return cases;
}

// What each library's description starts with, per GEMM type.
std::string CallName(GemmLibrary library, bool f32) {
  switch (library) {
    case GemmLibrary::kOpenBlas:
      return f32 ? "cblas_sgemm " : "cblas_dgemm ";
    case GemmLibrary::kOneDnn:
      return "dnnl_";  // dnnl_sgemm, or dnnl_matmul for a batch
    case GemmLibrary::kBlis:
      return f32 ? "bli_sgemm " : "bli_dgemm ";
    case GemmLibrary::kMlir:
      return "mlir ";
  }
  return "?";
}

GemmConfig Config(GemmLibrary library) {
  GemmConfig config;
  config.library = library;
  // A tile that divides none of the odd sizes, on a vectorized matmul.
  config.lowering = LoweringOptions::Parse("tile=4 vector=8").value();
  return config;
}

// `expected` within the tolerance of a sum of `k` products of the GEMM's type.
void ExpectClose(const Literal& actual, const Literal& expected, double tolerance) {
  ASSERT_EQ(actual.element_count(), expected.element_count());
  int reported = 0;
  for (int64_t i = 0; i < actual.element_count() && reported < 5; ++i) {
    const double want = expected.GetDouble(i);
    if (std::abs(actual.GetDouble(i) - want) > tolerance * (1 + std::abs(want))) {
      ADD_FAILURE() << "element " << i << ": " << actual.GetDouble(i) << ", expected " << want;
      ++reported;
    }
  }
}

class GemmLibraryTest : public ::testing::TestWithParam<GemmLibrary> {
 protected:
  void SetUp() override {
    Status available = GemmLibraryAvailable(GetParam());
    if (!available.ok()) GTEST_SKIP() << available.message();
  }
};

// Runs every case through the library at `precision` on `type` and compares with the
// interpreter.
void CheckDots(GemmLibrary library, const std::string& type, BlasPrecision precision,
               double tolerance) {
  const bool f32_gemm = type == "f32" && precision == BlasPrecision::kNative;
  for (const DotCase& c : DotCases()) {
    SCOPED_TRACE(c.name + " " + type);
    auto module = ir::ParseHloModule(DotModule(c, type));
    ASSERT_TRUE(module.ok()) << module.message();
    const ir::Instruction& dot = *(*module)->entry()->root();
    ASSERT_TRUE(CheckBlasDot(dot, library, precision).ok())
        << CheckBlasDot(dot, library, precision).message();
    auto inputs = SeededInputs(*(*module)->entry(), 11);
    ASSERT_TRUE(inputs.ok()) << inputs.message();
    Interpreter interpreter;
    auto expected = interpreter.Run(**module, *inputs);
    ASSERT_TRUE(expected.ok()) << expected.message();
    auto actual = RunBlasDot(dot, (*inputs)[0], (*inputs)[1], precision, {}, Config(library));
    ASSERT_TRUE(actual.ok()) << actual.message();
    ExpectClose(*actual, *expected, tolerance);
    const std::string call = BlasCallDescription(dot, precision, Config(library));
    EXPECT_EQ(call.rfind(CallName(library, f32_gemm), 0), 0u) << call;
  }
}

TEST_P(GemmLibraryTest, F32DotsMatchTheInterpreter) {
  CheckDots(GetParam(), "f32", BlasPrecision::kNative, 1e-5);
}

TEST_P(GemmLibraryTest, F64DotsMatchTheInterpreter) {
  if (!GemmLibraryAvailable(GetParam(), GemmType::kF64).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GetParam(), GemmType::kF64).message();
  CheckDots(GetParam(), "f64", BlasPrecision::kNative, 1e-12);
}

TEST_P(GemmLibraryTest, WidenedF32DotsGiveTheInterpretersNumbers) {
  if (!GemmLibraryAvailable(GetParam(), GemmType::kF64).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GetParam(), GemmType::kF64).message();
  // One rounding of the f64 sum: within an f32 ulp of the interpreter.
  CheckDots(GetParam(), "f32", BlasPrecision::kWidened, 1.2e-7);
}

// NHWC with padding and stride (im2col, kernel read in place), NCHW/OIHW (the channels-first
// GEMM), two feature groups (scratch matrices), a dilated window with uneven padding, a 1-D
// convolution in a layout of its own, a transposed one (a dilated input) and a weight gradient.
// oneDNN runs f32 convolutions itself, except the transposed one, which it leaves to im2col.
TEST_P(GemmLibraryTest, ConvolutionsMatchTheInterpreter) {
  const std::vector<std::string> convolutions = {
      "a = TYPE[2,9,7,3] parameter(0)\n b = TYPE[3,3,3,5] parameter(1)\n ROOT c = TYPE[2,5,4,5] "
      "convolution(a, b), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
      "a = TYPE[2,3,9,7] parameter(0)\n b = TYPE[5,3,3,3] parameter(1)\n ROOT c = TYPE[2,5,9,7] "
      "convolution(a, b), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01",
      "a = TYPE[1,6,6,4] parameter(0)\n b = TYPE[3,3,2,6] parameter(1)\n ROOT c = TYPE[1,4,4,6] "
      "convolution(a, b), window={size=3x3}, dim_labels=b01f_01io->b01f, "
      "feature_group_count=2",
      "a = TYPE[1,10,9,4] parameter(0)\n b = TYPE[3,3,4,8] parameter(1)\n ROOT c = TYPE[1,7,8,8] "
      "convolution(a, b), window={size=3x3 pad=0_1x2_1 rhs_dilate=2x2}, "
      "dim_labels=b01f_01io->b01f",
      "a = TYPE[5,2,11] parameter(0)\n b = TYPE[5,6,3] parameter(1)\n ROOT c = TYPE[2,11,6] "
      "convolution(a, b), window={size=3 pad=1_1}, dim_labels=fb0_io0->b0f",
      "a = TYPE[1,4,4,3] parameter(0)\n b = TYPE[3,3,3,2] parameter(1)\n ROOT c = TYPE[1,9,9,2] "
      "convolution(a, b), window={size=3x3 pad=2_2x2_2 lhs_dilate=2x2}, "
      "dim_labels=b01f_01io->b01f",
      // A weight gradient, as jax writes it: the batch is the contraction, the window the
      // whole image (its input is copied features-innermost for im2col's runs).
      "a = TYPE[4,6,7,3] parameter(0)\n b = TYPE[4,6,7,5] parameter(1)\n ROOT c = TYPE[3,3,3,5] "
      "convolution(a, b), window={size=6x7 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf",
  };
  for (const std::string type : {"f32", "f64"}) {
    const GemmType gemm_type = type == "f32" ? GemmType::kF32 : GemmType::kF64;
    if (!GemmLibraryAvailable(GetParam(), gemm_type).ok()) continue;
    for (std::string body : convolutions) {
      for (size_t at = body.find("TYPE"); at != std::string::npos; at = body.find("TYPE"))
        body.replace(at, 4, type);
      SCOPED_TRACE(body);
      auto module = ir::ParseHloModule("HloModule conv\nENTRY e {\n " + body + "\n}\n");
      ASSERT_TRUE(module.ok()) << module.message();
      const ir::Instruction& convolution = *(*module)->entry()->root();
      ASSERT_TRUE(CheckBlasConvolution(convolution, GetParam(), BlasPrecision::kNative).ok());
      auto inputs = SeededInputs(*(*module)->entry(), 5);
      ASSERT_TRUE(inputs.ok());
      Interpreter interpreter;
      auto expected = interpreter.Run(**module, *inputs);
      ASSERT_TRUE(expected.ok()) << expected.message();
      auto actual = RunBlasConvolution(convolution, (*inputs)[0], (*inputs)[1],
                                       BlasPrecision::kNative, {}, Config(GetParam()));
      ASSERT_TRUE(actual.ok()) << actual.message();
      ExpectClose(*actual, *expected, type == "f32" ? 1e-5 : 1e-12);
      const std::string call =
          BlasConvolutionDescription(convolution, BlasPrecision::kNative, Config(GetParam()));
      const bool transposed = body.find("lhs_dilate") != std::string::npos;
      // oneDNN's kernels for a layout depend on the CPU: batch-major ones have generated
      // kernels wherever there is AVX2; a feature-major input may get the reference loops,
      // which are refused.
      const bool odd_layout =
          body.find("fb0") != std::string::npos || body.find("f01b") != std::string::npos;
      if (GetParam() == GemmLibrary::kOneDnn && type == "f32" && !transposed &&
          (HostVectorFeatures().avx2_fma || odd_layout)) {
        if (odd_layout && call.rfind("oneDNN convolution ", 0) != 0)
          EXPECT_NE(call.find("not oneDNN's own convolution: oneDNN has only its reference"),
                    std::string::npos)
              << call;
        else
          EXPECT_EQ(call.rfind("oneDNN convolution ", 0), 0u) << call;
      } else {
        EXPECT_EQ(call.rfind("im2col + " + CallName(GetParam(), type == "f32"), 0), 0u) << call;
      }
      if (GetParam() == GemmLibrary::kOneDnn && type == "f32" && transposed) {
        EXPECT_NE(call.find("not oneDNN's own convolution: it dilates its input"),
                  std::string::npos)
            << call;
      }
    }
  }
}

// Runs `p` through RunGemm on small integers over 8 and 4 and checks every element of C against
// the sum in double; C has one element more than the GEMM writes, which must stay as it was.
void ExpectGemmMatchesASumInDouble(const GemmConfig& config, const GemmProblem& p) {
  std::vector<float> a(static_cast<size_t>(p.batch * p.m * p.k));
  std::vector<float> b(static_cast<size_t>(p.batch * p.k * p.n));
  std::vector<float> c(static_cast<size_t>(p.batch * p.m * p.n) + 1, -7.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7) % 13) / 8 - 0.75f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 5) % 11) / 4 - 1.25f;
  ASSERT_TRUE(RunGemm(config, p, a.data(), b.data(), c.data()).ok());
  EXPECT_EQ(c.back(), -7.0f) << "written past C";
  for (int64_t x = 0; x < p.batch; ++x) {
    for (int64_t i = 0; i < p.m; ++i) {
      for (int64_t j = 0; j < p.n; ++j) {
        double sum = 0;
        for (int64_t q = 0; q < p.k; ++q) {
          const float left =
              a[static_cast<size_t>(x * p.m * p.k + (p.transpose_a ? q * p.m + i : i * p.k + q))];
          const float right =
              b[static_cast<size_t>(x * p.k * p.n + (p.transpose_b ? j * p.k + q : q * p.n + j))];
          sum += static_cast<double>(left) * right;
        }
        ASSERT_NEAR(c[static_cast<size_t>((x * p.m + i) * p.n + j)], sum,
                    1e-4 * (1 + std::abs(sum)))
            << x << "," << i << "," << j;
      }
    }
  }
}

// A GEMM with odd sizes straight through the entry point, each transposition, checked against
// a sum in double.
TEST_P(GemmLibraryTest, RunGemmComputesEveryTransposition) {
  const GemmProblem shapes[] = {{2, 17, 3, 129}, {1, 129, 17, 3}, {3, 1, 129, 17}};
  for (GemmProblem p : shapes) {
    for (int transposes = 0; transposes < 4; ++transposes) {
      p.transpose_a = transposes & 1;
      p.transpose_b = transposes & 2;
      SCOPED_TRACE(p.ToString());
      ExpectGemmMatchesASumInDouble(Config(GetParam()), p);
    }
  }
}

TEST_P(GemmLibraryTest, NegativeDimensionsAreRefused) {
  float x = 0;
  Status refused = RunGemm(Config(GetParam()), GemmProblem{1, -1, 1, 1}, &x, &x, &x);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("negative"), std::string::npos) << refused.message();
}

TEST_P(GemmLibraryTest, ReportsItsVersionAndThreads) {
  EXPECT_FALSE(GemmLibraryVersion(GetParam()).empty());
  const int before = GemmThreads(GetParam());
  EXPECT_GE(before, 1);
  ASSERT_TRUE(SetGemmThreads(GetParam(), 1).ok());
  EXPECT_EQ(GemmThreads(GetParam()), 1);
  if (GetParam() != GemmLibrary::kMlir) {
    ASSERT_TRUE(SetGemmThreads(GetParam(), before).ok());
  }
  EXPECT_FALSE(SetGemmThreads(GetParam(), 0).ok());
}

// A count given for one call is the library's for that call only: the result is the same
// and the library's own count is back afterwards. The MLIR matmul has no team to size.
TEST_P(GemmLibraryTest, AThreadCountForOneCallIsGivenBack) {
  const GemmLibrary library = GetParam();
  GemmConfig config = Config(library);
  config.threads = 1;
  if (library == GemmLibrary::kMlir) {
    EXPECT_EQ(config.ToString(), Config(library).ToString());
    return;
  }
  const int before = GemmThreads(library);
  ASSERT_TRUE(SetGemmThreads(library, 2).ok());
  const GemmProblem p{1, 33, 17, 65};
  std::vector<float> a(static_cast<size_t>(p.m * p.k)), b(static_cast<size_t>(p.k * p.n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) - 2;
  std::vector<float> one(static_cast<size_t>(p.m * p.n)), team(one.size());
  ASSERT_TRUE(RunGemm(config, p, a.data(), b.data(), one.data()).ok());
  EXPECT_EQ(GemmThreads(library), 2);
  ASSERT_TRUE(RunGemm(Config(library), p, a.data(), b.data(), team.data()).ok());
  EXPECT_EQ(one, team) << "small integers: exact on any number of threads";
  ASSERT_TRUE(SetGemmThreads(library, before).ok());
}

INSTANTIATE_TEST_SUITE_P(EveryLibrary, GemmLibraryTest, ::testing::ValuesIn(AllGemmLibraries()),
                         [](const ::testing::TestParamInfo<GemmLibrary>& param) {
                           return std::string(GemmLibraryName(param.param));
                         });

TEST(GemmTest, NamesRoundTrip) {
  for (GemmLibrary library : AllGemmLibraries()) {
    auto parsed = ParseGemmLibrary(GemmLibraryName(library));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, library);
  }
  auto unknown = ParseGemmLibrary("mkl");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.message(), "unknown GEMM library 'mkl' (openblas, onednn, blis, mlir)");
}

// OpenBLAS's kernels older than the CPU runs are replaced by the newest it can: SkylakeX with
// AVX-512, Haswell with AVX2 and FMA; kernels it chose for a CPU it knows are left alone.
TEST(GemmTest, OpenBlasKernelsOlderThanTheCpuAreReplaced) {
  const CpuVectorFeatures avx512{true, true}, avx2{true, false}, sse{false, false};
  EXPECT_EQ(BetterOpenBlasCore("Prescott", avx512), "SkylakeX");
  EXPECT_EQ(BetterOpenBlasCore("Sandybridge", avx2), "Haswell");
  EXPECT_EQ(BetterOpenBlasCore("Nehalem", avx2), "Haswell");
  EXPECT_EQ(BetterOpenBlasCore("Prescott", sse), std::nullopt);
  EXPECT_EQ(BetterOpenBlasCore("Haswell", avx512), std::nullopt);
  EXPECT_EQ(BetterOpenBlasCore("Zen", avx512), std::nullopt);
  EXPECT_EQ(BetterOpenBlasCore("SkylakeX", avx512), std::nullopt);
  EXPECT_EQ(BetterOpenBlasCore("", avx512), std::nullopt);
  // This process has not been started again (only the fusescope executable does that): what
  // OpenBLAS took here is named, and a replacement is one of the two.
  if (GemmLibraryAvailable(GemmLibrary::kOpenBlas).ok()) {
    EXPECT_FALSE(OpenBlasCore().empty());
    const std::optional<std::string> here = BetterOpenBlasCoreHere();
    if (here) {
      EXPECT_TRUE(*here == "SkylakeX" || *here == "Haswell") << *here;
    }
  }
}

TEST(GemmTest, ConfigsRoundTrip) {
  auto mlir = GemmConfig::Parse("mlir tile=32 vector=16");
  ASSERT_TRUE(mlir.ok()) << mlir.message();
  EXPECT_EQ(mlir->library, GemmLibrary::kMlir);
  EXPECT_EQ(mlir->lowering.tile, 32);
  EXPECT_EQ(mlir->ToString(), "mlir tile=32 vector=16");
  auto blis = GemmConfig::Parse("blis");
  ASSERT_TRUE(blis.ok());
  EXPECT_EQ(blis->ToString(), "blis");
  auto one = GemmConfig::Parse("openblas threads=1");
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_EQ(one->threads, 1);
  EXPECT_EQ(one->ToString(), "openblas threads=1");
  EXPECT_NE(GemmConfig::Parse("blis threads=x").message().find("threads=N"), std::string::npos);
  EXPECT_FALSE(GemmConfig::Parse("openblas threads=2000").ok());
  EXPECT_FALSE(GemmConfig::Parse("openblas tile=32").ok());
  EXPECT_FALSE(GemmConfig::Parse("mlir tile=x").ok());
  EXPECT_FALSE(GemmConfig::Parse("").ok());
}

TEST(GemmTest, DescriptionsNameTheLibraryAndTheCall) {
  const GemmProblem attention{12, 128, 128, 64, false, true};
  GemmConfig config;
  EXPECT_EQ(GemmCallDescription(config, attention, GemmType::kF32),
            "cblas_sgemm 128x128x64 (batch 12, B transposed)");
  config.library = GemmLibrary::kOneDnn;
  EXPECT_EQ(GemmCallDescription(config, {1, 64, 512, 256}, GemmType::kF32),
            "dnnl_sgemm 64x512x256");
  config.library = GemmLibrary::kBlis;
  EXPECT_EQ(GemmCallDescription(config, {1, 64, 512, 256}, GemmType::kF64), "bli_dgemm 64x512x256");
  config = GemmConfig::Parse("mlir tile=32 vector=8").value();
  EXPECT_EQ(GemmCallDescription(config, {1, 64, 512, 256}, GemmType::kF32),
            "mlir matmul tile=32 vector=8 64x512x256");
  EXPECT_EQ(GemmCallDescription(config, attention, GemmType::kF64),
            "mlir transpose + batch_matmul tile=32 vector=8 128x128x64 (batch 12, B transposed, "
            "f64)");
}

// The dot path reads an operand stored transposed in place, and copies one whose dimensions
// are in neither order.
// oneDNN runs a batch on several threads as one matmul primitive, on one thread as
// dnnl_sgemm per product: both give the exact sums' numbers, in every operand order.
TEST(GemmTest, OneDnnBatchesOnSeveralThreadsRunAsOneMatmul) {
  if (!GemmLibraryAvailable(GemmLibrary::kOneDnn).ok())
    GTEST_SKIP() << GemmLibraryAvailable(GemmLibrary::kOneDnn).message();
  for (const bool transpose_a : {false, true}) {
    for (const bool transpose_b : {false, true}) {
      const GemmProblem p{3, 17, 19, 33, transpose_a, transpose_b};
      SCOPED_TRACE(p.ToString());
      std::vector<float> a(static_cast<size_t>(p.batch * p.m * p.k));
      std::vector<float> b(static_cast<size_t>(p.batch * p.k * p.n));
      // Small integers: every product and sum is exact in f32, so both paths must agree
      // with the exact answer to the bit.
      for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
      std::vector<float> exact(static_cast<size_t>(p.batch * p.m * p.n));
      for (int64_t q = 0; q < p.batch; ++q) {
        for (int64_t i = 0; i < p.m; ++i) {
          for (int64_t j = 0; j < p.n; ++j) {
            double sum = 0;
            for (int64_t l = 0; l < p.k; ++l) {
              const float x =
                  transpose_a ? a[q * p.m * p.k + l * p.m + i] : a[q * p.m * p.k + i * p.k + l];
              const float y =
                  transpose_b ? b[q * p.k * p.n + j * p.k + l] : b[q * p.k * p.n + l * p.n + j];
              sum += static_cast<double>(x) * y;
            }
            exact[q * p.m * p.n + i * p.n + j] = static_cast<float>(sum);
          }
        }
      }
      for (const char* text : {"onednn threads=2", "onednn threads=1"}) {
        SCOPED_TRACE(text);
        const GemmConfig config = GemmConfig::Parse(text).value();
        std::vector<float> c(exact.size(), -1.0f);
        ASSERT_TRUE(RunGemm(config, p, a.data(), b.data(), c.data()).ok());
        EXPECT_EQ(c, exact);
      }
      EXPECT_EQ(
          GemmCallDescription(GemmConfig::Parse("onednn threads=2").value(), p, GemmType::kF32)
              .rfind("dnnl_matmul ", 0),
          0u);
      EXPECT_EQ(
          GemmCallDescription(GemmConfig::Parse("onednn threads=1").value(), p, GemmType::kF32)
              .rfind("dnnl_sgemm ", 0),
          0u);
    }
  }
}

TEST(GemmTest, DotDescriptionsSayHowOperandsAreRead) {
  auto transposed = ir::ParseHloModule(DotModule(DotCases()[10], "f32"));  // batch_rhs_transposed
  auto copied = ir::ParseHloModule(DotModule(DotCases()[11], "f32"));      // batch_not_leading
  ASSERT_TRUE(transposed.ok() && copied.ok());
  EXPECT_EQ(BlasCallDescription(*(*transposed)->entry()->root()),
            "cblas_sgemm 17x129x3 (batch 3, B transposed)");
  EXPECT_EQ(BlasCallDescription(*(*copied)->entry()->root()),
            "cblas_sgemm 17x17x129 (batch 3), operands reordered");
  EXPECT_EQ(BlasCallDescription(*(*transposed)->entry()->root(), BlasPrecision::kWidened),
            "cblas_dgemm 17x129x3 (batch 3) on f32 widened to f64, operands reordered");
  auto heads = ir::ParseHloModule(DotModule(DotCases().back(), "f32"));  // heads_not_leading
  ASSERT_TRUE(heads.ok());
  EXPECT_EQ(BlasCallDescription(*(*heads)->entry()->root()),
            "cblas_sgemm 17x19x129 (batch 3, B transposed), operands reordered");
  auto experts = ir::ParseHloModule(DotModule(DotCases()[14], "f32"));  // lhs_leading_free
  ASSERT_TRUE(experts.ok());
  EXPECT_EQ(BlasCallDescription(*(*experts)->entry()->root()),
            "cblas_sgemm 7x4x5 (A transposed, B transposed) x3 (one per slice of the lhs's leading "
            "dimensions)");
  auto problem = DotGemmProblem(*(*transposed)->entry()->root());
  ASSERT_TRUE(problem.ok()) << problem.message();
  EXPECT_EQ(problem->batch, 3);
  EXPECT_EQ(problem->m, 17);
  EXPECT_EQ(problem->n, 129);
  EXPECT_EQ(problem->k, 3);
  EXPECT_FALSE(problem->transpose_a);
  EXPECT_TRUE(problem->transpose_b);
}

// oneDNN 2.6 has no f64 GEMM: an f64 dot, or a widened f32 one, is refused with the reason
// before anything runs, and running it anyway gives the same error rather than a crash.
TEST(GemmTest, AnUnavailableLibrarySaysWhy) {
  auto module = ir::ParseHloModule(DotModule(DotCases()[1], "f64"));
  ASSERT_TRUE(module.ok());
  const ir::Instruction& dot = *(*module)->entry()->root();
  Status refused = CheckBlasDot(dot, GemmLibrary::kOneDnn);
  ASSERT_FALSE(refused.ok());
  const std::string reason = GemmLibraryAvailable(GemmLibrary::kOneDnn).ok()
                                 ? "oneDNN has no f64 GEMM (dnnl_sgemm is single precision only)"
                                 : GemmLibraryAvailable(GemmLibrary::kOneDnn).message();
  EXPECT_EQ(refused.message(), reason);
  auto inputs = SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok());
  GemmConfig onednn;
  onednn.library = GemmLibrary::kOneDnn;
  auto ran = RunBlasDot(dot, (*inputs)[0], (*inputs)[1], BlasPrecision::kNative, {}, onednn);
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.message(), "d: " + reason);
  std::vector<double> x(3 * 129), y(129 * 17), z(3 * 17);
  EXPECT_FALSE(RunGemm(onednn, {1, 3, 17, 129}, x.data(), y.data(), z.data()).ok());
  EXPECT_FALSE(SetGemmThreads(GemmLibrary::kMlir, 2).ok());
}

// A library this build lacks (oneDNN or BLIS configured off, or not installed) refuses every
// call with its reason.
TEST(GemmTest, ALibraryTheBuildLacksRefusesEveryCall) {
  auto module = ir::ParseHloModule(DotModule(DotCases()[1], "f32"));
  ASSERT_TRUE(module.ok());
  const ir::Instruction& dot = *(*module)->entry()->root();
  auto inputs = SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok());
  int lacking = 0;
  for (GemmLibrary library : AllGemmLibraries()) {
    const Status available = GemmLibraryAvailable(library);
    if (available.ok()) continue;
    ++lacking;
    SCOPED_TRACE(std::string(GemmLibraryName(library)));
    EXPECT_NE(available.message().find("this build has no"), std::string::npos);
    EXPECT_EQ(CheckBlasDot(dot, library).message(), available.message());
    GemmConfig config;
    config.library = library;
    auto ran = RunBlasDot(dot, (*inputs)[0], (*inputs)[1], BlasPrecision::kNative, {}, config);
    ASSERT_FALSE(ran.ok());
    EXPECT_EQ(ran.message(), "d: " + available.message());
    EXPECT_FALSE(SetGemmThreads(library, 1).ok());
    EXPECT_EQ(GemmThreads(library), 0);
    EXPECT_EQ(GemmLibraryVersion(library), "");
  }
  if (lacking == 0) GTEST_SKIP() << "this build has every GEMM library";
}

// The cblas_sgemm this process calls is OpenBLAS's even where BLIS, which exports one too, is
// linked.
TEST(GemmTest, CblasIsOpenBlas) {
  Status available = GemmLibraryAvailable(GemmLibrary::kOpenBlas);
  if (!BlasAvailable()) GTEST_SKIP() << available.message();
  ASSERT_TRUE(available.ok()) << available.message();
  EXPECT_EQ(GemmLibraryVersion(GemmLibrary::kOpenBlas).rfind("OpenBLAS", 0), 0u);
}

int ThreadsOfThisProcess() {
  std::error_code error;
  int threads = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error))
    ++threads;
  return threads;
}

// OpenBLAS's worker threads, stopped as main stops them before a compile, start again at its
// next threaded call: a GEMM on two threads after the stop gives the exact answer, and the
// process has as many threads again as before the stop.
TEST(GemmTest, StoppedOpenBlasThreadsStartAgain) {
  Status available = GemmLibraryAvailable(GemmLibrary::kOpenBlas);
  if (!available.ok()) GTEST_SKIP() << available.message();
  const GemmConfig config = GemmConfig::Parse("openblas threads=2").value();
  // 128x128x128 is over OpenBLAS's size for threading a GEMM (65536 * 4 products).
  const GemmProblem p{1, 128, 128, 128, false, false};
  std::vector<float> a(static_cast<size_t>(p.m * p.k)), b(static_cast<size_t>(p.k * p.n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  std::vector<float> exact(static_cast<size_t>(p.m * p.n));
  for (int64_t i = 0; i < p.m; ++i) {
    for (int64_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < p.k; ++l) sum += double{a[i * p.k + l]} * b[l * p.n + j];
      exact[i * p.n + j] = static_cast<float>(sum);
    }
  }
  std::vector<float> c(exact.size(), -1.0f);
  ASSERT_TRUE(RunGemm(config, p, a.data(), b.data(), c.data()).ok());  // its threads run
  ASSERT_EQ(c, exact);
  const int running = ThreadsOfThisProcess();
  const bool stopped = StopIdleOpenBlasThreads();
  EXPECT_FALSE(StopIdleOpenBlasThreads()) << "stopped twice";
  if (stopped && GemmThreads(GemmLibrary::kOpenBlas) > 1)
    EXPECT_LT(ThreadsOfThisProcess(), running);
  for (int round = 0; round < 2; ++round) {
    std::fill(c.begin(), c.end(), -1.0f);
    ASSERT_TRUE(RunGemm(config, p, a.data(), b.data(), c.data()).ok());
    EXPECT_EQ(c, exact);
    EXPECT_EQ(ThreadsOfThisProcess(), running);
  }
}

// The MLIR matmul is compiled once per shape and options, with the tiling asked for.
TEST(GemmTest, MlirMatmulsAreCompiledOncePerShapeAndOptions) {
  if (!GemmLibraryAvailable(GemmLibrary::kMlir).ok()) GTEST_SKIP() << "this build has no MLIR";
  const GemmProblem problem{2, 16, 24, 8, false, false};
  EXPECT_NE(MlirMatmulText(problem, GemmType::kF32, LoweringOptions::Parse("vector=0").value())
                .find("linalg.batch_matmul ins("),
            std::string::npos);
  const GemmConfig tiled = GemmConfig::Parse("mlir tile=4 vector=8").value();
  recording::KernelRecord first, again;
  ASSERT_TRUE(PrepareGemm(tiled, problem, GemmType::kF32, &first).ok());
  ASSERT_TRUE(PrepareGemm(tiled, problem, GemmType::kF32, &again).ok());
  EXPECT_EQ(first.options, "tile=4 vector=8");
  bool tiled_stage = false;
  for (const recording::KernelStage& stage : first.stages)
    tiled_stage = tiled_stage || stage.name == "affine-loop-tile";
  EXPECT_TRUE(tiled_stage);
  // The same compile: its recorded time is the first one's, not a second compile's.
  EXPECT_EQ(again.compile_seconds, first.compile_seconds);
  recording::KernelRecord untiled;
  ASSERT_TRUE(PrepareGemm(GemmConfig::Parse("mlir tile=0 vector=8").value(), problem,
                          GemmType::kF32, &untiled)
                  .ok());
  EXPECT_EQ(untiled.options, "tile=0 vector=8");
}

// The register-blocked matmul at every lane width, row block and block of k: the sums of a
// block stay in the k loop's iter_args (one vector.fma per row and vector per step, no load
// or store of C inside it), and every shape's remainders (rows, whole vectors, masked lanes,
// the last steps of k) come out right.
TEST(GemmTest, RegisterBlockedMatmulsKeepTheirSumsInRegisters) {
  if (!GemmLibraryAvailable(GemmLibrary::kMlir).ok()) GTEST_SKIP() << "this build has no MLIR";
  const GemmProblem blocked{1, 13, 37, 5, false, false};
  const std::string text =
      MlirMatmulText(blocked, GemmType::kF32, LoweringOptions::Parse("vector=8").value());
  // 13 rows: 3 blocks of 4 and one row; 37 columns: two vectors, then 21 = two more and 5 lanes.
  EXPECT_NE(text.find("iter_args("), std::string::npos) << text;
  EXPECT_NE(text.find("vector.fma"), std::string::npos) << text;
  EXPECT_NE(text.find("vector.constant_mask [5]"), std::string::npos) << text;
  EXPECT_EQ(text.find("linalg.matmul"), std::string::npos) << text;
  const std::string k_loop = text.substr(text.find("iter_args("));
  EXPECT_EQ(k_loop.substr(0, k_loop.find("scf.yield")).find("%c["), std::string::npos)
      << "C is read or written inside the k loop";
  const GemmProblem shapes[] = {
      {1, 13, 37, 5}, {3, 7, 16, 33}, {1, 1, 1, 1}, {2, 19, 50, 4}, {1, 9, 20, 70}};
  // tile=16: k in blocks of 16 (33 and 70 steps: a first block, a loop of blocks, the rest).
  for (const char* lowering : {"vector=4", "vector=8", "vector=16", "vector=16 unroll=8",
                               "vector=8 unroll=3", "tile=16 vector=8", "tile=32 vector=16"}) {
    for (GemmProblem p : shapes) {
      for (int transposes = 0; transposes < 4; ++transposes) {
        p.transpose_a = transposes & 1;
        p.transpose_b = transposes & 2;
        SCOPED_TRACE(std::string(lowering) + " " + p.ToString());
        GemmConfig config;
        config.library = GemmLibrary::kMlir;
        config.lowering = LoweringOptions::Parse(lowering).value();
        // A masked store must not write past C.
        ExpectGemmMatchesASumInDouble(config, p);
      }
    }
  }
}

}  // namespace
}  // namespace fusescope::runtime
