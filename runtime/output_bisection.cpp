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

void Judge(const std::vector<Literal>& outputs, const std::vector<Literal>& expected,
           const std::vector<Literal>& exact, double rtol, double atol, BisectionRow& row) {
  if (outputs.size() != expected.size()) {
    row.ok = false;
    row.verdict = OutputVerdict::kMismatch;
    row.error =
        std::to_string(outputs.size()) + " outputs instead of " + std::to_string(expected.size());
    return;
  }
  const std::vector<OutputJudgement> judgements =
      JudgeOutputs(outputs, expected, exact, rtol, atol);
  for (size_t i = 0; i < judgements.size(); ++i) {
    const OutputJudgement& judgement = judgements[i];
    if (!judgement.to_reference.same_shape)
      row.error = "output " + std::to_string(i) + " changed shape";
    row.max_abs_error = std::max(row.max_abs_error, judgement.to_reference.max_abs_error);
    row.max_rel_error = std::max(row.max_rel_error, judgement.to_reference.max_rel_error);
    row.to_exact = std::max(row.to_exact, judgement.candidate_to_exact);
    row.input_to_exact = std::max(row.input_to_exact, judgement.reference_to_exact);
  }
  row.verdict = WorstVerdict(judgements);
  row.ok = row.verdict != OutputVerdict::kMismatch;
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
  InterpreterOptions wide_options = options;
  wide_options.widen_floats_to_f64 = true;
  const StageRunner interpret_wide = [&wide_options](const ir::Module& module,
                                                     const std::vector<Literal>& module_arguments) {
    return Interpreter(wide_options).Run(module, module_arguments);
  };
  StatusOr<TimedOutputs> exact = RunModule(input, arguments, interpret_wide);
  std::vector<Literal> exact_outputs;
  if (exact.ok()) {
    result.exact_seconds = exact->seconds;
    exact_outputs = std::move(exact->outputs);
  } else {
    result.exact_error = exact.message();
  }
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
        Judge(outputs->outputs, reference->outputs, exact_outputs, rtol, atol, row);
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
