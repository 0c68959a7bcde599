#include "recording/recording_writer.h"

#include <functional>
#include <string_view>

#include "recording/compressed_text.h"
#include "recording/recording_schema.h"
#include "recording/recording_store.h"
#include "recording/store_values.h"

namespace fusescope::recording {

namespace {

StatusOr<SqliteStatement> PrepareInsert(SqliteDatabase& db, std::string_view table, int columns) {
  std::string sql = "INSERT INTO " + std::string(table) + " VALUES (";
  for (int i = 0; i < columns; ++i) sql += i == 0 ? "?" : ",?";
  return db.Prepare(sql + ")");
}

size_t ContentHash(const InstructionRecord& record) {
  return std::hash<std::string_view>()(record.text) ^ std::hash<int64_t>()(record.id);
}

void BindPass(SqliteStatement& insert, const PassRecord& pass) {
  insert.Bind(1, pass.index);
  insert.Bind(2, std::string_view(pass.name));
  insert.Bind(3, pass.changed);
  insert.Bind(4, pass.reported_changed);
  insert.Bind(5, pass.change_flag_lies);
  insert.Bind(6, pass.skipped);
  insert.Bind(7, pass.wall_seconds);
  insert.BindUnsigned(8, pass.fingerprint_before);
  insert.BindUnsigned(9, pass.fingerprint_after);
  insert.Bind(10, pass.instructions_before);
  insert.Bind(11, pass.instructions_after);
  insert.Bind(12, pass.failed);
  insert.Bind(13, std::string_view(pass.error));
}

void BindDecision(SqliteStatement& insert, int64_t index,
                  const passes::FusionDecisionRecord& decision) {
  insert.Bind(1, index);
  insert.Bind(2, decision.pass_index);
  insert.Bind(3, std::string_view(decision.pass));
  insert.Bind(4, decision.producer_id);
  insert.Bind(5, std::string_view(decision.producer_name));
  insert.Bind(6, std::string_view(decision.producer_opcode));
  insert.Bind(7, decision.consumer_id);
  insert.Bind(8, std::string_view(decision.consumer_name));
  insert.Bind(9, std::string_view(decision.consumer_opcode));
  insert.Bind(10, std::string_view(decision.computation));
  insert.Bind(11, passes::FusionReasonCode(decision.reason));
  insert.Bind(12, std::string_view(decision.explanation));
  insert.Bind(13, std::string_view(decision.fusion_name));
}

}  // namespace

Status RecordingWriter::Write(const Recording& recording) {
  FS_RETURN_IF_ERROR(db_.Execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  // A failed write is discarded whole; the caller discards the file too.
  return db_.InTransaction([&] { return WriteAll(recording); }, "recording-write");
}

Status RecordingWriter::WriteAll(const Recording& recording) {
  FS_RETURN_IF_ERROR(db_.Execute(kRecordingSchema));
  FS_RETURN_IF_ERROR(db_.Execute(kConstantSchema));
  FS_RETURN_IF_ERROR(
      db_.Execute("PRAGMA user_version=" + std::to_string(kRecordingSchemaVersion) +
                  "; PRAGMA application_id=" + std::to_string(kRecordingApplicationId) + ";"));
  FS_RETURN_IF_ERROR(WriteMeta(recording));
  FS_RETURN_IF_ERROR(WriteOptions(recording.options));
  FS_RETURN_IF_ERROR(WritePasses(recording.passes));
  FS_RETURN_IF_ERROR(WriteSnapshots(recording.snapshots));
  FS_RETURN_IF_ERROR(WriteDecisions(recording.decisions));
  if (recording.reproducer) FS_RETURN_IF_ERROR(WriteReproducer(*recording.reproducer));
  return WriteSources(recording.sources);
}

Status RecordingWriter::WriteMeta(const Recording& recording) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "meta", 2);
  if (!insert.ok()) return insert.status();
  const std::string version = std::to_string(kRecordingSchemaVersion);
  const std::string total_seconds = FormatDouble(recording.total_seconds);
  const std::pair<std::string_view, std::string_view> rows[] = {
      {"format", kRecordingFormat},         {"schema_version", version},
      {"model_name", recording.model_name}, {"source_path", recording.source_path},
      {"input_text", recording.input_text}, {"pipeline_name", recording.pipeline_name},
      {"total_seconds", total_seconds},     {"imported", recording.imported ? "1" : "0"},
  };
  for (const auto& [key, value] : rows) {
    insert->Bind(1, key);
    insert->Bind(2, value);
    FS_RETURN_IF_ERROR(insert->Run());
  }
  return Status::Ok();
}

Status RecordingWriter::WriteOptions(const passes::PipelineOptions& options) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "pipeline_options", 2);
  if (!insert.ok()) return insert.status();
  for (const auto& [key, value] : PipelineOptionRows(options)) {
    insert->Bind(1, std::string_view(key));
    insert->Bind(2, std::string_view(value));
    FS_RETURN_IF_ERROR(insert->Run());
  }
  return Status::Ok();
}

Status RecordingWriter::WritePasses(const std::vector<PassRecord>& passes) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "passes", 13);
  if (!insert.ok()) return insert.status();
  StatusOr<SqliteStatement> insert_stat = PrepareInsert(db_, "pass_stats", 4);
  if (!insert_stat.ok()) return insert_stat.status();
  for (const PassRecord& pass : passes) {
    BindPass(*insert, pass);
    FS_RETURN_IF_ERROR(insert->Run());
    int64_t position = 0;
    for (const auto& [key, value] : pass.stats) {
      insert_stat->Bind(1, pass.index);
      insert_stat->Bind(2, position++);
      insert_stat->Bind(3, std::string_view(key));
      insert_stat->Bind(4, std::string_view(value));
      FS_RETURN_IF_ERROR(insert_stat->Run());
    }
  }
  return Status::Ok();
}

Status RecordingWriter::PrepareSnapshotStatements() {
  const std::pair<std::optional<SqliteStatement>*, std::pair<std::string_view, int>> tables[] = {
      {&insert_record_, {"records", 9}},
      {&insert_computation_, {"computations", 5}},
      {&insert_computation_member_, {"computation_members", 3}},
      {&insert_prologue_, {"prologues", 2}},
      {&insert_provenance_, {"provenance_sets", 2}},
  };
  for (const auto& [statement, table] : tables) {
    StatusOr<SqliteStatement> prepared = PrepareInsert(db_, table.first, table.second);
    if (!prepared.ok()) return prepared.status();
    statement->emplace(std::move(*prepared));
  }
  return constants_.Prepare(db_);
}

Status RecordingWriter::WriteSnapshots(const std::vector<Snapshot>& snapshots) {
  FS_RETURN_IF_ERROR(PrepareSnapshotStatements());
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "snapshots", 6);
  if (!insert.ok()) return insert.status();
  StatusOr<SqliteStatement> snapshot_members = PrepareInsert(db_, "snapshot_members", 3);
  if (!snapshot_members.ok()) return snapshot_members.status();
  for (size_t index = 0; index < snapshots.size(); ++index) {
    const Snapshot& snapshot = snapshots[index];
    StatusOr<int64_t> prologue = PrologueRow(snapshot.shared_prologue());
    if (!prologue.ok()) return prologue.status();
    int64_t position = 0;
    for (const ComputationSnapshotPtr& computation : snapshot.computations()) {
      StatusOr<int64_t> row = ComputationRow(*computation);
      if (!row.ok()) return row.status();
      snapshot_members->Bind(1, static_cast<int64_t>(index));
      snapshot_members->Bind(2, position++);
      snapshot_members->Bind(3, *row);
      FS_RETURN_IF_ERROR(snapshot_members->Run());
    }
    insert->Bind(1, static_cast<int64_t>(index));
    insert->Bind(2, snapshot.pass_index());
    insert->Bind(3, *prologue);
    insert->BindUnsigned(4, snapshot.fingerprint());
    insert->Bind(5, snapshot.broken());
    insert->Bind(6, std::string_view(snapshot.error()));
    FS_RETURN_IF_ERROR(insert->Run());
  }
  return Status::Ok();
}

StatusOr<int64_t> RecordingWriter::PrologueRow(const std::shared_ptr<const std::string>& prologue) {
  auto [found, inserted] = rows_.emplace(prologue.get(), next_prologue_row_);
  if (!inserted) return found->second;
  insert_prologue_->Bind(1, next_prologue_row_);
  insert_prologue_->Bind(2, std::string_view(*prologue));
  FS_RETURN_IF_ERROR(insert_prologue_->Run());
  return next_prologue_row_++;
}

StatusOr<int64_t> RecordingWriter::ComputationRow(const ComputationSnapshot& computation) {
  auto [found, inserted] = rows_.emplace(&computation, next_computation_row_);
  if (!inserted) return found->second;
  const int64_t row = next_computation_row_++;
  int64_t position = 0;
  for (const InstructionRecordPtr& record : computation.instructions) {
    StatusOr<int64_t> record_row = RecordRow(*record);
    if (!record_row.ok()) return record_row.status();
    insert_computation_member_->Bind(1, row);
    insert_computation_member_->Bind(2, position++);
    insert_computation_member_->Bind(3, *record_row);
    FS_RETURN_IF_ERROR(insert_computation_member_->Run());
  }
  insert_computation_->Bind(1, row);
  insert_computation_->Bind(2, std::string_view(computation.name));
  insert_computation_->Bind(3, computation.is_entry);
  insert_computation_->Bind(4, std::string_view(computation.header));
  insert_computation_->Bind(5, std::string_view(computation.footer));
  FS_RETURN_IF_ERROR(insert_computation_->Run());
  return row;
}

StatusOr<int64_t> RecordingWriter::RecordRow(const InstructionRecord& record) {
  auto known = rows_.find(&record);
  if (known != rows_.end()) return known->second;
  const size_t hash = ContentHash(record);
  auto [first, last] = records_by_content_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (*it->second.first == record) return rows_[&record] = it->second.second;
  }
  StatusOr<int64_t> provenance = ProvenanceRow(*record.provenance_set);
  if (!provenance.ok()) return provenance.status();
  const int64_t row = next_record_row_++;
  const std::string operands = FormatIdList(record.operand_ids);
  insert_record_->Bind(1, row);
  insert_record_->Bind(2, record.id);
  insert_record_->Bind(3, std::string_view(record.name));
  insert_record_->Bind(4, std::string_view(record.computation));
  insert_record_->Bind(5, std::string_view(record.opcode));
  insert_record_->Bind(6, std::string_view(record.text));
  insert_record_->Bind(7, std::string_view(operands));
  insert_record_->Bind(8, *provenance);
  insert_record_->Bind(9, std::string_view(record.fused_computation));
  FS_RETURN_IF_ERROR(insert_record_->Run());
  if (record.constant_bytes) {
    StatusOr<int64_t> constant = constants_.Row(record.constant_bytes);
    if (!constant.ok()) return constant.status();
    FS_RETURN_IF_ERROR(constants_.Link(row, *constant));
  }
  rows_[&record] = row;
  records_by_content_.emplace(hash, std::make_pair(&record, row));
  return row;
}

StatusOr<int64_t> RecordingWriter::ProvenanceRow(const CompactProvenance& provenance) {
  auto known = rows_.find(&provenance);
  if (known != rows_.end()) return known->second;
  // Keyed by a view into the recording's own sets, which outlive the writer.
  auto [found, inserted] = provenance_rows_.emplace(provenance.bytes(), next_provenance_row_);
  rows_[&provenance] = found->second;
  if (!inserted) return found->second;
  insert_provenance_->Bind(1, next_provenance_row_);
  insert_provenance_->BindBlob(2, provenance.bytes());
  FS_RETURN_IF_ERROR(insert_provenance_->Run());
  return next_provenance_row_++;
}

Status RecordingWriter::WriteDecisions(const std::vector<passes::FusionDecisionRecord>& decisions) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "decisions", 13);
  if (!insert.ok()) return insert.status();
  for (size_t i = 0; i < decisions.size(); ++i) {
    BindDecision(*insert, static_cast<int64_t>(i), decisions[i]);
    FS_RETURN_IF_ERROR(insert->Run());
  }
  return Status::Ok();
}

Status RecordingWriter::WriteSources(const std::vector<SnapshotSource>& sources) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "snapshot_sources", 6);
  if (!insert.ok()) return insert.status();
  for (size_t i = 0; i < sources.size(); ++i) {
    const SnapshotSource& source = sources[i];
    if (source.empty()) continue;
    StatusOr<std::string> compressed = Deflate(source.text);
    if (!compressed.ok()) return compressed.status();
    insert->Bind(1, static_cast<int64_t>(i));
    insert->Bind(2, std::string_view(source.language));
    insert->Bind(3, std::string_view(source.scope_operation));
    insert->Bind(4, std::string_view(source.scope_symbol));
    insert->Bind(5, static_cast<int64_t>(source.text.size()));
    insert->BindBlob(6, *compressed);
    FS_RETURN_IF_ERROR(insert->Run());
  }
  return Status::Ok();
}

Status RecordingWriter::WriteReproducer(const Reproducer& reproducer) {
  StatusOr<SqliteStatement> insert = PrepareInsert(db_, "reproducer", 4);
  if (!insert.ok()) return insert.status();
  insert->Bind(1, reproducer.pass_index);
  insert->Bind(2, std::string_view(reproducer.pass_name));
  insert->Bind(3, std::string_view(reproducer.module_text));
  insert->Bind(4, std::string_view(reproducer.error));
  return insert->Run();
}

}  // namespace fusescope::recording
