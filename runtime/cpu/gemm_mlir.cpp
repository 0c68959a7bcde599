// The MLIR matmul behind runtime/cpu/gemm.h: a linalg matmul on static shapes, compiled by the
// kernel compiler with the caller's lowering options and kept per shape and options.

#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "runtime/cpu/gemm_libraries.h"

namespace fusescope::runtime::gemm_libraries {
namespace {

// "12x128x64x": the dimensions of a memref or tensor type, each followed by its "x".
std::string Dims(const std::vector<int64_t>& dims) {
  std::string text;
  for (int64_t d : dims) text += std::to_string(d) + "x";
  return text;
}

std::string TypeName(GemmType type) { return type == GemmType::kF32 ? "f32" : "f64"; }

// The cache key: the problem, the element type and the lowering options as ToString writes
// them, the form the kernel compiler's own cache keys on, which names every option.
using MatmulKey = std::tuple<int64_t, int64_t, int64_t, int64_t, bool, bool, GemmType, std::string>;

MatmulKey Key(const GemmProblem& p, GemmType type, const LoweringOptions& options) {
  return {p.batch, p.m, p.n, p.k, p.transpose_a, p.transpose_b, type, options.ToString()};
}

// A compiled matmul, or why it did not compile. CompiledKernel::Run may be called from one
// thread at a time: `running` serializes the calls.
struct CompiledMatmul {
  std::shared_ptr<const CompiledKernel> kernel;
  recording::KernelRecord record;
  std::mutex running;
};

std::mutex cache_mutex;
std::map<MatmulKey, std::shared_ptr<CompiledMatmul>>& Cache() {
  static auto* cache = new std::map<MatmulKey, std::shared_ptr<CompiledMatmul>>();
  return *cache;
}

// The cached matmul for the key, compiled on first use. Two threads asking for the same new
// matmul at once may both compile it; the first result is kept.
std::shared_ptr<CompiledMatmul> Lookup(const GemmProblem& p, GemmType type,
                                       const LoweringOptions& options) {
  const MatmulKey key = Key(p, type, options);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = Cache().find(key);
    if (it != Cache().end()) return it->second;
  }
  auto compiled = std::make_shared<CompiledMatmul>();
  KernelCompilation compilation = CompileKernelText(MlirMatmulText(p, type), "matmul", options);
  compiled->kernel = std::move(compilation.kernel);
  compiled->record = std::move(compilation.record);
  compiled->record.backend = "mlir-cpu";
  std::lock_guard<std::mutex> lock(cache_mutex);
  return Cache().emplace(key, std::move(compiled)).first->second;
}

// The linalg op of the product: B is always read k x n (transposed first when stored n x k).
std::string LinalgMatmul(const GemmProblem& p) {
  return std::string(p.batch == 1 ? "matmul" : "batch_matmul") +
         (p.transpose_a ? "_transpose_a" : "");
}

Status Failure(const CompiledMatmul& matmul) {
  return Status::Error("the MLIR matmul failed to compile at " + matmul.record.failed_stage + ": " +
                       matmul.record.error);
}

}  // namespace

std::string MlirMatmulOpName(const GemmProblem& p) {
  return (p.transpose_b ? "transpose + " : "") + LinalgMatmul(p);
}

Status MlirPrepare(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                   recording::KernelRecord* record) {
  std::shared_ptr<CompiledMatmul> matmul = Lookup(problem, type, options);
  if (record != nullptr) *record = matmul->record;
  return matmul->kernel ? Status::Ok() : Failure(*matmul);
}

Status MlirGemm(const GemmProblem& problem, GemmType type, const LoweringOptions& options,
                const void* a, const void* b, void* c) {
  std::shared_ptr<CompiledMatmul> matmul = Lookup(problem, type, options);
  if (!matmul->kernel) return Failure(*matmul);
  std::lock_guard<std::mutex> lock(matmul->running);
  return matmul->kernel->Run({const_cast<void*>(a), const_cast<void*>(b), c});
}

}  // namespace fusescope::runtime::gemm_libraries

namespace fusescope::runtime {

std::string MlirMatmulText(const GemmProblem& p, GemmType type) {
  using gemm_libraries::Dims;
  const std::string element = gemm_libraries::TypeName(type);
  std::vector<int64_t> batch;
  if (p.batch != 1) batch.push_back(p.batch);
  auto shape = [&](int64_t rows, int64_t columns) {
    std::vector<int64_t> dims = batch;
    dims.push_back(rows);
    dims.push_back(columns);
    return Dims(dims) + element;
  };
  const std::string a = shape(p.transpose_a ? p.k : p.m, p.transpose_a ? p.m : p.k);
  const std::string b = shape(p.transpose_b ? p.n : p.k, p.transpose_b ? p.k : p.n);
  const std::string b_read = shape(p.k, p.n);  // B as the matmul reads it
  const std::string c = shape(p.m, p.n);
  std::ostringstream text;
  text << "module {\n  func.func @matmul(%a: memref<" << a << ">, %b: memref<" << b
       << ">, %c: memref<" << c << ">) attributes {llvm.emit_c_interface} {\n"
       << "    %lhs = bufferization.to_tensor %a restrict : memref<" << a << ">\n"
       << "    %" << (p.transpose_b ? "stored_rhs" : "rhs")
       << " = bufferization.to_tensor %b restrict : memref<" << b << ">\n";
  if (p.transpose_b) {
    // The matmul's vectorized loop runs along n, where a B stored n x k is strided (2 GFLOP/s
    // with batch_matmul_transpose_b on 12x128x128x64 where the same matmul on a k x n B runs at
    // 15): B is transposed once into k x n, n*k copies against m*n*k multiply-adds.
    text << "    %rhs_empty = tensor.empty() : tensor<" << b_read << ">\n"
         << "    %rhs = linalg.transpose ins(%stored_rhs : tensor<" << b
         << ">) outs(%rhs_empty : tensor<" << b_read
         << ">) permutation = " << (p.batch != 1 ? "[0, 2, 1]" : "[1, 0]") << "\n";
  }
  text << "    %zero = arith.constant 0.000000e+00 : " << element << "\n"
       << "    %empty = tensor.empty() : tensor<" << c << ">\n"
       << "    %init = linalg.fill ins(%zero : " << element << ") outs(%empty : tensor<" << c
       << ">) -> tensor<" << c << ">\n";
  text << "    %product = linalg." << gemm_libraries::LinalgMatmul(p) << " ins(%lhs, %rhs : tensor<"
       << a << ">, tensor<" << b_read << ">) outs(%init : tensor<" << c << ">) -> tensor<" << c
       << ">\n"
       << "    bufferization.materialize_in_destination %product in restrict writable %c : (tensor<"
       << c << ">, memref<" << c << ">) -> ()\n"
       << "    return\n  }\n}\n";
  return text.str();
}

}  // namespace fusescope::runtime
