// Imported models run through the reference interpreter on ONNX's own test inputs and
// compared with the outputs stored beside them (the backend tests' test_data_set_0 layout):
// the lowerings whose results the constant evaluator cannot compute (gathers, iotas, shapes
// computed from other shapes), on backend tests of libonnx-testdata and on a fixture shaped as
// torch's exporters write a transformer's embeddings.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "importers/onnx/onnx_importer.h"
#include "passes/literal_value.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/literal.h"

namespace fusescope::ir::onnx_import {
namespace {

namespace fs = std::filesystem;
using runtime::Literal;

std::optional<Literal> ReadTensorLiteral(const std::string& path) {
  StatusOr<OnnxTensorLiteral> tensor = ReadOnnxTensorFile(path);
  EXPECT_TRUE(tensor.ok()) << tensor.message();
  if (!tensor.ok()) return std::nullopt;
  std::optional<passes::LiteralValue> value =
      passes::LiteralValue::Parse(tensor->literal, tensor->shape);
  EXPECT_TRUE(value.has_value()) << path;
  StatusOr<Literal> literal = Literal::Create(tensor->shape);
  EXPECT_TRUE(literal.ok()) << literal.message();
  if (!value || !literal.ok()) return std::nullopt;
  for (int64_t i = 0; i < value->element_count(); ++i) {
    if (value->is_floating()) {
      literal->SetDouble(i, value->GetDouble(i));
    } else {
      literal->SetInt(i, value->GetInt(i));
    }
  }
  return std::move(literal).value();
}

void ExpectClose(const Literal& actual, const Literal& expected, const std::string& what) {
  ASSERT_EQ(actual.shape().dimensions(), expected.shape().dimensions()) << what;
  for (int64_t i = 0; i < expected.element_count(); ++i) {
    if (expected.is_floating()) {
      const double want = expected.GetDouble(i);
      EXPECT_NEAR(actual.GetDouble(i), want, 1e-5 + 1e-5 * std::fabs(want))
          << what << " element " << i;
    } else {
      EXPECT_EQ(actual.GetInt(i), expected.GetInt(i)) << what << " element " << i;
    }
  }
}

// Imports DIR/model.onnx, runs it on DIR/test_data_set_0/input_N.pb and compares each output
// with output_N.pb.
void RunAndCompare(const fs::path& dir, const OnnxImportOptions& options) {
  StatusOr<OnnxImportResult> result = ImportOnnxFile((dir / "model.onnx").string(), options);
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_TRUE(result->opaque_ops.empty()) << result->opaque_ops.front();
  const fs::path data = dir / "test_data_set_0";
  std::vector<Literal> inputs;
  for (int64_t i = 0; i < result->module->entry()->parameter_count(); ++i) {
    std::optional<Literal> input =
        ReadTensorLiteral((data / ("input_" + std::to_string(i) + ".pb")).string());
    ASSERT_TRUE(input.has_value());
    inputs.push_back(std::move(*input));
  }
  runtime::Interpreter interpreter;
  StatusOr<Literal> run = interpreter.Run(*result->module, std::move(inputs));
  ASSERT_TRUE(run.ok()) << run.message();
  std::vector<const Literal*> outputs;
  if (run->is_tuple()) {
    for (const Literal& element : run->elements()) outputs.push_back(&element);
  } else {
    outputs.push_back(&*run);
  }
  int64_t compared = 0;
  for (size_t i = 0; fs::exists(data / ("output_" + std::to_string(i) + ".pb")); ++i) {
    ASSERT_LT(i, outputs.size()) << "more expected outputs than the module has";
    std::optional<Literal> expected =
        ReadTensorLiteral((data / ("output_" + std::to_string(i) + ".pb")).string());
    ASSERT_TRUE(expected.has_value());
    ExpectClose(*outputs[i], *expected, "output " + std::to_string(i));
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int64_t>(outputs.size()));
}

class OnnxInterpretedNodeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxInterpretedNodeTest, MatchesOnnxOutputs) {
  const fs::path dir = fs::path("/usr/share/libonnx-testdata/data/node") / GetParam();
  if (!fs::exists(dir / "model.onnx")) GTEST_SKIP() << "libonnx-testdata is not installed";
  RunAndCompare(dir, {});
}

INSTANTIATE_TEST_SUITE_P(NodeTests, OnnxInterpretedNodeTest,
                         ::testing::Values("test_gathernd_example_float32",
                                           "test_gathernd_example_int32",
                                           "test_gathernd_example_int32_batch_dim1",
                                           "test_gather_0", "test_gather_1",
                                           "test_gather_negative_indices",
                                           "test_gather_elements_negative_indices"),
                         [](const ::testing::TestParamInfo<std::string>& test) {
                           return test.param;
                         });

// Every shape the exporter computes at run time is known once the symbolic sizes are: the
// model imports with no opaque op, its 8x200 weight held as bytes, and computes ONNX's
// outputs (checked against ONNX Runtime when the fixture was made).
TEST(OnnxInterpretedTest, ShapesComputedAtRunTimeFoldForStaticSizes) {
  OnnxImportOptions options;
  options.dimension_sizes = {{"batch", 2}, {"seq", 5}};
  const fs::path dir = fs::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data" / "onnx" / "shape_chain";
  StatusOr<OnnxImportResult> result = ImportOnnxFile((dir / "model.onnx").string(), options);
  ASSERT_TRUE(result.ok()) << result.message();
  const Instruction* w = result->module->entry()->FindInstruction("w");
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->constant_bytes(), nullptr);
  EXPECT_EQ(w->literal(), "{...}");
  RunAndCompare(dir, options);
}

// A range too long to track as known values is computed in the graph, not written out as a
// literal of 5000 elements.
TEST(OnnxInterpretedTest, RangeLongerThanTrackedIsComputedInTheGraph) {
  OnnxImportOptions options;
  options.dimension_sizes = {{"batch", 2}, {"seq", 5}};
  const fs::path dir = fs::path(FUSESCOPE_SOURCE_DIR) / "tests" / "data" / "onnx" / "shape_chain";
  StatusOr<OnnxImportResult> result = ImportOnnxFile((dir / "model.onnx").string(), options);
  ASSERT_TRUE(result.ok()) << result.message();
  bool has_iota = false;
  for (const auto& instruction : result->module->entry()->instructions()) {
    if (instruction->opcode() == Opcode::kIota) has_iota = true;
    if (instruction->opcode() == Opcode::kConstant) {
      EXPECT_LT(instruction->shape().ElementCount(), 5000) << instruction->name();
    }
  }
  EXPECT_TRUE(has_iota);
}

}  // namespace
}  // namespace fusescope::ir::onnx_import
