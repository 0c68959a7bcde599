#include "recording/compile_and_record.h"

#include <memory>
#include <string>

#include "ir/hlo_parser.h"
#include "passes/pipeline.h"
#include "recording/recorder.h"

namespace fusescope::recording {

namespace {

StatusOr<Recording> RecordBuiltin(ir::Module& module, const passes::PipelineOptions& options,
                                  std::string_view source_path, std::string_view input_text,
                                  passes::PassInstrumentation* observer) {
  StatusOr<std::unique_ptr<passes::Pipeline>> pipeline = passes::MakeBuiltinPipeline(options);
  if (!pipeline.ok()) return pipeline.status();
  Recorder recorder(**pipeline);
  recorder.set_model(module.name(), std::string(source_path));
  recorder.set_input_text(std::string(input_text));
  (*pipeline)->AddInstrumentation(&recorder);
  if (observer) (*pipeline)->AddInstrumentation(observer);
  Status status = (*pipeline)->Run(module);
  Recording recording = recorder.TakeRecording();
  // A failing pass is recorded (broken snapshot, reproducer); anything else stopped the run.
  if (!status.ok() && !recording.failed()) return status;
  return recording;
}

}  // namespace

StatusOr<Recording> CompileAndRecord(const ir::Module& module,
                                     const passes::PipelineOptions& options,
                                     std::string_view source_path, std::string_view input_text,
                                     passes::PassInstrumentation* observer) {
  std::unique_ptr<ir::Module> copy = module.Clone();
  return RecordBuiltin(*copy, options, source_path, input_text, observer);
}

StatusOr<Recording> CompileAndRecord(std::string_view hlo_text,
                                     const passes::PipelineOptions& options,
                                     std::string_view source_path,
                                     passes::PassInstrumentation* observer) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(hlo_text, source_path);
  if (!module.ok()) return module.status();
  return RecordBuiltin(**module, options, source_path, hlo_text, observer);
}

}  // namespace fusescope::recording
