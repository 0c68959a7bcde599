#include "recording/kernel_store.h"

#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "recording/compressed_text.h"
#include "recording/sqlite_database.h"

namespace fusescope::recording {
namespace {

constexpr std::string_view kKernelSchema = R"sql(
CREATE TABLE IF NOT EXISTS kernel_sets(
  set_id INTEGER PRIMARY KEY, snapshot_index INTEGER NOT NULL, options TEXT NOT NULL,
  UNIQUE(snapshot_index, options));
CREATE TABLE IF NOT EXISTS kernels(
  kernel_id INTEGER PRIMARY KEY, set_id INTEGER NOT NULL, position INTEGER NOT NULL,
  name TEXT NOT NULL, instruction_id INTEGER NOT NULL, backend TEXT NOT NULL,
  options TEXT NOT NULL, failed_stage TEXT NOT NULL, error TEXT NOT NULL, note TEXT NOT NULL,
  compile_seconds REAL NOT NULL, UNIQUE(set_id, name));
CREATE TABLE IF NOT EXISTS kernel_stages(
  kernel_id INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
  lines INTEGER NOT NULL, bytes INTEGER NOT NULL, encoding TEXT NOT NULL, text BLOB NOT NULL,
  PRIMARY KEY(kernel_id, position)) WITHOUT ROWID;
)sql";

constexpr std::string_view kPlain = "plain";
constexpr std::string_view kZlib = "zlib";

int64_t CountLines(std::string_view text) {
  int64_t lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

// A kernel row and its stages as read; `texts` stays empty when texts were not asked for.
struct StoredKernel {
  int64_t kernel_id = -1;
  KernelSummary summary;
  std::vector<std::string> texts;
};

// 0: no kernel tables; 3: all of them; anything between is damage.
StatusOr<int64_t> KernelTableCount(SqliteDatabase& db) {
  return db.QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name IN ('kernel_sets', "
      "'kernels', 'kernel_stages')");
}

// As LoadRecording reads: immutable (no lock, no -shm/-wal files left beside the recording)
// unless a write-ahead log says a writer is, or was, at work.
StatusOr<std::unique_ptr<SqliteDatabase>> OpenForReading(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return Status::Error("no such file");
  const bool has_log = std::filesystem::file_size(path + "-wal", error) > 0 && !error;
  return SqliteDatabase::Open(
      path, has_log ? SqliteDatabase::Mode::kReadOnly : SqliteDatabase::Mode::kImmutable);
}

Status Damaged(const std::string& path, const std::string& cause) {
  return Status::Error(path + ": damaged kernel tables (" + cause + ")");
}

// Reads the kernels `where` selects (an SQL condition over kernels k and kernel_sets s, with
// `bind` setting its parameters), with their stages and, when `with_text`, their texts.
StatusOr<std::vector<StoredKernel>> ReadKernels(const std::string& path, const std::string& where,
                                                const std::function<void(SqliteStatement&)>& bind,
                                                bool with_text, const char* order) {
  auto db = OpenForReading(path);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  auto tables = KernelTableCount(**db);
  if (!tables.ok())
    return Status::Error(path + ": not a Fusescope recording (" + tables.message() + ")");
  std::vector<StoredKernel> kernels;
  if (*tables == 0) return kernels;
  if (*tables != 3) return Damaged(path, "some of kernel_sets, kernels, kernel_stages are missing");
  std::map<int64_t, size_t> index;
  {
    auto rows = (*db)->Prepare(
        "SELECT k.kernel_id, s.snapshot_index, k.name, k.instruction_id, k.backend, k.options, "
        "k.failed_stage, k.error, k.note, k.compile_seconds FROM kernels k JOIN kernel_sets s "
        "ON k.set_id = s.set_id WHERE " +
        where + " ORDER BY " + order);
    if (!rows.ok()) return Damaged(path, rows.message());
    bind(*rows);
    for (;;) {
      auto more = rows->Step();
      if (!more.ok()) return Damaged(path, more.message());
      if (!*more) break;
      StoredKernel kernel;
      kernel.kernel_id = rows->Int(0);
      KernelSummary& summary = kernel.summary;
      summary.snapshot = static_cast<int>(rows->Int(1));
      summary.kernel = std::string(rows->Text(2));
      summary.instruction_id = rows->Int(3);
      summary.backend = std::string(rows->Text(4));
      summary.options = std::string(rows->Text(5));
      summary.failed_stage = std::string(rows->Text(6));
      summary.error = std::string(rows->Text(7));
      summary.note = std::string(rows->Text(8));
      summary.compile_seconds = rows->Double(9);
      index[kernel.kernel_id] = kernels.size();
      kernels.push_back(std::move(kernel));
    }
  }
  if (kernels.empty()) return kernels;
  auto rows = (*db)->Prepare(
      std::string("SELECT t.kernel_id, t.name, t.lines, t.bytes, t.encoding") +
      (with_text ? ", t.text" : "") +
      " FROM kernel_stages t JOIN kernels k ON t.kernel_id = k.kernel_id JOIN kernel_sets s ON "
      "k.set_id = s.set_id WHERE " +
      where + " ORDER BY t.kernel_id, t.position");
  if (!rows.ok()) return Damaged(path, rows.message());
  bind(*rows);
  for (;;) {
    auto more = rows->Step();
    if (!more.ok()) return Damaged(path, more.message());
    if (!*more) break;
    auto it = index.find(rows->Int(0));
    if (it == index.end()) continue;
    StoredKernel& kernel = kernels[it->second];
    KernelStageSummary stage;
    stage.name = std::string(rows->Text(1));
    stage.lines = rows->Int(2);
    stage.bytes = rows->Int(3);
    const std::string encoding(rows->Text(4));
    const std::string where_stage = "stage " + stage.name + " of kernel " + kernel.summary.kernel;
    if (encoding != kPlain && encoding != kZlib) {
      return Damaged(path, where_stage + ": unknown encoding '" + encoding + "'");
    }
    if (with_text) {
      std::string text;
      if (encoding == kZlib) {
        auto inflated = Inflate(rows->Blob(5), stage.bytes);
        if (!inflated.ok()) return Damaged(path, where_stage + ": " + inflated.message());
        text = std::move(*inflated);
      } else {
        text = std::string(rows->Blob(5));
        if (static_cast<int64_t>(text.size()) != stage.bytes) {
          return Damaged(path, where_stage + ": " + std::to_string(text.size()) + " bytes where " +
                                   std::to_string(stage.bytes) + " were stored");
        }
      }
      kernel.texts.push_back(std::move(text));
    }
    kernel.summary.stages.push_back(std::move(stage));
  }
  return kernels;
}

KernelRecord ToRecord(StoredKernel&& stored) {
  KernelSummary& summary = stored.summary;
  KernelRecord record;
  record.kernel = std::move(summary.kernel);
  record.instruction_id = summary.instruction_id;
  record.snapshot = summary.snapshot;
  record.backend = std::move(summary.backend);
  record.options = std::move(summary.options);
  for (size_t i = 0; i < summary.stages.size(); ++i) {
    record.stages.push_back({std::move(summary.stages[i].name),
                             i < stored.texts.size() ? std::move(stored.texts[i]) : std::string()});
  }
  record.failed_stage = std::move(summary.failed_stage);
  record.error = std::move(summary.error);
  record.note = std::move(summary.note);
  record.compile_seconds = summary.compile_seconds;
  return record;
}

const char* kKernelOrder = "s.snapshot_index, s.set_id, k.position";

std::string SnapshotCondition(std::optional<int> snapshot) {
  return snapshot ? "s.snapshot_index = ?1" : "1";
}

std::function<void(SqliteStatement&)> SnapshotBinder(std::optional<int> snapshot) {
  return [snapshot](SqliteStatement& statement) {
    if (snapshot) statement.Bind(1, static_cast<int64_t>(*snapshot));
  };
}

Status CheckRecords(int snapshot, const std::vector<KernelRecord>& records) {
  std::set<std::string> names;
  for (const KernelRecord& record : records) {
    if (record.kernel.empty()) return Status::Error("a kernel has no name");
    if (!names.insert(record.kernel).second) {
      return Status::Error("two kernels named " + record.kernel);
    }
    if (record.snapshot != -1 && record.snapshot != snapshot) {
      return Status::Error("kernel " + record.kernel + " is of snapshot " +
                           std::to_string(record.snapshot) + ", not " + std::to_string(snapshot));
    }
  }
  return Status::Ok();
}

Status WriteKernels(SqliteDatabase& out, int snapshot, const std::string& options,
                    const std::vector<KernelRecord>& records) {
  FS_RETURN_IF_ERROR(out.Execute(kKernelSchema));
  {
    auto old =
        out.Prepare("SELECT set_id FROM kernel_sets WHERE snapshot_index = ?1 AND options = ?2");
    if (!old.ok()) return old.status();
    old->Bind(1, static_cast<int64_t>(snapshot));
    old->Bind(2, std::string_view(options));
    auto found = old->Step();
    if (!found.ok()) return found.status();
    if (*found) {
      const std::string set = std::to_string(old->Int(0));
      FS_RETURN_IF_ERROR(out.Execute(
          "DELETE FROM kernel_stages WHERE kernel_id IN (SELECT kernel_id FROM kernels WHERE "
          "set_id = " +
          set + "); DELETE FROM kernels WHERE set_id = " + set +
          "; DELETE FROM kernel_sets WHERE set_id = " + set + ";"));
    }
  }
  auto set_id = out.QueryInt("SELECT coalesce(max(set_id), 0) + 1 FROM kernel_sets");
  if (!set_id.ok()) return set_id.status();
  auto set_row = out.Prepare("INSERT INTO kernel_sets VALUES(?1, ?2, ?3)");
  if (!set_row.ok()) return set_row.status();
  set_row->Bind(1, *set_id);
  set_row->Bind(2, static_cast<int64_t>(snapshot));
  set_row->Bind(3, std::string_view(options));
  FS_RETURN_IF_ERROR(set_row->Run());
  auto next_kernel = out.QueryInt("SELECT coalesce(max(kernel_id), 0) + 1 FROM kernels");
  if (!next_kernel.ok()) return next_kernel.status();
  auto kernel_row =
      out.Prepare("INSERT INTO kernels VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!kernel_row.ok()) return kernel_row.status();
  auto stage_row = out.Prepare("INSERT INTO kernel_stages VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  if (!stage_row.ok()) return stage_row.status();
  for (size_t i = 0; i < records.size(); ++i) {
    const KernelRecord& record = records[i];
    const int64_t kernel_id = *next_kernel + static_cast<int64_t>(i);
    kernel_row->Bind(1, kernel_id);
    kernel_row->Bind(2, *set_id);
    kernel_row->Bind(3, static_cast<int64_t>(i));
    kernel_row->Bind(4, std::string_view(record.kernel));
    kernel_row->Bind(5, record.instruction_id);
    kernel_row->Bind(6, std::string_view(record.backend));
    kernel_row->Bind(7, std::string_view(record.options.empty() ? options : record.options));
    kernel_row->Bind(8, std::string_view(record.failed_stage));
    kernel_row->Bind(9, std::string_view(record.error));
    kernel_row->Bind(10, std::string_view(record.note));
    kernel_row->Bind(11, record.compile_seconds);
    FS_RETURN_IF_ERROR(kernel_row->Run());
    for (size_t s = 0; s < record.stages.size(); ++s) {
      const KernelStage& stage = record.stages[s];
      const bool compress = stage.text.size() > kKernelTextCompressBytes;
      std::string compressed;
      if (compress) {
        auto made = Deflate(stage.text);
        if (!made.ok()) return made.status();
        compressed = std::move(*made);
      }
      stage_row->Bind(1, kernel_id);
      stage_row->Bind(2, static_cast<int64_t>(s));
      stage_row->Bind(3, std::string_view(stage.name));
      stage_row->Bind(4, CountLines(stage.text));
      stage_row->Bind(5, static_cast<int64_t>(stage.text.size()));
      stage_row->Bind(6, compress ? kZlib : kPlain);
      stage_row->BindBlob(7,
                          compress ? std::string_view(compressed) : std::string_view(stage.text));
      FS_RETURN_IF_ERROR(stage_row->Run());
    }
  }
  return Status::Ok();
}

}  // namespace

Status AddKernels(const std::string& path, int snapshot, const std::string& options,
                  const std::vector<KernelRecord>& records) {
  const std::string refused = path + ": kernels not saved, the recording is unchanged (";
  {
    auto db = OpenForReading(path);
    if (!db.ok()) return Status::Error(path + ": " + db.message());
    // Must be a recording with that snapshot: checked before anything is written.
    auto snapshots = (*db)->QueryInt("SELECT count(*) FROM snapshots");
    if (!snapshots.ok()) {
      return Status::Error(path + ": not a Fusescope recording (" + snapshots.message() + ")");
    }
    if (snapshot < 0 || snapshot >= *snapshots) {
      return Status::Error(refused + "no snapshot " + std::to_string(snapshot) +
                           ": the recording has " + std::to_string(*snapshots) + ")");
    }
    if (Status checked = CheckRecords(snapshot, records); !checked.ok()) {
      return Status::Error(refused + checked.message() + ")");
    }
    auto tables = KernelTableCount(**db);
    if (!tables.ok()) return Status::Error(refused + tables.message() + ")");
    if (*tables != 0 && *tables != 3) {
      return Status::Error(refused + "damaged kernel tables: some are missing)");
    }
  }
  auto writable = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!writable.ok()) return Status::Error(path + ": " + writable.message());
  SqliteDatabase& out = **writable;
  Status saved = out.InTransaction([&] { return WriteKernels(out, snapshot, options, records); },
                                   "kernels-write");
  if (!saved.ok()) return Status::Error(refused + saved.message() + ")");
  return Status::Ok();
}

StatusOr<std::vector<KernelRecord>> LoadKernels(const std::string& path,
                                                std::optional<int> snapshot) {
  auto stored =
      ReadKernels(path, SnapshotCondition(snapshot), SnapshotBinder(snapshot), true, kKernelOrder);
  if (!stored.ok()) return stored.status();
  std::vector<KernelRecord> records;
  records.reserve(stored->size());
  for (StoredKernel& kernel : *stored) records.push_back(ToRecord(std::move(kernel)));
  return records;
}

StatusOr<std::vector<KernelSummary>> ListKernels(const std::string& path,
                                                 std::optional<int> snapshot) {
  auto stored =
      ReadKernels(path, SnapshotCondition(snapshot), SnapshotBinder(snapshot), false, kKernelOrder);
  if (!stored.ok()) return stored.status();
  std::vector<KernelSummary> summaries;
  summaries.reserve(stored->size());
  for (StoredKernel& kernel : *stored) summaries.push_back(std::move(kernel.summary));
  return summaries;
}

StatusOr<std::optional<KernelRecord>> LoadKernel(const std::string& path, int snapshot,
                                                 const std::string& name,
                                                 std::optional<std::string> options) {
  std::string where = "s.snapshot_index = ?1 AND k.name = ?2";
  if (options) where += " AND s.options = ?3";
  auto bind = [&](SqliteStatement& statement) {
    statement.Bind(1, static_cast<int64_t>(snapshot));
    statement.Bind(2, std::string_view(name));
    if (options) statement.Bind(3, std::string_view(*options));
  };
  // The latest set first: the one a listing shows last.
  auto stored = ReadKernels(path, where, bind, true, "s.set_id DESC");
  if (!stored.ok()) return stored.status();
  if (stored->empty()) return std::optional<KernelRecord>();
  return std::optional<KernelRecord>(ToRecord(std::move(stored->front())));
}

}  // namespace fusescope::recording
