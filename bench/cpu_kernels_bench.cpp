// Compiled CPU kernels against the machine's own ceilings (`fusescope machine`): bandwidth of
// elementwise fusions (the kernel alone on preallocated buffers, and a whole CpuExecutable run
// that also allocates its output), a scan's while loop run value by value and on its own
// buffers, and GFLOP/s of square dots through the library each precision gets by default
// (oneDNN single precision, OpenBLAS widened). Prints its figures; best of several runs
// after a warm-up.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "profiler/machine.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cpu/gemm.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/cpu/thread_team.h"
#include "runtime/kernel_emitter.h"
#include "runtime/row_blocks.h"
#include "runtime/seeded_inputs.h"

namespace fs = fusescope;

namespace {

template <typename F>
double Best(int runs, F&& run) {
  run();
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    const auto started = std::chrono::steady_clock::now();
    run();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return best;
}

std::string ElementwiseModule(int64_t n, const char* op) {
  const std::string t = "f32[" + std::to_string(n) + "]";
  return "HloModule ew\nf {\n a = " + t + " parameter(0)\n b = " + t + " parameter(1)\n m = " + t +
         " " + op + "\n ROOT s = " + t + " add(m, a)\n}\nENTRY e {\n p = " + t +
         " parameter(0)\n q = " + t + " parameter(1)\n ROOT r = " + t +
         " fusion(p, q), kind=kLoop, calls=f\n}\n";
}

void Elementwise(const char* label, const char* op, const char* lowering, double ceiling) {
  const int64_t n = int64_t{1} << 24;
  auto module = fs::ir::ParseHloModule(ElementwiseModule(n, op));
  if (!module.ok()) return (void)std::printf("%s\n", module.message().c_str());
  auto kernel = fs::runtime::EmitFusionKernel(*(*module)->entry()->root());
  if (!kernel.ok()) return (void)std::printf("%s\n", kernel.message().c_str());
  auto options = fs::runtime::LoweringOptions::Parse(lowering).value();
  auto compiled = fs::runtime::CompileKernelText(kernel->text, kernel->function_name, options);
  if (!compiled.kernel)
    return (void)std::printf("%s: %s\n", compiled.record.failed_stage.c_str(),
                             compiled.record.error.c_str());
  std::vector<float> a(n, 1.5f), b(n, 0.5f), out(n);
  const double seconds = Best(5, [&] {
    (void)compiled.kernel->Run({a.data(), b.data(), out.data()});
  });
  const double bandwidth = 12.0 * static_cast<double>(n) / seconds;
  std::printf("%-28s %-26s kernel %7.2f GB/s (%3.0f%% of triad)", label, lowering, bandwidth / 1e9,
              100 * bandwidth / ceiling);
  // The same kernel as the executable runs it: emitted for one block of rows, each block on
  // a thread of the team at once (runtime/row_blocks.h, CpuExecutableOptions::row_block_min_bytes).
  const fs::ir::Computation* fused = (*module)->entry()->root()->fused_computation();
  auto split = fs::runtime::FindRowSplit(*fused);
  const int64_t blocks =
      split.ok() ? fs::runtime::BlockCount(split->rows, fs::runtime::TeamThreads()) : 1;
  if (blocks > 1) {
    auto copy = (*module)->Clone();
    fs::runtime::ShrinkToBlock(*copy->entry()->root()->fused_computation(), *split,
                               split->rows / blocks);
    auto block_kernel = fs::runtime::EmitFusionKernel(*copy->entry()->root());
    auto block =
        fs::runtime::CompileKernelText(block_kernel->text, block_kernel->function_name, options);
    const int64_t block_bytes = n / blocks * 4;
    struct Job {
      const fs::runtime::CompiledKernel* kernel;
      float *a, *b, *out;
      int64_t bytes;
    } job{block.kernel.get(), a.data(), b.data(), out.data(), block_bytes};
    if (block.kernel) {
      const double team_seconds = Best(5, [&] {
        fs::runtime::RunOnTeam(
            blocks,
            [](void* data, int64_t index) {
              Job& j = *static_cast<Job*>(data);
              const int64_t offset = index * j.bytes;
              (void)j.kernel->Run({reinterpret_cast<char*>(j.a) + offset,
                                   reinterpret_cast<char*>(j.b) + offset,
                                   reinterpret_cast<char*>(j.out) + offset});
            },
            &job);
      });
      const double team = 12.0 * static_cast<double>(n) / team_seconds;
      std::printf("   %lld blocks at once %7.2f GB/s (%3.0f%%)", static_cast<long long>(blocks),
                  team / 1e9, 100 * team / ceiling);
    }
  }
  fs::runtime::CpuExecutableOptions executable_options;
  executable_options.lowering = options;
  auto executable = fs::runtime::CpuExecutable::Compile(**module, executable_options);
  auto inputs = fs::runtime::SeededInputs(*(*module)->entry(), 1);
  if (executable.ok() && inputs.ok()) {
    const double run = Best(3, [&] { (void)(*executable)->Run(*inputs); });
    std::printf("   whole run %7.2f GB/s", 12.0 * static_cast<double>(n) / run / 1e9);
  }
  std::printf("\n");
}

void Dot(int size, fs::runtime::BlasPrecision precision, double peak) {
  const std::string t = "f32[" + std::to_string(size) + "," + std::to_string(size) + "]";
  auto module =
      fs::ir::ParseHloModule("HloModule d\nENTRY e {\n a = " + t + " parameter(0)\n b = " + t +
                             " parameter(1)\n ROOT c = " + t +
                             " dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  if (!module.ok()) return;
  fs::runtime::CpuExecutableOptions options;
  options.f32_dot_precision = precision;
  auto executable = fs::runtime::CpuExecutable::Compile(**module, options);
  auto inputs = fs::runtime::SeededInputs(*(*module)->entry(), 1);
  if (!executable.ok() || !inputs.ok()) return;
  double best = 1e30;
  for (int i = 0; i < 7; ++i) {
    if (!(*executable)->Run(*inputs).ok()) return;
    best = std::min(best, (*executable)->last_timings().front().seconds);
  }
  const double flops = 2.0 * size * size * size / best;
  std::printf("dot %4dx%-4d %-34s %7.1f GFLOP/s (%3.0f%% of FP32 peak)\n", size, size,
              (*executable)->kernels().front().note.c_str(), flops / 1e9, 100 * flops / peak);
}

// A recurrence as jax's lax.scan lowers it (50 steps, batch 4, 64 inputs, 128 hidden), after
// fusion: per step, a dynamic slice of the inputs, two small dots, tanh, and the row written
// into the output in place. Its while loop run value by value and on its own buffers
// (CpuExecutableOptions::flat_loops), in turns, each the median of its runs.
constexpr char kScan[] = R"(HloModule scan
slice_row {
  xs = f32[50,4,64] parameter(0)
  i = s32[] parameter(1)
  zero = s32[] constant(0)
  row = f32[1,4,64] dynamic-slice(xs, i, zero, zero), dynamic_slice_sizes={1,4,64}
  ROOT r = f32[4,64] reshape(row)
}
cell {
  b = f32[128] parameter(0)
  xu = f32[4,128] parameter(1)
  h = f32[4,128] parameter(2)
  w = f32[128,128] parameter(3)
  hw = f32[4,128] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[4,128] add(xu, hw)
  bb = f32[4,128] broadcast(b), dimensions={1}
  t = f32[4,128] add(s, bb)
  ROOT y = f32[4,128] tanh(t)
}
store_row {
  y = f32[4,128] parameter(0)
  out = f32[50,4,128] parameter(1)
  i = s32[] parameter(2)
  zero = s32[] constant(0)
  row = f32[1,4,128] reshape(y)
  ROOT u = f32[50,4,128] dynamic-update-slice(out, row, i, zero, zero)
}
body {
  s = (s32[], f32[4,128], f32[50,4,128], f32[50,4,64], f32[64,128], f32[128,128], f32[128]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  h = f32[4,128] get-tuple-element(s), index=1
  out = f32[50,4,128] get-tuple-element(s), index=2
  xs = f32[50,4,64] get-tuple-element(s), index=3
  u = f32[64,128] get-tuple-element(s), index=4
  w = f32[128,128] get-tuple-element(s), index=5
  b = f32[128] get-tuple-element(s), index=6
  x = f32[4,64] fusion(xs, i), kind=kLoop, calls=slice_row
  xu = f32[4,128] dot(x, u), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  y = f32[4,128] fusion(b, xu, h, w), kind=kOutput, calls=cell
  stored = f32[50,4,128] fusion(y, out, i), kind=kLoop, calls=store_row
  ROOT n = (s32[], f32[4,128], f32[50,4,128], f32[50,4,64], f32[64,128], f32[128,128], f32[128]) tuple(next, y, stored, xs, u, w, b)
}
cond {
  s = (s32[], f32[4,128], f32[50,4,128], f32[50,4,64], f32[64,128], f32[128,128], f32[128]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  steps = s32[] constant(50)
  ROOT lt = pred[] compare(i, steps), direction=LT
}
ENTRY e {
  xs = f32[50,4,64] parameter(0)
  h0 = f32[4,128] parameter(1)
  u = f32[64,128] parameter(2)
  w = f32[128,128] parameter(3)
  b = f32[128] parameter(4)
  zero = s32[] constant(0)
  z = f32[] constant(0)
  out = f32[50,4,128] broadcast(z), dimensions={}
  init = (s32[], f32[4,128], f32[50,4,128], f32[50,4,64], f32[64,128], f32[128,128], f32[128]) tuple(zero, h0, out, xs, u, w, b)
  loop = (s32[], f32[4,128], f32[50,4,128], f32[50,4,64], f32[64,128], f32[128,128], f32[128]) while(init), condition=cond, body=body
  ROOT ys = f32[50,4,128] get-tuple-element(loop), index=2
}
)";

// Medians of runs of `module` compiled two ways (`paths[0]` and `paths[1]` configure the
// options), in turns so that both see the same machine; empty on an error (printed).
std::vector<double> MediansInTurns(
    const fs::ir::Module& module, const char* label, int runs,
    const std::function<void(fs::runtime::CpuExecutableOptions&)> (&paths)[2]) {
  auto inputs = fs::runtime::SeededInputs(*module.entry(), 1);
  if (!inputs.ok())
    return (void)std::printf("%s: %s\n", label, inputs.message().c_str()), std::vector<double>{};
  std::vector<std::unique_ptr<fs::runtime::CpuExecutable>> executables;
  for (const auto& configure : paths) {
    fs::runtime::CpuExecutableOptions options;
    options.f32_dot_precision = fs::runtime::BlasPrecision::kNative;
    configure(options);
    auto executable = fs::runtime::CpuExecutable::Compile(module, options);
    if (!executable.ok())
      return (void)std::printf("%s: %s\n", label, executable.message().c_str()),
             std::vector<double>{};
    (*executable)->set_kernel_timing(false);
    executables.push_back(std::move(executable).value());
  }
  std::vector<double> seconds[2];
  for (int run = 0; run < runs; ++run) {
    for (size_t path = 0; path < 2; ++path) {
      const auto started = std::chrono::steady_clock::now();
      if (!executables[path]->Run(*inputs).ok()) return {};
      seconds[path].push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  }
  std::vector<double> medians;
  for (auto& times : seconds) {
    std::sort(times.begin(), times.end());
    medians.push_back(times[times.size() / 2]);
  }
  return medians;
}

void Scan() {
  auto module = fs::ir::ParseHloModule(kScan);
  if (!module.ok()) return (void)std::printf("scan: %s\n", module.message().c_str());
  const std::function<void(fs::runtime::CpuExecutableOptions&)> paths[2] = {
      [](fs::runtime::CpuExecutableOptions& options) { options.flat_loops = false; },
      [](fs::runtime::CpuExecutableOptions& options) { options.flat_loops = true; }};
  const std::vector<double> median = MediansInTurns(**module, "scan", 400, paths);
  if (median.size() != 2) return;
  std::printf("scan, 50 steps: value by value %7.1f us, on its own buffers %7.1f us (%.2fx)\n",
              median[0] * 1e6, median[1] * 1e6, median[0] / median[1]);
}

// An optimized module (fusions made) with every kernel whole against its large fusions in
// blocks of rows on every core (CpuExecutableOptions::row_block_min_bytes).
void RowBlocks(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto module = fs::ir::ParseHloModule(text.str());
  if (!module.ok()) return (void)std::printf("%s: %s\n", path.c_str(), module.message().c_str());
  const std::function<void(fs::runtime::CpuExecutableOptions&)> paths[2] = {
      [](fs::runtime::CpuExecutableOptions& options) { options.row_block_min_bytes = 0; },
      [](fs::runtime::CpuExecutableOptions&) {}};
  const std::vector<double> median = MediansInTurns(**module, path.c_str(), 200, paths);
  if (median.size() != 2) return;
  std::printf("%s: kernels whole %7.1f us, large fusions in blocks of rows %7.1f us (%.2fx)\n",
              std::filesystem::path(path).filename().c_str(), median[0] * 1e6, median[1] * 1e6,
              median[0] / median[1]);
}

}  // namespace

int main(int argc, char** argv) {
  // OpenBLAS with the kernels the CPU runs, as fusescope uses it (runtime/cpu/gemm.h).
  fs::runtime::RestartForBetterOpenBlasKernels(argv);
  std::string note;
  auto machine = fs::profiler::LoadOrCalibrate(fs::profiler::DefaultCacheDirectory(), {}, &note);
  if (!machine.ok()) {
    std::printf("machine: %s\n", machine.message().c_str());
    return 1;
  }
  std::printf("%s: triad %.1f GB/s, FP32 peak %.1f GFLOP/s\n", machine->cpu_model.c_str(),
              machine->memory_bandwidth / 1e9, machine->peak_flops / 1e9);
  if (!fs::runtime::KernelCompilerAvailable()) {
    std::printf("this build has no MLIR: no compiled kernels to measure\n");
  } else {
    for (const char* lowering : {"tile=0 vector=0", "tile=0 vector=8", "tile=64 vector=16"})
      Elementwise("a*b+a", "multiply(a, b)", lowering, machine->memory_bandwidth);
    for (const char* lowering : {"tile=0 vector=8", "tile=0 vector=8 approx=0"})
      Elementwise("exp(b)+a", "exponential(b)", lowering, machine->memory_bandwidth);
    Scan();
    // XLA's own optimized BERT layer (its fusions), and any optimized modules named.
    RowBlocks(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/bert_layer/after_optimizations.hlo");
    for (int arg = 1; arg < argc; ++arg) RowBlocks(argv[arg]);
  }
  for (int size : {512, 1024}) {
    Dot(size, fs::runtime::BlasPrecision::kNative, machine->peak_flops);
    Dot(size, fs::runtime::BlasPrecision::kWidened, machine->peak_flops);
  }
  return 0;
}
