// The MLIR-free half of the kernel compiler: options, the pass list and the cache.

#include "runtime/cpu/kernel_compiler.h"

#include <charconv>
#include <sstream>

namespace fusescope::runtime {

std::string LoweringOptions::ToString() const {
  return "tile=" + std::to_string(tile) + " vector=" + std::to_string(vector) +
         (unroll > 1 ? " unroll=" + std::to_string(unroll) : std::string()) +
         (approximate_math ? "" : " approx=0");
}

StatusOr<LoweringOptions> LoweringOptions::Parse(std::string_view text) {
  LoweringOptions options;
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos)
      return Status::Error("lowering option '" + word + "' is not KEY=VALUE");
    const std::string key = word.substr(0, equals);
    const std::string value = word.substr(equals + 1);
    int number = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size() || number < 0 || number > 4096)
      return Status::Error("lowering option " + key + " needs a number from 0 to 4096, got '" +
                           value + "'");
    if (key == "tile") {
      options.tile = number;
    } else if (key == "vector") {
      options.vector = number;
    } else if (key == "unroll") {
      if (number > 64) return Status::Error("lowering option unroll takes 0 to 64");
      options.unroll = number > 1 ? number : 0;  // 1 unrolls nothing, as 0
    } else if (key == "approx") {
      if (number > 1) return Status::Error("lowering option approx takes 0 or 1");
      options.approximate_math = number == 1;
    } else {
      return Status::Error("unknown lowering option '" + key + "' (tile, vector, unroll, approx=0|1)");
    }
  }
  return options;
}

std::string PassStageName(const std::string& pass) {
  std::string name = pass;
  const std::string nested = "func.func(";
  if (name.rfind(nested, 0) == 0) name = name.substr(nested.size());
  return name.substr(0, name.find_first_of("{)"));
}

std::string SuperVectorizePass(int64_t width) {
  return "func.func(affine-super-vectorize{virtual-vector-size=" + std::to_string(width) +
         " vectorize-reductions=1})";
}

std::vector<std::string> LoweringPasses(const LoweringOptions& options) {
  std::vector<std::string> passes = {
      "linalg-fuse-elementwise-ops",
      "eliminate-empty-tensors",
      "one-shot-bufferize",
      "write-into-outputs",
      // What buffer-deallocation-pipeline runs, one pass at a time so each is recorded.
      "ownership-based-buffer-deallocation",
      "canonicalize",
      "buffer-deallocation-simplification",
      "bufferization-lower-deallocations",
      "cse",
      "flatten-fills",
      "convert-linalg-to-affine-loops",
      "drop-dead-allocations",
      "reduction-iter-args",
  };
  // The vectorizer runs before tiling: in MLIR 19 affine-super-vectorize crashes on loops
  // that affine-loop-tile produced.
  if (options.vector > 0) {
    passes.push_back(SuperVectorizePass(options.vector));
    passes.push_back("transfer-in-bounds");
  }
  if (options.tile > 0)
    passes.push_back("func.func(affine-loop-tile{tile-size=" + std::to_string(options.tile) + "})");
  // Unrolling the innermost loops (after tiling, so a tile's inner loop is what unrolls).
  if (options.unroll > 1)
    passes.push_back("func.func(affine-loop-unroll{unroll-factor=" + std::to_string(options.unroll) +
                     "})");
  // After the vectorizer and tiling, which have nothing to do with the loops it writes.
  passes.push_back("copies-to-loops");
  if (options.approximate_math) passes.push_back("math-polynomial-approximation");
  for (const char* pass :
       {// Vector transfers lower to scf, and subviews to strided metadata, both with
        // affine.apply in their indices: lower-affine after them.
        "convert-vector-to-scf", "expand-strided-metadata", "lower-affine", "convert-scf-to-cf",
        "convert-math-to-llvm", "convert-math-to-libm", "convert-vector-to-llvm",
        "finalize-memref-to-llvm", "convert-arith-to-llvm",
        "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}", "convert-cf-to-llvm",
        "convert-index-to-llvm", "reconcile-unrealized-casts"}) {
    passes.push_back(pass);
  }
  return passes;
}

KernelCompiler& KernelCompilerPool::For(const LoweringOptions& options, bool keep_stages) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<KernelCompiler>& compiler =
      compilers_[options.ToString() + (keep_stages ? "" : " stages=0")];
  if (!compiler) compiler = std::make_unique<KernelCompiler>(options, keep_stages);
  return *compiler;
}

std::string KernelCompiler::Key(const std::string& mlir_text, const std::string& function) const {
  return options_.ToString() + "\n" + function + "\n" + mlir_text;
}

std::optional<KernelCompilation> KernelCompiler::Find(const std::string& mlir_text,
                                                      const std::string& function) {
  const std::string key = Key(mlir_text, function);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = cache_.find(key);
  if (it == cache_.end()) return std::nullopt;
  KernelCompilation reused = it->second;
  reused.cached = true;
  reused.record.compile_seconds = 0;
  return reused;
}

void KernelCompiler::Keep(const std::string& mlir_text, const std::string& function,
                          const KernelCompilation& compiled) {
  std::string key = Key(mlir_text, function);
  std::lock_guard<std::mutex> lock(mutex_);
  cache_.emplace(std::move(key), compiled);
}

KernelCompilation KernelCompiler::Compile(const std::string& mlir_text,
                                          const std::string& function) {
  if (std::optional<KernelCompilation> reused = Find(mlir_text, function)) return *reused;
  KernelCompilation compiled = CompileKernelText(mlir_text, function, options_, keep_stages_);
  Keep(mlir_text, function, compiled);
  return compiled;
}

}  // namespace fusescope::runtime
