#include "runtime/cpu/kernel_disk_cache.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "ir/constant_bytes.h"

namespace fusescope::runtime {
namespace {

namespace fs = std::filesystem;

// The layout of the tables; a file of another layout is emptied and laid out anew.
constexpr int kSchemaVersion = 1;
constexpr char kSchema[] = R"(
DROP TABLE IF EXISTS kernels;
DROP TABLE IF EXISTS stages;
CREATE TABLE kernels(
  key_hash TEXT PRIMARY KEY,
  key TEXT NOT NULL,
  object BLOB NOT NULL,
  object_hash TEXT NOT NULL,  -- a damaged object is not linked
  has_stages INTEGER NOT NULL,
  compile_seconds REAL NOT NULL,
  bytes INTEGER NOT NULL,
  used INTEGER NOT NULL);  -- a use count over the whole cache: higher is more recent
CREATE TABLE stages(
  key_hash TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY(key_hash, position));
)";

// A 64-bit hash of the text, and its length.
std::string KeyHash(const std::string& key) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(
                    ir::HashBytes(reinterpret_cast<const uint8_t*>(key.data()), key.size())));
  return std::string(hex) + "-" + std::to_string(key.size());
}

// One prepared statement, finalized when it goes.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) {
    ok_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK;
  }
  ~Statement() { sqlite3_finalize(s_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return ok_; }
  void Text(int i, const std::string& text) {
    ok_ = ok_ && sqlite3_bind_text(s_, i, text.data(), static_cast<int>(text.size()),
                                   SQLITE_TRANSIENT) == SQLITE_OK;
  }
  void Blob(int i, const std::string& bytes) {
    ok_ = ok_ && sqlite3_bind_blob(s_, i, bytes.data(), static_cast<int>(bytes.size()),
                                   SQLITE_TRANSIENT) == SQLITE_OK;
  }
  void Int(int i, int64_t value) { ok_ = ok_ && sqlite3_bind_int64(s_, i, value) == SQLITE_OK; }
  void Real(int i, double value) { ok_ = ok_ && sqlite3_bind_double(s_, i, value) == SQLITE_OK; }
  // SQLITE_ROW, SQLITE_DONE, or an error code.
  int Step() { return ok_ ? sqlite3_step(s_) : SQLITE_ERROR; }
  std::string ColumnText(int i) {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(s_, i));
    return data == nullptr ? std::string() : std::string(data, sqlite3_column_bytes(s_, i));
  }
  int64_t ColumnInt(int i) { return sqlite3_column_int64(s_, i); }
  double ColumnReal(int i) { return sqlite3_column_double(s_, i); }

 private:
  sqlite3_stmt* s_ = nullptr;
  bool ok_ = false;
};

}  // namespace

KernelDiskCache::KernelDiskCache(std::string path, int64_t limit_bytes)
    : path_(std::move(path)), limit_bytes_(limit_bytes) {}

KernelDiskCache::~KernelDiskCache() {
  if (db_ != nullptr) sqlite3_close(db_);
}

KernelDiskCache* KernelDiskCache::Default() {
  static KernelDiskCache* const cache = []() -> KernelDiskCache* {
    std::string path;
    if (const char* named = std::getenv("FUSESCOPE_KERNEL_CACHE")) {
      path = named;
      if (path.empty() || path == "off") return nullptr;
    } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
      path = (fs::path(xdg) / "fusescope" / "kernels.sqlite").string();
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
      path = (fs::path(home) / ".cache" / "fusescope" / "kernels.sqlite").string();
    } else {
      return nullptr;
    }
    int64_t limit = kDefaultLimitBytes;
    if (const char* mb = std::getenv("FUSESCOPE_KERNEL_CACHE_MB")) {
      char* end = nullptr;
      const long long value = std::strtoll(mb, &end, 10);
      if (end != mb && *end == '\0' && value >= 0) limit = static_cast<int64_t>(value) << 20;
    }
    return new KernelDiskCache(path, limit);  // lives as long as the process
  }();
  return cache;
}

std::string KernelDiskCache::problem() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return problem_;
}

void KernelDiskCache::Fail(const std::string& why) {
  if (!problem_.empty()) return;
  problem_ = why;
  std::cerr << "fusescope: the kernel cache " << path_ << " is not used: " << why
            << "; kernels are compiled without it (FUSESCOPE_KERNEL_CACHE names another file, or "
               "off)\n";
  if (db_ != nullptr) sqlite3_close(db_);
  db_ = nullptr;
}

bool KernelDiskCache::Open() {
  if (db_ != nullptr) return true;
  if (tried_) return false;
  tried_ = true;
  std::error_code error;
  const fs::path folder = fs::path(path_).parent_path();
  if (!folder.empty()) fs::create_directories(folder, error);
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    Fail(db_ != nullptr ? sqlite3_errmsg(db_) : "cannot open it");
    return false;
  }
  sqlite3_busy_timeout(db_, 10000);
  char* message = nullptr;
  auto failed = [&] {
    const std::string why = message != nullptr ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    Fail(why);
    return false;
  };
  // A commit writes the log without waiting for the disk (a checkpoint does): a power cut
  // may lose the last kernels stored, never the file's consistency, and a compile storing
  // ten kernels waited for ten syncs.
  if (sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, &message) != SQLITE_OK ||
      sqlite3_exec(db_, "PRAGMA synchronous=NORMAL", nullptr, nullptr, &message) != SQLITE_OK ||
      sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, &message) != SQLITE_OK)
    return failed();
  int64_t version = -1;
  {
    Statement read(db_, "PRAGMA user_version");
    if (read.Step() != SQLITE_ROW) return failed();
    version = read.ColumnInt(0);
  }
  if (version != kSchemaVersion) {
    const std::string layout =
        kSchema + std::string("PRAGMA user_version = ") + std::to_string(kSchemaVersion) + ";";
    if (sqlite3_exec(db_, layout.c_str(), nullptr, nullptr, &message) != SQLITE_OK) return failed();
  }
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, &message) != SQLITE_OK) return failed();
  return true;
}

std::optional<CachedKernel> KernelDiskCache::Find(const std::string& key, bool need_stages) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!Open()) return std::nullopt;
  const std::string hash = KeyHash(key);
  CachedKernel kernel;
  {
    Statement row(db_,
                  "SELECT key, object, has_stages, compile_seconds, object_hash FROM kernels "
                  "WHERE key_hash = ?");
    row.Text(1, hash);
    const int stepped = row.Step();
    if (stepped == SQLITE_DONE) return std::nullopt;
    if (stepped != SQLITE_ROW) {
      Fail(sqlite3_errmsg(db_));
      return std::nullopt;
    }
    // A different key of the same hash is somebody else's kernel.
    if (row.ColumnText(0) != key) return std::nullopt;
    if (need_stages && row.ColumnInt(2) == 0) return std::nullopt;
    kernel.object = row.ColumnText(1);
    kernel.compile_seconds = row.ColumnReal(3);
    if (KeyHash(kernel.object) != row.ColumnText(4)) return std::nullopt;
  }
  if (need_stages) {
    Statement stages(db_, "SELECT name, text FROM stages WHERE key_hash = ? ORDER BY position");
    stages.Text(1, hash);
    int stepped = SQLITE_ROW;
    while ((stepped = stages.Step()) == SQLITE_ROW)
      kernel.stages.push_back({stages.ColumnText(0), stages.ColumnText(1)});
    if (stepped != SQLITE_DONE) {
      Fail(sqlite3_errmsg(db_));
      return std::nullopt;
    }
  }
  Statement used(
      db_, "UPDATE kernels SET used = (SELECT MAX(used) + 1 FROM kernels) WHERE key_hash = ?");
  used.Text(1, hash);
  used.Step();  // a busy cache keeps the older time: not worth failing a hit for
  return kernel;
}

void KernelDiskCache::Store(const std::string& key, const CachedKernel& kernel) {
  Store(std::vector<std::pair<std::string, const CachedKernel*>>{{key, &kernel}});
}

void KernelDiskCache::Store(
    const std::vector<std::pair<std::string, const CachedKernel*>>& kernels) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (kernels.empty() || !Open()) return;
  auto exec = [&](const char* sql) {
    return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
  };
  if (!exec("BEGIN IMMEDIATE")) {
    // Another process holds the cache past the busy wait: these kernels are not kept.
    return;
  }
  bool ok = true;
  for (const auto& [key, kernel] : kernels) {
    const std::string hash = KeyHash(key);
    int64_t bytes = static_cast<int64_t>(key.size() + kernel->object.size());
    for (const recording::KernelStage& stage : kernel->stages)
      bytes += static_cast<int64_t>(stage.name.size() + stage.text.size());
    if (bytes > limit_bytes_) continue;
    {
      Statement drop(db_, "DELETE FROM stages WHERE key_hash = ?");
      drop.Text(1, hash);
      ok = drop.Step() == SQLITE_DONE;
    }
    if (ok) {
      Statement row(db_,
                    "INSERT OR REPLACE INTO kernels(key_hash, key, object, has_stages, "
                    "compile_seconds, bytes, object_hash, used) VALUES (?, ?, ?, ?, ?, ?, ?, "
                    "(SELECT COALESCE(MAX(used), 0) + 1 FROM kernels))");
      row.Text(1, hash);
      row.Text(2, key);
      row.Blob(3, kernel->object);
      row.Int(4, kernel->stages.empty() ? 0 : 1);
      row.Real(5, kernel->compile_seconds);
      row.Int(6, bytes);
      row.Text(7, KeyHash(kernel->object));
      ok = row.Step() == SQLITE_DONE;
    }
    for (size_t i = 0; ok && i < kernel->stages.size(); ++i) {
      Statement stage(db_,
                      "INSERT INTO stages(key_hash, position, name, text) VALUES (?, ?, ?, ?)");
      stage.Text(1, hash);
      stage.Int(2, static_cast<int64_t>(i));
      stage.Text(3, kernel->stages[i].name);
      stage.Text(4, kernel->stages[i].text);
      ok = stage.Step() == SQLITE_DONE;
    }
    if (!ok) break;
  }
  // The least recently used kernels go while the cache is over its limit.
  while (ok) {
    Statement total(db_, "SELECT COALESCE(SUM(bytes), 0) FROM kernels");
    if (total.Step() != SQLITE_ROW) {
      ok = false;
      break;
    }
    if (total.ColumnInt(0) <= limit_bytes_) break;
    ok = exec(
             "DELETE FROM stages WHERE key_hash = "
             "(SELECT key_hash FROM kernels ORDER BY used LIMIT 1)") &&
         exec(
             "DELETE FROM kernels WHERE key_hash = "
             "(SELECT key_hash FROM kernels ORDER BY used LIMIT 1)");
  }
  if (ok && exec("COMMIT")) return;
  const std::string why = sqlite3_errmsg(db_);
  exec("ROLLBACK");
  Fail(why);
}

int64_t KernelDiskCache::Count(const char* sql) {
  if (!Open()) return -1;
  Statement count(db_, sql);
  return count.Step() == SQLITE_ROW ? count.ColumnInt(0) : -1;
}

int64_t KernelDiskCache::kernel_count() {
  std::lock_guard<std::mutex> lock(mutex_);
  return Count("SELECT COUNT(*) FROM kernels");
}

int64_t KernelDiskCache::total_bytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return Count("SELECT COALESCE(SUM(bytes), 0) FROM kernels");
}

}  // namespace fusescope::runtime
