#include "profiler/cpu_counters.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace fusescope::profiler {
namespace {

int OpenCounter(const CounterSpec& spec) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = spec.type;
  attr.config = spec.config;
  attr.disabled = 1;
  // User space only: what perf_event_paranoid 2 (a common default) still allows.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}

std::string ParanoidLevel() {
  std::ifstream file("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  if (file >> level) return level;
  return "unknown";
}

std::string Reason(const CounterSpec& spec, int error) {
  const bool hardware = spec.type == PERF_TYPE_HARDWARE || spec.type == PERF_TYPE_HW_CACHE;
  if (error == EACCES || error == EPERM) {
    return "perf_event_open refused (" + std::string(std::strerror(error)) +
           "; /proc/sys/kernel/perf_event_paranoid is " + ParanoidLevel() + ")";
  }
  if (hardware && (error == ENOENT || error == ENODEV || error == EOPNOTSUPP)) {
    if (!std::filesystem::exists("/sys/bus/event_source/devices/cpu")) {
      return "no CPU performance monitoring unit (virtual machine?): "
             "/sys/bus/event_source/devices has no cpu";
    }
    return "this CPU does not count " + spec.name + " (" + std::strerror(error) + ")";
  }
  if (error == ENOSYS) return "perf_event_open does not exist in this kernel";
  return "perf_event_open failed: " + std::string(std::strerror(error));
}

}  // namespace

std::vector<CounterSpec> DefaultCounters() {
  return {{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
          {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
          {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
          {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}};
}

CpuCounters::CpuCounters(std::vector<CounterSpec> specs) {
  for (CounterSpec& spec : specs) {
    Counter counter;
    counter.spec = std::move(spec);
    counter.fd = OpenCounter(counter.spec);
    if (counter.fd < 0) counter.reason = Reason(counter.spec, errno);
    counters_.push_back(std::move(counter));
  }
}

CpuCounters::~CpuCounters() {
  for (const Counter& counter : counters_) {
    if (counter.fd >= 0) close(counter.fd);
  }
}

void CpuCounters::Start() {
  for (const Counter& counter : counters_) {
    if (counter.fd < 0) continue;
    ioctl(counter.fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(counter.fd, PERF_EVENT_IOC_ENABLE, 0);
  }
}

void CpuCounters::Stop() {
  for (const Counter& counter : counters_) {
    if (counter.fd >= 0) ioctl(counter.fd, PERF_EVENT_IOC_DISABLE, 0);
  }
}

std::vector<CounterReading> CpuCounters::Read() const {
  std::vector<CounterReading> readings;
  for (const Counter& counter : counters_) {
    CounterReading reading;
    reading.name = counter.spec.name;
    if (counter.fd < 0) {
      reading.unavailable_reason = counter.reason;
    } else {
      uint64_t value = 0;
      if (read(counter.fd, &value, sizeof(value)) == static_cast<ssize_t>(sizeof(value))) {
        reading.available = true;
        reading.value = value;
      } else {
        reading.unavailable_reason = "reading the counter failed: " + std::string(std::strerror(errno));
      }
    }
    readings.push_back(std::move(reading));
  }
  return readings;
}

bool CpuCounters::any_hardware_counter() const {
  for (const Counter& counter : counters_) {
    if (counter.fd >= 0 && counter.spec.type != PERF_TYPE_SOFTWARE) return true;
  }
  return false;
}

std::string CpuCounters::UnavailableSummary() const {
  // Counters refused for the same reason are named together.
  std::map<std::string, std::string> by_reason;
  std::vector<std::string> order;
  for (const Counter& counter : counters_) {
    if (counter.fd >= 0) continue;
    auto [it, inserted] = by_reason.emplace(counter.reason, counter.spec.name);
    if (inserted) {
      order.push_back(counter.reason);
    } else {
      it->second += ", " + counter.spec.name;
    }
  }
  std::string summary;
  for (const std::string& reason : order) {
    if (!summary.empty()) summary += "; ";
    summary += by_reason[reason] + " unavailable: " + reason;
  }
  return summary;
}

}  // namespace fusescope::profiler
