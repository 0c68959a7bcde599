#include "recording/recording_store.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <system_error>

#include "recording/recording_reader.h"
#include "recording/recording_writer.h"
#include "recording/sqlite_database.h"

namespace fusescope::recording {

namespace {

namespace fs = std::filesystem;

// Next to the target, so that the final rename stays within one file system.
std::string TemporaryPathFor(const std::string& path) {
  static std::atomic<int64_t> counter{0};
  return path + ".saving-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
}

void RemoveDatabaseFiles(const std::string& path) {
  std::error_code ignored;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ignored);
}

Status WriteDatabaseFile(const Recording& recording, const std::string& path) {
  StatusOr<std::unique_ptr<SqliteDatabase>> db =
      SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!db.ok()) return db.status();
  FS_RETURN_IF_ERROR(RecordingWriter(**db).Write(recording));
  // Folds the write-ahead log into the file, so that the file alone is the recording.
  return (*db)->Execute("PRAGMA wal_checkpoint(TRUNCATE)");
}

Status ReplaceFile(const std::string& from, const std::string& to) {
  std::error_code error;
  // A log left behind next to the old file would be replayed onto the new one.
  fs::remove(to + "-wal", error);
  fs::remove(to + "-shm", error);
  fs::rename(from, to, error);
  if (error) return Status::Error(error.message());
  return Status::Ok();
}

uint64_t FileSize(const std::string& path) {
  std::error_code error;
  uintmax_t size = fs::file_size(path, error);
  return error ? 0 : static_cast<uint64_t>(size);
}

Status NotARecording(const std::string& path, const std::string& cause) {
  return Status::Error(path + ": not a Fusescope recording (" + cause + ")");
}

StatusOr<Recording> ReadDatabase(const std::string& path, SqliteDatabase& db) {
  RecordingReader reader(db);
  StatusOr<int64_t> version = reader.SchemaVersion();
  if (!version.ok()) return NotARecording(path, version.message());
  if (*version > kRecordingSchemaVersion) {
    return Status::Error(path + ": recording schema version " + std::to_string(*version) +
                         " is newer than this Fusescope reads (" +
                         std::to_string(kRecordingSchemaVersion) + ")");
  }
  if (*version < 1) return NotARecording(path, "no Fusescope schema version");
  Status complete = reader.CheckComplete(FileSize(path));
  if (!complete.ok()) return NotARecording(path, complete.message());
  Status format = reader.CheckFormat(*version);
  if (!format.ok()) return NotARecording(path, format.message());
  StatusOr<Recording> recording = reader.Read();
  if (!recording.ok()) return NotARecording(path, recording.message());
  return recording;
}

StatusOr<Recording> ReadDatabaseFile(const std::string& path, SqliteDatabase::Mode mode) {
  StatusOr<std::unique_ptr<SqliteDatabase>> db = SqliteDatabase::Open(path, mode);
  if (!db.ok()) return Status::Error(path + ": cannot open (" + db.message() + ")");
  return ReadDatabase(path, **db);
}

}  // namespace

Status SaveRecording(const Recording& recording, const std::string& path) {
  const std::string temporary = TemporaryPathFor(path);
  RemoveDatabaseFiles(temporary);
  Status status = WriteDatabaseFile(recording, temporary);
  if (status.ok()) status = ReplaceFile(temporary, path);
  if (!status.ok()) {
    RemoveDatabaseFiles(temporary);
    return Status::Error(path + ": cannot save recording (" + status.message() + ")");
  }
  return Status::Ok();
}

StatusOr<Recording> LoadRecording(const std::string& path) {
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return Status::Error(path + ": no such file");
  if (fs::is_directory(status)) return Status::Error(path + ": is a directory, not a recording");
  // Recordings are replaced whole, never changed in place, and a finished one has no
  // write-ahead log, so it is read as immutable: no lock or -shm/-wal files are made next to
  // it, and read-only folders work. A log that another tool left behind is honoured.
  const bool has_log = fs::file_size(path + "-wal", error) > 0 && !error;
  if (!has_log) return ReadDatabaseFile(path, SqliteDatabase::Mode::kImmutable);
  StatusOr<Recording> recording = ReadDatabaseFile(path, SqliteDatabase::Mode::kReadOnly);
  if (!recording.ok() && recording.message().find("unable to open") != std::string::npos) {
    return ReadDatabaseFile(path, SqliteDatabase::Mode::kImmutable);
  }
  return recording;
}

}  // namespace fusescope::recording
