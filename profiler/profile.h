#ifndef FUSESCOPE_PROFILER_PROFILE_H_
#define FUSESCOPE_PROFILER_PROFILE_H_

// A profile: what each kernel of one snapshot of a recording cost over repeated runs, with
// where and how it was measured. Several live in one recording (profiler/profile_store.h);
// attribution (profiler/attribution.h) carries their time to any pass's graph.

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/statistics.h"

namespace fusescope::profiler {

struct KernelTime {
  int64_t instruction_id = -1;   // in the profiled snapshot
  std::string name;              // the instruction's name there
  std::vector<double> samples_us;  // one per run
  double total_us = 0;           // all runs
  double share = 0;              // of the module's time over the runs

  SampleSummary Summary() const { return Summarize(samples_us); }
};

struct Profile {
  int64_t profile_id = -1;      // assigned when stored
  std::string label;            // what the user calls it
  std::string source;           // "xla-trace", ...
  std::string device;           // what ran the kernels
  std::string machine;          // MachineInfo::Key() of the machine measured on, or ""
  std::string settings;         // "runs=5 warmup=3", free text
  std::string created_at;       // UTC ISO 8601
  int64_t snapshot_index = -1;  // which snapshot's instructions the kernels are
  std::vector<double> run_latency_us;  // whole module, one per run
  std::vector<KernelTime> kernels;     // by total time, largest first

  double TotalUs() const;
};

// Now, in UTC, ISO 8601 ("2026-12-02T21:40:00Z"): when a profile or calibration was made.
std::string UtcNow();

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_PROFILE_H_
