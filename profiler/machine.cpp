#include "profiler/machine.h"

#include <immintrin.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "profiler/profile.h"

namespace fusescope::profiler {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kChains = 12;  // independent FMA chains: enough to cover latency x pipes

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Each kernel runs `rounds` x kChains dependent-free FMAs on full vectors and returns a value
// that depends on all of them, so nothing can be optimised away. FLOPs: rounds x kChains x
// lanes x 2.
__attribute__((target("avx512f"))) float FmaAvx512(int64_t rounds) {
  __m512 acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm512_set1_ps(1.0f + 1e-3f * static_cast<float>(k));
  const __m512 m = _mm512_set1_ps(0.9999999f);
  const __m512 a = _mm512_set1_ps(1e-7f);
  for (int64_t r = 0; r < rounds; ++r) {
#pragma GCC unroll 12
    for (int k = 0; k < kChains; ++k) acc[k] = _mm512_fmadd_ps(acc[k], m, a);
  }
  __m512 sum = acc[0];
  for (int k = 1; k < kChains; ++k) sum = _mm512_add_ps(sum, acc[k]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes) total += lane;
  return total;
}

__attribute__((target("avx2,fma"))) float FmaAvx2(int64_t rounds) {
  __m256 acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm256_set1_ps(1.0f + 1e-3f * static_cast<float>(k));
  const __m256 m = _mm256_set1_ps(0.9999999f);
  const __m256 a = _mm256_set1_ps(1e-7f);
  for (int64_t r = 0; r < rounds; ++r) {
#pragma GCC unroll 12
    for (int k = 0; k < kChains; ++k) acc[k] = _mm256_fmadd_ps(acc[k], m, a);
  }
  __m256 sum = acc[0];
  for (int k = 1; k < kChains; ++k) sum = _mm256_add_ps(sum, acc[k]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes) total += lane;
  return total;
}

float FmaScalar(int64_t rounds) {
  float acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = 1.0f + 1e-3f * static_cast<float>(k);
  for (int64_t r = 0; r < rounds; ++r) {
    for (int k = 0; k < kChains; ++k) acc[k] = acc[k] * 0.9999999f + 1e-7f;
  }
  float total = 0;
  for (float value : acc) total += value;
  return total;
}

struct FmaKernel {
  std::string isa;
  int lanes = 1;
  float (*run)(int64_t) = nullptr;
};

FmaKernel WidestKernel() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {"avx512f", 16, FmaAvx512};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {"avx2+fma", 8, FmaAvx2};
  }
  return {"scalar", 1, FmaScalar};
}

double FlopsOf(const FmaKernel& kernel, int64_t rounds) {
  return static_cast<double>(rounds) * kChains * kernel.lanes * 2;
}

std::atomic<float> g_sink{0};

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// One run of a probe: its wall time, and the share of `threads` cores its threads ran on
// (their CPU time over threads x the wall time; other work on the cores lowers it).
struct ProbeRun {
  double seconds = 0;
  double cpu_share = 0;
};

// Runs `work(thread_index)` on `threads` threads started together: the wall time from the
// common start to the last one's end, and the share of the cores they got.
template <typename Work>
ProbeRun RunTogether(int threads, Work work) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<Clock::time_point> ends(static_cast<size_t>(threads));
  std::vector<double> cpu(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      const double cpu_start = ThreadCpuSeconds();
      work(t);
      cpu[static_cast<size_t>(t)] = ThreadCpuSeconds() - cpu_start;
      ends[static_cast<size_t>(t)] = Clock::now();
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const Clock::time_point start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& thread : pool) thread.join();
  ProbeRun run;
  run.seconds = Seconds(start, *std::max_element(ends.begin(), ends.end()));
  double total = 0;
  for (double seconds : cpu) total += seconds;
  if (run.seconds > 0) run.cpu_share = std::min(1.0, total / (threads * run.seconds));
  return run;
}

// A probe's figure: the best rate of its tries, and the CPU share of that try.
struct ProbeResult {
  double rate = 0;
  double cpu_share = 0;
  void Take(double candidate, double share) {
    if (candidate > rate) {
      rate = candidate;
      cpu_share = share;
    }
  }
};

// Best FLOP/s over rounds of `rounds` each, within the time budget.
ProbeResult MeasureFma(const FmaKernel& kernel, int threads, int64_t rounds, double budget) {
  ProbeResult best;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget));
  int tries = 0;
  do {
    const ProbeRun run = RunTogether(threads, [&](int) {
      g_sink.store(g_sink.load(std::memory_order_relaxed) + kernel.run(rounds),
                   std::memory_order_relaxed);
    });
    if (run.seconds > 0) best.Take(FlopsOf(kernel, rounds) * threads / run.seconds, run.cpu_share);
    ++tries;
  } while (tries < 3 || Clock::now() < deadline);
  return best;
}

int64_t LastLevelCacheBytes() {
  int64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream file("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
                       "/size");
    std::string text;
    if (!(file >> text) || text.empty()) continue;
    int64_t value = std::atoll(text.c_str());
    if (text.back() == 'K') value *= 1024;
    if (text.back() == 'M') value *= 1024 * 1024;
    largest = std::max(largest, value);
  }
  return largest;
}

ProbeResult MeasureTriad(int threads, int64_t array_bytes, double budget) {
  const int64_t n = array_bytes / static_cast<int64_t>(sizeof(float));
  std::unique_ptr<float[]> a(new float[static_cast<size_t>(n)]);
  std::unique_ptr<float[]> b(new float[static_cast<size_t>(n)]);
  std::unique_ptr<float[]> c(new float[static_cast<size_t>(n)]);
  auto slice = [&](int t) {
    const int64_t begin = n * t / threads;
    const int64_t end = n * (t + 1) / threads;
    return std::pair<int64_t, int64_t>(begin, end);
  };
  // First touch by the thread that streams the slice later (NUMA placement).
  RunTogether(threads, [&](int t) {
    auto [begin, end] = slice(t);
    for (int64_t i = begin; i < end; ++i) {
      a[static_cast<size_t>(i)] = 0;
      b[static_cast<size_t>(i)] = 1;
      c[static_cast<size_t>(i)] = 2;
    }
  });
  const float scalar = 3;
  ProbeResult best;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget));
  int tries = 0;
  do {
    const ProbeRun run = RunTogether(threads, [&](int t) {
      auto [begin, end] = slice(t);
      float* __restrict out = a.get();
      const float* __restrict x = b.get();
      const float* __restrict y = c.get();
      for (int64_t i = begin; i < end; ++i) out[i] = x[i] + scalar * y[i];
    });
    if (run.seconds > 0)
      best.Take(3.0 * static_cast<double>(n) * sizeof(float) / run.seconds, run.cpu_share);
    ++tries;
  } while (tries < 3 || Clock::now() < deadline);
  g_sink.store(g_sink.load() + a[static_cast<size_t>(n / 2)]);
  return best;
}

constexpr const char* kCacheFile = "machine.txt";

}  // namespace

std::string MachineInfo::Key() const {
  return cpu_model + "|" + std::to_string(logical_cores) + "|" + vector_isa;
}

MachineInfo DescribeMachine() {
  MachineInfo info;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) info.cpu_model = line.substr(colon + 2);
      break;
    }
  }
  if (info.cpu_model.empty()) info.cpu_model = "unknown CPU";
  info.logical_cores = std::max<int64_t>(1, std::thread::hardware_concurrency());
  info.vector_isa = WidestKernel().isa;
  return info;
}

StatusOr<MachineInfo> Calibrate(const CalibrationOptions& options) {
  if (options.seconds_per_probe <= 0 || options.seconds_per_probe > 60) {
    return Status::Error("probe time must be in (0, 60] seconds");
  }
  const Clock::time_point start = Clock::now();
  MachineInfo info = DescribeMachine();
  const int threads = options.threads > 0 ? options.threads : static_cast<int>(info.logical_cores);
  info.logical_cores = threads;
  const FmaKernel kernel = WidestKernel();

  // Size the FMA rounds so that one round takes about a tenth of the probe.
  int64_t rounds = 1 << 16;
  for (;;) {
    const Clock::time_point t0 = Clock::now();
    g_sink.store(g_sink.load() + kernel.run(rounds));
    if (Seconds(t0, Clock::now()) > options.seconds_per_probe / 10 || rounds > (int64_t{1} << 40)) break;
    rounds *= 2;
  }
  // A probe whose best try ran on less than kTrustedCpuShare of its cores is taken again, a
  // few times, in case what kept the cores busy has finished; its best try counts.
  auto measure = [&](auto&& probe) {
    ProbeResult result = probe();
    for (int again = 0; again < 3 && result.cpu_share < kTrustedCpuShare; ++again) {
      const ProbeResult retry = probe();
      if (retry.cpu_share > result.cpu_share) result = retry;
    }
    info.cpu_share = std::min(info.cpu_share, result.cpu_share);
    return result.rate;
  };
  info.cpu_share = 1;
  info.peak_flops_one_core =
      measure([&] { return MeasureFma(kernel, 1, rounds, options.seconds_per_probe); });
  info.peak_flops =
      measure([&] { return MeasureFma(kernel, threads, rounds, options.seconds_per_probe); });

  int64_t array_bytes = options.triad_array_bytes;
  if (array_bytes <= 0) {
    array_bytes = std::clamp<int64_t>(4 * LastLevelCacheBytes(), int64_t{64} << 20, int64_t{512} << 20);
  }
  if (array_bytes < 4096 || array_bytes > (int64_t{8} << 30)) {
    return Status::Error("triad array size must be between 4 KiB and 8 GiB");
  }
  info.memory_bandwidth =
      measure([&] { return MeasureTriad(threads, array_bytes, options.seconds_per_probe); });
  info.probe_seconds = Seconds(start, Clock::now());
  info.measured_at = UtcNow();
  return info;
}

std::string DefaultCacheDirectory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return (fs::path(xdg) / "fusescope").string();
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return (fs::path(home) / ".cache" / "fusescope").string();
  }
  return (fs::temp_directory_path() / "fusescope").string();
}

StatusOr<MachineInfo> LoadCachedMachine(const std::string& directory) {
  const fs::path path = fs::path(directory) / kCacheFile;
  std::ifstream file(path);
  if (!file) return Status::Error("no machine calibration cached at " + path.string());
  std::map<std::string, std::string> values;
  std::string line;
  int line_number = 0;
  while (std::getline(file, line)) {
    ++line_number;
    if (line.empty()) continue;
    const size_t space = line.find(' ');
    if (space == std::string::npos || line.size() > 4096) {
      return Status::Error(path.string() + ":" + std::to_string(line_number) +
                           ": not a `key value` line");
    }
    values[line.substr(0, space)] = line.substr(space + 1);
  }
  MachineInfo info;
  auto number = [&](const char* key, double& out) -> Status {
    auto it = values.find(key);
    if (it == values.end()) return Status::Error(path.string() + ": no " + key);
    char* end = nullptr;
    out = std::strtod(it->second.c_str(), &end);
    if (end == it->second.c_str() || *end != '\0' || !(out > 0) || out > 1e18) {
      return Status::Error(path.string() + ": " + key + " is not a positive number");
    }
    return Status::Ok();
  };
  for (const char* key : {"cpu_model", "vector_isa", "logical_cores", "measured_at"}) {
    if (!values.count(key)) return Status::Error(path.string() + ": no " + key);
  }
  info.cpu_model = values["cpu_model"];
  info.vector_isa = values["vector_isa"];
  info.measured_at = values["measured_at"];
  double cores = 0;
  FS_RETURN_IF_ERROR(number("logical_cores", cores));
  info.logical_cores = static_cast<int64_t>(cores);
  FS_RETURN_IF_ERROR(number("peak_flops_one_core", info.peak_flops_one_core));
  FS_RETURN_IF_ERROR(number("peak_flops", info.peak_flops));
  FS_RETURN_IF_ERROR(number("memory_bandwidth", info.memory_bandwidth));
  FS_RETURN_IF_ERROR(number("probe_seconds", info.probe_seconds));
  if (!values.count("cpu_share")) {
    return Status::Error(path.string() +
                         " predates the check that the probes had their cores to themselves");
  }
  FS_RETURN_IF_ERROR(number("cpu_share", info.cpu_share));
  const MachineInfo here = DescribeMachine();
  if (info.Key() != here.Key()) {
    return Status::Error(path.string() + " was measured on another machine (" + info.Key() +
                         ", this is " + here.Key() + ")");
  }
  info.from_cache = true;
  return info;
}

Status SaveMachine(const MachineInfo& info, const std::string& directory) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) return Status::Error("cannot create " + directory + ": " + error.message());
  const fs::path path = fs::path(directory) / kCacheFile;
  // Written beside and renamed: a reader never sees half a file.
  const fs::path temporary = path.string() + ".tmp." + std::to_string(getpid());
  {
    std::ofstream file(temporary);
    if (!file) return Status::Error("cannot write " + temporary.string());
    std::ostringstream text;
    text.precision(17);
    text << "cpu_model " << info.cpu_model << "\n"
         << "logical_cores " << info.logical_cores << "\n"
         << "vector_isa " << info.vector_isa << "\n"
         << "peak_flops_one_core " << info.peak_flops_one_core << "\n"
         << "peak_flops " << info.peak_flops << "\n"
         << "memory_bandwidth " << info.memory_bandwidth << "\n"
         << "probe_seconds " << info.probe_seconds << "\n"
         << "cpu_share " << info.cpu_share << "\n"
         << "measured_at " << info.measured_at << "\n";
    file << text.str();
    if (!file.flush()) return Status::Error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path, error);
  if (error) return Status::Error("cannot write " + path.string() + ": " + error.message());
  return Status::Ok();
}

std::string BusyNote(const MachineInfo& info) {
  return "the machine was busy: the probes ran on " +
         std::to_string(static_cast<int>(100 * info.cpu_share)) +
         "% of their cores, so the figures are lower bounds";
}

StatusOr<MachineInfo> LoadOrCalibrate(const std::string& directory,
                                      const CalibrationOptions& options, std::string* note) {
  StatusOr<MachineInfo> cached = LoadCachedMachine(directory);
  if (cached.ok() && cached->cpu_share >= kTrustedCpuShare) {
    if (note) note->clear();
    return cached;
  }
  std::string said = cached.ok() ? "the cached figures were measured while " + BusyNote(*cached)
                                 : cached.message();
  said += "; measuring this machine";
  StatusOr<MachineInfo> measured = Calibrate(options);
  if (!measured.ok()) return measured;
  if (measured->cpu_share < kTrustedCpuShare) said += " (" + BusyNote(*measured) + ")";
  // A busy calibration is cached too (what `hot` and the roofline read), to be measured again
  // by the next call here; it replaces a cached one only where its probes got more of
  // their cores.
  if (cached.ok() && cached->cpu_share > measured->cpu_share) {
    if (note) *note = said + "; kept the cached figures, measured on a less busy machine";
    return cached;
  }
  Status saved = SaveMachine(*measured, directory);
  if (!saved.ok()) said += " (not cached: " + saved.message() + ")";
  if (note) *note = said;
  return measured;
}

RooflinePoint PlaceOnRoofline(const MachineInfo& machine, double flops, double bytes,
                              double seconds) {
  RooflinePoint point;
  point.flops = flops;
  point.bytes = bytes;
  point.seconds = seconds;
  point.intensity = bytes > 0 ? flops / bytes : 0;
  if (seconds > 0) {
    point.achieved_flops = flops / seconds;
    point.achieved_bandwidth = bytes / seconds;
  }
  const double bandwidth_roof = point.intensity * machine.memory_bandwidth;
  point.memory_bound = bandwidth_roof < machine.peak_flops;
  point.roof_flops = std::min(machine.peak_flops, bandwidth_roof);
  if (point.memory_bound) {
    // At zero intensity the bandwidth is what the kernel can use.
    point.fraction_of_roof =
        machine.memory_bandwidth > 0 ? point.achieved_bandwidth / machine.memory_bandwidth : 0;
  } else {
    point.fraction_of_roof = point.roof_flops > 0 ? point.achieved_flops / point.roof_flops : 0;
  }
  return point;
}

}  // namespace fusescope::profiler
