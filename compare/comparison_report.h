#ifndef FUSESCOPE_COMPARE_COMPARISON_REPORT_H_
#define FUSESCOPE_COMPARE_COMPARISON_REPORT_H_

// A comparison as a person reads it (text tables), as a spreadsheet reads it (CSV, one line per
// compiler variant and shape), and the ops of the model followed into each compiler's
// kernels.

#include <string>
#include <vector>

#include "compare/comparison.h"
#include "ir/instruction.h"

namespace fusescope::compare {

std::string FormatComparisonText(const Comparison& comparison);
std::string FormatComparisonCsv(const Comparison& comparison);

// For one op of the input model: the kernel of each compiler variant that holds it, with that
// kernel's time where the compiler's profiler gave one (at the comparison's first shape).
struct OpInKernels {
  std::string op;
  // False for what a kernel holds that is no op of the model (an instruction the compiler
  // made, as XLA's dot merger makes slices): listed after the model's ops.
  bool of_model = true;
  struct Placement {
    std::string compiler;  // "ort", or "tvm-metaschedule" for a variant
    std::string kernel;
    double time_us = -1;
  };
  std::vector<Placement> placements;
};
// A self-contained HTML section (id "compare") for the report: per comparison, the compilers'
// status, the table, and an inline SVG of p50/p95/p99 latency per compiler at each shape.
std::string FormatComparisonsHtml(const std::vector<Comparison>& comparisons);

// The model's ops an instruction holds (a fusion: its members' too), from the op_name
// metadata importers give every instruction: what FollowOps is looked up by.
std::vector<std::string> ModelOpsOf(const ir::Instruction& instruction);

// The model's ops in its order (Comparison::model_ops), each with its placements (none when no
// reported kernel holds it: folded away, or its compiler gave no kernels), then the kernels'
// other parts. Without model_ops (a comparison stored before them), the ops in the order the
// kernels name them.
std::vector<OpInKernels> FollowOps(const Comparison& comparison);
std::string FormatOpsText(const std::vector<OpInKernels>& ops, const Comparison& comparison);

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_COMPARISON_REPORT_H_
