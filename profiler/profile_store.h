#ifndef FUSESCOPE_PROFILER_PROFILE_STORE_H_
#define FUSESCOPE_PROFILER_PROFILE_STORE_H_

// Profiles inside a recording file: two tables of their own (profiles, profile_kernels),
// created when the first profile is added. Adding one is a single transaction on the
// existing file, so a failure leaves the recording and its earlier profiles as they were;
// a recording without profiles simply has none.

#include <string>
#include <vector>

#include "ir/status.h"
#include "profiler/profile.h"

namespace fusescope::profiler {

// Stores `profile` in the recording at `path`; returns its id. The snapshot it names must
// exist in the recording.
StatusOr<int64_t> AddProfile(const std::string& path, const Profile& profile);
// Every profile of the recording, by id; none for a recording that has no profile tables.
StatusOr<std::vector<Profile>> LoadProfiles(const std::string& path);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_PROFILE_STORE_H_
