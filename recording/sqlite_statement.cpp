#include "recording/sqlite_statement.h"

#include <sqlite3.h>

#include <utility>

namespace fusescope::recording {

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), statement_(std::exchange(other.statement_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    db_ = other.db_;
    statement_ = std::exchange(other.statement_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

void SqliteStatement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
}

void SqliteStatement::Bind(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
}

void SqliteStatement::Bind(int index, std::string_view text) {
  // SQLITE_STATIC: callers keep the text alive until the statement has run.
  sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void SqliteStatement::BindBlob(int index, std::string_view bytes) {
  sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_STATIC);
}

void SqliteStatement::BindUnsigned(int index, uint64_t value) {
  Bind(index, static_cast<int64_t>(value));
}

StatusOr<bool> SqliteStatement::Step() {
  int result = sqlite3_step(statement_);
  if (result == SQLITE_ROW) return true;
  if (result == SQLITE_DONE) return false;
  return Error();
}

Status SqliteStatement::Run() {
  StatusOr<bool> row = Step();
  Reset();
  if (!row.ok()) return row.status();
  if (*row) return Status::Error("statement returned rows where none were expected");
  return Status::Ok();
}

void SqliteStatement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int64_t SqliteStatement::Int(int column) const { return sqlite3_column_int64(statement_, column); }

double SqliteStatement::Double(int column) const {
  return sqlite3_column_double(statement_, column);
}

std::string_view SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  if (!text) return {};
  int bytes = sqlite3_column_bytes(statement_, column);
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(bytes)};
}

std::string_view SqliteStatement::Blob(int column) const {
  const void* bytes = sqlite3_column_blob(statement_, column);
  if (!bytes) return {};
  int size = sqlite3_column_bytes(statement_, column);
  return {static_cast<const char*>(bytes), static_cast<size_t>(size)};
}

Status SqliteStatement::Error() const { return Status::Error(sqlite3_errmsg(db_)); }

}  // namespace fusescope::recording
