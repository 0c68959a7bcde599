#ifndef FUSESCOPE_PROFILER_MACHINE_H_
#define FUSESCOPE_PROFILER_MACHINE_H_

// What this machine can do at best, measured once by short probes and cached per machine:
// peak FP32 FLOP/s (independent FMA chains in the widest vectors the CPU runs, on one core
// and on all) and memory bandwidth (a STREAM-style triad a = b + s*c over arrays far larger
// than the caches, counted as STREAM counts: 12 bytes per element, write-allocate traffic
// not included). Rooflines and "fraction of peak" figures divide by these.
//
// The cache is a small text file (`key value` lines) under $XDG_CACHE_HOME/fusescope or
// ~/.cache/fusescope, keyed by CPU model, logical core count and vector width: another
// machine (or the same image on a larger VM) measures again. A cache that does not read
// cleanly is measured again too, never trusted.

#include <cstdint>
#include <string>

#include "ir/status.h"

namespace fusescope::profiler {

struct MachineInfo {
  std::string cpu_model;      // /proc/cpuinfo "model name"
  int64_t logical_cores = 0;  // threads the probes ran on
  std::string vector_isa;     // "avx512f", "avx2+fma" or "scalar"
  double peak_flops_one_core = 0;   // FP32 FLOP/s
  double peak_flops = 0;            // FP32 FLOP/s, all cores
  double memory_bandwidth = 0;      // bytes/s, all cores
  double probe_seconds = 0;         // how long measuring took
  std::string measured_at;          // UTC, ISO 8601
  bool from_cache = false;
  // The share of its cores the probes' threads ran on (their CPU time over the wall time of
  // the probe, for the try each figure comes from; the smallest of the three figures'). On a
  // busy machine (a build on every core) the all-core probe got one core's worth, and the
  // figure cached then made every "% of peak" after it wrong: below kTrustedCpuShare the
  // figures are lower bounds, and LoadOrCalibrate measures again instead of trusting them.
  double cpu_share = 1;

  std::string Key() const;  // what a cached entry must match
};

struct CalibrationOptions {
  // Time each probe runs (best of several rounds within it).
  double seconds_per_probe = 0.25;
  // Bytes of each of the triad's three arrays; 0 picks 4x the last-level cache, at least 64 MiB.
  int64_t triad_array_bytes = 0;
  int threads = 0;  // 0: every logical core
};

// The CPU share at which a calibration's figures are trusted and cached.
constexpr double kTrustedCpuShare = 0.9;

// The machine as /proc/cpuinfo and CPUID describe it (no measurements).
MachineInfo DescribeMachine();
StatusOr<MachineInfo> Calibrate(const CalibrationOptions& options = {});

std::string DefaultCacheDirectory();
// Reads the cached entry for this machine; an error when there is none, it is for another
// machine, or it does not parse (the message says which).
StatusOr<MachineInfo> LoadCachedMachine(const std::string& directory);
Status SaveMachine(const MachineInfo& info, const std::string& directory);
// The cached entry if it is valid and was measured on cores the probes had to themselves
// (cpu_share at least kTrustedCpuShare), else a fresh calibration, saved for next time
// (unless the cached one's probes got more of their cores). `note` receives why it measured
// again (no cache, another machine, a corrupt file, one from before the busy check, one
// measured on a busy machine) and whether the new figures are lower bounds, or "".
// "the machine was busy: the probes ran on 52% of their cores, so the figures are lower bounds".
std::string BusyNote(const MachineInfo& info);
StatusOr<MachineInfo> LoadOrCalibrate(const std::string& directory,
                                      const CalibrationOptions& options, std::string* note);

// Where a kernel sits on this machine's roofline.
struct RooflinePoint {
  double flops = 0;
  double bytes = 0;
  double seconds = 0;
  double intensity = 0;         // flops per byte
  double achieved_flops = 0;    // flops / seconds
  double achieved_bandwidth = 0;  // bytes / seconds
  double roof_flops = 0;        // min(peak, intensity * bandwidth)
  double fraction_of_roof = 0;  // achieved / roof
  bool memory_bound = false;    // the bandwidth roof is the lower one at this intensity
};
RooflinePoint PlaceOnRoofline(const MachineInfo& machine, double flops, double bytes,
                              double seconds);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_MACHINE_H_
