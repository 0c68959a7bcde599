// ONNX Runtime's optimized model read as the nodes of its final graph, each answering for the
// model's nodes it replaced, and recorded as one pass from the model. The file is what ORT 1.32
// wrote for tests/data/compare/bert.onnx (optimized_model_filepath, ORT_ENABLE_ALL), with the
// initializers' values removed: only the graph's structure is read.
#ifdef FUSESCOPE_HAVE_ONNX

#include "importers/onnx/ort_optimized_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "importers/onnx/onnx_importer.h"
#include "importers/tensorrt_engine_importer.h"

namespace fusescope::ir::onnx_import {
namespace {

const std::string kModel = FUSESCOPE_SOURCE_DIR "/tests/data/compare/bert.onnx";
const std::string kOptimized =
    FUSESCOPE_SOURCE_DIR "/tests/data/onnx/ort_optimized/bert.optimized.weightless.onnx";

std::map<std::string, std::vector<std::string>> NodesOf(const TensorRtLayerInfo& info) {
  std::map<std::string, std::vector<std::string>> nodes;
  for (const TensorRtLayer& layer : info.layers) nodes[layer.name] = layer.onnx_nodes;
  return nodes;
}

// What each of ORT's fusions replaced, from the model's structure: a SkipLayerNormalization is
// the bias add, the residual add and the LayerNormalization after a projection; a FusedMatMul
// a MatMul with the scale ORT folded into it (the attention scale, GELU's 0.5).
TEST(OrtOptimizedGraphTest, EachFusedNodeAnswersForTheNodesItReplaced) {
  auto info = ReadOrtOptimizedGraph(kOptimized, kModel);
  ASSERT_TRUE(info.ok()) << info.message();
  EXPECT_EQ(info->layers.size(), 27u);
  auto nodes = NodesOf(*info);
  using testing::UnorderedElementsAre;
  EXPECT_THAT(nodes["SkipLayerNormalization"],
              UnorderedElementsAre("attn_out_bias", "attn_residual", "attn_norm"));
  EXPECT_THAT(nodes["SkipLayerNormalization_token_0"],
              UnorderedElementsAre("ffn_down_bias", "ffn_residual", "ffn_norm"));
  EXPECT_THAT(nodes["attn_scores/MatMulScaleFusion/"],
              UnorderedElementsAre("attn_scores", "attn_scale_mul"));
  EXPECT_THAT(nodes["ffn_down_matmul/MatMulScaleFusion/"],
              UnorderedElementsAre("ffn_down_matmul", "gelu_half"));
  // A node ORT left alone answers for itself.
  EXPECT_THAT(nodes["q_matmul"], UnorderedElementsAre("q_matmul"));
  for (const TensorRtLayer& layer : info->layers) {
    if (layer.name == "SkipLayerNormalization") {
      EXPECT_EQ(layer.type, "com.microsoft.SkipLayerNormalization");
      // The weights (gamma, beta, the bias) are no inputs: the projection and the residual.
      ASSERT_EQ(layer.inputs.size(), 2u);
      EXPECT_EQ(layer.inputs[0].name, "attn_out_matmul");
      EXPECT_EQ(layer.inputs[1].name, "x");
    }
  }
  // ORT removed the model's final Identity (`y`): its graph's output is the norm's tensor.
  EXPECT_EQ(info->bindings, (std::vector<std::string>{"x", "ffn_norm"}));
  EXPECT_EQ(nodes.count("y"), 0u);
}

TEST(OrtOptimizedGraphTest, RecordedAsOnePassFromTheModel) {
  auto info = ReadOrtOptimizedGraph(kOptimized, kModel);
  ASSERT_TRUE(info.ok()) << info.message();
  OnnxImportOptions import_options;
  import_options.dimension_sizes = {{"batch", 1}, {"seq", 32}};
  auto model = ImportOnnxFile(kModel, import_options);
  ASSERT_TRUE(model.ok()) << model.message();
  LayerGraphRecordOptions options;
  options.compiler = "onnxruntime";
  options.pass_name = "onnxruntime-graph-optimizations";
  options.target_prefix = "onnxruntime.";
  options.model_name = "bert";
  options.model_path = kModel;
  options.onnx_model = model->module.get();
  auto recorded = RecordLayerGraph(*info, options);
  ASSERT_TRUE(recorded.ok()) << recorded.message();
  EXPECT_EQ(recorded->layers, 27);
  EXPECT_EQ(recorded->fused_layers, 4);
  ASSERT_EQ(recorded->recording.passes.size(), 1u);
  EXPECT_EQ(recorded->recording.passes[0].name, "onnxruntime-graph-optimizations");
  ASSERT_EQ(recorded->recording.snapshots.size(), 2u);
  EXPECT_TRUE(recorded->recording.imported);
  // The engine side names ORT's op types under its prefix.
  bool found = false;
  for (const auto& computation : recorded->recording.snapshots[1].computations())
    for (const auto& instruction : computation->instructions)
      if (instruction->name == "SkipLayerNormalization") found = true;
  EXPECT_TRUE(found);
}

TEST(OrtOptimizedGraphTest, BadFilesAreOneLineNamingTheFile) {
  auto missing = ReadOrtOptimizedGraph("/nonexistent/opt.onnx", kModel);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("/nonexistent/opt.onnx: cannot read"), std::string::npos)
      << missing.message();
  auto not_onnx = ReadOrtOptimizedGraph(kOptimized, FUSESCOPE_SOURCE_DIR "/README.md");
  ASSERT_FALSE(not_onnx.ok());
  EXPECT_NE(not_onnx.message().find("README.md"), std::string::npos) << not_onnx.message();
  EXPECT_EQ(not_onnx.message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace fusescope::ir::onnx_import

#endif  // FUSESCOPE_HAVE_ONNX
