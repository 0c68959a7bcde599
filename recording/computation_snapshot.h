#ifndef FUSESCOPE_RECORDING_COMPUTATION_SNAPSHOT_H_
#define FUSESCOPE_RECORDING_COMPUTATION_SNAPSHOT_H_

// One computation as it was after one pass: the printed text around its instructions and
// the instruction records in printed order. Immutable and shared, like the records: a
// computation a pass did not touch is the very same object in both snapshots.

#include <memory>
#include <string>
#include <vector>

#include "recording/instruction_record.h"

namespace fusescope::recording {

struct ComputationSnapshot {
  std::string name;
  bool is_entry = false;
  // Printed text before the first instruction (the signature line) and after the last one
  // (the closing brace), newlines included, so that concatenating every piece of a
  // snapshot gives back exactly the printed module.
  std::string header;
  std::string footer;
  std::vector<InstructionRecordPtr> instructions;
};

using ComputationSnapshotPtr = std::shared_ptr<const ComputationSnapshot>;

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_COMPUTATION_SNAPSHOT_H_
