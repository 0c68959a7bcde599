#ifndef FUSESCOPE_RECORDING_RECORDING_SCHEMA_H_
#define FUSESCOPE_RECORDING_RECORDING_SCHEMA_H_

// The tables of a recording file (.fsdb). The version lives twice: in SQLite's user_version
// (cheap to read before anything else) and in the meta table (readable by any SQL tool).
//
// Instruction records are stored once however many snapshots hold them: a snapshot lists
// its computations (snapshot_members), a computation lists its records
// (computation_members), and a record or computation that several snapshots share is one
// row referenced several times; so is a provenance set that several records carry. Operand
// id lists are comma-separated text; provenance sets are BLOBs in CompactProvenance's
// encoding (zigzag first id, then deltas, as LEB128 varints).
// Fingerprints are 64-bit unsigned values stored bit-cast into SQLite's signed integers.

#include <cstdint>
#include <string_view>

namespace fusescope::recording {

inline constexpr std::string_view kRecordingFormat = "fusescope-recording";
// "FSDB": lets `file` and other tools tell a recording from any SQLite file.
inline constexpr int64_t kRecordingApplicationId = 0x46534442;

inline constexpr std::string_view kRecordingSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE pipeline_options(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE passes(
  pass_index INTEGER PRIMARY KEY, name TEXT NOT NULL, changed INTEGER NOT NULL,
  reported_changed INTEGER NOT NULL, change_flag_lies INTEGER NOT NULL,
  skipped INTEGER NOT NULL, wall_seconds REAL NOT NULL, fingerprint_before INTEGER NOT NULL,
  fingerprint_after INTEGER NOT NULL, instructions_before INTEGER NOT NULL,
  instructions_after INTEGER NOT NULL, failed INTEGER NOT NULL, error TEXT NOT NULL);
CREATE TABLE pass_stats(
  pass_index INTEGER NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL,
  value TEXT NOT NULL, PRIMARY KEY(pass_index, position)) WITHOUT ROWID;
CREATE TABLE provenance_sets(provenance_id INTEGER PRIMARY KEY, ids BLOB NOT NULL);
CREATE TABLE records(
  record_id INTEGER PRIMARY KEY, instruction_id INTEGER NOT NULL, name TEXT NOT NULL,
  computation TEXT NOT NULL, opcode TEXT NOT NULL, text TEXT NOT NULL,
  operand_ids TEXT NOT NULL, provenance_id INTEGER NOT NULL, fused_computation TEXT NOT NULL);
CREATE TABLE computations(
  computation_id INTEGER PRIMARY KEY, name TEXT NOT NULL, is_entry INTEGER NOT NULL,
  header TEXT NOT NULL, footer TEXT NOT NULL);
CREATE TABLE computation_members(
  computation_id INTEGER NOT NULL, position INTEGER NOT NULL, record_id INTEGER NOT NULL,
  PRIMARY KEY(computation_id, position)) WITHOUT ROWID;
CREATE TABLE prologues(prologue_id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE snapshots(
  snapshot_index INTEGER PRIMARY KEY, pass_index INTEGER NOT NULL,
  prologue_id INTEGER NOT NULL, fingerprint INTEGER NOT NULL, broken INTEGER NOT NULL,
  error TEXT NOT NULL);
CREATE TABLE snapshot_members(
  snapshot_index INTEGER NOT NULL, position INTEGER NOT NULL, computation_id INTEGER NOT NULL,
  PRIMARY KEY(snapshot_index, position)) WITHOUT ROWID;
CREATE TABLE decisions(
  decision_index INTEGER PRIMARY KEY, pass_index INTEGER NOT NULL, pass TEXT NOT NULL,
  producer_id INTEGER NOT NULL, producer_name TEXT NOT NULL, producer_opcode TEXT NOT NULL,
  consumer_id INTEGER NOT NULL, consumer_name TEXT NOT NULL, consumer_opcode TEXT NOT NULL,
  computation TEXT NOT NULL, reason TEXT NOT NULL, explanation TEXT NOT NULL,
  fusion_name TEXT NOT NULL);
CREATE TABLE snapshot_sources(
  snapshot_index INTEGER PRIMARY KEY, language TEXT NOT NULL, scope_operation TEXT NOT NULL,
  scope_symbol TEXT NOT NULL, bytes INTEGER NOT NULL, text BLOB NOT NULL);
CREATE TABLE reproducer(
  pass_index INTEGER NOT NULL, pass_name TEXT NOT NULL, module_text TEXT NOT NULL,
  error TEXT NOT NULL);
)sql";

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_SCHEMA_H_
