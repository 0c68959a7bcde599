#ifndef FUSESCOPE_RECORDING_PASS_RECORD_H_
#define FUSESCOPE_RECORDING_PASS_RECORD_H_

// What one pass of a recorded compile did: whether it changed the module (measured by
// fingerprints, and as it reported itself), how long it took, what it reported, and how it
// failed if it did.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fusescope::recording {

struct PassRecord {
  int64_t index = 0;  // position in the pipeline run, 0-based
  std::string name;
  bool changed = false;           // fingerprints before and after differ
  bool reported_changed = false;  // what the pass returned
  bool change_flag_lies = false;  // the two disagree (skipped passes never lie)
  bool skipped = false;           // disabled by options: not run
  double wall_seconds = 0;
  uint64_t fingerprint_before = 0;
  uint64_t fingerprint_after = 0;
  int64_t instructions_before = 0;
  int64_t instructions_after = 0;
  std::vector<std::pair<std::string, std::string>> stats;
  bool failed = false;  // returned an error or broke the IR
  std::string error;

  bool operator==(const PassRecord& other) const = default;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_PASS_RECORD_H_
