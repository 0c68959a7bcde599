#ifndef FUSESCOPE_RECORDING_RECORDING_READER_H_
#define FUSESCOPE_RECORDING_RECORDING_READER_H_

// Reads a recording back from a database written by RecordingWriter. Every reference
// between tables is checked, so a damaged file gives an error naming what is missing rather
// than a recording with holes. Shared rows become shared objects again.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/status.h"
#include "recording/recording.h"
#include "recording/sqlite_database.h"

namespace fusescope::recording {

class RecordingReader {
 public:
  explicit RecordingReader(SqliteDatabase& db) : db_(db) {}

  // SQLite's user_version: 0 for a database that is not a recording at all.
  StatusOr<int64_t> SchemaVersion();
  // The file is as long as its header says: SQLite reads a cut-off tail as zeros, which
  // would silently blank the end of a long text.
  Status CheckComplete(uint64_t file_size);
  // The meta table exists and says this is a recording of `version`.
  Status CheckFormat(int64_t version);
  StatusOr<Recording> Read();

 private:
  Status ReadMeta(Recording& recording);
  Status ReadOptions(passes::PipelineOptions& options);
  Status ReadPasses(std::vector<PassRecord>& passes);
  Status ReadPassStats(std::vector<PassRecord>& passes);
  Status ReadProvenance();
  Status ReadRecords();
  Status ReadComputations();
  // A snapshot's row, before its computations are attached.
  struct SnapshotRow {
    int64_t pass_index;
    std::shared_ptr<const std::string> prologue;
    uint64_t fingerprint;
    bool broken;
    std::string error;
    std::vector<ComputationSnapshotPtr> computations;
  };

  Status ReadSnapshots(std::vector<Snapshot>& snapshots);
  Status ReadSnapshotMembers(std::vector<SnapshotRow>& rows);
  Status ReadDecisions(std::vector<passes::FusionDecisionRecord>& decisions);
  Status ReadReproducer(std::optional<Reproducer>& reproducer);
  Status ReadSources(Recording& recording);

  SqliteDatabase& db_;
  std::unordered_map<int64_t, std::shared_ptr<const CompactProvenance>> provenance_;
  std::unordered_map<int64_t, ir::ConstantBytesPtr> record_constants_;  // by record row
  std::unordered_map<int64_t, InstructionRecordPtr> records_;
  std::unordered_map<int64_t, std::shared_ptr<ComputationSnapshot>> computations_;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_READER_H_
