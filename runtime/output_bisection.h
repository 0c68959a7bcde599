#ifndef FUSESCOPE_RUNTIME_OUTPUT_BISECTION_H_
#define FUSESCOPE_RUNTIME_OUTPUT_BISECTION_H_

// Finds the first pass of a compile whose module computes different numbers: the module
// before the first pass and after each pass run through the reference interpreter on the
// same inputs, each judged against the input module's outputs and the exact answer (the input
// module interpreted in f64; runtime/output_judgement.h). A pass is blamed only when it moves
// the numbers further from the exact answer than rounding does: a stage that is
// ill-conditioned on these inputs is never the first bad one. Stages whose module a pass left
// unchanged reuse the previous stage's outputs.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/literal.h"
#include "runtime/output_judgement.h"

namespace fusescope::runtime {

// One pass's result module, loaded on demand (recordings rebuild modules from snapshots).
struct BisectionStage {
  int64_t pass_index = 0;
  std::string pass_name;
  bool changed = true;  // false: the module is the previous stage's, not run again
  std::function<StatusOr<std::unique_ptr<ir::Module>>()> load;
};

struct BisectionRow {
  int64_t pass_index = 0;
  std::string pass_name;
  bool reused = false;  // unchanged module, previous outputs
  bool ran = false;     // the module was interpreted (here or, when reused, before)
  std::string error;    // why it could not be loaded or interpreted, or why outputs differ in form
  double seconds = 0;   // interpretation wall time
  double max_abs_error = 0;  // against the input module's (rounded) outputs
  double max_rel_error = 0;
  // The worst output's verdict, and the largest distances to the exact answer.
  OutputVerdict verdict = OutputVerdict::kMatch;
  double to_exact = 0;
  double input_to_exact = 0;
  bool ok = true;  // no output is a MISMATCH (false with an error)
};

struct BisectionResult {
  double input_seconds = 0;
  double exact_seconds = 0;
  std::string exact_error;  // why the input module could not run in f64; empty when it ran
  int64_t outputs = 0;
  std::vector<BisectionRow> rows;
  // Index into `rows` of the first stage that ran and differs; nullopt when none does. A
  // stage the interpreter cannot run is never blamed: it has an error and does not count.
  std::optional<size_t> first_bad;
};

// Errors only when the input module itself cannot be interpreted; a stage that fails is a
// row with its error (and not ok).
StatusOr<BisectionResult> BisectOutputs(const ir::Module& input,
                                        const std::vector<BisectionStage>& stages,
                                        const std::vector<Literal>& arguments, double rtol,
                                        double atol, const InterpreterOptions& options = {});

// How a stage's module runs when not through the interpreter (e.g. compiled for the CPU):
// its outputs (a tuple for a tuple root). The reference stays the input module interpreted.
using StageRunner = std::function<StatusOr<Literal>(const ir::Module& module,
                                                    const std::vector<Literal>& arguments)>;
StatusOr<BisectionResult> BisectOutputs(const ir::Module& input,
                                        const std::vector<BisectionStage>& stages,
                                        const std::vector<Literal>& arguments, double rtol,
                                        double atol, const InterpreterOptions& options,
                                        const StageRunner& run_stage);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_OUTPUT_BISECTION_H_
