#include "compare/comparison_store.h"

#include <ctime>

#include "ir/json_reader.h"
#include "ir/json_writer.h"
#include "recording/sqlite_database.h"

namespace fusescope::compare {
namespace {

using recording::SqliteDatabase;

constexpr std::string_view kComparisonSchema = R"sql(
CREATE TABLE IF NOT EXISTS comparisons(
  comparison_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, model TEXT NOT NULL,
  report_json TEXT NOT NULL, peer_recordings_json TEXT NOT NULL);
)sql";

std::string Now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

std::string RecordingsJson(const std::map<std::string, std::string>& recordings) {
  JsonWriter json(false);
  json.BeginObject();
  for (const auto& [compiler, path] : recordings) json.Key(compiler).String(path);
  json.EndObject();
  return json.str();
}

}  // namespace

StatusOr<int64_t> AddComparison(const std::string& path, const Comparison& comparison,
                                const std::map<std::string, std::string>& peer_recordings) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  SqliteDatabase& out = **db;
  auto write = [&]() -> StatusOr<int64_t> {
    FS_RETURN_IF_ERROR(out.Execute(kComparisonSchema));
    auto next = out.QueryInt("SELECT coalesce(max(comparison_id), 0) + 1 FROM comparisons");
    if (!next.ok()) return next.status();
    auto insert = out.Prepare("INSERT INTO comparisons VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!insert.ok()) return insert.status();
    const std::string created = Now();
    const std::string report = comparison.ToJson();
    const std::string recordings = RecordingsJson(peer_recordings);
    insert->Bind(1, *next);
    insert->Bind(2, std::string_view(created));
    insert->Bind(3, std::string_view(comparison.model));
    insert->Bind(4, std::string_view(report));
    insert->Bind(5, std::string_view(recordings));
    FS_RETURN_IF_ERROR(insert->Run());
    return *next;
  };
  StatusOr<int64_t> id = out.InTransaction(write, "comparison-write");
  if (!id.ok()) {
    return Status::Error(path + ": comparison not saved, the file is unchanged (" + id.message() +
                         ")");
  }
  return id;
}

StatusOr<std::vector<StoredComparison>> LoadComparisons(const std::string& path) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  auto has = (*db)->QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='comparisons'");
  if (!has.ok()) return Status::Error(path + ": " + has.message());
  std::vector<StoredComparison> stored;
  if (*has == 0) return stored;
  auto rows = (*db)->Prepare(
      "SELECT comparison_id, created_at, report_json, peer_recordings_json FROM comparisons "
      "ORDER BY comparison_id");
  if (!rows.ok()) return Status::Error(path + ": " + rows.message());
  for (;;) {
    auto more = rows->Step();
    if (!more.ok()) return Status::Error(path + ": " + more.message());
    if (!*more) break;
    StoredComparison entry;
    entry.id = rows->Int(0);
    entry.created_at = std::string(rows->Text(1));
    auto comparison = Comparison::FromJson(rows->Text(2));
    if (!comparison.ok())
      return Status::Error(path + ": comparison " + std::to_string(entry.id) + ": " +
                           comparison.message());
    entry.comparison = std::move(comparison).value();
    auto recordings = ParseJson(rows->Text(3));
    if (recordings.ok() && recordings->is_object())
      for (const auto& [compiler, file] : recordings->object())
        if (file.is_string()) entry.peer_recordings[compiler] = file.string();
    stored.push_back(std::move(entry));
  }
  return stored;
}

}  // namespace fusescope::compare
