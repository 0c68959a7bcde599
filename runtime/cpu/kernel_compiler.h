#ifndef FUSESCOPE_RUNTIME_CPU_KERNEL_COMPILER_H_
#define FUSESCOPE_RUNTIME_CPU_KERNEL_COMPILER_H_

// Compiles the MLIR text of one kernel (runtime/kernel_emitter.h) for the host CPU: a
// lowering pipeline from linalg on tensors to the LLVM dialect with the IR kept after every
// pass, translation to LLVM IR, the host's assembly, and a JIT-compiled function to call.
// No MLIR type appears here; the MLIR side lives in runtime/cpu/ and is built only where
// MLIR 19 was found (KernelCompilerAvailable() says whether it was).

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_record.h"

namespace fusescope::runtime {

// Knobs of the lowering: affine loop tiling (0: none), the virtual vector width of the
// affine super-vectorizer (0: scalar loops) and the unroll factor of the innermost loops
// (0 or 1: none).
struct LoweringOptions {
  int tile = 0;
  int vector = 8;
  int unroll = 0;
  // f32 exp, log, tanh, erf, sin/cos... as MLIR's polynomial approximations (vectorizable,
  // a few ulps) instead of libm calls per element.
  bool approximate_math = true;
  // "tile=0 vector=8" (and " unroll=N" when unrolling, " approx=0" when approximations are
  // off): KernelRecord::options and the cache key.
  std::string ToString() const;
  // Reads the form ToString writes (either key may be left out); an error names what is wrong.
  static StatusOr<LoweringOptions> Parse(std::string_view text);
  bool operator==(const LoweringOptions&) const = default;
};

// A JIT-compiled kernel. Thread-safe: each Run's state is its own (blocks of one kernel run
// at once on several threads, runtime/row_blocks.h).
class CompiledKernel {
 public:
  virtual ~CompiledKernel() = default;
  // Calls the kernel with one pointer per memref argument (inputs, then outputs), each to a
  // row-major buffer of that argument's static shape.
  virtual Status Run(void* const* buffers, size_t count) const = 0;
  Status Run(const std::vector<void*>& buffers) const {
    return Run(buffers.data(), buffers.size());
  }
};

struct KernelCompilation {
  // Stages from "input" to "asm" (none when the compile was asked not to keep them); on
  // failure failed_stage and error, the stages before kept.
  // backend "mlir-cpu", options and compile_seconds are set; kernel, instruction_id and
  // snapshot are the caller's.
  recording::KernelRecord record;
  std::shared_ptr<const CompiledKernel> kernel;  // null when compiling failed
  bool cached = false;                           // reused from an identical earlier kernel
};

// Whether this build can compile kernels (MLIR 19 was found).
bool KernelCompilerAvailable();

// The cost up to which LLVM unrolls a kernel's loop whole: ours (60, below LLVM's O3 default of
// 300, for build time) unless FUSESCOPE_LLVM_OPTIONS set -unroll-threshold-aggressive; 0 where
// this build has no kernel compiler or its LLVM has no such option.
unsigned FullUnrollThreshold();

// Whether LLVM unrolls a kernel's loops partially or at run time: not ours (build time)
// unless FUSESCOPE_LLVM_OPTIONS turned it on, or its LLVM has no such options; false where
// this build has no kernel compiler.
bool LlvmUnrollsPartially();

// Compiles kernels with one set of options, each distinct text once. Thread-safe, but two
// threads compiling the same new text at once both compile it: CpuExecutable hands each
// distinct text to one thread.
class KernelCompiler {
 public:
  // keep_stages: each compilation's record holds every lowering stage's text; without them
  // compiling prints nothing (see CompileKernelText).
  explicit KernelCompiler(LoweringOptions options = {}, bool keep_stages = true)
      : options_(options), keep_stages_(keep_stages) {}
  const LoweringOptions& options() const { return options_; }
  bool keep_stages() const { return keep_stages_; }
  // `function` is the kernel's function name in `mlir_text`.
  KernelCompilation Compile(const std::string& mlir_text, const std::string& function);
  // The compilation of this text compiled before (`cached` set, 0 s), if any.
  std::optional<KernelCompilation> Find(const std::string& mlir_text, const std::string& function);
  // Keeps `compiled` (made elsewhere with this compiler's options and stages, e.g. by
  // CompileKernelTexts) as this text's.
  void Keep(const std::string& mlir_text, const std::string& function,
            const KernelCompilation& compiled);

 private:
  std::string Key(const std::string& mlir_text, const std::string& function) const;
  LoweringOptions options_;
  bool keep_stages_ = true;
  std::mutex mutex_;
  std::unordered_map<std::string, KernelCompilation> cache_;
};

// One KernelCompiler per distinct LoweringOptions, made on first use and kept: executables
// that share a pool share its compiled kernels, so compiling a module again with one kernel's
// options changed compiles that kernel alone (what a tuner's trials do). Thread-safe.
class KernelCompilerPool {
 public:
  KernelCompiler& For(const LoweringOptions& options, bool keep_stages = true);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<KernelCompiler>> compilers_;
};

// The uncached compile behind KernelCompiler (implemented by the MLIR side). Thread-safe:
// each call holds an MLIRContext and a target machine no other call holds (taken from a pool
// and handed on to a later call), and has its own LLVMContext, diagnostics and JIT; LLVM's
// native target, its options (FullUnrollThreshold) and the MLIR pass registry are set up
// once, before the first call goes on. Without keep_stages the record holds no stage texts: no
// stage is printed, no assembly listing is generated and consecutive passes run in one pass
// manager (a failing pass is still named as the failed stage), which takes a good part of the
// compile time off a kernel that is only run.
//
// Compiled kernels are kept on disk between processes (KernelDiskCache::Default(), see
// runtime/cpu/kernel_disk_cache.h): a kernel found there is loaded instead of compiled, its
// record holding the stages stored with it and a note saying where it came from.
KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string& function,
                                    const LoweringOptions& options, bool keep_stages = true);
class KernelDiskCache;
// The same with `cache` in place of the process's (null: none).
KernelCompilation CompileKernelText(const std::string& mlir_text, const std::string& function,
                                    const LoweringOptions& options, bool keep_stages,
                                    KernelDiskCache* cache);

// A kernel to compile: its MLIR text, its function and the lowering options.
struct KernelJob {
  const std::string* text = nullptr;
  const std::string* function = nullptr;
  LoweringOptions options;
};

// Compiles `jobs` on up to `threads` threads (each result in the place of its job), as
// CompileKernelText would each alone, the longest texts first. Without stages to keep, the
// kernels a thread lowers are linked into one LLVM module, given LLVM's O3 pipeline, code
// generation and a JIT once: a small kernel's fixed cost in LLVM is about half its compile.
// Each kernel's record then says its own lowering time plus its share of its module's
// compile. The module's object is stored in the kernel cache under each kernel's key (a
// cached kernel loads its module's object, linked once for all of its kernels found). Kernels
// that hold pred (i1) values (no O3, see CompileKernelText), and a second kernel of a name
// already in a thread's module, compile alone; where a module fails to compile, each of its
// kernels compiles alone, so that each failure is the kernel's own.
std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int threads);
// The same with `cache` in place of the process's (null: none).
std::vector<KernelCompilation> CompileKernelTexts(const std::vector<KernelJob>& jobs,
                                                  bool keep_stages, int threads,
                                                  KernelDiskCache* cache);

// The lowering pass pipeline for `options`, one MLIR pass argument per entry, in order.
// Passes that run on functions are nested: "func.func(affine-loop-tile{tile-size=32})".
// Seven entries are no registered MLIR passes but rewrites of the compiler's own, recorded
// as stages like the passes: "write-into-outputs" (a result that bufferization computed into
// a temporary buffer and copied into its output argument through a reshape is computed in
// the argument itself), "flatten-fills" (a fill of a row-major buffer as one loop over its
// elements), "drop-dead-allocations" (buffers that are only freed), "copies-to-loops" (the
// memref.copy ops left become loop nests, vector transfers where the innermost dimension allows),
// "reduction-iter-args" (a reduction's accumulator carried in an affine.for iter_arg instead of a
// load and store per iteration, so that the vectorizer can vectorize it), "transfer-in-bounds"
// (vector transfers that provably stay inside their static memref marked in bounds: plain vector
// loads and stores instead of masked ones) and "math-polynomial-approximation" (MLIR's
// approximation patterns).
std::vector<std::string> LoweringPasses(const LoweringOptions& options);
// The stage a pass's output is recorded under: its argument alone ("affine-loop-tile").
std::string PassStageName(const std::string& pass);
// The super-vectorizer's pass at `width` lanes (LoweringPasses' stage "affine-super-vectorize";
// the compiler narrows it where the loop it vectorizes runs fewer times than the lanes).
std::string SuperVectorizePass(int64_t width);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_KERNEL_COMPILER_H_
