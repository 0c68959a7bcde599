#ifndef FUSESCOPE_RECORDING_SQLITE_STATEMENT_H_
#define FUSESCOPE_RECORDING_SQLITE_STATEMENT_H_

// A prepared SQLite statement, finalized when destroyed. Column and parameter indexes
// follow SQLite: parameters from 1, columns from 0. Text views stay valid until the next
// Step() or Reset().

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace fusescope::recording {

class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, sqlite3_stmt* statement) : db_(db), statement_(statement) {}
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  void Bind(int index, int64_t value);
  void Bind(int index, double value);
  void Bind(int index, bool value) { Bind(index, static_cast<int64_t>(value)); }
  void Bind(int index, std::string_view text);
  void BindBlob(int index, std::string_view bytes);
  // Fingerprints use all 64 bits; SQLite integers are signed, so they are stored bit-cast.
  void BindUnsigned(int index, uint64_t value);

  // True when a row is ready, false when done.
  StatusOr<bool> Step();
  // Steps a statement that returns no rows, then resets it for the next bindings.
  Status Run();
  void Reset();

  int64_t Int(int column) const;
  uint64_t Unsigned(int column) const { return static_cast<uint64_t>(Int(column)); }
  double Double(int column) const;
  bool Bool(int column) const { return Int(column) != 0; }
  std::string_view Text(int column) const;
  std::string_view Blob(int column) const;

 private:
  Status Error() const;

  sqlite3* db_ = nullptr;
  sqlite3_stmt* statement_ = nullptr;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_SQLITE_STATEMENT_H_
