#include "importers/onnx/onnx_importer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "ir/verifier.h"
#include "passes/literal_value.h"
#include "passes/pipeline.h"
#include "passes/provenance_util.h"

namespace fusescope::ir::onnx_import {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Fixture(const std::string& name) {
  return std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/onnx/" + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

OnnxImportResult Import(const std::string& name, const OnnxImportOptions& options = {}) {
  StatusOr<OnnxImportResult> result = ImportOnnxFile(Fixture(name), options);
  EXPECT_TRUE(result.ok()) << result.message();
  return result.ok() ? std::move(result).value() : OnnxImportResult{};
}

std::map<std::string, int> OpcodeCounts(const Computation& computation) {
  std::map<std::string, int> counts;
  for (const auto& instruction : computation.instructions()) {
    ++counts[std::string(instruction->opcode_name())];
  }
  return counts;
}

std::vector<const Instruction*> WithOpName(const Computation& computation,
                                           const std::string& name) {
  std::vector<const Instruction*> found;
  for (const auto& instruction : computation.instructions()) {
    if (instruction->metadata().String("op_name") == name) found.push_back(instruction.get());
  }
  return found;
}

const Instruction* FirstWithOpcode(const std::vector<const Instruction*>& instructions,
                                   Opcode opcode) {
  for (const Instruction* instruction : instructions) {
    if (instruction->opcode() == opcode) return instruction;
  }
  return nullptr;
}

// Every instruction lowered from a node names the node and its op type.
void ExpectNodeMetadata(const Computation& entry) {
  for (const auto& instruction : entry.instructions()) {
    if (instruction->opcode() == Opcode::kParameter || instruction->opcode() == Opcode::kConstant ||
        instruction->opcode() == Opcode::kTuple) {
      continue;
    }
    EXPECT_FALSE(instruction->metadata().String("op_type").empty()) << instruction->name();
    EXPECT_FALSE(instruction->metadata().String("op_name").empty()) << instruction->name();
  }
}

// The MLP: Gemm -> dot + broadcast bias + add, Relu -> maximum with a broadcast zero, Softmax
// -> reduce max / subtract / exp / reduce add / divide; --dim sizes the symbolic batch.
TEST(OnnxImporterTest, MlpLowersAsXlaWouldWriteIt) {
  OnnxImportOptions options;
  options.dimension_sizes["batch"] = 4;
  OnnxImportResult result = Import("mlp.onnx", options);
  ASSERT_NE(result.module, nullptr);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings[0];
  EXPECT_TRUE(result.opaque_ops.empty());
  const Computation& entry = *result.module->entry();
  ASSERT_EQ(entry.parameter_count(), 1);
  EXPECT_EQ(entry.parameter(0)->shape().ToString(false), "f32[4,16]");
  EXPECT_EQ(entry.root()->shape().ToString(false), "f32[4,10]");
  EXPECT_EQ(entry.root()->opcode(), Opcode::kDivide);
  const auto counts = OpcodeCounts(entry);
  EXPECT_EQ(counts.at("dot"), 2);
  EXPECT_EQ(counts.at("reduce"), 2);
  EXPECT_EQ(counts.at("maximum"), 1);
  EXPECT_EQ(counts.at("exponential"), 1);
  // transB folds into the contracting dimension instead of a transpose.
  const Instruction* fc2 = FirstWithOpcode(WithOpName(entry, "fc2"), Opcode::kDot);
  ASSERT_NE(fc2, nullptr);
  EXPECT_EQ(fc2->attribute("rhs_contracting_dims"), "{1}");
  EXPECT_EQ(fc2->metadata().String("op_type"), "Gemm");
  EXPECT_EQ(counts.count("transpose"), 0u);
  // Initializers are constants with their values, not parameters.
  const Instruction* w1 = entry.FindInstruction("w1");
  ASSERT_NE(w1, nullptr);
  EXPECT_EQ(w1->opcode(), Opcode::kConstant);
  EXPECT_EQ(w1->shape().ToString(false), "f32[16,32]");
  EXPECT_NE(w1->literal(), "{...}");
  ExpectNodeMetadata(entry);
  EXPECT_TRUE(VerifyModule(*result.module).ok());
}

// Without --dim the symbolic batch becomes 1, and a warning says so and how to choose.
TEST(OnnxImporterTest, SymbolicDimensionDefaultsWithAWarning) {
  OnnxImportResult result = Import("mlp.onnx");
  ASSERT_NE(result.module, nullptr);
  EXPECT_EQ(result.module->entry()->parameter(0)->shape().ToString(false), "f32[1,16]");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_THAT(result.warnings[0], HasSubstr("'batch'"));
  EXPECT_THAT(result.warnings[0], HasSubstr("--dim batch=N"));
}

// The CNN: convolutions with dim_labels, SAME_UPPER padding (the odd pixel goes high) and
// feature groups; pooling as
// reduce-window; BatchNormalization as elementwise arithmetic.
TEST(OnnxImporterTest, CnnLowersConvolutionsAndPooling) {
  OnnxImportResult result = Import("cnn.onnx");
  ASSERT_NE(result.module, nullptr);
  const Computation& entry = *result.module->entry();
  EXPECT_EQ(entry.root()->shape().ToString(false), "f32[2,5]");
  const Instruction* conv1 = FirstWithOpcode(WithOpName(entry, "conv1"), Opcode::kConvolution);
  ASSERT_NE(conv1, nullptr);
  EXPECT_EQ(conv1->attribute("dim_labels"), "bf01_oi01->bf01");
  EXPECT_EQ(conv1->attribute("window"), "{size=3x3 pad=1_1x1_1}");
  EXPECT_EQ(conv1->shape().ToString(false), "f32[2,8,16,16]");
  const Instruction* conv2 = FirstWithOpcode(WithOpName(entry, "conv2_dw"), Opcode::kConvolution);
  ASSERT_NE(conv2, nullptr);
  EXPECT_EQ(conv2->attribute("feature_group_count"), "8");
  EXPECT_EQ(conv2->attribute("window"), "{size=3x3 stride=2x2 pad=0_1x0_1}");
  EXPECT_EQ(conv2->shape().ToString(false), "f32[2,8,4,4]");
  const Instruction* pool = FirstWithOpcode(WithOpName(entry, "pool1"), Opcode::kReduceWindow);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->attribute("window"), "{size=1x1x2x2 stride=1x1x2x2}");
  EXPECT_EQ(pool->shape().ToString(false), "f32[2,8,8,8]");
  EXPECT_NE(FirstWithOpcode(WithOpName(entry, "bn1"), Opcode::kRsqrt), nullptr);
  EXPECT_EQ(FirstWithOpcode(WithOpName(entry, "bn1"), Opcode::kBatchNormInference), nullptr);
  EXPECT_NE(FirstWithOpcode(WithOpName(entry, "gap"), Opcode::kReduce), nullptr);
  ExpectNodeMetadata(entry);
}

// The transformer block: batched dots for attention, shapes from constant Reshape targets
// (and from a Shape node), Where as select, Gelu through erf, LayerNormalization reduces.
TEST(OnnxImporterTest, TransformerBlockLowersAttention) {
  OnnxImportResult result = Import("transformer.onnx");
  ASSERT_NE(result.module, nullptr);
  const Computation& entry = *result.module->entry();
  EXPECT_EQ(entry.root()->shape().ToString(false), "f32[2,8,16]");
  const Instruction* qk = FirstWithOpcode(WithOpName(entry, "qk"), Opcode::kDot);
  ASSERT_NE(qk, nullptr);
  EXPECT_EQ(qk->attribute("lhs_batch_dims"), "{0,1}");
  EXPECT_EQ(qk->attribute("rhs_contracting_dims"), "{2}");
  EXPECT_EQ(qk->shape().ToString(false), "f32[2,2,8,8]");
  const Instruction* q_proj = FirstWithOpcode(WithOpName(entry, "q_proj"), Opcode::kDot);
  ASSERT_NE(q_proj, nullptr);
  EXPECT_EQ(q_proj->attribute("lhs_contracting_dims"), "{2}");
  EXPECT_EQ(q_proj->shape().ToString(false), "f32[2,8,16]");
  EXPECT_NE(FirstWithOpcode(WithOpName(entry, "causal_mask"), Opcode::kSelect), nullptr);
  EXPECT_NE(FirstWithOpcode(WithOpName(entry, "mlp_gelu"), Opcode::kErf), nullptr);
  const Instruction* merge = FirstWithOpcode(WithOpName(entry, "merge"), Opcode::kReshape);
  ASSERT_NE(merge, nullptr);
  EXPECT_EQ(merge->shape().ToString(false), "f32[2,8,16]");
  EXPECT_EQ(OpcodeCounts(entry).at("dot"), 8);
  ExpectNodeMetadata(entry);
}

// An op without a lowering loads as a custom-call with ONNX's inferred shapes; a weight in
// an external data file beside the model is read.
TEST(OnnxImporterTest, UnsupportedOpIsOpaqueAndExternalDataIsRead) {
  OnnxImportResult result = Import("external_topk.onnx");
  ASSERT_NE(result.module, nullptr);
  EXPECT_THAT(result.opaque_ops, ::testing::ElementsAre("TopK"));
  ASSERT_FALSE(result.warnings.empty());
  EXPECT_THAT(result.warnings.back(), HasSubstr("TopK"));
  const Computation& entry = *result.module->entry();
  const Instruction* topk = FirstWithOpcode(WithOpName(entry, "top2"), Opcode::kCustomCall);
  ASSERT_NE(topk, nullptr);
  EXPECT_EQ(topk->attribute("custom_call_target"), "\"onnx.TopK\"");
  EXPECT_EQ(topk->shape().ToString(false), "(f32[3,2], s64[3,2])");
  const Instruction* w = entry.FindInstruction("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->shape().ToString(false), "f32[4,6]");
  EXPECT_EQ(w->literal().front(), '{');
  EXPECT_NE(w->literal(), "{...}");
}

TEST(OnnxImporterTest, MissingExternalDataFileIsOneClearError) {
  const fs::path dir = fs::temp_directory_path() / ("fusescope_onnx_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(Fixture("external_topk.onnx"), dir / "model.onnx",
                fs::copy_options::overwrite_existing);
  StatusOr<OnnxImportResult> result = ImportOnnxFile((dir / "model.onnx").string());
  fs::remove_all(dir);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.message(), HasSubstr("model.onnx: initializer 'w'"));
  EXPECT_THAT(result.message(), HasSubstr("external_topk.weights' not found"));
}

TEST(OnnxImporterTest, TruncatedProtobufSaysWhere) {
  const std::string bytes = ReadBytes(Fixture("mlp.onnx"));
  ASSERT_GT(bytes.size(), 100u);
  StatusOr<OnnxImportResult> result =
      ImportOnnxBytes(std::string_view(bytes).substr(0, bytes.size() / 2), "cut.onnx", "");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.message(), HasSubstr("cut.onnx: not a valid ONNX model: "));
  EXPECT_THAT(result.message(), HasSubstr("at byte"));
  EXPECT_EQ(result.message().find('\n'), std::string::npos);
}

TEST(OnnxImporterTest, GarbageIsAnErrorNotACrash) {
  for (const std::string& bytes :
       {std::string("HloModule m\n"), std::string(64, '\xff'), std::string()}) {
    StatusOr<OnnxImportResult> result = ImportOnnxBytes(bytes, "junk.onnx", "");
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(result.message(), HasSubstr("junk.onnx: "));
  }
}

TEST(OnnxImporterTest, FileOverTheSizeLimitIsRefusedBeforeReading) {
  OnnxImportOptions options;
  options.max_file_bytes = 1000;
  StatusOr<OnnxImportResult> result = ImportOnnxFile(Fixture("mlp.onnx"), options);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.message(), HasSubstr("over the limit of 1000 bytes"));
}

TEST(OnnxImporterTest, AbsurdShapeIsRefusedBeforeAllocating) {
  StatusOr<OnnxImportResult> result = ImportOnnxFile(Fixture("absurd_shape.onnx"));
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.message(), HasSubstr("initializer 'huge'"));
  EXPECT_THAT(result.message(), HasSubstr("elements"));
}

// Large constants print elided and keep their values as bytes: the same values the text of
// a small one spells out.
TEST(OnnxImporterTest, ConstantsOverTheLiteralLimitKeepTheirBytes) {
  OnnxImportOptions as_bytes;
  as_bytes.max_literal_elements = 100;
  OnnxImportResult result = Import("mlp.onnx", as_bytes);
  ASSERT_NE(result.module, nullptr);
  const Instruction* w1 = result.module->entry()->FindInstruction("w1");
  ASSERT_NE(w1, nullptr);
  EXPECT_EQ(w1->literal(), "{...}");
  ASSERT_NE(w1->constant_bytes(), nullptr);
  EXPECT_EQ(w1->constant_bytes()->size(), w1->shape().ElementCount() * 4);
  EXPECT_NE(result.module->entry()->FindInstruction("b1")->literal(), "{...}");

  OnnxImportOptions as_text;
  as_text.max_literal_elements = int64_t{1} << 20;
  OnnxImportResult spelled = Import("mlp.onnx", as_text);
  ASSERT_NE(spelled.module, nullptr);
  const Instruction* w1_text = spelled.module->entry()->FindInstruction("w1");
  ASSERT_NE(w1_text, nullptr);
  EXPECT_EQ(w1_text->constant_bytes(), nullptr);
  std::optional<passes::LiteralValue> from_bytes = passes::LiteralValue::Of(*w1);
  std::optional<passes::LiteralValue> from_text = passes::LiteralValue::Of(*w1_text);
  ASSERT_TRUE(from_bytes && from_text);
  ASSERT_EQ(from_bytes->element_count(), from_text->element_count());
  for (int64_t i = 0; i < from_text->element_count(); ++i) {
    // The text is the shortest decimal that reads back as the same f32.
    EXPECT_EQ(static_cast<float>(from_bytes->GetDouble(i)),
              static_cast<float>(from_text->GetDouble(i)))
        << i;
  }
}

class OnnxFixtureTest : public ::testing::TestWithParam<std::string> {};

// The printed module reads back as HLO text (how `fusescope compile` hands it on), with the
// same instructions and metadata.
TEST_P(OnnxFixtureTest, PrintsAsParsableHlo) {
  OnnxImportResult result = Import(GetParam());
  ASSERT_NE(result.module, nullptr);
  const std::string text = PrintModule(*result.module);
  StatusOr<std::unique_ptr<Module>> parsed = ParseHloModule(text, GetParam());
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_TRUE(VerifyModule(**parsed).ok());
  EXPECT_EQ(PrintModule(**parsed), text);
}

// Both built-in pipelines compile every fixture with the verifier on, and every final
// instruction maps back to instructions of the import.
TEST_P(OnnxFixtureTest, CompilesWithBothPipelines) {
  for (const std::string target : {"cpu", "gpu"}) {
    OnnxImportResult result = Import(GetParam());
    ASSERT_NE(result.module, nullptr);
    std::unordered_set<int64_t> original;
    for (const auto& computation : result.module->computations()) {
      for (const auto& instruction : computation->instructions())
        original.insert(instruction->id());
    }
    passes::PipelineOptions options;
    options.target = target;
    options.verify_between_passes = true;
    StatusOr<std::unique_ptr<passes::Pipeline>> pipeline = passes::MakeBuiltinPipeline(options);
    ASSERT_TRUE(pipeline.ok()) << pipeline.message();
    Status run = (*pipeline)->Run(*result.module);
    ASSERT_TRUE(run.ok()) << target << ": " << run.message();
    EXPECT_TRUE(VerifyModule(*result.module).ok()) << target;
    Status provenance = passes::CheckProvenance(*result.module, original);
    EXPECT_TRUE(provenance.ok()) << target << ": " << provenance.message();
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OnnxFixtureTest,
                         ::testing::Values("mlp.onnx", "cnn.onnx", "transformer.onnx",
                                           "external_topk.onnx"),
                         [](const ::testing::TestParamInfo<std::string>& test) {
                           return test.param.substr(0, test.param.find('.'));
                         });

}  // namespace
}  // namespace fusescope::ir::onnx_import

namespace fusescope::ir::onnx_import {
namespace {

const char kTestdata[] = "/usr/share/libonnx-testdata/data";

// Every backend-test model of Debian's libonnx-testdata either imports into a module that
// verifies or fails with one line naming the file; none crashes.
TEST(OnnxTestdataTest, EveryModelImportsOrFailsCleanly) {
  if (!fs::is_directory(kTestdata)) GTEST_SKIP() << "libonnx-testdata is not installed";
  int imported = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kTestdata)) {
    if (entry.path().extension() != ".onnx") continue;
    const std::string path = entry.path().string();
    StatusOr<OnnxImportResult> result = ImportOnnxFile(path);
    if (!result.ok()) {
      EXPECT_EQ(result.message().rfind(path + ": ", 0), 0u) << result.message();
      EXPECT_EQ(result.message().find('\n'), std::string::npos) << result.message();
      continue;
    }
    ++imported;
    Status verified = VerifyModule(*result->module);
    EXPECT_TRUE(verified.ok()) << path << ": " << verified.message();
  }
  EXPECT_GT(imported, 900);
}

// Backend tests of the ops the importer lowers map without any opaque op. (Tests whose shape,
// starts or scales arrive as graph inputs are left out: those are only known at run time.)
TEST(OnnxTestdataTest, LoweredOpsMapFully) {
  if (!fs::is_directory(kTestdata)) GTEST_SKIP() << "libonnx-testdata is not installed";
  for (const char* test : {"node/test_conv_with_strides_and_asymmetric_padding",
                           "node/test_convtranspose_pads",
                           "node/test_gemm_all_attributes",
                           "node/test_matmul_4d",
                           "node/test_softmax_axis_0",
                           "node/test_logsoftmax_large_number",
                           "node/test_maxpool_2d_ceil",
                           "node/test_averagepool_2d_pads_count_include_pad",
                           "node/test_globalaveragepool",
                           "node/test_batchnorm_epsilon",
                           "node/test_layer_normalization_4d_axis1",
                           "node/test_gather_negative_indices",
                           "node/test_split_equal_parts_1d",
                           "node/test_where_long_example",
                           "node/test_pad",
                           "node/test_argmax_negative_axis_keepdims_example",
                           "node/test_sce_mean_weight_ii",
                           "node/test_gather_elements_negative_indices",
                           "node/test_tril",
                           "node/test_depthtospace_crd_mode",
                           "pytorch-converted/test_PReLU_2d_multiparam",
                           "pytorch-operator/test_operator_flatten"}) {
    const std::string path = std::string(kTestdata) + "/" + test + "/model.onnx";
    if (!fs::exists(path)) continue;
    StatusOr<OnnxImportResult> result = ImportOnnxFile(path);
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_TRUE(result->opaque_ops.empty()) << test << ": " << result->opaque_ops[0];
  }
}

}  // namespace
}  // namespace fusescope::ir::onnx_import

namespace fusescope::ir::onnx_import {
namespace {

// A Scan node without its body (found by the fuzzer) crashed ONNX's own shape inference; the
// checker now stops it first and the file is reported, not fatal.
TEST(OnnxImporterTest, MalformedNodeDoesNotReachOnnxShapeInference) {
  StatusOr<OnnxImportResult> result = ImportOnnxFile(Fixture("malformed_scan.onnx"));
  if (result.ok()) {
    EXPECT_THAT(result->warnings, ::testing::Contains(HasSubstr("ONNX shape inference skipped")));
  } else {
    EXPECT_THAT(result.message(), HasSubstr("malformed_scan.onnx: "));
  }
}

}  // namespace
}  // namespace fusescope::ir::onnx_import

namespace fusescope::ir::onnx_import {
namespace {

// Inputs the fuzzer found crashing (the importer, or libonnx under it) import or fail with
// one line; the process survives.
TEST(OnnxImporterTest, FuzzerRegressionsDoNotCrash) {
  const fs::path seeds = fs::path(FUSESCOPE_SOURCE_DIR) / "fuzz" / "corpus" / "onnx";
  int tried = 0;
  for (const auto& entry : fs::directory_iterator(seeds)) {
    if (entry.path().filename().string().rfind("regression-", 0) != 0) continue;
    ++tried;
    StatusOr<OnnxImportResult> result = ImportOnnxFile(entry.path().string());
    if (!result.ok()) {
      EXPECT_EQ(result.message().find('\n'), std::string::npos) << result.message();
    } else {
      EXPECT_TRUE(VerifyModule(*result->module).ok());
    }
  }
  EXPECT_GE(tried, 4);
}

}  // namespace
}  // namespace fusescope::ir::onnx_import
