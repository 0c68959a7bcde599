#include "fuzz/cpu_executable_check.h"

#include "ir/computation.h"
#include "recording/compile_and_record.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::fuzz {
namespace {

constexpr int64_t kMaxLiveBytes = int64_t{64} << 20;

Status CompareOutputs(const runtime::Literal& actual, const runtime::Literal& expected) {
  const bool tuple = expected.shape().IsTuple();
  const size_t count = tuple ? expected.elements().size() : 1;
  if (tuple && (!actual.shape().IsTuple() || actual.elements().size() != count))
    return Status::Error("the compiled module returns another number of outputs");
  for (size_t i = 0; i < count; ++i) {
    const runtime::Literal& a = tuple ? actual.elements()[i] : actual;
    const runtime::Literal& e = tuple ? expected.elements()[i] : expected;
    const runtime::LiteralDifference d = runtime::CompareLiterals(a, e, 1e-5, 1e-6);
    if (!d.ok()) {
      return Status::Error(
          "output " + std::to_string(i) + " differs: " +
          (d.same_shape
               ? std::to_string(d.mismatches) + " elements, max abs error " +
                     std::to_string(d.max_abs_error)
               : "shape " + a.shape().ToString(false) + " vs " + e.shape().ToString(false)) +
          "\ncompiled: " + a.ToString(16) + "\nexpected: " + e.ToString(16));
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CpuExecutableCheck> CheckCpuExecutable(const ir::Module& module, uint64_t seed) {
  CpuExecutableCheck check;
  auto inputs = runtime::SeededInputs(*module.entry(), seed);
  if (!inputs.ok()) {
    check.skipped_because = "no seeded inputs: " + inputs.message();
    return check;
  }
  runtime::InterpreterOptions limits;
  limits.max_live_bytes = kMaxLiveBytes;
  limits.max_while_iterations = 1000;
  runtime::Interpreter interpreter(limits);
  auto expected = interpreter.Run(module, *inputs);
  if (!expected.ok()) {
    check.skipped_because = "the interpreter refuses it: " + expected.message();
    return check;
  }
  passes::PipelineOptions pipeline;
  pipeline.target = "cpu";
  auto recording = recording::CompileAndRecord(module, pipeline);
  if (!recording.ok() || recording->failed()) {
    check.skipped_because = "the CPU pipeline fails on it (the pipeline check's concern)";
    return check;
  }
  auto compiled = recording->snapshots.back().ToModule();
  if (!compiled.ok())
    return Status::Error("the final snapshot does not rebuild: " + compiled.message());
  // The reference is the interpreter on the same snapshot: a pass that changes the numbers is
  // a pipeline bug, not one of the CPU backend.
  runtime::Interpreter snapshot_interpreter(limits);
  expected = snapshot_interpreter.Run(**compiled, *inputs);
  if (!expected.ok()) {
    check.skipped_because = "the interpreter refuses the compiled snapshot: " + expected.message();
    return check;
  }
  runtime::CpuExecutableOptions options;
  options.max_live_bytes = kMaxLiveBytes;
  auto executable = runtime::CpuExecutable::Compile(**compiled, options);
  if (!executable.ok())
    return Status::Error("compiling for the CPU failed: " + executable.message());
  check.kernel_summary = (*executable)->KernelSummary();
  for (const recording::KernelRecord& kernel : (*executable)->kernels()) {
    if (kernel.backend == "mlir-cpu" || kernel.backend == "openblas") ++check.compiled_kernels;
  }
  auto actual = (*executable)->Run(*inputs);
  if (!actual.ok()) return Status::Error("running on the CPU failed: " + actual.message());
  Status same = CompareOutputs(*actual, *expected);
  if (!same.ok()) return Status::Error(same.message() + "\n" + check.kernel_summary);
  check.compared = true;
  return check;
}

}  // namespace fusescope::fuzz
