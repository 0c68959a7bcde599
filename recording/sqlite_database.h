#ifndef FUSESCOPE_RECORDING_SQLITE_DATABASE_H_
#define FUSESCOPE_RECORDING_SQLITE_DATABASE_H_

// An open SQLite database file, closed when destroyed. Errors carry SQLite's own message
// ("file is not a database"); callers add the file name.

#include <memory>
#include <string>
#include <string_view>

#include "ir/status.h"
#include "recording/kill_point.h"
#include "recording/sqlite_statement.h"

struct sqlite3;

namespace fusescope::recording {

class SqliteDatabase {
 public:
  enum class Mode {
    kCreate,    // read-write, created if missing
    kReadOnly,  // must exist
    kImmutable  // read-only and promised not to change: needs no -wal/-shm files
  };

  static StatusOr<std::unique_ptr<SqliteDatabase>> Open(const std::string& path, Mode mode);
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;
  ~SqliteDatabase();

  // Runs one or more statements that return no rows we need.
  Status Execute(std::string_view sql);
  StatusOr<SqliteStatement> Prepare(std::string_view sql);
  // The first column of the first row of `sql` as an integer.
  StatusOr<int64_t> QueryInt(std::string_view sql);

  // Runs `write` (returning a Status or a StatusOr) in one IMMEDIATE transaction: committed
  // when it succeeds, rolled back when it or the commit fails, so that a failed save leaves
  // the file as it was. `kill_point` (recording/kill_point.h), if given, lies between the
  // writing and the commit. Returns what `write` returned, or the error of BEGIN or COMMIT.
  template <typename Write>
  auto InTransaction(Write&& write, const char* kill_point = nullptr) -> decltype(write()) {
    if (Status begun = Execute("BEGIN IMMEDIATE"); !begun.ok()) return begun;
    auto written = write();
    if (!written.ok()) {
      (void)Execute("ROLLBACK");
      return written;
    }
    if (kill_point != nullptr) KillPoint(kill_point);
    if (Status committed = Execute("COMMIT"); !committed.ok()) {
      (void)Execute("ROLLBACK");
      return committed;
    }
    return written;
  }

 private:
  explicit SqliteDatabase(sqlite3* db) : db_(db) {}
  Status Error() const;

  sqlite3* db_;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_SQLITE_DATABASE_H_
