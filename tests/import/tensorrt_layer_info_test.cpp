// TensorRT's exported layer information, layer profile and inference times read from the
// hand-written samples of tests/data/tensorrt (see its README) and from malformed text.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "importers/tensorrt_inference_times.h"
#include "importers/tensorrt_json.h"
#include "importers/tensorrt_layer_info.h"
#include "importers/tensorrt_layer_profile.h"

namespace fusescope::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/tensorrt/";

std::string ReadAll(const std::string& path) {
  auto text = ReadTensorRtFile(path, int64_t{1} << 30);
  EXPECT_TRUE(text.ok()) << text.message();
  return text.ok() ? *text : std::string();
}

TensorRtLayerInfo ReadInfo(const std::string& name) {
  const std::string text = ReadAll(kData + name);
  auto info = ParseTensorRtLayerInfo(text, name);
  EXPECT_TRUE(info.ok()) << info.message();
  return info.ok() ? *info : TensorRtLayerInfo();
}

std::string ErrorOf(const std::string& text, const std::string& path) {
  auto info = ParseTensorRtLayerInfo(text, path);
  EXPECT_FALSE(info.ok());
  return info.ok() ? std::string() : info.message();
}

// The detailed form: every layer with its type, tensors, tactic and the ONNX nodes of its
// Metadata, whichever separator (0x1F, 0x1E) the file uses.
TEST(TensorRtLayerInfo, ReadsTheDetailedForm) {
  const TensorRtLayerInfo info = ReadInfo("cnn.graph.json");
  EXPECT_TRUE(info.detailed);
  ASSERT_EQ(info.layers.size(), 5u);
  EXPECT_THAT(info.bindings, ElementsAre("x", "y"));
  EXPECT_THAT(info.profiles, ElementsAre(0));
  const TensorRtLayer& conv = info.layers[1];
  EXPECT_EQ(conv.name, "conv1 + bn1 + relu1");
  EXPECT_EQ(conv.type, "CaskConvolution");
  EXPECT_THAT(conv.onnx_nodes, ElementsAre("conv1", "bn1", "relu1"));
  EXPECT_THAT(conv.tactic, StartsWith("sm80_xmma_fprop_implicit_gemm"));
  ASSERT_EQ(conv.outputs.size(), 1u);
  EXPECT_EQ(conv.outputs[0].name, "r1");
  EXPECT_THAT(conv.outputs[0].dimensions, ElementsAre(2, 8, 16, 16));
  EXPECT_EQ(conv.outputs[0].location, "Device");
  EXPECT_THAT(info.layers[3].onnx_nodes, ElementsAre("conv2_dw", "relu2", "gap", "flatten", "fc"));
  EXPECT_EQ(info.layers[3].type, "Myelin");
  EXPECT_TRUE(info.layers[0].onnx_nodes.empty());  // a reformat TensorRT added
  EXPECT_EQ(info.layers[0].tactic, "0x00000000000003e8");
}

TEST(TensorRtLayerInfo, ReadsTheNamesOnlyForm) {
  const TensorRtLayerInfo info = ReadInfo("cnn_names.graph.json");
  EXPECT_FALSE(info.detailed);
  ASSERT_EQ(info.layers.size(), 5u);
  EXPECT_EQ(info.layers[1].name, "conv1 + bn1 + relu1");
  EXPECT_TRUE(info.layers[1].type.empty());
  EXPECT_TRUE(info.layers[1].inputs.empty());
}

// Layers, tensors and bindings of profile N > 0 end in " [profile N]".
TEST(TensorRtLayerInfo, TellsOptimizationProfilesApart) {
  const TensorRtLayerInfo info = ReadInfo("mlp_two_profiles.graph.json");
  EXPECT_THAT(info.profiles, ElementsAre(0, 1));
  ASSERT_EQ(info.layers.size(), 6u);
  EXPECT_EQ(info.layers[0].profile, 0);
  EXPECT_EQ(info.layers[3].profile, 1);
  EXPECT_EQ(info.layers[3].name, "fc1 + relu1 [profile 1]");
  EXPECT_THAT(info.layers[0].inputs[0].dimensions, ElementsAre(-1, 16));
  std::string base;
  EXPECT_EQ(TensorRtProfileOf("probs [profile 12]", &base), 12);
  EXPECT_EQ(base, "probs");
  EXPECT_EQ(TensorRtProfileOf("probs", &base), 0);
  EXPECT_EQ(TensorRtProfileOf("a [profile x]", nullptr), 0);
  EXPECT_EQ(TensorRtProfileOf("[profile 3]", &base), 3);
}

TEST(TensorRtLayerInfo, SplitsMetadataEntries) {
  EXPECT_THAT(TensorRtOnnxNodes("[ONNX Layer: /fc1/MatMul]\x1f[ONNX Layer: /act/Relu]"),
              ElementsAre("/fc1/MatMul", "/act/Relu"));
  EXPECT_THAT(TensorRtOnnxNodes("[ONNX Layer: a]\x1e[ONNX Layer: b]\x1e[ONNX Layer: a]"),
              ElementsAre("a", "b"));
  // Back to back without a separator, and an entry of another kind left out.
  EXPECT_THAT(TensorRtOnnxNodes("[ONNX Layer: q][ONNX Layer: k]\x1f[Other: z]"),
              ElementsAre("q", "k"));
  EXPECT_TRUE(TensorRtOnnxNodes("").empty());
}

TEST(TensorRtLayerInfo, NamesElementTypes) {
  EXPECT_EQ(TensorRtElementType("Row major linear FP32"), "f32");
  EXPECT_EQ(TensorRtElementType("Channel major FP16 format where channel % 8 == 0"), "f16");
  EXPECT_EQ(TensorRtElementType("Row major linear Int8"), "s8");
  EXPECT_EQ(TensorRtElementType("Half"), "f16");
  EXPECT_EQ(TensorRtElementType("Row major linear BF16"), "bf16");
  EXPECT_EQ(TensorRtElementType("Row major linear Bool"), "pred");
  EXPECT_EQ(TensorRtElementType("N/A due to dynamic shapes"), "");
}

TEST(TensorRtLayerInfo, IsToldByContent) {
  EXPECT_TRUE(LooksLikeTensorRtLayerInfo(ReadAll(kData + "cnn.graph.json")));
  EXPECT_TRUE(LooksLikeTensorRtLayerInfo("  {\n \"Bindings\": [], \"Layers\": []}"));
  EXPECT_FALSE(LooksLikeTensorRtLayerInfo(ReadAll(kData + "cnn.profile.json")));
  EXPECT_FALSE(LooksLikeTensorRtLayerInfo("{\"traceEvents\": []}"));
  EXPECT_FALSE(LooksLikeTensorRtLayerInfo(""));
}

// Raw separator bytes (strict JSON refuses them in a string) are read, and a later error still
// names its place in the file as written.
TEST(TensorRtLayerInfo, ReadsRawSeparators) {
  const std::string text =
      "{\"Layers\": [{\"Name\": \"a + b\", \"Metadata\": \"[ONNX Layer: a]\x1f[ONNX Layer: b]\"},\n"
      "             {\"Name\": \"c\", \"Metadata\": \"[ONNX Layer: c]\"}]}";
  auto info = ParseTensorRtLayerInfo(text, "raw.json");
  ASSERT_TRUE(info.ok()) << info.message();
  EXPECT_THAT(info->layers[0].onnx_nodes, ElementsAre("a", "b"));
  const std::string broken =
      "{\"Layers\": [{\"Name\": \"a\", \"Metadata\": \"[ONNX Layer: a]\x1f[ONNX Layer: b]\"},\n"
      "  {\"Name\": 7}]}";
  EXPECT_EQ(ErrorOf(broken, "raw.json"), "raw.json:2:12: a layer needs a \"Name\" string");
}

TEST(TensorRtLayerInfo, MalformedFilesSayWhere) {
  const std::string dir = kData + "malformed/";
  EXPECT_THAT(ErrorOf(ReadAll(dir + "truncated.graph.json"), "truncated.graph.json"),
              StartsWith("truncated.graph.json:29:"));
  EXPECT_EQ(ErrorOf(ReadAll(dir + "layer_without_name.graph.json"), "f.json"),
            "f.json:9:5: a layer needs a \"Name\" string");
  EXPECT_EQ(ErrorOf(ReadAll(dir + "bad_dimensions.graph.json"), "f.json"),
            "f.json:7:57: a dimension should be an integer >= -1 (-1: dynamic)");
  EXPECT_THAT(ErrorOf(ReadAll(dir + "mixed_forms.graph.json"), "f.json"),
              AllOf(StartsWith("f.json:2:13: "), HasSubstr("names-only form")));
  EXPECT_THAT(ErrorOf("[1, 2]", "f.json"),
              StartsWith("f.json:1:1: not TensorRT layer information"));
  EXPECT_EQ(ErrorOf("{\"Layers\": 3}", "f.json"), "f.json:1:12: \"Layers\" should be an array");
  EXPECT_EQ(
      ErrorOf(
          "{\"Layers\": [{\"Name\": \"a\", \"Inputs\": [{\"Name\": \"t\", \"Dimensions\": 4}]}]}",
          "f.json"),
      "f.json:1:66: \"Dimensions\" should be an array");
  EXPECT_EQ(ErrorOf("{\"Layers\": [], \"Bindings\": [1]}", "f.json"),
            "f.json:1:29: a binding should be a tensor name");
  EXPECT_THAT(ErrorOf("", "f.json"), StartsWith("f.json:1:1: "));
  EXPECT_EQ(ErrorOf("{\"Layers\": [{\"Name\": \"a\", \"Outputs\": [{\"Name\": \"t\", "
                    "\"Dimensions\": [100000000, 100000000, 100]}]}]}",
                    "f.json"),
            "f.json:1:67: the tensor would hold more than 2^48 elements");
}

TEST(TensorRtLayerProfile, ReadsTimes) {
  const std::string text = ReadAll(kData + "cnn.profile.json");
  auto profile = ParseTensorRtLayerProfile(text, "cnn.profile.json");
  ASSERT_TRUE(profile.ok()) << profile.message();
  EXPECT_EQ(profile->count, 1000);
  ASSERT_EQ(profile->layers.size(), 5u);
  const TensorRtLayerTime& conv = profile->layers[1];
  EXPECT_EQ(conv.name, "conv1 + bn1 + relu1");
  EXPECT_DOUBLE_EQ(conv.total_ms, 12.1);
  EXPECT_DOUBLE_EQ(conv.average_ms, 0.0121);
  EXPECT_DOUBLE_EQ(conv.median_ms, 0.0118);
  EXPECT_TRUE(conv.has_median);
  EXPECT_DOUBLE_EQ(conv.percentage, 24.6436);
}

// TensorRT before 8.4 wrote no median: the mean stands in, and says so.
TEST(TensorRtLayerProfile, WithoutMedianTakesTheMean) {
  auto profile = ParseTensorRtLayerProfile(
      "[{\"count\": 4}, {\"name\": \"a\", \"timeMs\": 0.4, \"averageMs\": 0.1, \"percentage\": "
      "100}]",
      "p.json");
  ASSERT_TRUE(profile.ok()) << profile.message();
  EXPECT_FALSE(profile->layers[0].has_median);
  EXPECT_DOUBLE_EQ(profile->layers[0].median_ms, 0.1);
}

TEST(TensorRtLayerProfile, MalformedFilesSayWhere) {
  auto bad =
      ParseTensorRtLayerProfile(ReadAll(kData + "malformed/bad_time.profile.json"), "p.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "p.json:4:29: \"timeMs\" should be a finite number");
  auto object = ParseTensorRtLayerProfile("{\"count\": 1}", "p.json");
  ASSERT_FALSE(object.ok());
  EXPECT_THAT(object.message(), StartsWith("p.json:1:1: not a TensorRT layer profile"));
  auto neither = ParseTensorRtLayerProfile("[{\"count\": 1},\n {\"time\": 2}]", "p.json");
  ASSERT_FALSE(neither.ok());
  EXPECT_EQ(neither.message(),
            "p.json:2:2: a profile record needs \"name\" (a layer) or \"count\"");
  auto negative = ParseTensorRtLayerProfile("[{\"name\": \"a\", \"timeMs\": -1}]", "p.json");
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.message(), "p.json:1:2: layer \"a\" has a negative time");
}

TEST(TensorRtInferenceTimes, ReadsEveryInference) {
  const std::string text = ReadAll(kData + "cnn.times.json");
  auto times = ParseTensorRtInferenceTimes(text, "cnn.times.json");
  ASSERT_TRUE(times.ok()) << times.message();
  ASSERT_EQ(times->inferences.size(), 20u);
  const TensorRtInference& first = times->inferences[0];
  EXPECT_DOUBLE_EQ(first.latency_ms, 0.0712);
  EXPECT_NEAR(first.h2d_ms + first.compute_ms + first.d2h_ms, 0.0712, 1e-9);
  EXPECT_DOUBLE_EQ(first.start_ms, 105.25);
  EXPECT_DOUBLE_EQ(times->inferences[9].latency_ms, 0.0956);
}

// Older trtexec: the copies are "in"/"out" and compute time is only given by its ends.
TEST(TensorRtInferenceTimes, ReadsTheOlderNames) {
  auto times = ParseTensorRtInferenceTimes(
      "[{\"startComputeMs\": 2.0, \"endComputeMs\": 2.5, \"inMs\": 0.1, \"outMs\": 0.2, "
      "\"latencyMs\": 0.8}]",
      "t.json");
  ASSERT_TRUE(times.ok()) << times.message();
  EXPECT_DOUBLE_EQ(times->inferences[0].compute_ms, 0.5);
  EXPECT_DOUBLE_EQ(times->inferences[0].h2d_ms, 0.1);
  EXPECT_DOUBLE_EQ(times->inferences[0].d2h_ms, 0.2);
  EXPECT_DOUBLE_EQ(times->inferences[0].start_ms, 2.0);
}

TEST(TensorRtInferenceTimes, MalformedFilesSayWhere) {
  auto missing = ParseTensorRtInferenceTimes(
      ReadAll(kData + "malformed/missing_latency.times.json"), "t.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "t.json:3:3: an inference needs \"latencyMs\"");
  auto text = ParseTensorRtInferenceTimes("[{\"latencyMs\": \"1\"}]", "t.json");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.message(), "t.json:1:16: \"latencyMs\" should be a finite number");
  auto syntax = ParseTensorRtInferenceTimes("[{\"latencyMs\": 1,}]", "t.json");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.message(), "t.json:1:18: expected an object key");
}

}  // namespace
}  // namespace fusescope::ir
