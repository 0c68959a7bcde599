// Build time of compiled CPU modules, in this process: each model through our CPU pipeline,
// then CpuExecutable::Compile from nothing (no kernel disk cache, a new compiler pool each
// time) on every core and on one thread, best and median of several builds; and what one
// kernel costs whatever it holds (a 4x8 add compiled alone, without stages and with them).
// Process start-up, parsing the model and the pipeline's passes are not counted: they are
// the same for every build. bench/cpu_vs_peers.py puts the whole build beside XLA's.
//
//   kernel_build_bench [--builds N] [MODEL.hlo ...]
//
// Without models: the built-in samples and the jax fixtures of tests/data.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "passes/pipeline.h"
#include "resources/samples.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/kernel_emitter.h"

namespace fs = fusescope;

namespace {

struct Spread {
  double best = 0;
  double median = 0;
};

Spread Summarize(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return {seconds.front(), seconds[seconds.size() / 2]};
}

// One build of `module` from nothing: its seconds and how many kernels it compiled.
struct Build {
  double seconds = 0;
  int compiled = 0;
  std::string error;
};

Build BuildOnce(const fs::ir::Module& module, int threads) {
  fs::runtime::CpuExecutableOptions options;
  options.keep_lowering_stages = false;
  options.compile_threads = threads;
  options.compilers = std::make_shared<fs::runtime::KernelCompilerPool>();
  const auto started = std::chrono::steady_clock::now();
  auto executable = fs::runtime::CpuExecutable::Compile(module, options);
  Build build;
  build.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!executable.ok()) {
    build.error = executable.message();
    return build;
  }
  // Kernels compiled in this build (a second kernel of the same text takes the first's code
  // and says 0 s).
  for (const auto& record : (*executable)->kernels())
    if (record.compile_seconds > 0) ++build.compiled;
  return build;
}

void Model(const std::string& label, const std::string& text, int builds) {
  auto module = fs::ir::ParseHloModule(text, label);
  if (!module.ok()) return (void)std::printf("%-28s %s\n", label.c_str(), module.message().c_str());
  fs::passes::PipelineOptions pipeline_options;
  pipeline_options.target = "cpu";
  auto pipeline = fs::passes::MakeBuiltinPipeline(pipeline_options);
  if (!pipeline.ok()) return (void)std::printf("%s\n", pipeline.message().c_str());
  if (fs::Status status = (*pipeline)->Run(**module); !status.ok())
    return (void)std::printf("%-28s %s\n", label.c_str(), status.message().c_str());
  std::vector<double> all, one;
  int compiled = 0;
  for (int i = 0; i < builds; ++i) {
    Build on_all = BuildOnce(**module, 0);
    Build on_one = BuildOnce(**module, 1);
    if (!on_all.error.empty() || !on_one.error.empty())
      return (void)std::printf("%-28s %s%s\n", label.c_str(), on_all.error.c_str(),
                               on_one.error.c_str());
    all.push_back(on_all.seconds);
    one.push_back(on_one.seconds);
    compiled = on_all.compiled;
  }
  const Spread a = Summarize(all), o = Summarize(one);
  std::printf("%-28s %7d %9.3f %9.3f %9.3f %9.3f %10.1f\n", label.c_str(), compiled, a.best,
              a.median, o.best, o.median, compiled > 0 ? 1e3 * o.best / compiled : 0.0);
}

// One small kernel compiled alone, again and again: what any kernel costs.
void OneKernel(int builds) {
  auto module = fs::ir::ParseHloModule(
      "HloModule add\nENTRY e {\n p = f32[4,8] parameter(0)\n q = f32[4,8] parameter(1)\n "
      "ROOT r = f32[4,8] add(p, q)\n}\n");
  if (!module.ok()) return;
  auto kernel = fs::runtime::EmitInstructionKernel(*(*module)->entry()->root());
  if (!kernel.ok()) return (void)std::printf("%s\n", kernel.message().c_str());
  for (bool stages : {false, true}) {
    std::vector<double> seconds;
    for (int i = 0; i < 4 * builds + 1; ++i) {
      const auto started = std::chrono::steady_clock::now();
      auto compiled =
          fs::runtime::CompileKernelText(kernel->text, kernel->function_name, {}, stages, nullptr);
      if (!compiled.kernel) return (void)std::printf("%s\n", compiled.record.error.c_str());
      // The first compile of the process sets LLVM and MLIR up once: said apart.
      if (i == 0 && !stages)
        std::printf(
            "the process's first kernel (LLVM and MLIR set up): %.2f ms\n",
            1e3 *
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      if (i > 0)
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    const Spread spread = Summarize(seconds);
    std::printf("a 4x8 add kernel alone, %s stages: best %.2f ms, median %.2f ms\n",
                stages ? "with its" : "without", 1e3 * spread.best, 1e3 * spread.median);
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (!fs::runtime::KernelCompilerAvailable()) {
    std::printf("this build has no MLIR: no kernels to compile\n");
    return 0;
  }
  // Every build compiles from nothing, as XLA's compile() does.
  setenv("FUSESCOPE_KERNEL_CACHE", "off", 1);
  int builds = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--builds" && i + 1 < argc) {
      builds = std::max(1, std::atoi(argv[++i]));
    } else {
      files.push_back(arg);
    }
  }
  std::printf("LLVM unrolls a loop whole up to a cost of %u\n\n",
              fs::runtime::FullUnrollThreshold());
  OneKernel(builds);
  std::printf("\n%-28s %7s %9s %9s %9s %9s %10s\n", "model", "kernels", "all best", "median",
              "1 thread", "median", "ms/kernel");
  if (files.empty()) {
    for (const char* sample : {"mlp", "bert_encoder", "resnet_block"})
      Model(sample, std::string(fs::resources::FindSample(sample).text), builds);
    for (const char* fixture : {"bert_layer", "attention", "convnet"})
      Model(fixture,
            ReadFile(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/" + fixture +
                     "/before_optimizations.hlo"),
            builds);
  }
  for (const std::string& file : files) {
    std::string label = file.substr(file.find_last_of('/') + 1);
    Model(label, ReadFile(file), builds);
  }
  return 0;
}
