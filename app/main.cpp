// The `fusescope` executable: the workbench (GUI) and the headless subcommands (CLI).

#include <cstdlib>
#include <iostream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <new>
#include <string>
#include <vector>

#include "app/cli/command.h"
#include "runtime/cpu/gemm.h"

#ifdef FUSESCOPE_HAVE_GUI
#include "app/gui_main.h"
#endif

namespace fusescope::app {
extern const char kVersion[];  // "0.1.0 (git 1234abcd)", written at build time
}  // namespace fusescope::app

namespace {

// An allocation that fails (the machine is short, or the address-space limit the workbench
// sets on its workers is reached) ends the command with this code and one line that says
// so, rather than an abort.
constexpr int kExitOutOfMemory = 3;

// Ends the process at once, without exit handlers or the destructors of static objects and
// libraries: with the address space exhausted they may never return. OpenBLAS's shutdown,
// for one, joins its server threads, and a thread that started late loops in its first
// buffer allocation for as long as no memory comes back, so a plain exit would hang.
[[noreturn]] void ExitOutOfMemory(const std::string& command) {
  std::cout.flush();
  std::cerr << command << ": out of memory" << std::endl;
  std::_Exit(kExitOutOfMemory);
}

// A compiled module run many times (profile, tune, compare) allocates and frees the same large
// values on every run: a loop's state, a copy of an argument. glibc serves blocks over its
// mmap threshold (128 KiB until a large enough free raises it) with a fresh mapping each time,
// a page fault per 4 KiB on every run: 180 us of a 600 us scan RNN when no kernel compile had
// raised the threshold first (its kernels came from the kernel cache). Blocks up to 32 MiB
// come from the heap, and up to 64 MiB of free heap top is kept, unless the environment says
// otherwise (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_).
void KeepLargeBlocksInTheHeap() {
#ifdef __GLIBC__
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 32 << 20);
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  KeepLargeBlocksInTheHeap();
  std::vector<std::string> args(argv + 1, argv + argc);
  // OpenBLAS chose its kernels when it loaded, before main: where they are older than this
  // CPU runs, a command that may run kernels starts the process again with the right ones.
  const fusescope::app::Command* named =
      args.empty() ? nullptr : fusescope::app::FindCommand(args[0]);
  if (args.empty() || args[0] == "gui" || (named != nullptr && named->runs_kernels)) {
    fusescope::runtime::RestartForBetterOpenBlasKernels(argv);
    // Before any other thread starts: what runs first here is often a kernel compile.
    fusescope::runtime::StopIdleOpenBlasThreads();
  }
  if (args.empty() || args[0] == "gui") {
#ifdef FUSESCOPE_HAVE_GUI
    return fusescope::app::GuiMain(argc, argv);
#else
    std::cerr << "this build has no workbench (Qt 6 was not found); try `fusescope --help`\n";
    return fusescope::app::kExitUsage;
#endif
  }
  if (args[0] == "--version") {
    std::cout << "fusescope " << fusescope::app::kVersion << '\n';
    return 0;
  }
  const std::string name = args[0] == "--help" || args[0] == "-h" ? "help" : args[0];
  const auto* command = fusescope::app::FindCommand(name);
  if (!command) {
    std::cerr << "unknown command '" << name << "'; see `fusescope --help`\n";
    return fusescope::app::kExitUsage;
  }
  try {
    return fusescope::app::RunCommand(*command,
                                      std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const std::bad_alloc&) {
    ExitOutOfMemory(args[0]);
  }
}
