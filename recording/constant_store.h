#ifndef FUSESCOPE_RECORDING_CONSTANT_STORE_H_
#define FUSESCOPE_RECORDING_CONSTANT_STORE_H_

// The bytes of constants (ir::ConstantBytes) in a recording: each stored once however many
// records and snapshots hold it, as chunks of at most kConstantChunkBytes (SQLite refuses
// values of a gigabyte and more), each byte-shuffled in 4-byte groups (the exponent bytes of
// floats end up together) and deflated when that saves a tenth or more. A record refers to its
// constant through record_constants; the record's text shows the constant as `{...}`.
//
// Recordings of schema version 1 have none of these tables: their constants are text only.

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "ir/constant_bytes.h"
#include "ir/status.h"
#include "recording/sqlite_database.h"

namespace fusescope::recording {

inline constexpr int64_t kConstantChunkBytes = int64_t{16} << 20;

inline constexpr std::string_view kConstantSchema = R"sql(
CREATE TABLE constants(
  constant_id INTEGER PRIMARY KEY, fingerprint INTEGER NOT NULL, byte_size INTEGER NOT NULL);
CREATE TABLE constant_chunks(
  constant_id INTEGER NOT NULL, chunk INTEGER NOT NULL, codec TEXT NOT NULL,
  data BLOB NOT NULL, PRIMARY KEY(constant_id, chunk)) WITHOUT ROWID;
CREATE TABLE record_constants(record_id INTEGER PRIMARY KEY, constant_id INTEGER NOT NULL);
)sql";

// Writes constants inside the caller's transaction, after kConstantSchema.
class ConstantWriter {
 public:
  Status Prepare(SqliteDatabase& db);
  // The row of `bytes`, written the first time the object (or equal bytes) is seen.
  StatusOr<int64_t> Row(const ir::ConstantBytesPtr& bytes);
  Status Link(int64_t record_row, int64_t constant_row);

 private:
  Status WriteChunks(int64_t row, const ir::ConstantBytes& bytes);

  std::optional<SqliteStatement> insert_constant_;
  std::optional<SqliteStatement> insert_chunk_;
  std::optional<SqliteStatement> insert_link_;
  std::unordered_map<const ir::ConstantBytes*, int64_t> rows_;
  std::unordered_multimap<uint64_t, std::pair<const ir::ConstantBytes*, int64_t>> by_fingerprint_;
  int64_t next_row_ = 1;
};

// What a recording's constant tables hold: the bytes of each record that has some, by record
// row. Empty for a recording without the tables. Errors name the damaged constant.
StatusOr<std::unordered_map<int64_t, ir::ConstantBytesPtr>> ReadRecordConstants(SqliteDatabase& db);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_CONSTANT_STORE_H_
