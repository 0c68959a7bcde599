#include "fuzz/pipeline_check.h"

#include <string>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "ir/verifier.h"
#include "passes/fusion_inliner.h"
#include "passes/pipeline.h"
#include "recording/compile_and_record.h"

namespace fusescope::fuzz {
namespace {

passes::PipelineOptions OptionsFor(const std::string& target) {
  passes::PipelineOptions options;
  options.target = target;
  options.verify_between_passes = true;
  return options;
}

// The compiled module is what the workbench prints and stores; it must read back.
Status CheckPrintable(const ir::Module& compiled, const std::string& target) {
  const std::string printed = ir::PrintModule(compiled);
  auto reparsed = ir::ParseHloModule(printed, "compiled");
  if (!reparsed.ok()) {
    return Status::Error("pipeline " + target +
                         ": the compiled module prints as text that does "
                         "not parse: " +
                         reparsed.message() + "\n" + printed);
  }
  if (Status verified = ir::VerifyModule(**reparsed); !verified.ok()) {
    return Status::Error("pipeline " + target + ": the compiled module reads back invalid: " +
                         verified.message() + "\n" + printed);
  }
  return Status::Ok();
}

// Fusions put back in place (print --inline-fusions, export) leave a valid module without
// fusion instructions.
Status CheckInlinable(const ir::Module& module, const std::string& what) {
  std::unique_ptr<ir::Module> copy = module.Clone();
  passes::PassContext context;
  auto inlined = passes::FusionInliner().Run(*copy, context);
  if (!inlined.ok()) return Status::Error(what + ": fusion-inliner failed: " + inlined.message());
  if (Status verified = ir::VerifyModule(*copy); !verified.ok()) {
    return Status::Error(what + ": fusion-inliner broke the IR: " + verified.message());
  }
  for (const auto& computation : copy->computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == ir::Opcode::kFusion) {
        return Status::Error(what + ": fusion-inliner left %" + instruction->name());
      }
    }
  }
  return Status::Ok();
}

Status RunPipeline(const ir::Module& module, const std::string& target) {
  auto pipeline = passes::MakeBuiltinPipeline(OptionsFor(target));
  if (!pipeline.ok()) return pipeline.status();
  std::unique_ptr<ir::Module> copy = module.Clone();
  if (Status status = (*pipeline)->Run(*copy); !status.ok()) {
    return Status::Error("pipeline " + target + ": " + status.message());
  }
  FS_RETURN_IF_ERROR(CheckPrintable(*copy, target));
  return CheckInlinable(*copy, "pipeline " + target);
}

Status RunRecorded(const ir::Module& module, const std::string& target) {
  auto recording = recording::CompileAndRecord(module, OptionsFor(target));
  if (!recording.ok())
    return Status::Error("recorded pipeline " + target + ": " + recording.message());
  if (recording->failed()) {
    const recording::Reproducer& failure = *recording->reproducer;
    return Status::Error("recorded pipeline " + target + ": pass " + failure.pass_name + " (#" +
                         std::to_string(failure.pass_index) + "): " + failure.error);
  }
  // A decision is a value with an explanation; accepts say what they formed.
  for (const passes::FusionDecisionRecord& decision : recording->decisions) {
    if (decision.explanation.empty() || (decision.accepted() && decision.fusion_name.empty())) {
      return Status::Error("recorded pipeline " + target + ": pass " + decision.pass + " decided " +
                           decision.producer_name + " -> " + decision.consumer_name + " (" +
                           std::string(passes::FusionReasonCode(decision.reason)) +
                           ") without saying why or what it formed");
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckBuiltinPipelines(const ir::Module& module, const PipelineCheckOptions& options) {
  FS_RETURN_IF_ERROR(CheckInlinable(module, "input"));
  FS_RETURN_IF_ERROR(RunPipeline(module, "cpu"));
  if (options.record) return RunRecorded(module, "gpu");
  return RunPipeline(module, "gpu");
}

}  // namespace fusescope::fuzz
