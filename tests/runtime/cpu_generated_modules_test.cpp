// Generated modules (fuzz/module_generator: every op family the verifier knows, small
// shapes) through our CPU pipeline and runtime::CpuExecutable: each one the interpreter runs
// must compile, run and give the interpreter's outputs (fuzz/cpu_executable_check).

#include <gtest/gtest.h>

#include <cstdio>

#include "fuzz/cpu_executable_check.h"
#include "fuzz/module_generator.h"
#include "ir/hlo_printer.h"
#include "runtime/cpu/kernel_compiler.h"

namespace fusescope::runtime {
namespace {

TEST(CpuGeneratedModulesTest, CompiledModulesMatchTheInterpreter) {
  if (!KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR";
  int compared = 0;
  int64_t compiled_kernels = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const std::vector<uint8_t> bytes = fuzz::SeedBytes(seed, 512);
    auto module = fuzz::GenerateModule(bytes.data(), bytes.size());
    ASSERT_TRUE(module.ok()) << module.message();
    auto check = fuzz::CheckCpuExecutable(**module, seed);
    ASSERT_TRUE(check.ok()) << "seed " << seed << ": " << check.message() << "\n"
                            << ir::PrintModule(**module);
    if (!check->compared) continue;
    ++compared;
    compiled_kernels += check->compiled_kernels;
  }
  std::printf("%d modules compared, %ld compiled kernels\n", compared,
              static_cast<long>(compiled_kernels));
  // Most generated modules run in the interpreter, and most of their work compiles.
  EXPECT_GT(compared, 30);
  EXPECT_GT(compiled_kernels, compared);
}

}  // namespace
}  // namespace fusescope::runtime
