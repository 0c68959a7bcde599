#include "profiler/xla_trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "ir/hlo_parser.h"

namespace fusescope::profiler {
namespace {

namespace fs = std::filesystem;

std::string Data(const std::string& relative) {
  return std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/" + relative;
}

std::unique_ptr<ir::Module> Load(const std::string& relative) {
  auto module = ir::ParseHloFile(Data(relative));
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(*module) : nullptr;
}

// A profile XLA recorded itself (jax.profiler on XLA:CPU, 5 runs of the attention block)
// lands on the fusions of the module XLA compiled, and through their metadata on the
// model's source lines.
TEST(XlaTraceTest, RealTraceMapsOntoXlasFusions) {
  StatusOr<XlaTrace> trace = ReadXlaTrace(Data("attention/xla_cpu_trace.json.gz"));
  ASSERT_TRUE(trace.ok()) << trace.message();
  EXPECT_EQ(trace->modules, std::vector<std::string>{"jit_attention"});
  auto module = Load("attention/after_optimizations.hlo");
  ASSERT_NE(module, nullptr);
  StatusOr<TraceProfile> profile = MapTraceOntoModule(*trace, *module);
  ASSERT_TRUE(profile.ok()) << profile.message();
  EXPECT_EQ(profile->runs, 5);
  EXPECT_EQ(profile->run_latency_us.size(), 5u);
  EXPECT_EQ(profile->max_threads, 1);
  EXPECT_TRUE(profile->unmatched_ops.empty());
  EXPECT_GT(profile->module_latency_us.median, 0);
  EXPECT_LE(profile->module_latency_us.median, profile->module_latency_us.p99);
  EXPECT_GT(profile->covered_share, 0.3);
  EXPECT_LE(profile->covered_share, 1.0 + 1e-9);
  // Every fusion of the entry computation ran in every run.
  int64_t fusions = 0;
  for (const auto& instruction : module->entry()->instructions()) {
    fusions += instruction->opcode() == ir::Opcode::kFusion;
  }
  EXPECT_EQ(static_cast<int64_t>(profile->ops.size()), fusions);
  double shares = 0;
  for (size_t i = 0; i < profile->ops.size(); ++i) {
    const OpProfile& op = profile->ops[i];
    EXPECT_EQ(op.duration_us.count, 5) << op.name;
    if (i > 0) {
      EXPECT_LE(op.total_us, profile->ops[i - 1].total_us);
    }
    shares += op.share;
    // Each kernel answers for model ops at lines of the script that built the model.
    ASSERT_FALSE(op.source_lines.empty()) << op.name;
    EXPECT_EQ(op.source_lines.front().file, "scripts/gen_fixtures.py") << op.name;
    EXPECT_FALSE(op.op_names.empty()) << op.name;
  }
  EXPECT_NEAR(shares, profile->op_time_share, 1e-9);
  EXPECT_LE(profile->covered_share, profile->op_time_share + 1e-9);
  // The softmax's exponential fusion holds the scores' division and the exponential.
  auto softmax = std::find_if(profile->ops.begin(), profile->ops.end(), [](const OpProfile& op) {
    return op.name == "subtract_exponential_fusion";
  });
  ASSERT_NE(softmax, profile->ops.end());
  EXPECT_GE(softmax->source_lines.size(), 2u);
}

// XLA:CPU runs independent thunks on several threads, each under its own executor event; one
// of them here outlasts its run into the next, as on a loaded machine. A run is its run_id's
// ops, whatever thread ran them: its latency is their span, and the coverage counts wall time
// once however many ops ran at an instant.
TEST(XlaTraceTest, ConcurrentThunksGiveOneLatencyPerRun) {
  auto module = ir::ParseHloModule(R"(
HloModule jit_block
fused_exp {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p)
}
ENTRY main {
  x = f32[8] parameter(0)
  a = f32[8] fusion(x), kind=kLoop, calls=fused_exp
  b = f32[8] negate(x)
  c = f32[8] add(a, b)
  ROOT d = f32[8] multiply(c, c)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  const auto op = [](const char* name, const char* run, int tid, int ts, int dur) {
    return std::string("{\"ph\":\"X\",\"pid\":1,\"tid\":") + std::to_string(tid) +
           ",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + ",\"name\":\"" +
           name + "\",\"args\":{\"hlo_module\":\"jit_block\",\"hlo_op\":\"" + name +
           "\",\"run_id\":\"" + run + "\"}},";
  };
  const auto executor = [](int tid, int ts, int dur) {
    return "{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(tid) +
           ",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) +
           ",\"name\":\"ThunkExecutor::Execute\"},";
  };
  // Run "9": ops on three threads, busy 110..180 and 185..210. Run "10" (after "9" in time,
  // before it as text): `a` twice at once on two threads, `b` beside `c`; busy 1000..1040,
  // 1050..1095, 1140..1160. A worker's executor event runs from run "9" into run "10".
  const std::string json =
      "{\"traceEvents\":[" + executor(1, 100, 120) + executor(2, 115, 1000) + executor(3, 145, 40) +
      op("a", "9", 1, 110, 40) + op("b", "9", 2, 120, 50) + op("c", "9", 3, 150, 30) +
      op("d", "9", 1, 185, 25) + executor(1, 990, 175) + executor(3, 1005, 30) +
      op("a", "10", 2, 1000, 40) + op("a", "10", 3, 1010, 20) + op("b", "10", 1, 1050, 45) +
      op("c", "10", 3, 1050, 40) + op("d", "10", 1, 1140, 20) +
      "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1170,\"dur\":5,\"name\":\"ThunkExecutor::Execute "
      "(wait for completion)\",\"args\":{\"run_id\":\"10\"}}]}";
  StatusOr<XlaTrace> trace = ParseXlaTrace(json, "concurrent.json");
  ASSERT_TRUE(trace.ok()) << trace.message();
  StatusOr<TraceProfile> profile = MapTraceOntoModule(*trace, **module);
  ASSERT_TRUE(profile.ok()) << profile.message();

  EXPECT_EQ(profile->runs, 2);
  EXPECT_EQ(profile->run_latency_us, (std::vector<double>{100, 160}));
  EXPECT_DOUBLE_EQ(profile->module_latency_us.min, 100);
  EXPECT_DOUBLE_EQ(profile->module_latency_us.max, 160);
  EXPECT_EQ(profile->max_threads, 3);
  // Busy 95 of 100 and 105 of 160; the ops' time, 145 and 165, counts overlaps twice.
  EXPECT_DOUBLE_EQ(profile->covered_share, 200.0 / 260);
  EXPECT_DOUBLE_EQ(profile->op_time_share, 310.0 / 260);
  std::map<std::string, std::vector<double>> samples;
  double shares = 0;
  for (const OpProfile& kernel : profile->ops) {
    samples[kernel.name] = kernel.samples_us;
    shares += kernel.share;
  }
  EXPECT_EQ(samples["a"], (std::vector<double>{40, 60}));
  EXPECT_EQ(samples["b"], (std::vector<double>{50, 45}));
  EXPECT_EQ(samples["c"], (std::vector<double>{30, 40}));
  EXPECT_EQ(samples["d"], (std::vector<double>{25, 20}));
  EXPECT_NEAR(shares, profile->op_time_share, 1e-12);
  EXPECT_EQ(profile->ops.front().name, "a");
  EXPECT_DOUBLE_EQ(profile->ops.front().share, 100.0 / 260);
}

// A real trace of thunks on several threads (tests/data/gpt_block): 5 runs under 14 executor
// events, ops overlapping in some runs. One latency per run, none shorter than an op it
// holds, and the coverage apart from the thread time.
TEST(XlaTraceTest, RealConcurrentTraceGivesOneLatencyPerRun) {
  StatusOr<XlaTrace> trace = ReadXlaTrace(Data("gpt_block/xla_cpu_trace.json.gz"));
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto module = Load("gpt_block/after_optimizations.hlo");
  ASSERT_NE(module, nullptr);
  StatusOr<TraceProfile> profile = MapTraceOntoModule(*trace, *module);
  ASSERT_TRUE(profile.ok()) << profile.message();
  EXPECT_TRUE(profile->unmatched_ops.empty());
  EXPECT_EQ(profile->runs, 5);
  ASSERT_EQ(profile->run_latency_us.size(), 5u);
  EXPECT_EQ(profile->max_threads, 3);
  EXPECT_LE(profile->covered_share, 1.0);
  EXPECT_GT(profile->op_time_share, profile->covered_share + 0.05);
  double shares = 0;
  for (const OpProfile& op : profile->ops) {
    ASSERT_EQ(op.samples_us.size(), 5u) << op.name;
    for (size_t run = 0; run < 5; ++run) {
      EXPECT_LE(op.samples_us[run], profile->run_latency_us[run]) << op.name << " run " << run;
    }
    shares += op.share;
  }
  EXPECT_NEAR(shares, profile->op_time_share, 1e-9);
}

TEST(XlaTraceTest, TraceOfAnotherModuleIsRefused) {
  StatusOr<XlaTrace> trace = ReadXlaTrace(Data("attention/xla_cpu_trace.json.gz"));
  ASSERT_TRUE(trace.ok()) << trace.message();
  auto mlp = Load("mlp/after_optimizations.hlo");
  ASSERT_NE(mlp, nullptr);
  StatusOr<TraceProfile> profile = MapTraceOntoModule(*trace, *mlp);
  ASSERT_FALSE(profile.ok());
  EXPECT_EQ(profile.message(), "the trace holds no run of module jit_mlp (it holds jit_attention)");

  // Same module name, other compilation: its op names are not there.
  mlp->set_name("jit_attention");
  profile = MapTraceOntoModule(*trace, *mlp);
  ASSERT_FALSE(profile.ok());
  EXPECT_NE(profile.message().find("a trace of another compilation?"), std::string::npos)
      << profile.message();
}

TEST(XlaTraceTest, CorruptOrForeignFilesGiveOneClearError) {
  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "xla_trace_test";
  fs::create_directories(dir);
  // Truncated gzip: the first half of the real trace.
  {
    std::ifstream in(Data("attention/xla_cpu_trace.json.gz"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / "cut.json.gz", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  StatusOr<XlaTrace> cut = ReadXlaTrace((dir / "cut.json.gz").string());
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.message().find("cut.json.gz: "), std::string::npos) << cut.message();

  std::ofstream(dir / "broken.json") << "{\"traceEvents\": [\n{\"ph\": \"X\",, }]}";
  StatusOr<XlaTrace> broken = ReadXlaTrace((dir / "broken.json").string());
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.message().find("broken.json: line 2, column 12: "), std::string::npos)
      << broken.message();

  std::ofstream(dir / "foreign.json") << "{\"name\": \"not a trace\"}";
  StatusOr<XlaTrace> foreign = ReadXlaTrace((dir / "foreign.json").string());
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.message().find("no traceEvents array"), std::string::npos);

  StatusOr<XlaTrace> big = ReadXlaTrace(Data("attention/xla_cpu_trace.json.gz"), 100);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.message().find("more than the 100"), std::string::npos) << big.message();

  StatusOr<XlaTrace> missing = ReadXlaTrace((dir / "none.json").string());
  ASSERT_FALSE(missing.ok());
}

}  // namespace
}  // namespace fusescope::profiler
