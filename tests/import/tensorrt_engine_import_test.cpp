// A TensorRT engine's exports (tests/data/tensorrt, hand-written in TensorRT's layout) imported
// as a recording: the engine graph, each layer's ONNX nodes, its times as a stored profile.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "ir/hlo_parser.h"
#include "importers/tensorrt_engine_graph.h"
#include "importers/tensorrt_engine_importer.h"
#include "ir/instruction.h"
#include "profiler/attribution.h"
#include "profiler/profile_store.h"
#include "profiler/statistics.h"
#include "profiler/tensorrt_profile.h"
#include "recording/recording_store.h"

namespace fusescope::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/tensorrt/";

// cnn.onnx as far as the engine needs it: instructions carrying the ONNX node names as
// op_name, conv1 lowered to two of them as the ONNX importer lowers a Conv with bias.
constexpr char kCnnModel[] = R"(HloModule cnn
ENTRY main {
  x = f32[4] parameter(0)
  conv = f32[4] negate(x), metadata={op_type="Conv" op_name="conv1"}
  bias = f32[4] add(conv, conv), metadata={op_type="Conv" op_name="conv1"}
  bn = f32[4] negate(bias), metadata={op_type="BatchNormalization" op_name="bn1"}
  relu = f32[4] negate(bn), metadata={op_type="Relu" op_name="relu1"}
  ROOT pool = f32[4] negate(relu), metadata={op_type="MaxPool" op_name="pool1"}
}
)";

std::unique_ptr<Module> CnnModel() {
  auto module = ParseHloModule(kCnnModel, "cnn.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

TensorRtImport Import(const std::string& name, TensorRtImportOptions options = {}) {
  auto imported = ImportTensorRtEngine(kData + name, options);
  EXPECT_TRUE(imported.ok()) << imported.message();
  return imported.ok() ? std::move(imported).value() : TensorRtImport();
}

const Instruction* Find(const Module& module, std::string_view name) {
  const Instruction* found = module.FindInstruction(name);
  EXPECT_NE(found, nullptr) << name;
  return found;
}

// The input instructions' op_names a node answers for.
std::set<std::string> OnnxNamesOf(const Instruction& node, const Module& input) {
  std::set<std::string> names;
  for (int64_t id : node.provenance().ids()) {
    if (const Instruction* original = input.FindInstructionById(id)) {
      names.insert(original->metadata().String("op_name"));
    }
  }
  return names;
}

std::vector<std::string> OperandNames(const Instruction& node) {
  std::vector<std::string> names;
  for (const Instruction* operand : node.operands()) names.push_back(operand->name());
  return names;
}

// A folder of this process's own, removed at the end of the test.
class TempFolder {
 public:
  TempFolder() {
    path_ = std::filesystem::temp_directory_path() /
            ("fusescope_tensorrt_" + std::to_string(getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// One layer per node, edges from tensor names, shapes from Dimensions and Format/Datatype, the
// bindings as parameter and root.
TEST(TensorRtEngineGraph, BuildsTheEngineGraph) {
  const TensorRtImport imported = Import("cnn.graph.json");
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  const Module& engine = *imported.graph.engine;
  ASSERT_EQ(imported.graph.layers.size(), 5u);
  EXPECT_EQ(imported.graph.edges, 4);
  EXPECT_EQ(imported.graph.engine_inputs, 1);
  EXPECT_EQ(imported.graph.engine_outputs, 1);
  const Instruction* conv = Find(engine, "conv1_bn1_relu1");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(conv->attribute("custom_call_target"), "\"tensorrt.CaskConvolution\"");
  EXPECT_EQ(conv->shape().ToString(false), "f16[2,8,16,16]");
  EXPECT_EQ(conv->metadata().String("op_name"), "conv1 + bn1 + relu1");
  EXPECT_EQ(conv->metadata().String("op_type"), "CaskConvolution");
  EXPECT_THAT(OperandNames(*conv),
              ElementsAre("Reformatting_CopyNode_for_Input_Tensor_0_to_conv1_bn1_relu1"));
  const Instruction* pool = Find(engine, "pool1");
  ASSERT_NE(pool, nullptr);
  EXPECT_THAT(OperandNames(*pool), ElementsAre("conv1_bn1_relu1"));
  const Instruction* x = Find(engine, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->opcode(), Opcode::kParameter);
  EXPECT_EQ(x->shape().ToString(false), "f32[2,3,16,16]");
  const Instruction* root = engine.entry()->root();
  EXPECT_EQ(root->metadata().String("op_name"),
            "Reformatting CopyNode for Output Tensor 0 to {ForeignNode[conv2_dw...fc]}");
  EXPECT_EQ(root->shape().ToString(false), "f32[2,5]");
  EXPECT_EQ(imported.graph.tensors_without_shape, 0);
}

// Without the ONNX model, the input holds one node per ONNX node the Metadata names, and each
// layer answers for those it holds: the conv layer for 3, the Myelin layer for 5, a reformat
// TensorRT added for none.
TEST(TensorRtEngineGraph, LinksLayersToTheirOnnxNodes) {
  const TensorRtImport imported = Import("cnn.graph.json");
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  const Module& input = *imported.graph.input;
  const Module& engine = *imported.graph.engine;
  EXPECT_EQ(input.entry()->instruction_count(), 10);  // 9 ONNX nodes and the root tuple
  EXPECT_EQ(imported.graph.fused_layers, 2);
  EXPECT_EQ(imported.graph.onnx_nodes_linked, 9);
  EXPECT_THAT(OnnxNamesOf(*Find(engine, "conv1_bn1_relu1"), input),
              UnorderedElementsAre("conv1", "bn1", "relu1"));
  EXPECT_THAT(OnnxNamesOf(*Find(engine, "ForeignNode_conv2_dw...fc"), input),
              UnorderedElementsAre("conv2_dw", "relu2", "gap", "flatten", "fc"));
  EXPECT_TRUE(OnnxNamesOf(*engine.entry()->root(), input).empty());
  EXPECT_EQ(imported.graph.layers[1].onnx_nodes_linked.size(), 3u);
  // No engine node shares an id with an input node.
  for (const auto& instruction : engine.entry()->instructions()) {
    EXPECT_EQ(input.FindInstructionById(instruction->id()), nullptr) << instruction->name();
  }
}

// With the model, a layer answers for every instruction its ONNX nodes were lowered to; nodes
// the model lacks are counted and warned about.
TEST(TensorRtEngineGraph, LinksToTheOnnxModel) {
  const std::unique_ptr<Module> model = CnnModel();
  TensorRtImportOptions options;
  options.onnx_model = model.get();
  const TensorRtImport imported = Import("cnn.graph.json", options);
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  const Instruction* conv = Find(*imported.graph.engine, "conv1_bn1_relu1");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->provenance().size(), 4u);  // conv1 twice, bn1, relu1
  EXPECT_THAT(OnnxNamesOf(*conv, *imported.graph.input),
              UnorderedElementsAre("conv1", "bn1", "relu1"));
  EXPECT_EQ(imported.graph.onnx_nodes_linked, 4);
  EXPECT_THAT(imported.graph.onnx_nodes_missing,
              ElementsAre("conv2_dw", "relu2", "gap", "flatten", "fc"));
  bool warned = false;
  for (const std::string& warning : imported.warnings) {
    warned |=
        warning.find("5 ONNX node(s) named in the layers' Metadata are not in the ONNX model") !=
        std::string::npos;
  }
  EXPECT_TRUE(warned);
}

// Names only: nodes without edges or shapes, said in a warning; with the model, a fused
// layer's name ("conv1 + bn1 + relu1") still links it to the model's nodes.
TEST(TensorRtEngineGraph, NamesOnlyFormHasNodesByName) {
  const TensorRtImport bare = Import("cnn_names.graph.json");
  ASSERT_TRUE(bare.graph.engine && bare.graph.input);
  EXPECT_EQ(bare.graph.layers.size(), 5u);
  EXPECT_EQ(bare.graph.edges, 0);
  EXPECT_EQ(bare.graph.onnx_nodes_linked, 0);
  const Module& engine = *bare.graph.engine;
  EXPECT_EQ(engine.entry()->root()->operand_count(), 5);
  EXPECT_EQ(Find(engine, "pool1")->operand_count(), 0);
  bool warned = false;
  for (const std::string& warning : bare.warnings) {
    warned |= warning.find("without --profilingVerbosity=detailed") != std::string::npos;
  }
  EXPECT_TRUE(warned);

  const std::unique_ptr<Module> model = CnnModel();
  TensorRtImportOptions options;
  options.onnx_model = model.get();
  const TensorRtImport linked = Import("cnn_names.graph.json", options);
  ASSERT_TRUE(linked.graph.engine && linked.graph.input);
  EXPECT_THAT(OnnxNamesOf(*Find(*linked.graph.engine, "conv1_bn1_relu1"), *linked.graph.input),
              UnorderedElementsAre("conv1", "bn1", "relu1"));
  EXPECT_THAT(OnnxNamesOf(*Find(*linked.graph.engine, "pool1"), *linked.graph.input),
              UnorderedElementsAre("pool1"));
  EXPECT_EQ(linked.graph.fused_layers, 1);
}

// Two optimization profiles: profile 0 by default, the one the layer profile names when there
// is one, another on request; each built from its own layers, names without the suffix.
TEST(TensorRtEngineGraph, KeepsOptimizationProfilesApart) {
  TensorRtImportOptions no_profile;
  no_profile.find_beside = false;
  const TensorRtImport first = Import("mlp_two_profiles.graph.json", no_profile);
  ASSERT_TRUE(first.graph.engine && first.graph.input);
  EXPECT_EQ(first.profile, 0);
  EXPECT_EQ(first.graph.layers.size(), 3u);
  const Instruction* fc1 = Find(*first.graph.engine, "fc1_relu1");
  ASSERT_NE(fc1, nullptr);
  EXPECT_EQ(fc1->metadata().String("op_name"), "fc1 + relu1");
  EXPECT_EQ(fc1->shape().ToString(false), "f32[?,32]");

  const TensorRtImport profiled = Import("mlp_two_profiles.graph.json");  // profile beside it
  EXPECT_EQ(profiled.profile, 1);
  ASSERT_TRUE(profiled.graph.engine && profiled.graph.input);
  EXPECT_EQ(profiled.graph.layers.size(), 3u);
  const Instruction* fc1_p1 = Find(*profiled.graph.engine, "fc1_relu1");
  ASSERT_NE(fc1_p1, nullptr);
  EXPECT_EQ(fc1_p1->metadata().String("op_name"), "fc1 + relu1 [profile 1]");
  EXPECT_THAT(OperandNames(*fc1_p1), ElementsAre("x"));
  EXPECT_EQ(profiled.node_times.size(), 3u);
  EXPECT_TRUE(profiled.unmatched_layers.empty());

  TensorRtImportOptions chosen;
  chosen.profile = 0;
  chosen.find_beside = false;
  EXPECT_EQ(Import("mlp_two_profiles.graph.json", chosen).profile, 0);
  chosen.profile = 2;
  auto missing = ImportTensorRtEngine(kData + "mlp_two_profiles.graph.json", chosen);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("no layer of optimization profile 2 (it has 0, 1)"));
}

// One pass, TensorRT's build: the input, then the engine; both snapshots parse back, and the
// recording survives SQLite.
TEST(TensorRtEngineImport, RecordsTheBuildAsOnePass) {
  TempFolder folder;
  const TensorRtImport imported = Import("cnn.graph.json");
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  const recording::Recording& recording = imported.recording;
  ASSERT_EQ(recording.snapshots.size(), 2u);
  ASSERT_EQ(recording.passes.size(), 1u);
  EXPECT_EQ(recording.passes[0].name, "tensorrt-engine-build");
  EXPECT_TRUE(recording.passes[0].changed);
  EXPECT_TRUE(recording.imported);
  EXPECT_EQ(recording.model_name, "cnn");
  ASSERT_TRUE(recording::SaveRecording(recording, folder / "run.fsdb").ok());
  auto loaded = recording::LoadRecording(folder / "run.fsdb");
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  for (const recording::Snapshot& snapshot : loaded->snapshots) {
    auto module = snapshot.ToModule();
    ASSERT_TRUE(module.ok()) << module.message() << "\n" << snapshot.Text();
  }
  const recording::InstructionRecord* conv =
      loaded->snapshots[1].FindInstruction("conv1_bn1_relu1");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->provenance().size(), 3u);
}

// Layer times matched by TensorRT's name, stored as a profile of the engine snapshot whose
// runs are the timed inferences; through provenance the fused layers' time reaches their ONNX
// nodes.
TEST(TensorRtEngineImport, StoresTimesAsAProfile) {
  TempFolder folder;
  const TensorRtImport imported = Import("cnn.graph.json");  // profile and times beside it
  EXPECT_THAT(imported.profile_path, HasSubstr("cnn.profile.json"));
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  EXPECT_THAT(imported.times_path, HasSubstr("cnn.times.json"));
  ASSERT_EQ(imported.node_times.size(), 5u);
  EXPECT_EQ(imported.node_times[1].instruction_name, "conv1_bn1_relu1");
  EXPECT_DOUBLE_EQ(imported.node_times[1].median_ms, 0.0118);

  auto profile = profiler::TensorRtProfile(imported, "cnn.profile.json");
  ASSERT_TRUE(profile.has_value());
  EXPECT_EQ(profile->snapshot_index, 1);
  const profiler::SampleSummary latency = profiler::Summarize(profile->run_latency_us);
  EXPECT_EQ(latency.count, 20);
  EXPECT_NEAR(latency.median, 70.35, 1e-9);
  EXPECT_NEAR(latency.p95, 74.225, 1e-9);
  EXPECT_NEAR(latency.p99, 91.325, 1e-9);
  ASSERT_EQ(profile->kernels.size(), 5u);
  const profiler::KernelTime& hottest = profile->kernels.front();
  EXPECT_EQ(hottest.name, "ForeignNode_conv2_dw...fc");
  EXPECT_THAT(hottest.samples_us, ElementsAre(::testing::DoubleNear(25.9, 1e-9)));
  EXPECT_NEAR(hottest.total_us, 26.2 * 20, 1e-9);  // mean per inference over 20 runs

  const std::string path = folder / "run.fsdb";
  ASSERT_TRUE(recording::SaveRecording(imported.recording, path).ok());
  auto id = profiler::AddProfile(path, *profile);
  ASSERT_TRUE(id.ok()) << id.message();
  auto stored = profiler::LoadProfiles(path);
  ASSERT_TRUE(stored.ok()) << stored.message();
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_EQ(stored->front().kernels.size(), 5u);
  EXPECT_EQ(stored->front().run_latency_us.size(), 20u);

  auto attribution = profiler::AttributeToOriginals(imported.recording, stored->front());
  ASSERT_TRUE(attribution.ok()) << attribution.message();
  EXPECT_EQ(attribution->kernels_attributed, 3);  // the two reformats answer for nothing
  EXPECT_EQ(attribution->kernels_without_provenance.size(), 2u);
  const Module& input = *imported.graph.input;
  double conv_nodes_us = 0;
  for (const auto& [id_, micros] : attribution->original_us) {
    const std::string name = input.FindInstructionById(id_)->metadata().String("op_name");
    if (name == "conv1" || name == "bn1" || name == "relu1") conv_nodes_us += micros;
  }
  EXPECT_NEAR(conv_nodes_us, 12.1 * 20, 1e-6);
}

// Without inference times a kernel's total is TensorRT's own, so shares are its percentages.
TEST(TensorRtEngineImport, WithoutTimesSharesAreTensorRtsPercentages) {
  TensorRtImportOptions options;
  options.find_beside = false;
  options.profile_path = kData + "cnn.profile.json";
  const TensorRtImport imported = Import("cnn_names.graph.json", options);
  ASSERT_TRUE(imported.graph.engine && imported.graph.input);
  EXPECT_EQ(imported.node_times.size(), 5u);
  auto profile = profiler::TensorRtProfile(imported, "p");
  ASSERT_TRUE(profile.has_value());
  EXPECT_TRUE(profile->run_latency_us.empty());
  EXPECT_NEAR(profile->kernels.front().share, 0.533605, 1e-5);
  EXPECT_NEAR(profile->kernels.front().total_us, 26200, 1e-6);
  TensorRtImportOptions none;
  none.find_beside = false;
  EXPECT_FALSE(profiler::TensorRtProfile(Import("cnn.graph.json", none), "p").has_value());
}

TEST(TensorRtEngineImport, RefusesAProfileOfAnotherEngine) {
  TensorRtImportOptions options;
  options.profile_path = kData + "mlp_two_profiles.profile.json";
  auto imported = ImportTensorRtEngine(kData + "cnn.graph.json", options);
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.message(), HasSubstr("most layers of this profile are not in the engine"));
}

TEST(TensorRtEngineImport, MalformedCompanionsSayWhere) {
  TensorRtImportOptions options;
  options.profile_path = kData + "malformed/bad_time.profile.json";
  auto bad_profile = ImportTensorRtEngine(kData + "mlp_two_profiles.graph.json", options);
  ASSERT_FALSE(bad_profile.ok());
  EXPECT_THAT(bad_profile.message(), HasSubstr("bad_time.profile.json:4:29: "));
  options.profile_path.clear();
  options.times_path = kData + "malformed/missing_latency.times.json";
  auto bad_times = ImportTensorRtEngine(kData + "cnn.graph.json", options);
  ASSERT_FALSE(bad_times.ok());
  EXPECT_THAT(bad_times.message(), HasSubstr("missing_latency.times.json:3:3: "));
  auto missing = ImportTensorRtEngine(kData + "no_such.graph.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("no_such.graph.json: cannot read"));
}

// Whatever the file is called, the recording's snapshots parse back.
TEST(TensorRtEngineImport, AnyFileNameMakesParsableSnapshots) {
  TempFolder folder;
  const std::string path = folder / "my engine (fp16).graph.json";
  std::filesystem::copy_file(kData + "cnn.graph.json", path);
  auto imported = ImportTensorRtEngine(path);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(imported->recording.model_name, "my engine (fp16)");
  for (const recording::Snapshot& snapshot : imported->recording.snapshots) {
    auto module = snapshot.ToModule();
    EXPECT_TRUE(module.ok()) << module.message();
  }
}

TEST(TensorRtEngineImport, ModelNameComesFromTheFileName) {
  EXPECT_EQ(TensorRtModelName("/a/b/resnet50.graph.json"), "resnet50");
  EXPECT_EQ(TensorRtModelName("layers.json"), "layers");
  EXPECT_EQ(TensorRtModelName("/a/engine.layers.json"), "engine");
}

}  // namespace
}  // namespace fusescope::ir
