#include "runtime/cpu/thread_team.h"

#include <sched.h>

#include <algorithm>

#ifdef FUSESCOPE_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl_config.h>
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
#define FUSESCOPE_TEAM_IS_OPENMP 1
// libgomp's entry points (what a compiler makes of `#pragma omp parallel`), declared here: a
// compiler building without OpenMP has no omp.h, and the runtime is the one oneDNN links.
extern "C" {
void GOMP_parallel(void (*function)(void*), void* data, unsigned threads, unsigned flags);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
}
#endif
#endif

namespace fusescope::runtime {

#ifdef FUSESCOPE_TEAM_IS_OPENMP
namespace {

struct TeamTask {
  int64_t count;
  void (*task)(void*, int64_t);
  void* data;
};

void RunMember(void* argument) {
  const TeamTask& team_task = *static_cast<const TeamTask*>(argument);
  // A team smaller than asked for (OMP_THREAD_LIMIT) still runs every block.
  const int64_t members = std::max(1, omp_get_num_threads());
  for (int64_t index = omp_get_thread_num(); index < team_task.count; index += members) {
    team_task.task(team_task.data, index);
  }
}

}  // namespace

int64_t TeamThreads() {
  static const int64_t threads = [] {
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof(cpus), &cpus) != 0) return int64_t{1};
    return std::max<int64_t>(1, CPU_COUNT(&cpus));
  }();
  return threads;
}

void RunOnTeam(int64_t count, void (*task)(void*, int64_t), void* data) {
  if (count <= 1) {
    if (count == 1) task(data, 0);
    return;
  }
  TeamTask team_task{count, task, data};
  GOMP_parallel(RunMember, &team_task, static_cast<unsigned>(count), 0);
}

#else

int64_t TeamThreads() { return 1; }

void RunOnTeam(int64_t count, void (*task)(void*, int64_t), void* data) {
  for (int64_t index = 0; index < count; ++index) task(data, index);
}

#endif

}  // namespace fusescope::runtime
