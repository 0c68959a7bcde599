#ifndef FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_
#define FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_

// What `fusescope run` and `fusescope bisect` share: choosing inputs (seeded, or .npy files
// from a folder), running a module through the reference interpreter with a wall time.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/literal.h"

namespace fusescope::app {

// When `dir` is set: one .npy per parameter in that folder (or its inputs/ folder, as
// `fusescope export` writes them), named arg_000.npy, arg0.npy, arg_0.npy, arr_0.npy or after
// the parameter; or one .npz archive (the folder's only file, or `dir` itself) with arrays
// named so (np.savez(path, *arrays) writes arr_0, arr_1, ...). Else seeded inputs from `seed`
// (runtime/seeded_inputs.h).
StatusOr<std::vector<runtime::Literal>> ChooseInputs(const ir::Module& module,
                                                     const std::optional<std::string>& dir,
                                                     uint64_t seed);

struct InterpretedRun {
  std::vector<runtime::Literal> outputs;  // the root, or the root tuple's elements
  double seconds = 0;
};
StatusOr<InterpretedRun> Interpret(const ir::Module& module, std::vector<runtime::Literal> inputs,
                                   const runtime::InterpreterOptions& options = {});

// The progress protocol of workers (--progress; the workbench reads it, see
// views/qt/worker_outcome.h): one line "progress: KIND INDEX/TOTAL NAME" on stderr, flushed
// at once, as each step starts or ends: "progress: snapshot 7/18 priority-fusion".
void PrintProgress(std::string_view kind, int64_t index, int64_t total, std::string_view name);

// Interpreter progress (InterpreterOptions::progress) as "progress: instruction DONE/TOTAL
// NAME" lines: the first, the last, and one per hundredth of the entry computation between,
// so that a module of 100k instructions does not flood the pipe.
std::function<void(int64_t, int64_t)> InstructionProgress(std::string name);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_
