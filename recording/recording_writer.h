#ifndef FUSESCOPE_RECORDING_RECORDING_WRITER_H_
#define FUSESCOPE_RECORDING_RECORDING_WRITER_H_

// Writes one recording into an empty database, schema included, in one transaction.
// Records and computations shared between snapshots are written once.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/status.h"
#include "recording/constant_store.h"
#include "recording/recording.h"
#include "recording/sqlite_database.h"

namespace fusescope::recording {

class RecordingWriter {
 public:
  explicit RecordingWriter(SqliteDatabase& db) : db_(db) {}

  Status Write(const Recording& recording);

 private:
  Status WriteAll(const Recording& recording);
  Status WriteMeta(const Recording& recording);
  Status WriteOptions(const passes::PipelineOptions& options);
  Status WritePasses(const std::vector<PassRecord>& passes);
  Status PrepareSnapshotStatements();
  Status WriteSnapshots(const std::vector<Snapshot>& snapshots);
  Status WriteDecisions(const std::vector<passes::FusionDecisionRecord>& decisions);
  Status WriteReproducer(const Reproducer& reproducer);
  Status WriteSources(const std::vector<SnapshotSource>& sources);

  // Row ids of what has been written, by object.
  StatusOr<int64_t> RecordRow(const InstructionRecord& record);
  StatusOr<int64_t> ComputationRow(const ComputationSnapshot& computation);
  StatusOr<int64_t> ProvenanceRow(const CompactProvenance& provenance);
  StatusOr<int64_t> PrologueRow(const std::shared_ptr<const std::string>& prologue);

  SqliteDatabase& db_;
  std::optional<SqliteStatement> insert_record_;
  std::optional<SqliteStatement> insert_computation_;
  std::optional<SqliteStatement> insert_computation_member_;
  std::optional<SqliteStatement> insert_prologue_;
  std::optional<SqliteStatement> insert_provenance_;
  ConstantWriter constants_;
  std::unordered_map<std::string_view, int64_t> provenance_rows_;  // by encoded ids
  std::unordered_map<const void*, int64_t> rows_;
  // Equal records that are different objects (a change undone by a later pass) still get
  // one row: keyed by content.
  std::unordered_multimap<size_t, std::pair<const InstructionRecord*, int64_t>> records_by_content_;
  int64_t next_record_row_ = 1;
  int64_t next_computation_row_ = 1;
  int64_t next_prologue_row_ = 1;
  int64_t next_provenance_row_ = 1;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_WRITER_H_
