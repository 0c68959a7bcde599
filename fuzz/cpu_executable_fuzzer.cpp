// Builds a valid module from the fuzzer's bytes, compiles it with our CPU pipeline and
// runtime::CpuExecutable, and compares its outputs with the reference interpreter's. Aborts,
// printing the module and the difference, on a mismatch or on a compile or run failure of a
// module the interpreter runs. Modules the interpreter refuses are skipped.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/cpu_executable_check.h"
#include "fuzz/module_generator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = fusescope::fuzz::GenerateModule(data, size);
  if (!module.ok()) {
    std::fprintf(stderr, "generator bug:\n%s\n", module.message().c_str());
    std::abort();
  }
  auto check = fusescope::fuzz::CheckCpuExecutable(**module, size);
  if (!check.ok()) {
    std::fprintf(stderr, "CPU backend bug: %s\n%s\n", check.message().c_str(),
                 fusescope::fuzz::GenerateModuleText(data, size).c_str());
    std::abort();
  }
  return 0;
}
