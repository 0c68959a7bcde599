// Compiled CPU kernels against the machine's own ceilings (`fusescope machine`): bandwidth of
// elementwise fusions (the kernel alone on preallocated buffers, and a whole CpuExecutable run
// that also allocates its output), and GFLOP/s of square dots through OpenBLAS, single
// precision and widened. Prints its figures; best of several runs after a warm-up.

#include <algorithm>
#include <chrono>
#include <cstdio>
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
  }
  for (int size : {512, 1024}) {
    Dot(size, fs::runtime::BlasPrecision::kNative, machine->peak_flops);
    Dot(size, fs::runtime::BlasPrecision::kWidened, machine->peak_flops);
  }
  return 0;
}
