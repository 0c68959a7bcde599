#ifndef FUSESCOPE_RECORDING_SNAPSHOT_H_
#define FUSESCOPE_RECORDING_SNAPSHOT_H_

// The module as it was after one pass (or the input module), kept cheap: a snapshot is the
// module's printed prologue plus pointers to immutable computation and instruction records,
// shared with the previous snapshot wherever a pass changed nothing. It answers lookups by
// id or name without rebuilding a module, and can rebuild one when a caller needs the IR.
//
// Snapshots are immutable once captured, so copies share everything (the lookup index too)
// and may be read from several threads.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"
#include "recording/computation_snapshot.h"
#include "recording/instruction_record.h"

namespace fusescope::recording {

// How much of one snapshot is shared with another.
struct SnapshotSharing {
  int64_t instructions = 0;         // instruction records in this snapshot
  int64_t shared_instructions = 0;  // of those, the same object as in the other snapshot
  int64_t computations = 0;
  int64_t shared_computations = 0;
};

class Snapshot {
 public:
  // An empty snapshot (no computations).
  Snapshot();
  // Assembles a snapshot from stored parts; the store uses it when loading.
  Snapshot(std::shared_ptr<const std::string> prologue,
           std::vector<ComputationSnapshotPtr> computations, uint64_t fingerprint);

  // Captures `module` as printed with ids. Records and computations equal to those of
  // `previous` (may be null) are taken from it rather than copied. Works on broken modules
  // too: whatever prints is kept. `fingerprint` is ir::Fingerprint(module), which callers
  // such as the pipeline have already computed; the second form computes it.
  static Snapshot Capture(const ir::Module& module, const Snapshot* previous, uint64_t fingerprint);
  static Snapshot Capture(const ir::Module& module, const Snapshot* previous);

  // Text before the first computation: the `HloModule` line and any stack-frame tables.
  const std::string& prologue() const { return *prologue_; }
  const std::shared_ptr<const std::string>& shared_prologue() const { return prologue_; }
  // In printed order.
  const std::vector<ComputationSnapshotPtr>& computations() const { return computations_; }
  uint64_t fingerprint() const { return fingerprint_; }
  int64_t instruction_count() const;

  // Which pass produced it: -1 for the input module.
  int64_t pass_index() const { return pass_index_; }
  void set_pass_index(int64_t index) { pass_index_ = index; }
  // A pass failed or broke the IR; this is the module it left behind.
  bool broken() const { return broken_; }
  const std::string& error() const { return error_; }
  void MarkBroken(std::string error);

  // Lookups; nullptr when absent. The first call builds an index (linear); later calls are
  // logarithmic.
  const InstructionRecord* FindInstruction(int64_t id) const;
  const InstructionRecord* FindInstruction(std::string_view name) const;
  const ComputationSnapshot* FindComputation(std::string_view name) const;

  // The printed module, parsable, with `/*id=N*/` after each instruction name.
  std::string Text() const;
  // Rebuilds the IR: the same ids, names and provenance as the captured module. Fails for a
  // broken snapshot whose text does not parse.
  StatusOr<std::unique_ptr<ir::Module>> ToModule() const;

  SnapshotSharing SharingWith(const Snapshot& other) const;

 private:
  struct LookupIndex;
  const LookupIndex& Index() const;

  std::shared_ptr<const std::string> prologue_;
  std::vector<ComputationSnapshotPtr> computations_;
  uint64_t fingerprint_ = 0;
  int64_t pass_index_ = -1;
  bool broken_ = false;
  std::string error_;
  std::shared_ptr<LookupIndex> index_;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_SNAPSHOT_H_
