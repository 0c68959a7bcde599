#ifndef FUSESCOPE_RECORDING_KILL_POINT_H_
#define FUSESCOPE_RECORDING_KILL_POINT_H_

// Places inside the writes of a recording file where a test can have this process killed, to
// show what a kill leaves behind. Where the environment variable FUSESCOPE_TEST_KILL_AT names
// `point`, the process sends itself SIGKILL there, in the middle of the write (rows written,
// not committed; or the new file half made), as a user's kill or the kernel's out-of-memory
// killer would, but at a known place, so that the test needs no timing. Unset, nothing
// happens. Points: "recording-write", "profile-write", "kernels-write", "comparison-write".

#include <string_view>

namespace fusescope::recording {

void KillPoint(std::string_view point);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_KILL_POINT_H_
