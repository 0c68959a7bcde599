#include "profiler/machine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "passes/cost_analysis.h"
#include "ir/hlo_parser.h"

namespace fusescope::profiler {
namespace {

namespace fs = std::filesystem;

fs::path FreshDirectory(const std::string& name) {
  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "profiler_test" / name;
  fs::remove_all(dir);
  return dir;
}

CalibrationOptions QuickProbe() {
  CalibrationOptions options;
  options.seconds_per_probe = 0.02;
  options.triad_array_bytes = 16 << 20;
  return options;
}

// The probes measure something plausible: positive, all cores at least one core's worth,
// and no machine of today above 1 PFLOP/s or 10 TB/s.
TEST(MachineTest, CalibrationMeasuresPlausibleLimits) {
  StatusOr<MachineInfo> machine = Calibrate(QuickProbe());
  ASSERT_TRUE(machine.ok()) << machine.message();
  EXPECT_FALSE(machine->cpu_model.empty());
  EXPECT_GE(machine->logical_cores, 1);
  EXPECT_GT(machine->peak_flops_one_core, 1e8);
  // All cores against one is not compared: measured at different moments, a loaded machine
  // (other tests, a fuzzer) can make the all-core figure the smaller one.
  EXPECT_GT(machine->peak_flops, 1e8);
  EXPECT_LT(machine->peak_flops, 1e15);
  EXPECT_GT(machine->memory_bandwidth, 1e8);
  EXPECT_LT(machine->memory_bandwidth, 1e13);
  EXPECT_FALSE(machine->from_cache);
}

TEST(MachineTest, CacheRoundTripsAndIsUsedNextTime) {
  const fs::path dir = FreshDirectory("round_trip");
  std::string note;
  StatusOr<MachineInfo> first = LoadOrCalibrate(dir.string(), QuickProbe(), &note);
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_NE(note.find("no machine calibration cached"), std::string::npos) << note;
  if (first->cpu_share < kTrustedCpuShare) {
    // Measured while other work had the cores (tests run side by side): cached, and measured
    // again by the next call; the round trip is checked on what an idle machine would give.
    EXPECT_NE(note.find("the machine was busy"), std::string::npos) << note;
    first->cpu_share = 1;
    ASSERT_TRUE(SaveMachine(*first, dir.string()).ok());
  }
  StatusOr<MachineInfo> second = LoadOrCalibrate(dir.string(), QuickProbe(), &note);
  ASSERT_TRUE(second.ok()) << second.message();
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_TRUE(second->from_cache);
  EXPECT_DOUBLE_EQ(second->peak_flops, first->peak_flops);
  EXPECT_DOUBLE_EQ(second->memory_bandwidth, first->memory_bandwidth);
  EXPECT_EQ(second->measured_at, first->measured_at);
}

// A corrupt cache or one from another machine is never trusted: measured again, with the
// reason said, and the file replaced by a good one.
TEST(MachineTest, CorruptOrForeignCacheIsMeasuredAgain) {
  const fs::path dir = FreshDirectory("corrupt");
  fs::create_directories(dir);
  { std::ofstream(dir / "machine.txt") << "cpu_model x\npeak_flops banana\n"; }
  std::string note;
  StatusOr<MachineInfo> machine = LoadOrCalibrate(dir.string(), QuickProbe(), &note);
  ASSERT_TRUE(machine.ok()) << machine.message();
  EXPECT_FALSE(machine->from_cache);
  EXPECT_NE(note.find("measuring this machine"), std::string::npos) << note;
  EXPECT_TRUE(LoadCachedMachine(dir.string()).ok());

  MachineInfo foreign = *machine;
  foreign.cpu_model = "Imaginary CPU 9000";
  ASSERT_TRUE(SaveMachine(foreign, dir.string()).ok());
  StatusOr<MachineInfo> loaded = LoadCachedMachine(dir.string());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find("another machine"), std::string::npos) << loaded.message();
}

// Probes that share their cores with other work (here, two busy threads per core) say so:
// their figures are lower bounds, cached with their CPU share, and measured again by the next
// calibration that reads them; a cache written before the check is measured again too. A
// busy machine's all-core peak came out at one core's worth and stayed cached, making every
// "% of peak" after it wrong by nearly two.
TEST(MachineTest, ACalibrationOnABusyMachineSaysSoAndIsMeasuredAgain) {
  const fs::path dir = FreshDirectory("busy");
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  const unsigned burners = 2 * std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < burners; ++i) {
    busy.emplace_back([&stop] {
      volatile uint64_t spin = 0;
      while (!stop.load(std::memory_order_relaxed)) spin = spin + 1;
    });
  }
  std::string note;
  StatusOr<MachineInfo> machine = LoadOrCalibrate(dir.string(), QuickProbe(), &note);
  stop = true;
  for (std::thread& thread : busy) thread.join();
  ASSERT_TRUE(machine.ok()) << machine.message();
  EXPECT_LT(machine->cpu_share, kTrustedCpuShare);
  EXPECT_GT(machine->cpu_share, 0);
  EXPECT_NE(note.find("the machine was busy: the probes ran on"), std::string::npos) << note;
  StatusOr<MachineInfo> cached = LoadCachedMachine(dir.string());
  ASSERT_TRUE(cached.ok()) << cached.message();
  EXPECT_DOUBLE_EQ(cached->cpu_share, machine->cpu_share);
  // Read back by a calibration: not trusted, measured again.
  StatusOr<MachineInfo> again = LoadOrCalibrate(dir.string(), QuickProbe(), &note);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_NE(note.find("the cached figures were measured while the machine was busy"),
            std::string::npos)
      << note;
  if (!again->from_cache) {
    // The new figures replaced the busy ones, unless their probes got even less of the cores.
    EXPECT_GE(again->cpu_share, machine->cpu_share);
    EXPECT_DOUBLE_EQ(LoadCachedMachine(dir.string())->cpu_share, again->cpu_share);
  }

  // A cache from before the check (no cpu_share) is not trusted.
  std::string text;
  {
    std::ifstream file(dir / "machine.txt");
    for (std::string line; std::getline(file, line);)
      if (line.rfind("cpu_share ", 0) != 0) text += line + "\n";
  }
  { std::ofstream(dir / "machine.txt") << text; }
  StatusOr<MachineInfo> loaded = LoadCachedMachine(dir.string());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find("predates the check"), std::string::npos) << loaded.message();
}

TEST(MachineTest, RooflineSaysWhichRoofBounds) {
  MachineInfo machine;
  machine.peak_flops = 100e9;
  machine.memory_bandwidth = 10e9;  // ridge at 10 FLOP/byte
  // An elementwise add of 1M floats: 1M flops, 12 MB, 2 ms -> memory bound at 6 GB/s.
  RooflinePoint add = PlaceOnRoofline(machine, 1e6, 12e6, 2e-3);
  EXPECT_TRUE(add.memory_bound);
  EXPECT_NEAR(add.intensity, 1.0 / 12, 1e-12);
  EXPECT_NEAR(add.achieved_bandwidth, 6e9, 1);
  EXPECT_NEAR(add.fraction_of_roof, 0.6, 1e-12);
  // A 512^3 matmul: 268M flops, 3 MB, 5 ms -> compute bound at 53.7 GFLOP/s.
  RooflinePoint dot = PlaceOnRoofline(machine, 2.0 * 512 * 512 * 512, 3.0 * 512 * 512 * 4, 5e-3);
  EXPECT_FALSE(dot.memory_bound);
  EXPECT_DOUBLE_EQ(dot.roof_flops, 100e9);
  EXPECT_NEAR(dot.fraction_of_roof, 0.536870912, 1e-9);
}

// FLOPs and bytes of kernels, counted from the IR as the roofline uses them.
TEST(CostAnalysisTest, CountsFlopsAndBytesOfKernels) {
  auto module = ir::ParseHloModule(R"(
HloModule m
fused {
  a = f32[64,32] parameter(0)
  b = f32[64,32] parameter(1)
  s = f32[64,32] add(a, b)
  ROOT e = f32[64,32] exponential(s)
}
ENTRY main {
  x = f32[8,16,16,3] parameter(0)
  k = f32[3,3,3,8] parameter(1)
  conv = f32[8,16,16,8] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  l = f32[64,128] parameter(2)
  r = f32[128,32] parameter(3)
  dot = f32[64,32] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT f = f32[64,32] fusion(dot, dot), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  const ir::Computation& entry = *(*module)->entry();
  // Each output element meets 3x3 positions x 3 input features: 2 * 8*16*16*8 * 27.
  EXPECT_DOUBLE_EQ(passes::KernelFlops(*entry.FindInstruction("conv")), 2.0 * 8 * 16 * 16 * 8 * 27);
  EXPECT_DOUBLE_EQ(passes::KernelFlops(*entry.FindInstruction("dot")), 2.0 * 64 * 32 * 128);
  const ir::Instruction& fusion = *entry.FindInstruction("f");
  EXPECT_DOUBLE_EQ(passes::KernelFlops(fusion), 64 * 32 * (1 + passes::kTranscendentalFlops));
  // The output and the one distinct operand (read twice, counted once).
  EXPECT_DOUBLE_EQ(passes::KernelBytes(fusion), 2.0 * 64 * 32 * 4);
}

}  // namespace
}  // namespace fusescope::profiler
