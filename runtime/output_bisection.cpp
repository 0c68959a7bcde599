#include "runtime/output_bisection.h"

#include <algorithm>
#include <chrono>

namespace fusescope::runtime {
namespace {

struct TimedOutputs {
  std::vector<Literal> outputs;
  double seconds = 0;
};

StatusOr<TimedOutputs> RunModule(const ir::Module& module, const std::vector<Literal>& arguments,
                                 const StageRunner& run) {
  const auto start = std::chrono::steady_clock::now();
  StatusOr<Literal> result = run(module, arguments);
  TimedOutputs timed;
  timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) return result.status();
  if (result->is_tuple()) {
    timed.outputs = std::move(result->elements());
  } else {
    timed.outputs.push_back(std::move(result).value());
  }
  return timed;
}

void Judge(const std::vector<Literal>& outputs, const std::vector<Literal>& expected, double rtol,
           double atol, BisectionRow& row) {
  row.ok = outputs.size() == expected.size();
  if (!row.ok)
    row.error =
        std::to_string(outputs.size()) + " outputs instead of " + std::to_string(expected.size());
  for (size_t i = 0; i < std::min(outputs.size(), expected.size()); ++i) {
    const LiteralDifference difference = CompareLiterals(outputs[i], expected[i], rtol, atol);
    if (!difference.same_shape) row.error = "output " + std::to_string(i) + " changed shape";
    row.ok = row.ok && difference.ok();
    row.max_abs_error = std::max(row.max_abs_error, difference.max_abs_error);
    row.max_rel_error = std::max(row.max_rel_error, difference.max_rel_error);
  }
}

}  // namespace

StatusOr<BisectionResult> BisectOutputs(const ir::Module& input,
                                        const std::vector<BisectionStage>& stages,
                                        const std::vector<Literal>& arguments, double rtol,
                                        double atol, const InterpreterOptions& options) {
  return BisectOutputs(input, stages, arguments, rtol, atol, options, nullptr);
}

StatusOr<BisectionResult> BisectOutputs(const ir::Module& input,
                                        const std::vector<BisectionStage>& stages,
                                        const std::vector<Literal>& arguments, double rtol,
                                        double atol, const InterpreterOptions& options,
                                        const StageRunner& run_stage) {
  const StageRunner interpret = [&options](const ir::Module& module,
                                           const std::vector<Literal>& module_arguments) {
    return Interpreter(options).Run(module, module_arguments);
  };
  const StageRunner& run = run_stage ? run_stage : interpret;
  StatusOr<TimedOutputs> reference = RunModule(input, arguments, interpret);
  if (!reference.ok()) return Status::Error("the input module: " + reference.message());
  BisectionResult result;
  result.input_seconds = reference->seconds;
  result.outputs = static_cast<int64_t>(reference->outputs.size());
  BisectionRow previous_row;  // before the first pass: the input module itself, exact
  previous_row.ran = true;
  for (const BisectionStage& stage : stages) {
    BisectionRow row;
    row.pass_index = stage.pass_index;
    row.pass_name = stage.pass_name;
    if (!stage.changed) {
      row = previous_row;
      row.pass_index = stage.pass_index;
      row.pass_name = stage.pass_name;
      row.reused = true;
      row.seconds = 0;
    } else {
      StatusOr<std::unique_ptr<ir::Module>> module = stage.load();
      StatusOr<TimedOutputs> outputs = module.ok() ? RunModule(**module, arguments, run)
                                                   : StatusOr<TimedOutputs>(module.status());
      if (!outputs.ok()) {
        row.error = outputs.message();
        row.ok = false;
      } else {
        row.ran = true;
        row.seconds = outputs->seconds;
        Judge(outputs->outputs, reference->outputs, rtol, atol, row);
      }
    }
    previous_row = row;
    if (row.ran && !row.ok && !row.reused && !result.first_bad)
      result.first_bad = result.rows.size();
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace fusescope::runtime
