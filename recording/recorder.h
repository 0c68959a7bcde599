#ifndef FUSESCOPE_RECORDING_RECORDER_H_
#define FUSESCOPE_RECORDING_RECORDER_H_

// The instrumentation that records a pipeline run: a snapshot after every pass (sharing
// what the pass left alone), the pass's timing, fingerprints and stats, every fusion
// decision, and for a failing pass the broken module and a reproducer. It only observes.

#include <chrono>
#include <cstdint>
#include <string>

#include "passes/pass_instrumentation.h"
#include "passes/pipeline.h"
#include "recording/recording.h"

namespace fusescope::recording {

class Recorder : public passes::PassInstrumentation {
 public:
  // The pipeline's name and options go into the recording.
  explicit Recorder(const passes::Pipeline& pipeline);
  Recorder(std::string pipeline_name, passes::PipelineOptions options);

  void set_model(std::string model_name, std::string source_path);
  // The module text as the user gave it; when unset, the input module is printed instead.
  void set_input_text(std::string text) { input_text_ = std::move(text); }

  void BeforePipeline(const ir::Module& module) override;
  void BeforePass(const passes::PassRunInfo& info, const ir::Module& module) override;
  void AfterPass(const passes::PassRunInfo& info, const ir::Module& module) override;
  void PassFailed(const passes::PassRunInfo& info, const ir::Module& module,
                  const ir::Module& before, const Status& error) override;
  void OnFusionDecision(const passes::FusionDecisionRecord& record) override;
  void AfterPipeline(const ir::Module& module) override;

  const Recording& recording() const { return recording_; }
  // Hands the recording over; the recorder is left empty.
  Recording TakeRecording();

 private:
  PassRecord& RecordFor(const passes::PassRunInfo& info);

  Recording recording_;
  std::string input_text_;
  std::chrono::steady_clock::time_point started_;
  int64_t current_pass_ = -1;
  int64_t instructions_before_ = 0;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDER_H_
