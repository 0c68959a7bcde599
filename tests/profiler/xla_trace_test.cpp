#include "profiler/xla_trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
  EXPECT_EQ(trace->execution_events.size(), 5u);
  auto module = Load("attention/after_optimizations.hlo");
  ASSERT_NE(module, nullptr);
  StatusOr<TraceProfile> profile = MapTraceOntoModule(*trace, *module);
  ASSERT_TRUE(profile.ok()) << profile.message();
  EXPECT_EQ(profile->runs, 5);
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
  EXPECT_NEAR(shares, profile->covered_share, 1e-9);
  // The softmax's exponential fusion holds the scores' division and the exponential.
  auto softmax = std::find_if(profile->ops.begin(), profile->ops.end(), [](const OpProfile& op) {
    return op.name == "subtract_exponential_fusion";
  });
  ASSERT_NE(softmax, profile->ops.end());
  EXPECT_GE(softmax->source_lines.size(), 2u);
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
