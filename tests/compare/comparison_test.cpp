#include "compare/comparison.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compare/comparison_report.h"
#include "compare/comparison_store.h"
#include "ir/hlo_parser.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"

namespace fusescope::compare {
namespace {

namespace fs = std::filesystem;

// The fake's model is the identity on its first input (tests/compare/fake_peer.py).
constexpr std::string_view kIdentity = R"(HloModule identity

ENTRY main {
  p0 = f32[2,3] parameter(0)
  ROOT c = f32[2,3] copy(p0)
}
)";

// Every compiler of a comparison played by the fake adapter, each in a mode of its own: the
// test's adapter folder holds a peer.py that hands over to fake_peer.py with the mode named
// for that compiler in the environment.
class ComparisonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("comparison_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "adapters");
    std::ofstream(dir_ / "adapters" / "peer.py")
        << "import os, runpy, sys\n"
           "compiler = sys.argv[1]\n"
           "mode = os.environ['FUSESCOPE_FAKE_' + compiler.upper()]\n"
           "sys.argv = ['fake_peer.py', mode, compiler]\n"
           "runpy.run_path('" FUSESCOPE_SOURCE_DIR
           "/tests/compare/fake_peer.py', run_name='__main__')\n";
    setenv("FUSESCOPE_ADAPTERS_DIR", (dir_ / "adapters").c_str(), 1);
    setenv("FUSESCOPE_PEER_PYTHON", "python3", 1);
  }
  void TearDown() override {
    unsetenv("FUSESCOPE_ADAPTERS_DIR");
    unsetenv("FUSESCOPE_PEER_PYTHON");
    fs::remove_all(dir_);
  }

  // The fakes never read the model; the harness reads it through `load`. As an ONNX model it
  // goes to every compiler.
  ComparisonSpec Spec(const std::map<std::string, std::string>& modes,
                      const std::string& format = "onnx") {
    ComparisonSpec spec;
    spec.model_path = (dir_ / "identity.model").string();
    std::ofstream(spec.model_path) << kIdentity;
    spec.model_format = format;
    for (const auto& [compiler, mode] : modes) {
      spec.compilers.push_back(compiler);
      std::string upper = compiler;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      setenv(("FUSESCOPE_FAKE_" + upper).c_str(), mode.c_str(), 1);
    }
    spec.shapes = {{"static", {}, 4}};
    spec.load = [](const std::map<std::string, int64_t>&) { return ir::ParseHloModule(kIdentity); };
    spec.reps = 20;
    spec.warmup = 2;
    spec.time_limit_s = 20;
    spec.work_dir = (dir_ / "work").string();
    return spec;
  }

  const PeerOutcome& Peer(const Comparison& comparison, const std::string& name) {
    for (const PeerOutcome& peer : comparison.peers)
      if (peer.compiler == name) return peer;
    ADD_FAILURE() << "no outcome for " << name;
    static const PeerOutcome kNone;
    return kNone;
  }
  fs::path dir_;
};

TEST_F(ComparisonTest, AGoodPeerIsMeasuredAndJudged) {
  auto comparison = RunComparison(Spec({{"ort", "ok"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  const PeerOutcome& peer = Peer(*comparison, "ort");
  EXPECT_EQ(peer.status, "ok") << peer.message;
  EXPECT_EQ(peer.versions.at("fake"), "1.0");
  EXPECT_TRUE(peer.dynamic_shapes);
  ASSERT_EQ(comparison->rows.size(), 1u);
  const ComparisonRow& row = comparison->rows[0];
  EXPECT_EQ(row.error, "");
  EXPECT_EQ(row.verdict, "ok");
  EXPECT_EQ(row.max_abs_error, 0);
  EXPECT_EQ(row.latency_us.count, 20);
  // The fake's times are 100..106 us: the harness's own percentiles of them.
  EXPECT_DOUBLE_EQ(row.latency_us.median, 103);
  EXPECT_DOUBLE_EQ(row.latency_us.max, 106);
  EXPECT_NEAR(row.throughput_per_s, 4 * 1e6 / 103, 1e-6);
  EXPECT_EQ(row.build_peak_rss_bytes, 2 << 20);
  EXPECT_EQ(row.run_peak_rss_bytes, 3 << 20);
  const auto ops = FollowOps(*comparison);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].op, "copy_op");
  EXPECT_EQ(ops[0].placements[0].kernel, "fake_kernel_0");
}

// The op table lists the model's ops in its order (constants and parameters are no ops), an op
// no kernel holds with no placement, and what a compiler's kernels hold that is no op of the
// model after them; the order and the list survive the stored JSON.
TEST_F(ComparisonTest, OpsFollowTheModelsOrderAndSetApartTheCompilersOwn) {
  ComparisonSpec spec = Spec({{"ort", "ok"}});
  spec.load = [](const std::map<std::string, int64_t>&) {
    return ir::ParseHloModule(R"(HloModule two_ops

ENTRY main {
  p0 = f32[2,3] parameter(0), metadata={op_name="x"}
  w = f32[2,3] constant({{1,2,3},{4,5,6}}), metadata={op_name="w.weight"}
  n = f32[2,3] add(p0, w), metadata={op_name="add_op"}
  ROOT c = f32[2,3] copy(n), metadata={op_name="copy_op"}
}
)");
  };
  auto comparison = RunComparison(spec);
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  EXPECT_EQ(comparison->model_ops, (std::vector<std::string>{"add_op", "copy_op"}));
  PeerKernel own;
  own.variant = "ort";
  own.shape = "static";
  own.name = "merged";
  own.ops = {"slice.7", "add_op"};
  comparison->peers[0].kernels.push_back(own);
  auto stored = Comparison::FromJson(comparison->ToJson());
  ASSERT_TRUE(stored.ok()) << stored.message();
  EXPECT_EQ(stored->model_ops, comparison->model_ops);
  const auto ops = FollowOps(*stored);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].op, "add_op");
  ASSERT_EQ(ops[0].placements.size(), 1u);
  EXPECT_EQ(ops[0].placements[0].kernel, "merged");
  EXPECT_EQ(ops[1].op, "copy_op");
  EXPECT_EQ(ops[1].placements[0].kernel, "fake_kernel_0");
  EXPECT_EQ(ops[2].op, "slice.7");
  EXPECT_FALSE(ops[2].of_model);
  const std::string text = FormatOpsText(ops, *stored);
  EXPECT_NE(text.find("ort's kernels also hold 1 instruction(s) of its own, no op of the model: "
                      "slice.7"),
            std::string::npos)
      << text;
  EXPECT_LT(text.find("add_op"), text.find("copy_op")) << text;
  EXPECT_EQ(text.find("names none of its ops"), std::string::npos) << text;
  // A model without op names: what the kernels hold is listed, said to be each compiler's own.
  Comparison unnamed = *stored;
  unnamed.model_ops.clear();
  const std::string bare = FormatOpsText(FollowOps(unnamed), unnamed);
  EXPECT_NE(bare.find("the model names none of its ops"), std::string::npos) << bare;
  EXPECT_NE(bare.find("slice.7"), std::string::npos) << bare;

  // An ONNX model's own node list (an Identity our import folds away still names an op).
  spec.model_ops = {"add_op", "copy_op", "y_identity"};
  auto named = RunComparison(spec);
  ASSERT_TRUE(named.ok()) << named.message();
  EXPECT_EQ(named->model_ops, spec.model_ops);
}

// A fusion's shared constants (CSE keeps one of equal constants with one op's name) do not make
// it hold that op.
TEST(ModelOpsOfTest, SharedConstantsOfAFusionNameNoOp) {
  auto module = ir::ParseHloModule(R"(HloModule fused

fused {
  p = f32[4] parameter(0)
  k = f32[] constant(0), metadata={op_name="softmax_op"}
  b = f32[4] broadcast(k), dimensions={}, metadata={op_name="softmax_op"}
  ROOT m = f32[4] maximum(p, b), metadata={op_name="relu_op"}
}

ENTRY main {
  x = f32[4] parameter(0)
  ROOT f = f32[4] fusion(x), kind=kLoop, calls=fused
}
)");
  ASSERT_TRUE(module.ok()) << module.message();
  EXPECT_EQ(ModelOpsOf(*(*module)->entry()->root()), (std::vector<std::string>{"relu_op"}));
}

// Every way a peer can fail is that peer's finding, one line, and the others still run.
TEST_F(ComparisonTest, EachFailureIsAFindingAndTheOthersGoOn) {
  auto comparison = RunComparison(Spec({{"xla", "timeout"},
                                        {"ort", "crash"},
                                        {"tvm", "garbage"},
                                        {"iree", "wrong_shapes"},
                                        {"inductor", "unavailable"},
                                        {"tensorrt", "ok"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  EXPECT_EQ(Peer(*comparison, "xla").status, "timed out");
  EXPECT_EQ(Peer(*comparison, "ort").status, "crashed");
  EXPECT_NE(Peer(*comparison, "ort").message.find("signal 6"), std::string::npos)
      << Peer(*comparison, "ort").message;
  EXPECT_EQ(Peer(*comparison, "tvm").status, "broke the protocol");
  EXPECT_NE(Peer(*comparison, "tvm").message.find("no JSON document"), std::string::npos);
  EXPECT_EQ(Peer(*comparison, "iree").status, "failed");
  EXPECT_NE(Peer(*comparison, "iree").message.find("reported output 0 as f32[1,2,3]"),
            std::string::npos)
      << Peer(*comparison, "iree").message;
  EXPECT_EQ(Peer(*comparison, "inductor").status, "not installed");
  EXPECT_NE(Peer(*comparison, "inductor").message.find("pip install fake-compiler"),
            std::string::npos);
  EXPECT_EQ(Peer(*comparison, "tensorrt").status, "ok");
  for (const PeerOutcome& peer : comparison->peers)
    EXPECT_EQ(peer.message.find('\n'), std::string::npos) << peer.message;
}

TEST_F(ComparisonTest, ExitWithoutAnAnswerAndAForeignProtocolAreRefused) {
  auto comparison = RunComparison(Spec({{"ort", "exit3"}, {"tvm", "wrong_protocol"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  EXPECT_EQ(Peer(*comparison, "ort").status, "crashed");
  EXPECT_NE(Peer(*comparison, "ort").message.find("exited with 3"), std::string::npos);
  EXPECT_EQ(Peer(*comparison, "tvm").status, "broke the protocol");
  EXPECT_NE(Peer(*comparison, "tvm").message.find("protocol 99"), std::string::npos);
}

TEST_F(ComparisonTest, WrongNumbersAreAMismatchWithTheirDistance) {
  auto comparison = RunComparison(Spec({{"ort", "wrong_values"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  ASSERT_EQ(comparison->rows.size(), 1u);
  EXPECT_EQ(comparison->rows[0].verdict, "MISMATCH");
  EXPECT_NEAR(comparison->rows[0].max_abs_error, 1.0, 1e-6);
}

TEST_F(ComparisonTest, ACompileErrorKeepsTheCompilersOwnTextAndOps) {
  auto comparison = RunComparison(Spec({{"ort", "compile_error"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  const PeerOutcome& peer = Peer(*comparison, "ort");
  EXPECT_EQ(peer.status, "failed");
  ASSERT_EQ(peer.unsupported_ops.size(), 1u);
  EXPECT_EQ(peer.unsupported_ops[0].op, "FancyOp");
  ASSERT_EQ(comparison->rows.size(), 1u);
  EXPECT_EQ(comparison->rows[0].error, "OpNotImplemented: FancyOp is not supported");
}

TEST_F(ComparisonTest, APeerThatTakesNoSuchModelIsNotApplicable) {
  ComparisonSpec spec = Spec({{"tvm", "ok"}}, "hlo");  // TVM takes ONNX only
  auto comparison = RunComparison(spec);
  ASSERT_TRUE(comparison.ok());
  EXPECT_EQ(Peer(*comparison, "tvm").status, "not applicable");
  EXPECT_TRUE(comparison->rows.empty());
}

// The stored comparison reads back as it was, beside a recording's own tables.
TEST_F(ComparisonTest, StoredInARecordingAndReadBack) {
  auto comparison = RunComparison(Spec({{"ort", "ok"}, {"tvm", "crash"}}));
  ASSERT_TRUE(comparison.ok()) << comparison.message();
  auto module = ir::ParseHloModule(kIdentity);
  ASSERT_TRUE(module.ok());
  passes::PipelineOptions options;
  auto recording = recording::CompileAndRecord(**module, options);
  ASSERT_TRUE(recording.ok()) << recording.message();
  const std::string file = (dir_ / "cmp.fsdb").string();
  ASSERT_TRUE(recording::SaveRecording(*recording, file).ok());
  auto id = AddComparison(file, *comparison, {{"ort", "/x/ort.fsdb"}});
  ASSERT_TRUE(id.ok()) << id.message();
  auto stored = LoadComparisons(file);
  ASSERT_TRUE(stored.ok()) << stored.message();
  ASSERT_EQ(stored->size(), 1u);
  const Comparison& back = (*stored)[0].comparison;
  EXPECT_EQ(back.ToJson(), comparison->ToJson());
  EXPECT_EQ((*stored)[0].peer_recordings.at("ort"), "/x/ort.fsdb");
  EXPECT_EQ(FormatComparisonCsv(back), FormatComparisonCsv(*comparison));
  auto again = recording::LoadRecording(file);
  EXPECT_TRUE(again.ok()) << again.message();
}

TEST_F(ComparisonTest, TextAndCsvSayWhatHappened) {
  auto comparison = RunComparison(Spec({{"ort", "ok"}, {"inductor", "unavailable"}}));
  ASSERT_TRUE(comparison.ok());
  const std::string text = FormatComparisonText(*comparison);
  EXPECT_NE(text.find("inductor  not installed"), std::string::npos) << text;
  EXPECT_NE(text.find("one build served every shape"), std::string::npos) << text;
  EXPECT_NE(text.find("103.0"), std::string::npos) << text;
  const std::string csv = FormatComparisonCsv(*comparison);
  EXPECT_NE(csv.find("ort,ort,static,4,0.250000,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace fusescope::compare
