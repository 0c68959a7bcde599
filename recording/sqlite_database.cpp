#include "recording/sqlite_database.h"

#include <sqlite3.h>

#include <cctype>
#include <cstdio>

namespace fusescope::recording {

namespace {

// A `file:` URI for `path`, for the open flags only URIs can express.
std::string ImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    bool plain = std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", c);
      uri += escaped;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

StatusOr<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(const std::string& path, Mode mode) {
  sqlite3* db = nullptr;
  int result = SQLITE_OK;
  if (mode == Mode::kImmutable) {
    result = sqlite3_open_v2(ImmutableUri(path).c_str(), &db,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  } else {
    int flags =
        mode == Mode::kCreate ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    result = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  }
  if (result != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(result);
    sqlite3_close_v2(db);
    return Status::Error(message);
  }
  return std::unique_ptr<SqliteDatabase>(new SqliteDatabase(db));
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close_v2(db_); }

Status SqliteDatabase::Execute(std::string_view sql) {
  std::string statements(sql);
  if (sqlite3_exec(db_, statements.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return Error();
  }
  return Status::Ok();
}

StatusOr<SqliteStatement> SqliteDatabase::Prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, nullptr) !=
      SQLITE_OK) {
    return Error();
  }
  return SqliteStatement(db_, statement);
}

StatusOr<int64_t> SqliteDatabase::QueryInt(std::string_view sql) {
  StatusOr<SqliteStatement> statement = Prepare(sql);
  if (!statement.ok()) return statement.status();
  StatusOr<bool> row = statement->Step();
  if (!row.ok()) return row.status();
  if (!*row) return Status::Error("no result for: " + std::string(sql));
  return statement->Int(0);
}

Status SqliteDatabase::Error() const { return Status::Error(sqlite3_errmsg(db_)); }

}  // namespace fusescope::recording
