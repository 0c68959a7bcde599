// Compiled CPU kernels against the machine's own ceilings (`fusescope machine`): bandwidth of
// elementwise fusions (the kernel alone on preallocated buffers, and a whole CpuExecutable run
// that also allocates its output), a scan's while loop run value by value and on its own
// buffers, and GFLOP/s of square dots through the library each precision gets by default
// (oneDNN single precision, OpenBLAS widened). Prints its figures; best of several runs
// after a warm-up.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "profiler/machine.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cpu/gemm.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/kernel_emitter.h"
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

void Scan() {
  auto module = fs::ir::ParseHloModule(kScan);
  if (!module.ok()) return (void)std::printf("scan: %s\n", module.message().c_str());
  auto inputs = fs::runtime::SeededInputs(*(*module)->entry(), 1);
  if (!inputs.ok()) return;
  std::vector<std::unique_ptr<fs::runtime::CpuExecutable>> paths;
  for (bool flat : {false, true}) {
    fs::runtime::CpuExecutableOptions options;
    options.f32_dot_precision = fs::runtime::BlasPrecision::kNative;
    options.flat_loops = flat;
    auto executable = fs::runtime::CpuExecutable::Compile(**module, options);
    if (!executable.ok()) return (void)std::printf("scan: %s\n", executable.message().c_str());
    (*executable)->set_kernel_timing(false);
    paths.push_back(std::move(executable).value());
  }
  std::vector<double> seconds[2];
  for (int run = 0; run < 400; ++run) {
    for (size_t path = 0; path < 2; ++path) {
      const auto started = std::chrono::steady_clock::now();
      if (!paths[path]->Run(*inputs).ok()) return;
      seconds[path].push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  }
  double median[2];
  for (size_t path = 0; path < 2; ++path) {
    std::sort(seconds[path].begin(), seconds[path].end());
    median[path] = seconds[path][seconds[path].size() / 2];
  }
  std::printf("scan, 50 steps: value by value %7.1f us, on its own buffers %7.1f us (%.2fx)\n",
              median[0] * 1e6, median[1] * 1e6, median[0] / median[1]);
}

}  // namespace

int main(int, char** argv) {
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
  }
  for (int size : {512, 1024}) {
    Dot(size, fs::runtime::BlasPrecision::kNative, machine->peak_flops);
    Dot(size, fs::runtime::BlasPrecision::kWidened, machine->peak_flops);
  }
  return 0;
}
