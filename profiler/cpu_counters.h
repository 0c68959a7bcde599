#ifndef FUSESCOPE_PROFILER_CPU_COUNTERS_H_
#define FUSESCOPE_PROFILER_CPU_COUNTERS_H_

// Hardware counters of the calling thread through Linux perf_event_open: cycles,
// instructions, cache misses (and task-clock, a software counter that needs no PMU). Where
// the kernel refuses one — a virtual machine without a CPU PMU (no `cpu` under
// /sys/bus/event_source/devices), perf_event_paranoid above what the process may use — that
// counter is unavailable with the reason in words, and the measurement goes on with the
// others and the wall clock. Nothing here fails a run.

#include <cstdint>
#include <string>
#include <vector>

namespace fusescope::profiler {

struct CounterSpec {
  std::string name;     // "cycles", "instructions", "cache-misses", "task-clock"
  uint32_t type = 0;    // perf_event_attr.type
  uint64_t config = 0;  // perf_event_attr.config
};

// The counters a profile asks for by default.
std::vector<CounterSpec> DefaultCounters();

struct CounterReading {
  std::string name;
  bool available = false;
  uint64_t value = 0;
  std::string unavailable_reason;  // empty when available
};

class CpuCounters {
 public:
  explicit CpuCounters(std::vector<CounterSpec> specs = DefaultCounters());
  ~CpuCounters();
  CpuCounters(const CpuCounters&) = delete;
  CpuCounters& operator=(const CpuCounters&) = delete;

  // Resets and enables every available counter; Stop disables them. Readings are the counts
  // between the last Start and Stop.
  void Start();
  void Stop();
  std::vector<CounterReading> Read() const;

  bool any_hardware_counter() const;
  // One line: "cycles, instructions, cache-misses unavailable: <reason>", or "".
  std::string UnavailableSummary() const;

 private:
  struct Counter {
    CounterSpec spec;
    int fd = -1;
    std::string reason;
  };
  std::vector<Counter> counters_;
};

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_CPU_COUNTERS_H_
