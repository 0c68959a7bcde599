#include "profiler/profile_store.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "recording/number_list.h"
#include "recording/sqlite_database.h"

namespace fusescope::profiler {
namespace {

using recording::SqliteDatabase;
using recording::SqliteStatement;

constexpr std::string_view kProfileSchema = R"sql(
CREATE TABLE IF NOT EXISTS profiles(
  profile_id INTEGER PRIMARY KEY, label TEXT NOT NULL, source TEXT NOT NULL,
  device TEXT NOT NULL, machine TEXT NOT NULL, settings TEXT NOT NULL,
  created_at TEXT NOT NULL, snapshot_index INTEGER NOT NULL, run_latency_us TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS profile_kernels(
  profile_id INTEGER NOT NULL, position INTEGER NOT NULL, instruction_id INTEGER NOT NULL,
  name TEXT NOT NULL, samples_us TEXT NOT NULL, total_us REAL NOT NULL, share REAL NOT NULL,
  PRIMARY KEY(profile_id, position)) WITHOUT ROWID;
)sql";

}  // namespace

StatusOr<int64_t> AddProfile(const std::string& path, const Profile& profile) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  // Must be a recording with that snapshot: checked before anything is written.
  auto snapshots = (*db)->QueryInt("SELECT count(*) FROM snapshots");
  if (!snapshots.ok())
    return Status::Error(path + ": not a Fusescope recording (" + snapshots.message() + ")");
  if (profile.snapshot_index < 0 || profile.snapshot_index >= *snapshots) {
    return Status::Error(path + ": the profile is of snapshot " +
                         std::to_string(profile.snapshot_index) + ", the recording has " +
                         std::to_string(*snapshots));
  }
  db->reset();
  auto writable = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!writable.ok()) return Status::Error(path + ": " + writable.message());
  SqliteDatabase& out = **writable;
  auto write = [&]() -> StatusOr<int64_t> {
    FS_RETURN_IF_ERROR(out.Execute(kProfileSchema));
    auto next = out.QueryInt("SELECT coalesce(max(profile_id), 0) + 1 FROM profiles");
    if (!next.ok()) return next.status();
    auto insert = out.Prepare("INSERT INTO profiles VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    if (!insert.ok()) return insert.status();
    insert->Bind(1, *next);
    insert->Bind(2, std::string_view(profile.label));
    insert->Bind(3, std::string_view(profile.source));
    insert->Bind(4, std::string_view(profile.device));
    insert->Bind(5, std::string_view(profile.machine));
    insert->Bind(6, std::string_view(profile.settings));
    insert->Bind(7, std::string_view(profile.created_at));
    insert->Bind(8, profile.snapshot_index);
    const std::string latencies = recording::JoinNumberList(profile.run_latency_us);
    insert->Bind(9, std::string_view(latencies));
    FS_RETURN_IF_ERROR(insert->Run());
    auto kernel_row = out.Prepare("INSERT INTO profile_kernels VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!kernel_row.ok()) return kernel_row.status();
    for (size_t i = 0; i < profile.kernels.size(); ++i) {
      const KernelTime& kernel = profile.kernels[i];
      kernel_row->Reset();
      kernel_row->Bind(1, *next);
      kernel_row->Bind(2, static_cast<int64_t>(i));
      kernel_row->Bind(3, kernel.instruction_id);
      kernel_row->Bind(4, std::string_view(kernel.name));
      const std::string samples = recording::JoinNumberList(kernel.samples_us);
      kernel_row->Bind(5, std::string_view(samples));
      kernel_row->Bind(6, kernel.total_us);
      kernel_row->Bind(7, kernel.share);
      FS_RETURN_IF_ERROR(kernel_row->Run());
    }
    return *next;
  };
  StatusOr<int64_t> id = out.InTransaction(write, "profile-write");
  if (!id.ok()) {
    return Status::Error(path + ": profile not saved, the recording is unchanged (" + id.message() +
                         ")");
  }
  return id;
}

StatusOr<std::vector<Profile>> LoadProfiles(const std::string& path) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  auto has = (*db)->QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name IN ('profiles', "
      "'profile_kernels')");
  if (!has.ok()) return Status::Error(path + ": " + has.message());
  std::vector<Profile> profiles;
  if (*has < 2) return profiles;
  std::map<int64_t, size_t> index;
  {
    auto rows = (*db)->Prepare(
        "SELECT profile_id, label, source, device, machine, settings, created_at, "
        "snapshot_index, run_latency_us FROM profiles ORDER BY profile_id");
    if (!rows.ok()) return Status::Error(path + ": " + rows.message());
    for (;;) {
      auto more = rows->Step();
      if (!more.ok()) return Status::Error(path + ": " + more.message());
      if (!*more) break;
      Profile profile;
      profile.profile_id = rows->Int(0);
      profile.label = std::string(rows->Text(1));
      profile.source = std::string(rows->Text(2));
      profile.device = std::string(rows->Text(3));
      profile.machine = std::string(rows->Text(4));
      profile.settings = std::string(rows->Text(5));
      profile.created_at = std::string(rows->Text(6));
      profile.snapshot_index = rows->Int(7);
      auto latencies = recording::SplitNumberList(rows->Text(8));
      if (!latencies.ok())
        return Status::Error(path + ": profile " + std::to_string(profile.profile_id) + ": " +
                             latencies.message());
      profile.run_latency_us = std::move(*latencies);
      index[profile.profile_id] = profiles.size();
      profiles.push_back(std::move(profile));
    }
  }
  auto rows = (*db)->Prepare(
      "SELECT profile_id, instruction_id, name, samples_us, total_us, share FROM "
      "profile_kernels ORDER BY profile_id, position");
  if (!rows.ok()) return Status::Error(path + ": " + rows.message());
  for (;;) {
    auto more = rows->Step();
    if (!more.ok()) return Status::Error(path + ": " + more.message());
    if (!*more) break;
    auto it = index.find(rows->Int(0));
    if (it == index.end()) {
      return Status::Error(path + ": kernel row of a profile that does not exist (" +
                           std::to_string(rows->Int(0)) + ")");
    }
    KernelTime kernel;
    kernel.instruction_id = rows->Int(1);
    kernel.name = std::string(rows->Text(2));
    auto samples = recording::SplitNumberList(rows->Text(3));
    if (!samples.ok())
      return Status::Error(path + ": kernel " + kernel.name + ": " + samples.message());
    kernel.samples_us = std::move(*samples);
    kernel.total_us = rows->Double(4);
    kernel.share = rows->Double(5);
    profiles[it->second].kernels.push_back(std::move(kernel));
  }
  return profiles;
}

}  // namespace fusescope::profiler
