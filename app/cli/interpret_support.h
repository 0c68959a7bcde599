#ifndef FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_
#define FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_

// What `fusescope run` and `fusescope bisect` share: choosing inputs (seeded, or .npy files
// from a folder), running a module through the reference interpreter with a wall time, and
// comparing two runs output by output.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::app {

// DIR/arg_000.npy... (or DIR/inputs/arg_000.npy..., as `fusescope export` writes them) when
// `dir` is set, else seeded inputs from `seed`.
StatusOr<std::vector<runtime::Literal>> ChooseInputs(const ir::Module& module,
                                                     const std::optional<std::string>& dir,
                                                     uint64_t seed);

struct InterpretedRun {
  std::vector<runtime::Literal> outputs;  // the root, or the root tuple's elements
  double seconds = 0;
};
StatusOr<InterpretedRun> Interpret(const ir::Module& module, std::vector<runtime::Literal> inputs);

// One difference per output of `expected`; an output missing from `actual` has same_shape
// false.
std::vector<runtime::LiteralDifference> CompareOutputs(
    const std::vector<runtime::Literal>& actual, const std::vector<runtime::Literal>& expected,
    double rtol, double atol);

// --rtol / --atol as doubles (defaults when absent); an error for text that is no number.
StatusOr<double> DoubleOption(const std::optional<std::string>& text, double fallback,
                              const std::string& flag);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_INTERPRET_SUPPORT_H_
