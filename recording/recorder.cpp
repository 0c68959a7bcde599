#include "recording/recorder.h"

#include <utility>

#include "ir/hlo_printer.h"

namespace fusescope::recording {

Recorder::Recorder(const passes::Pipeline& pipeline)
    : Recorder(pipeline.name(), pipeline.options()) {}

Recorder::Recorder(std::string pipeline_name, passes::PipelineOptions options) {
  recording_.pipeline_name = std::move(pipeline_name);
  recording_.options = std::move(options);
}

void Recorder::set_model(std::string model_name, std::string source_path) {
  recording_.model_name = std::move(model_name);
  recording_.source_path = std::move(source_path);
}

void Recorder::BeforePipeline(const ir::Module& module) {
  started_ = std::chrono::steady_clock::now();
  if (recording_.model_name.empty()) recording_.model_name = module.name();
  recording_.input_text = input_text_.empty() ? ir::PrintModule(module) : input_text_;
  recording_.passes.clear();
  recording_.decisions.clear();
  recording_.reproducer.reset();
  recording_.snapshots.clear();
  recording_.snapshots.push_back(Snapshot::Capture(module, nullptr));
}

void Recorder::BeforePass(const passes::PassRunInfo& info, const ir::Module& module) {
  current_pass_ = info.index;
  instructions_before_ = module.instruction_count();
}

PassRecord& Recorder::RecordFor(const passes::PassRunInfo& info) {
  if (recording_.passes.empty() || recording_.passes.back().index != info.index) {
    recording_.passes.emplace_back();
  }
  PassRecord& record = recording_.passes.back();
  record.index = info.index;
  record.name = info.name;
  record.changed = info.changed();
  record.reported_changed = info.reported_changed;
  record.change_flag_lies = info.change_flag_lies();
  record.skipped = info.skipped;
  record.wall_seconds = info.wall_seconds;
  record.fingerprint_before = info.fingerprint_before;
  record.fingerprint_after = info.fingerprint_after;
  record.instructions_before = instructions_before_;
  record.stats = info.stats;
  return record;
}

void Recorder::AfterPass(const passes::PassRunInfo& info, const ir::Module& module) {
  RecordFor(info).instructions_after = module.instruction_count();
  const Snapshot& previous = recording_.snapshots.back();
  // A skipped pass did not run, so the module is the previous snapshot as it stands.
  Snapshot after =
      info.skipped ? previous : Snapshot::Capture(module, &previous, info.fingerprint_after);
  after.set_pass_index(info.index);
  recording_.snapshots.push_back(std::move(after));
}

void Recorder::PassFailed(const passes::PassRunInfo& info, const ir::Module& module,
                          const ir::Module& before, const Status& error) {
  PassRecord& record = RecordFor(info);
  record.instructions_after = module.instruction_count();
  record.failed = true;
  record.error = error.message();
  // The invariant checker runs after the pass, so AfterPass may already have captured the
  // module that it then refused.
  Snapshot& last = recording_.snapshots.back();
  if (last.pass_index() != info.index) {
    Snapshot broken = Snapshot::Capture(module, &last, info.fingerprint_after);
    broken.set_pass_index(info.index);
    recording_.snapshots.push_back(std::move(broken));
  }
  recording_.snapshots.back().MarkBroken(error.message());
  recording_.reproducer =
      Reproducer{info.index, info.name, ir::PrintModule(before), error.message()};
}

void Recorder::OnFusionDecision(const passes::FusionDecisionRecord& record) {
  recording_.decisions.push_back(record);
  if (recording_.decisions.back().pass_index < 0) {
    recording_.decisions.back().pass_index = current_pass_;
  }
}

void Recorder::AfterPipeline(const ir::Module& /*module*/) {
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
  recording_.total_seconds = elapsed.count();
  // Growth by doubling leaves up to half of each vector unused; thousands of decisions make
  // that megabytes.
  recording_.decisions.shrink_to_fit();
  recording_.snapshots.shrink_to_fit();
  recording_.passes.shrink_to_fit();
}

Recording Recorder::TakeRecording() {
  Recording taken = std::move(recording_);
  recording_ = Recording();
  recording_.pipeline_name = taken.pipeline_name;
  recording_.options = taken.options;
  return taken;
}

}  // namespace fusescope::recording
