#ifndef FUSESCOPE_RUNTIME_CPU_THREAD_TEAM_H_
#define FUSESCOPE_RUNTIME_CPU_THREAD_TEAM_H_

// Running a kernel's blocks at once on several threads (runtime/row_blocks.h). The threads
// are the OpenMP team oneDNN's GEMMs and convolutions run on, so that one pool of threads
// serves a module's kernels and its library calls (two pools spinning on two cores slowed
// both). A build without oneDNN has no team: blocks run one after another.

#include <cstdint>

namespace fusescope::runtime {

// The threads blocks can run on: this process's cores where a team exists, else 1.
int64_t TeamThreads();

// Calls task(data, 0) ... task(data, count - 1), each on its own thread of the team (the
// calling thread among them), and returns when all have; one after another without a team.
void RunOnTeam(int64_t count, void (*task)(void* data, int64_t index), void* data);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_THREAD_TEAM_H_
