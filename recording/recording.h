#ifndef FUSESCOPE_RECORDING_RECORDING_H_
#define FUSESCOPE_RECORDING_RECORDING_H_

// One compile of one model: the input, the pipeline that ran, what every pass did, the
// module after every pass, every fusion decision, and for a failed pass what is needed to
// reproduce the failure. A plain value: the Recorder fills it, the store saves and loads it,
// views read it.
//
// snapshots[0] is the input module and snapshots[i + 1] the module after passes[i], so there
// is always one more snapshot than passes. When a pass failed it is the last one, and its
// snapshot is marked broken.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "passes/fusion_decision.h"
#include "passes/pipeline_options.h"
#include "recording/pass_record.h"
#include "recording/snapshot.h"
#include "recording/snapshot_source.h"

namespace fusescope::recording {

// The module before the failing pass and the pass's name: running that pass alone on that
// text shows the failure again.
struct Reproducer {
  int64_t pass_index = -1;
  std::string pass_name;
  std::string module_text;
  std::string error;

  bool operator==(const Reproducer& other) const = default;
};

// Memory held by a recording, counting every shared object once.
struct RecordingFootprint {
  int64_t snapshots = 0;
  int64_t instruction_references = 0;  // summed over snapshots
  int64_t unique_instruction_records = 0;
  int64_t computation_references = 0;
  int64_t unique_computations = 0;
  int64_t bytes = 0;  // estimated heap and object bytes of snapshots and decisions
};

struct Recording {
  std::string model_name;
  std::string source_path;
  std::string input_text;  // the module as given to the pipeline
  std::string pipeline_name;
  passes::PipelineOptions options;
  double total_seconds = 0;  // the whole pipeline run, recording included
  // The passes are another compiler's, read from what it wrote (an XLA dump folder, an MLIR
  // pass log): no pass was timed here, and our pipeline's options say nothing of them.
  bool imported = false;

  std::vector<PassRecord> passes;
  std::vector<Snapshot> snapshots;
  std::vector<passes::FusionDecisionRecord> decisions;
  std::optional<Reproducer> reproducer;
  // The compiler's own text of each snapshot (snapshot_source.h), one per snapshot, for
  // recordings imported from a compiler that prints IR in another language (MLIR logs);
  // empty otherwise.
  std::vector<SnapshotSource> sources;

  bool failed() const { return reproducer.has_value(); }
  // Precondition: the recording has its input snapshot.
  const Snapshot& input() const { return snapshots.front(); }
  // The module after pass `pass_index`; nullptr when out of range.
  const Snapshot* SnapshotAfter(int64_t pass_index) const;
  // The module the pass ran on; nullptr when out of range.
  const Snapshot* SnapshotBefore(int64_t pass_index) const;
  std::vector<const passes::FusionDecisionRecord*> DecisionsOf(int64_t pass_index) const;

  RecordingFootprint Footprint() const;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_H_
