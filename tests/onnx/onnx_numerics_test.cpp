// Runs imported backend-test models of libonnx-testdata on their own test inputs with the
// constant evaluator of the passes (elementwise ops, broadcast, reshape, transpose, select,
// convert) and compares with the outputs ONNX ships. Checks the semantics of the elementwise
// lowerings, which structure tests cannot. (Lowerings through ops the evaluator lacks, such
// as clamp, exponential-minus-one or log-plus-one, are not covered here.)

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include "importers/onnx/onnx_importer.h"
#include "passes/literal_evaluator.h"
#include "passes/literal_value.h"

namespace fusescope::ir::onnx_import {
namespace {

namespace fs = std::filesystem;
using passes::LiteralValue;

const char kNodeTests[] = "/usr/share/libonnx-testdata/data/node/";

std::optional<LiteralValue> ReadLiteral(const std::string& path) {
  StatusOr<OnnxTensorLiteral> tensor = ReadOnnxTensorFile(path);
  EXPECT_TRUE(tensor.ok()) << tensor.message();
  if (!tensor.ok()) return std::nullopt;
  return LiteralValue::Parse(tensor->literal, tensor->shape);
}

// The root's value with the parameters bound to `inputs`; nullopt when an instruction is
// outside what the evaluator computes.
std::optional<LiteralValue> Evaluate(const Computation& entry,
                                     const std::vector<LiteralValue>& inputs) {
  std::unordered_map<const Instruction*, LiteralValue> values;
  for (Instruction* instruction : entry.MakePostOrder()) {
    std::optional<LiteralValue> value;
    if (instruction->opcode() == Opcode::kParameter) {
      value = inputs.at(static_cast<size_t>(instruction->parameter_number()));
    } else if (instruction->opcode() == Opcode::kConstant) {
      value = LiteralValue::Of(*instruction);
    } else {
      std::vector<LiteralValue> operands;
      for (const Instruction* operand : instruction->operands())
        operands.push_back(values.at(operand));
      value = passes::EvaluateOnLiterals(*instruction, operands);
    }
    if (!value) return std::nullopt;
    values.emplace(instruction, std::move(*value));
  }
  return values.at(entry.root());
}

class OnnxNumericsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxNumericsTest, MatchesOnnxOutputs) {
  const std::string dir = std::string(kNodeTests) + GetParam();
  if (!fs::exists(dir + "/model.onnx")) GTEST_SKIP() << "libonnx-testdata is not installed";
  StatusOr<OnnxImportResult> result = ImportOnnxFile(dir + "/model.onnx");
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_TRUE(result->opaque_ops.empty());
  const Computation& entry = *result->module->entry();
  std::vector<LiteralValue> inputs;
  for (int64_t i = 0; i < entry.parameter_count(); ++i) {
    auto input = ReadLiteral(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb");
    ASSERT_TRUE(input.has_value());
    inputs.push_back(std::move(*input));
  }
  std::optional<LiteralValue> expected = ReadLiteral(dir + "/test_data_set_0/output_0.pb");
  ASSERT_TRUE(expected.has_value());
  std::optional<LiteralValue> actual = Evaluate(entry, inputs);
  ASSERT_TRUE(actual.has_value()) << "the evaluator does not compute every instruction";
  ASSERT_EQ(actual->dims(), expected->dims());
  for (int64_t i = 0; i < expected->element_count(); ++i) {
    if (expected->is_floating()) {
      const double want = expected->GetDouble(i);
      const double got = actual->GetDouble(i);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << "element " << i;
      } else {
        EXPECT_NEAR(got, want, 1e-5 + 1e-5 * std::fabs(want)) << "element " << i;
      }
    } else {
      EXPECT_EQ(actual->GetInt(i), expected->GetInt(i)) << "element " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    NodeTests, OnnxNumericsTest,
    ::testing::Values("test_relu", "test_leakyrelu", "test_leakyrelu_default", "test_softsign",
                      "test_thresholdedrelu", "test_reciprocal", "test_prelu_broadcast",
                      "test_where_example", "test_mod_mixed_sign_int32",
                      "test_mod_mixed_sign_float32", "test_isnan", "test_isinf_negative",
                      "test_add_bcast", "test_sub_bcast", "test_pow_bcast_array",
                      "test_mean_example", "test_max_example", "test_sum_one_input",
                      "test_less_equal_bcast", "test_cast_FLOAT_to_DOUBLE",
                      "test_castlike_FLOAT_to_DOUBLE_expanded", "test_transpose_all_permutations_3",
                      "test_flatten_negative_axis1", "test_depthtospace_example",
                      "test_spacetodepth_example", "test_sign", "test_neg", "test_sqrt", "test_exp",
                      "test_sinh", "test_cosh", "test_asinh", "test_acosh", "test_atanh",
                      "test_shrink_hard", "test_shrink_soft"),
    [](const ::testing::TestParamInfo<std::string>& test) { return test.param; });

}  // namespace
}  // namespace fusescope::ir::onnx_import
