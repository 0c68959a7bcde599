#ifndef FUSESCOPE_RECORDING_RECORDING_STORE_H_
#define FUSESCOPE_RECORDING_RECORDING_STORE_H_

// Saving and loading recordings as .fsdb files: one SQLite file, schema-versioned, written
// in one transaction. Shared snapshot structure stays shared on disk and after loading.
//
// Errors are one line naming the file:
//   "RUN.fsdb: no such file"
//   "RUN.fsdb: not a Fusescope recording (file is not a database)"
//   "RUN.fsdb: recording schema version 3 is newer than this Fusescope reads (1)"
//   "RUN.fsdb: cannot save recording (unable to open database file)"

#include <string>

#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::recording {

// The schema this build writes, and the newest it reads. Version 2 added constants' bytes
// (constant_store.h); version 1 files read as they are, their constants text only.
inline constexpr int kRecordingSchemaVersion = 2;

// Writes to a temporary file next to `path` and renames it over `path` once complete, so an
// existing file survives a failed save intact.
Status SaveRecording(const Recording& recording, const std::string& path);

// Any damage (not SQLite, truncated, corrupt, missing tables or rows, dangling references)
// is reported as "not a Fusescope recording (...)", never a crash.
StatusOr<Recording> LoadRecording(const std::string& path);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_RECORDING_STORE_H_
