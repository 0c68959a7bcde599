#include "compare/peer_protocol.h"

#include <gtest/gtest.h>

namespace fusescope::compare {
namespace {

PeerResponse SampleResponse() {
  PeerResponse response;
  response.compiler = "tvm";
  response.versions = {{"tvm", "0.27.0"}, {"python", "3.11.7"}};
  response.input_received = "the ONNX file, dims fixed per shape";
  PeerBuild untuned;
  untuned.variant = "tvm-untuned";
  untuned.shapes = {"b1"};
  untuned.build_s = 0.5;
  untuned.build_peak_rss_bytes = 123456789;
  untuned.unsupported_ops.push_back({"NonMaxSuppression", "OpNotImplemented"});
  PeerBuild tuned = untuned;
  tuned.variant = "tvm-metaschedule";
  tuned.trials = 64;
  tuned.tuning_s = 130.5;
  tuned.error = "tuning ran out of time";
  tuned.unsupported_ops.clear();
  response.builds = {untuned, tuned};
  PeerRun run;
  run.variant = "tvm-untuned";
  run.shape = "b1";
  run.times_us = {5.5, 6.25, 7};
  run.outputs = "/tmp/b1.out.npz";
  run.run_peak_rss_bytes = 1 << 20;
  response.runs = {run};
  response.kernels.push_back(
      {"tvm-untuned", "b1", "fused_matmul_add", 3.5, {"/fc1/MatMul", "/fc1/Add"}, "TVM profiler"});
  response.dumps.push_back({"tvm-dumpir", "/tmp/tvm/dump"});
  return response;
}

TEST(PeerProtocolTest, RequestSurvivesItsJson) {
  PeerRequest request;
  request.compiler = "xla";
  request.model = "/m.onnx";
  request.model_format = "onnx";
  request.work_dir = "/tmp/w";
  request.shapes.push_back(
      {"b8_s64", {{"batch", 8}, {"seq", 64}}, "/c/b8.hlo", "hlo", "/i/b8.npz"});
  request.reps = 100;
  request.warmup = 7;
  request.dump = true;
  request.tvm_trials = 32;
  auto parsed = PeerRequest::Parse(request.ToJson());
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(parsed->compiler, "xla");
  ASSERT_EQ(parsed->shapes.size(), 1u);
  EXPECT_EQ(parsed->shapes[0].dims.at("seq"), 64);
  EXPECT_EQ(parsed->shapes[0].model, "/c/b8.hlo");
  EXPECT_EQ(parsed->shapes[0].model_format, "hlo");
  EXPECT_EQ(parsed->warmup, 7);
  EXPECT_TRUE(parsed->dump);
  EXPECT_FALSE(parsed->profile);
  EXPECT_EQ(parsed->tvm_trials, 32);
}

TEST(PeerProtocolTest, ResponseSurvivesItsJson) {
  auto parsed = PeerResponse::Parse(SampleResponse().ToJson());
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  ASSERT_EQ(parsed->builds.size(), 2u);
  EXPECT_EQ(parsed->builds[1].variant, "tvm-metaschedule");
  EXPECT_EQ(parsed->builds[1].trials, 64);
  EXPECT_DOUBLE_EQ(parsed->builds[1].tuning_s, 130.5);
  EXPECT_EQ(parsed->builds[1].error, "tuning ran out of time");
  EXPECT_EQ(parsed->builds[0].artifact_bytes, -1);  // null stays "not reported"
  ASSERT_EQ(parsed->builds[0].unsupported_ops.size(), 1u);
  EXPECT_EQ(parsed->builds[0].unsupported_ops[0].op, "NonMaxSuppression");
  ASSERT_EQ(parsed->runs.size(), 1u);
  EXPECT_EQ(parsed->runs[0].times_us, (std::vector<double>{5.5, 6.25, 7}));
  ASSERT_EQ(parsed->kernels.size(), 1u);
  EXPECT_EQ(parsed->kernels[0].ops[1], "/fc1/Add");
  EXPECT_EQ(parsed->dumps[0].kind, "tvm-dumpir");
  EXPECT_EQ(parsed->versions.at("tvm"), "0.27.0");
}

// Each way an answer can break the protocol is refused with the place it broke.
TEST(PeerProtocolTest, BrokenAnswersAreRefusedWithThePlace) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"not json", "no JSON document"},
      {"[1, 2]", "not a JSON object"},
      {R"({"compiler": "x"})", "protocol: missing"},
      {R"({"protocol": 2, "compiler": "x"})", "protocol 2, expected 1"},
      {R"({"protocol": 1})", "compiler: missing"},
      {R"({"protocol": 1, "compiler": "x", "runs": [{"variant": "x", "shape": "s", "times_us": [1, "2"], "outputs": "o"}]})",
       "runs[0].times_us: expected an array of finite numbers"},
      {R"({"protocol": 1, "compiler": "x", "runs": [{"variant": "x", "shape": "s", "times_us": [-1], "outputs": "o"}]})",
       "runs[0].times_us: a negative time"},
      {R"({"protocol": 1, "compiler": "x", "runs": [{"variant": "x", "shape": "s"}]})",
       "runs[0]: a run without an error needs times_us and outputs"},
      {R"({"protocol": 1, "compiler": "x", "builds": [{"variant": "x", "build_s": "fast"}]})",
       "builds[0].build_s: expected a number"},
      {R"({"protocol": 1, "compiler": "x", "builds": [{"variant": "x", "trials": 1.5}]})",
       "builds[0].trials: expected an integer"},
      {R"({"protocol": 1, "compiler": "x", "available": false})", "must say how to install it"},
      {R"({"protocol": 1, "compiler": "x", "dumps": [{"kind": "xla-dump"}]})",
       "dumps[0].path: missing"},
  };
  for (const Case& test : cases) {
    auto parsed = PeerResponse::Parse(test.text);
    ASSERT_FALSE(parsed.ok()) << test.text;
    EXPECT_NE(parsed.message().find(test.expected), std::string::npos)
        << test.text << " -> " << parsed.message();
  }
}

TEST(PeerProtocolTest, RequestWithoutShapesOrWithBadDimsIsRefused) {
  EXPECT_FALSE(
      PeerRequest::Parse(
          R"({"protocol":1,"compiler":"x","model":"m","model_format":"onnx","work_dir":"w","shapes":[]})")
          .ok());
  auto bad_dim = PeerRequest::Parse(
      R"({"protocol":1,"compiler":"x","model":"m","model_format":"onnx","work_dir":"w","shapes":[{"name":"s","inputs":"i","dims":{"batch":0}}]})");
  ASSERT_FALSE(bad_dim.ok());
  EXPECT_NE(bad_dim.message().find("batch must be a positive integer"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::compare
