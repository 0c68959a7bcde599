#include "recording/recording_reader.h"

#include <functional>
#include <string_view>
#include <utility>

#include "recording/compressed_text.h"
#include "recording/constant_store.h"
#include "recording/recording_schema.h"
#include "recording/store_values.h"

namespace fusescope::recording {

namespace {

using RowVisitor = std::function<Status(const SqliteStatement&)>;

Status ForEachRow(SqliteDatabase& db, std::string_view sql, const RowVisitor& visit) {
  StatusOr<SqliteStatement> statement = db.Prepare(sql);
  if (!statement.ok()) return statement.status();
  while (true) {
    StatusOr<bool> row = statement->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Ok();
    FS_RETURN_IF_ERROR(visit(*statement));
  }
}

Status OutOfOrder(std::string_view table, int64_t expected, int64_t found) {
  return Status::Error(std::string(table) + " row " + std::to_string(found) + " where " +
                       std::to_string(expected) + " was expected");
}

StatusOr<InstructionRecordPtr> RecordFromRow(const SqliteStatement& row,
                                             std::shared_ptr<const CompactProvenance> provenance,
                                             ir::ConstantBytesPtr constant) {
  auto record = std::make_shared<InstructionRecord>();
  record->id = row.Int(1);
  record->name = std::string(row.Text(2));
  record->computation = std::string(row.Text(3));
  record->opcode = std::string(row.Text(4));
  record->text = std::string(row.Text(5));
  StatusOr<std::vector<int64_t>> operands = ParseIdList(row.Text(6));
  if (!operands.ok()) return operands.status();
  record->operand_ids = std::move(*operands);
  record->provenance_set = std::move(provenance);
  record->fused_computation = std::string(row.Text(8));
  record->constant_bytes = std::move(constant);
  return InstructionRecordPtr(std::move(record));
}

PassRecord PassFromRow(const SqliteStatement& row) {
  PassRecord pass;
  pass.index = row.Int(0);
  pass.name = std::string(row.Text(1));
  pass.changed = row.Bool(2);
  pass.reported_changed = row.Bool(3);
  pass.change_flag_lies = row.Bool(4);
  pass.skipped = row.Bool(5);
  pass.wall_seconds = row.Double(6);
  pass.fingerprint_before = row.Unsigned(7);
  pass.fingerprint_after = row.Unsigned(8);
  pass.instructions_before = row.Int(9);
  pass.instructions_after = row.Int(10);
  pass.failed = row.Bool(11);
  pass.error = std::string(row.Text(12));
  return pass;
}

StatusOr<passes::FusionDecisionRecord> DecisionFromRow(const SqliteStatement& row) {
  passes::FusionDecisionRecord decision;
  decision.pass_index = row.Int(1);
  decision.pass = std::string(row.Text(2));
  decision.producer_id = row.Int(3);
  decision.producer_name = std::string(row.Text(4));
  decision.producer_opcode = std::string(row.Text(5));
  decision.consumer_id = row.Int(6);
  decision.consumer_name = std::string(row.Text(7));
  decision.consumer_opcode = std::string(row.Text(8));
  decision.computation = std::string(row.Text(9));
  StatusOr<passes::FusionReason> reason = FusionReasonFromCode(row.Text(10));
  if (!reason.ok()) return reason.status();
  decision.reason = *reason;
  decision.explanation = std::string(row.Text(11));
  decision.fusion_name = std::string(row.Text(12));
  return decision;
}

}  // namespace

StatusOr<int64_t> RecordingReader::SchemaVersion() { return db_.QueryInt("PRAGMA user_version"); }

Status RecordingReader::CheckComplete(uint64_t file_size) {
  StatusOr<int64_t> pages = db_.QueryInt("PRAGMA page_count");
  if (!pages.ok()) return pages.status();
  StatusOr<int64_t> page_size = db_.QueryInt("PRAGMA page_size");
  if (!page_size.ok()) return page_size.status();
  const auto expected = static_cast<uint64_t>(*pages) * static_cast<uint64_t>(*page_size);
  if (file_size < expected) {
    return Status::Error("truncated: " + std::to_string(file_size) + " of " +
                         std::to_string(expected) + " bytes");
  }
  return Status::Ok();
}

Status RecordingReader::CheckFormat(int64_t version) {
  StatusOr<int64_t> has_meta =
      db_.QueryInt("SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='meta'");
  if (!has_meta.ok()) return has_meta.status();
  if (*has_meta == 0) return Status::Error("no Fusescope metadata");
  std::string format;
  std::string stored_version;
  FS_RETURN_IF_ERROR(
      ForEachRow(db_, "SELECT key, value FROM meta WHERE key IN ('format', 'schema_version')",
                 [&](const SqliteStatement& row) {
                   (row.Text(0) == "format" ? format : stored_version) = std::string(row.Text(1));
                   return Status::Ok();
                 }));
  if (format != kRecordingFormat) return Status::Error("format is '" + format + "'");
  if (stored_version != std::to_string(version)) {
    return Status::Error("schema versions disagree: " + std::to_string(version) + " and '" +
                         stored_version + "'");
  }
  return Status::Ok();
}

StatusOr<Recording> RecordingReader::Read() {
  Recording recording;
  FS_RETURN_IF_ERROR(ReadMeta(recording));
  FS_RETURN_IF_ERROR(ReadOptions(recording.options));
  FS_RETURN_IF_ERROR(ReadPasses(recording.passes));
  FS_RETURN_IF_ERROR(ReadProvenance());
  StatusOr<std::unordered_map<int64_t, ir::ConstantBytesPtr>> constants = ReadRecordConstants(db_);
  if (!constants.ok()) return constants.status();
  record_constants_ = std::move(constants).value();
  FS_RETURN_IF_ERROR(ReadRecords());
  FS_RETURN_IF_ERROR(ReadComputations());
  FS_RETURN_IF_ERROR(ReadSnapshots(recording.snapshots));
  FS_RETURN_IF_ERROR(ReadDecisions(recording.decisions));
  FS_RETURN_IF_ERROR(ReadReproducer(recording.reproducer));
  FS_RETURN_IF_ERROR(ReadSources(recording));
  // One snapshot per pass plus the input; an empty recording has neither.
  const bool empty = recording.snapshots.empty() && recording.passes.empty();
  if (!empty && recording.snapshots.size() != recording.passes.size() + 1) {
    return Status::Error(std::to_string(recording.snapshots.size()) + " snapshots for " +
                         std::to_string(recording.passes.size()) + " passes");
  }
  return recording;
}

Status RecordingReader::ReadMeta(Recording& recording) {
  std::string total_seconds = "0";
  std::string imported;
  const std::pair<std::string_view, std::string*> fields[] = {
      {"model_name", &recording.model_name}, {"source_path", &recording.source_path},
      {"input_text", &recording.input_text}, {"pipeline_name", &recording.pipeline_name},
      {"total_seconds", &total_seconds},     {"imported", &imported},
  };
  FS_RETURN_IF_ERROR(
      ForEachRow(db_, "SELECT key, value FROM meta", [&](const SqliteStatement& row) {
        for (const auto& [key, field] : fields) {
          if (row.Text(0) == key) *field = std::string(row.Text(1));
        }
        return Status::Ok();
      }));
  StatusOr<double> seconds = ParseDouble(total_seconds);
  if (!seconds.ok()) return seconds.status();
  recording.total_seconds = *seconds;
  // Older files do not say; their importers named the pipeline after the compiler.
  const std::string& pipeline = recording.pipeline_name;
  recording.imported = imported.empty()
                           ? pipeline.rfind("xla", 0) == 0 || pipeline.rfind("mlir", 0) == 0
                           : imported == "1";
  return Status::Ok();
}

Status RecordingReader::ReadOptions(passes::PipelineOptions& options) {
  return ForEachRow(db_, "SELECT key, value FROM pipeline_options",
                    [&](const SqliteStatement& row) {
                      return ApplyPipelineOptionRow(row.Text(0), row.Text(1), options);
                    });
}

Status RecordingReader::ReadPasses(std::vector<PassRecord>& passes) {
  FS_RETURN_IF_ERROR(
      ForEachRow(db_,
                 "SELECT pass_index, name, changed, reported_changed, change_flag_lies, skipped, "
                 "wall_seconds, fingerprint_before, fingerprint_after, instructions_before, "
                 "instructions_after, failed, error FROM passes ORDER BY pass_index",
                 [&](const SqliteStatement& row) {
                   PassRecord pass = PassFromRow(row);
                   if (pass.index != static_cast<int64_t>(passes.size())) {
                     return OutOfOrder("passes", static_cast<int64_t>(passes.size()), pass.index);
                   }
                   passes.push_back(std::move(pass));
                   return Status::Ok();
                 }));
  return ReadPassStats(passes);
}

Status RecordingReader::ReadPassStats(std::vector<PassRecord>& passes) {
  return ForEachRow(
      db_, "SELECT pass_index, key, value FROM pass_stats ORDER BY pass_index, position",
      [&](const SqliteStatement& row) {
        int64_t index = row.Int(0);
        if (index < 0 || index >= static_cast<int64_t>(passes.size())) {
          return Status::Error("stats of missing pass " + std::to_string(index));
        }
        passes[static_cast<size_t>(index)].stats.emplace_back(row.Text(1), row.Text(2));
        return Status::Ok();
      });
}

Status RecordingReader::ReadProvenance() {
  return ForEachRow(
      db_, "SELECT provenance_id, ids FROM provenance_sets", [&](const SqliteStatement& row) {
        StatusOr<CompactProvenance> set = CompactProvenance::FromBytes(row.Blob(1));
        if (!set.ok()) return set.status();
        provenance_.emplace(row.Int(0), std::make_shared<const CompactProvenance>(std::move(*set)));
        return Status::Ok();
      });
}

Status RecordingReader::ReadRecords() {
  return ForEachRow(
      db_,
      "SELECT record_id, instruction_id, name, computation, opcode, text, operand_ids, "
      "provenance_id, fused_computation FROM records",
      [&](const SqliteStatement& row) {
        auto provenance = provenance_.find(row.Int(7));
        if (provenance == provenance_.end()) {
          return Status::Error("record refers to a missing provenance set");
        }
        auto constant = record_constants_.find(row.Int(0));
        StatusOr<InstructionRecordPtr> record =
            RecordFromRow(row, provenance->second,
                          constant == record_constants_.end() ? nullptr : constant->second);
        if (!record.ok()) return record.status();
        records_.emplace(row.Int(0), std::move(*record));
        return Status::Ok();
      });
}

Status RecordingReader::ReadComputations() {
  FS_RETURN_IF_ERROR(
      ForEachRow(db_, "SELECT computation_id, name, is_entry, header, footer FROM computations",
                 [&](const SqliteStatement& row) {
                   auto computation = std::make_shared<ComputationSnapshot>();
                   computation->name = std::string(row.Text(1));
                   computation->is_entry = row.Bool(2);
                   computation->header = std::string(row.Text(3));
                   computation->footer = std::string(row.Text(4));
                   computations_.emplace(row.Int(0), std::move(computation));
                   return Status::Ok();
                 }));
  return ForEachRow(db_,
                    "SELECT computation_id, position, record_id FROM computation_members "
                    "ORDER BY computation_id, position",
                    [&](const SqliteStatement& row) {
                      auto computation = computations_.find(row.Int(0));
                      auto record = records_.find(row.Int(2));
                      if (computation == computations_.end() || record == records_.end()) {
                        return Status::Error("computation member refers to a missing row");
                      }
                      auto& instructions = computation->second->instructions;
                      if (row.Int(1) != static_cast<int64_t>(instructions.size())) {
                        return OutOfOrder("computation_members",
                                          static_cast<int64_t>(instructions.size()), row.Int(1));
                      }
                      instructions.push_back(record->second);
                      return Status::Ok();
                    });
}

Status RecordingReader::ReadSnapshots(std::vector<Snapshot>& snapshots) {
  std::unordered_map<int64_t, std::shared_ptr<const std::string>> prologues;
  FS_RETURN_IF_ERROR(
      ForEachRow(db_, "SELECT prologue_id, text FROM prologues", [&](const SqliteStatement& row) {
        prologues.emplace(row.Int(0), std::make_shared<const std::string>(row.Text(1)));
        return Status::Ok();
      }));
  std::vector<SnapshotRow> rows;
  FS_RETURN_IF_ERROR(
      ForEachRow(db_,
                 "SELECT snapshot_index, pass_index, prologue_id, fingerprint, broken, error "
                 "FROM snapshots ORDER BY snapshot_index",
                 [&](const SqliteStatement& row) {
                   const auto index = static_cast<int64_t>(rows.size());
                   if (row.Int(0) != index) return OutOfOrder("snapshots", index, row.Int(0));
                   auto prologue = prologues.find(row.Int(2));
                   if (prologue == prologues.end())
                     return Status::Error("snapshot without its prologue");
                   rows.push_back({row.Int(1),
                                   prologue->second,
                                   row.Unsigned(3),
                                   row.Bool(4),
                                   std::string(row.Text(5)),
                                   {}});
                   return Status::Ok();
                 }));
  FS_RETURN_IF_ERROR(ReadSnapshotMembers(rows));
  for (SnapshotRow& row : rows) {
    Snapshot snapshot(std::move(row.prologue), std::move(row.computations), row.fingerprint);
    snapshot.set_pass_index(row.pass_index);
    if (row.broken) snapshot.MarkBroken(std::move(row.error));
    snapshots.push_back(std::move(snapshot));
  }
  return Status::Ok();
}

Status RecordingReader::ReadSnapshotMembers(std::vector<SnapshotRow>& rows) {
  return ForEachRow(db_,
                    "SELECT snapshot_index, position, computation_id FROM snapshot_members "
                    "ORDER BY snapshot_index, position",
                    [&](const SqliteStatement& row) {
                      int64_t index = row.Int(0);
                      auto computation = computations_.find(row.Int(2));
                      if (index < 0 || index >= static_cast<int64_t>(rows.size()) ||
                          computation == computations_.end()) {
                        return Status::Error("snapshot member refers to a missing row");
                      }
                      auto& list = rows[static_cast<size_t>(index)].computations;
                      if (row.Int(1) != static_cast<int64_t>(list.size())) {
                        return OutOfOrder("snapshot_members", static_cast<int64_t>(list.size()),
                                          row.Int(1));
                      }
                      list.push_back(computation->second);
                      return Status::Ok();
                    });
}

Status RecordingReader::ReadDecisions(std::vector<passes::FusionDecisionRecord>& decisions) {
  return ForEachRow(
      db_,
      "SELECT decision_index, pass_index, pass, producer_id, producer_name, producer_opcode, "
      "consumer_id, consumer_name, consumer_opcode, computation, reason, explanation, "
      "fusion_name FROM decisions ORDER BY decision_index",
      [&](const SqliteStatement& row) {
        StatusOr<passes::FusionDecisionRecord> decision = DecisionFromRow(row);
        if (!decision.ok()) return decision.status();
        decisions.push_back(std::move(*decision));
        return Status::Ok();
      });
}

Status RecordingReader::ReadReproducer(std::optional<Reproducer>& reproducer) {
  return ForEachRow(db_, "SELECT pass_index, pass_name, module_text, error FROM reproducer",
                    [&](const SqliteStatement& row) {
                      reproducer = Reproducer{row.Int(0), std::string(row.Text(1)),
                                              std::string(row.Text(2)), std::string(row.Text(3))};
                      return Status::Ok();
                    });
}

Status RecordingReader::ReadSources(Recording& recording) {
  StatusOr<int64_t> has_table = db_.QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='snapshot_sources'");
  if (!has_table.ok()) return has_table.status();
  if (*has_table == 0) return Status::Ok();  // schema version 1
  return ForEachRow(
      db_,
      "SELECT snapshot_index, language, scope_operation, scope_symbol, bytes, text FROM "
      "snapshot_sources",
      [&](const SqliteStatement& row) {
        const int64_t index = row.Int(0);
        if (index < 0 || static_cast<size_t>(index) >= recording.snapshots.size())
          return Status::Error("source text of snapshot " + std::to_string(index) +
                               ", which does not exist");
        StatusOr<std::string> text = Inflate(row.Blob(5), row.Int(4));
        if (!text.ok())
          return Status::Error("source text of snapshot " + std::to_string(index) + ": " +
                               text.message());
        recording.sources.resize(recording.snapshots.size());
        SnapshotSource& source = recording.sources[static_cast<size_t>(index)];
        source.language = std::string(row.Text(1));
        source.scope_operation = std::string(row.Text(2));
        source.scope_symbol = std::string(row.Text(3));
        source.text = std::move(text).value();
        return Status::Ok();
      });
}

}  // namespace fusescope::recording
