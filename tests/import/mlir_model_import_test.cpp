// .mlir files as models: StableHLO written by jax (tests/data/<model>/stablehlo.mlir, from
// `jax.jit(f).lower(...).as_text()`) maps onto HLO and computes what the HLO jax wrote for
// the same function computes; other dialects load as graphs that cannot be compiled.

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ir/computation.h"
#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "importers/mlir/mlir_library_reader.h"
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_model_importer.h"
#include "importers/mlir/mlir_module_builder.h"
#include "importers/mlir/mlir_tolerant_reader.h"
#include "ir/instruction.h"
#include "ir/verifier.h"
#include "recording/compile_and_record.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::ir::mlir_import {
namespace {

using ::testing::HasSubstr;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/";

std::unique_ptr<Module> ParseFile(const std::string& path) {
  auto text = ReadTextFile(path, int64_t{1} << 30);
  EXPECT_TRUE(text.ok()) << text.message();
  if (!text.ok()) return nullptr;
  auto module = ParseHloModule(*text, path);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// A stablehlo file and the HLO jax wrote for the same function.
struct JaxModel {
  std::string mlir;
  std::string hlo;
};

class StablehloModelTest : public ::testing::TestWithParam<JaxModel> {};

// The stablehlo jax wrote and the HLO jax wrote for the same function, run by the reference
// interpreter on the same seeded inputs, give the same outputs.
TEST_P(StablehloModelTest, ComputesWhatJaxsHloComputes) {
  auto imported = ImportMlirModelFile(kData + GetParam().mlir);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  if (MlirLibraryAvailable()) {
    // MLIR 19 reads stablehlo in generic form only.
    EXPECT_EQ(imported->read_by_mlir, GetParam().mlir.find("generic") != std::string::npos)
        << imported->mlir_error;
  }
  EXPECT_GT(imported->mapped, 20);
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  auto hlo = ParseFile(kData + GetParam().hlo);
  ASSERT_NE(hlo, nullptr);
  auto inputs = runtime::SeededInputs(*hlo->entry(), 7);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  auto same_inputs = runtime::SeededInputs(*imported->module->entry(), 7);
  ASSERT_TRUE(same_inputs.ok()) << same_inputs.message();
  runtime::Interpreter interpreter;
  auto expected = interpreter.Run(*hlo, std::move(inputs).value());
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto actual = interpreter.Run(*imported->module, std::move(same_inputs).value());
  ASSERT_TRUE(actual.ok()) << actual.message();
  const runtime::LiteralDifference difference =
      runtime::CompareLiterals(*actual, *expected, 1e-5, 1e-6);
  EXPECT_TRUE(difference.ok()) << "max abs error " << difference.max_abs_error << ", "
                               << difference.mismatches << " mismatches";
}

// Our CPU pipeline compiles the imported module.
TEST_P(StablehloModelTest, CompilesThroughOurPipeline) {
  auto imported = ImportMlirModelFile(kData + GetParam().mlir);
  ASSERT_TRUE(imported.ok()) << imported.message();
  passes::PipelineOptions options;
  options.target = "cpu";
  auto recording =
      recording::CompileAndRecord(PrintModule(*imported->module), options, "stablehlo");
  ASSERT_TRUE(recording.ok()) << recording.message();
  EXPECT_FALSE(recording->failed());
  EXPECT_GT(recording->passes.size(), 5u);
}

// The generic form is jax's mlp module as iree-compile prints it with --mlir-print-op-generic;
// libMLIR reads it (unregistered dialects allowed), the pretty form only the tolerant reader.
INSTANTIATE_TEST_SUITE_P(
    JaxModels, StablehloModelTest,
    ::testing::Values(
        JaxModel{"mlp/stablehlo.mlir", "mlp/before_optimizations.nometa.hlo"},
        JaxModel{"attention/stablehlo.mlir", "attention/before_optimizations.nometa.hlo"},
        JaxModel{"convnet/stablehlo.mlir", "convnet/before_optimizations.nometa.hlo"},
        JaxModel{"mlir/mlp_stablehlo_generic.mlir", "mlp/before_optimizations.nometa.hlo"}));

// Programs jax lowers to control flow, gather/scatter, sorts, variadic reductions, random
// bits and a training step (scripts/gen_stablehlo_fixtures.py writes tests/data/mlir/jax/
// <name>.mlir and the HLO jax wrote for the same program, <name>.hlo).
class JaxProgramTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string MlirPath() const { return kData + "mlir/jax/" + GetParam() + ".mlir"; }
  std::string HloPath() const {
    // gen_fixtures.py writes the training step's HLO for the HLO importer's tests.
    if (GetParam() == "bert_train_step")
      return kData + "training/bert_train_step.threefry.nometa.hlo";
    const std::string name = GetParam().substr(0, GetParam().find(".generic"));
    return kData + "mlir/jax/" + name + ".hlo";
  }
};

// Every operation maps (nothing opaque, no warning) and the module verifies.
TEST_P(JaxProgramTest, MapsFullyAndVerifies) {
  auto imported = ImportMlirModelFile(MlirPath());
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  if (MlirLibraryAvailable()) {
    // MLIR 19 reads stablehlo in generic form only.
    EXPECT_EQ(imported->read_by_mlir, GetParam().find(".generic") != std::string::npos)
        << imported->mlir_error;
  }
  const Status verified = VerifyModule(*imported->module);
  EXPECT_TRUE(verified.ok()) << verified.message();
  EXPECT_TRUE(ParseHloModule(PrintModule(*imported->module), "printed").ok());
}

// The reference interpreter computes, on the same seeded inputs, what it computes for the
// HLO jax wrote.
TEST_P(JaxProgramTest, ComputesWhatJaxsHloComputes) {
  auto imported = ImportMlirModelFile(MlirPath());
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  auto hlo = ParseFile(HloPath());
  ASSERT_NE(hlo, nullptr);
  auto inputs = runtime::SeededInputs(*hlo->entry(), 11);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  auto same_inputs = runtime::SeededInputs(*imported->module->entry(), 11);
  ASSERT_TRUE(same_inputs.ok()) << same_inputs.message();
  runtime::Interpreter interpreter;
  auto expected = interpreter.Run(*hlo, std::move(inputs).value());
  ASSERT_TRUE(expected.ok()) << expected.message();
  auto actual = interpreter.Run(*imported->module, std::move(same_inputs).value());
  ASSERT_TRUE(actual.ok()) << actual.message();
  const runtime::LiteralDifference difference =
      runtime::CompareLiterals(*actual, *expected, 1e-5, 1e-6);
  EXPECT_TRUE(difference.ok()) << "max abs error " << difference.max_abs_error << ", "
                               << difference.mismatches << " mismatches";
}

// Both of our pipelines compile the imported module.
TEST_P(JaxProgramTest, CompilesThroughBothPipelines) {
  auto imported = ImportMlirModelFile(MlirPath());
  ASSERT_TRUE(imported.ok()) << imported.message();
  for (const char* target : {"cpu", "gpu"}) {
    passes::PipelineOptions options;
    options.target = target;
    auto recording =
        recording::CompileAndRecord(PrintModule(*imported->module), options, GetParam());
    ASSERT_TRUE(recording.ok()) << target << ": " << recording.message();
    EXPECT_FALSE(recording->failed()) << target;
    EXPECT_GT(recording->passes.size(), 5u) << target;
  }
}

INSTANTIATE_TEST_SUITE_P(JaxPrograms, JaxProgramTest,
                         ::testing::Values("while_tuple", "cond_switch_sort", "scan_grad",
                                           "gather_scatter", "sort_reduce", "dropout_pool_grad",
                                           "decoder_grad", "bert_train_step", "composite_barrier",
                                           "chlo_math", "sharded", "while_tuple.generic",
                                           "cond_switch_sort.generic", "gather_scatter.generic",
                                           "sort_reduce.generic"));

TEST(MlirModelImportTest, StablehloOpsBecomeHloInstructions) {
  auto imported = ImportMlirModelFile(kData + "mlp/stablehlo.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  const Module& module = *imported->module;
  EXPECT_EQ(module.entry()->name(), "main");
  int64_t dots = 0;
  int64_t reduces = 0;
  int64_t calls = 0;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == Opcode::kDot) {
        ++dots;
        EXPECT_EQ(instruction->attribute("lhs_contracting_dims").value_or(""), "{1}");
        EXPECT_EQ(instruction->attribute("rhs_contracting_dims").value_or(""), "{0}");
      }
      if (instruction->opcode() == Opcode::kReduce) {
        ++reduces;
        ASSERT_EQ(instruction->CalledComputations("to_apply").size(), 1u);
      }
      if (instruction->opcode() == Opcode::kCall) {
        ++calls;
        ASSERT_EQ(instruction->CalledComputations("to_apply").size(), 1u);
      }
      EXPECT_NE(instruction->opcode(), Opcode::kUnknown) << instruction->opcode_name();
    }
  }
  EXPECT_EQ(dots, 3);
  EXPECT_EQ(reduces, 6);
  EXPECT_EQ(calls, 4);
}

TEST(MlirModelImportTest, TosaLoadsAsAGraphThatDoesNotCompile) {
  auto imported = ImportMlirModelFile(kData + "mlir/tosa_mlp.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_FALSE(imported->compilable());
  EXPECT_EQ(imported->unmapped.at("tosa.reshape"), 2);
  EXPECT_EQ(imported->unmapped.at("tosa.matmul"), 1);
  EXPECT_THAT(imported->UnmappedSummary(), HasSubstr("6 operations have no HLO counterpart"));
  const Instruction* matmul = imported->module->FindInstruction("op_1");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->opcode_name(), "tosa.matmul");
  EXPECT_EQ(matmul->shape().ToString(false), "f32[1,4,16]");
  EXPECT_EQ(matmul->operand_count(), 2);
}

TEST(MlirModelImportTest, GenericFormAndUnknownOpsLoad) {
  const std::string text =
      "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.add\"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  %1 = \"my.op\"(%0) {k = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %1 : tensor<4xf32>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "generic.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(imported->mapped, 1);
  EXPECT_EQ(imported->unmapped.at("my.op"), 1);
  EXPECT_EQ(imported->module->entry()->root()->opcode_name(), "my.op");
  EXPECT_EQ(imported->module->entry()->root()->operand(0)->opcode(), Opcode::kAdd);
}

// jax's pretty control flow: a while whose `cond` and `do` regions both take the iteration
// values its header defines (typed by the header's colon), a reduce whose body follows on a
// `reducer(...)` line, argmax's variadic reduce (inputs paired with their initial values and
// accumulators with values in the text, inputs first and accumulators first in HLO),
// multi-result values read as %0#1.
TEST(MlirModelImportTest, JaxWhileAndReducersReadTolerantly) {
  auto imported = ImportMlirModelFile(kData + "mlir/jax_while_argmax.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  const Instruction* loop = imported->module->FindInstruction("op_0");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->opcode(), Opcode::kWhile);
  EXPECT_EQ(loop->shape().ToString(false), "(s32[], f32[4,8])");
  ASSERT_EQ(loop->operand_count(), 1);
  EXPECT_EQ(loop->operand(0)->opcode(), Opcode::kTuple);
  for (std::string_view key : {"condition", "body"}) {
    ASSERT_EQ(loop->CalledComputations(key).size(), 1u) << key;
    const Computation* region = loop->CalledComputations(key)[0];
    ASSERT_EQ(region->parameter_count(), 1) << key;
    EXPECT_EQ(region->parameter(0)->shape().ToString(false), "(s32[], f32[4,8])") << key;
  }
  const Instruction* reduce = imported->module->FindInstruction("op_2");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->opcode(), Opcode::kReduce);
  EXPECT_EQ(reduce->operand(0)->opcode(), Opcode::kGetTupleElement);
  ASSERT_EQ(reduce->CalledComputations("to_apply").size(), 1u);
  EXPECT_EQ(reduce->CalledComputations("to_apply")[0]->root()->opcode(), Opcode::kAdd);
  const Instruction* argmax = imported->module->FindInstruction("op_1.1");
  ASSERT_NE(argmax, nullptr);
  ASSERT_EQ(argmax->opcode(), Opcode::kReduce);
  ASSERT_EQ(argmax->operand_count(), 4);
  EXPECT_EQ(argmax->operand(1)->opcode(), Opcode::kIota);
  EXPECT_EQ(argmax->operand(2)->opcode(), Opcode::kConstant);
  const Computation* body = argmax->CalledComputations("to_apply")[0];
  ASSERT_EQ(body->parameter_count(), 4);
  EXPECT_EQ(body->parameter(1)->shape().ToString(false), "s32[]");
  EXPECT_EQ(body->parameter(2)->shape().ToString(false), "f32[]");

  // x * 2^3, the argmax of each row and the row's fold of a * b + 1.
  auto x = runtime::Literal::Create(Shape(PrimitiveType::kF32, {4, 8}));
  ASSERT_TRUE(x.ok()) << x.message();
  for (int64_t i = 0; i < 32; ++i) x->SetDouble(i, (i % 8 == (i / 8) * 2) ? 1.0 : 0.25);
  std::vector<runtime::Literal> arguments;
  arguments.push_back(std::move(x).value());
  runtime::Interpreter interpreter;
  auto result = interpreter.Run(*imported->module, std::move(arguments));
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_TRUE(result->is_tuple());
  ASSERT_EQ(result->elements().size(), 2u);
  const runtime::Literal& indices = result->elements()[0];
  for (int64_t row = 0; row < 4; ++row) EXPECT_EQ(indices.GetInt(row), row * 2) << row;
  // Rows hold 8 and seven 2s: the fold from 0 is ((0 * 8 + 1) * 2 + 1) ... in row order.
  double fold = 0;
  for (int64_t column = 0; column < 8; ++column) fold = fold * (column == 0 ? 8.0 : 2.0) + 1.0;
  EXPECT_DOUBLE_EQ(result->elements()[1].GetDouble(0), fold);
}

// A while of one value whose condition uses an outer value carries it in its state (HLO's
// regions see nothing outside); an if's branches get the outer values they use as a tuple,
// the while's result among them.
TEST(MlirModelImportTest, RegionsThatUseOuterValuesGetThemAsOperands) {
  const std::string text =
      "func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = \"stablehlo.while\"(%arg0) ({\n"
      "  ^bb0(%a: tensor<f32>):\n"
      "    %1 = \"stablehlo.compare\"(%a, %arg1) {comparison_direction = "
      "#stablehlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%1) : (tensor<i1>) -> ()\n"
      "  }, {\n"
      "  ^bb0(%b: tensor<f32>):\n"
      "    %2 = \"stablehlo.add\"(%b, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%2) : (tensor<f32>) -> ()\n"
      "  }) : (tensor<f32>) -> tensor<f32>\n"
      "  %3 = \"stablehlo.compare\"(%0, %arg1) {comparison_direction = "
      "#stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "  %4 = \"stablehlo.if\"(%3) ({\n"
      "    \"stablehlo.return\"(%0) : (tensor<f32>) -> ()\n"
      "  }, {\n"
      "    %5 = \"stablehlo.negate\"(%0) : (tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%5) : (tensor<f32>) -> ()\n"
      "  }) : (tensor<i1>) -> tensor<f32>\n"
      "  \"func.return\"(%4) : (tensor<f32>) -> ()\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "regions.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  const Instruction* loop = imported->module->FindInstruction("op_0");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->shape().ToString(false), "(f32[], f32[])");
  const Instruction* branch = imported->module->entry()->root();
  EXPECT_EQ(branch->opcode(), Opcode::kConditional);
  EXPECT_EQ(branch->CalledComputations("true_computation").size(), 1u);
  EXPECT_EQ(branch->CalledComputations("false_computation").size(), 1u);
  ASSERT_EQ(branch->operand_count(), 3);
  EXPECT_EQ(branch->operand(1)->shape().ToString(false), "(f32[])");
  // Doubling 1 until it reaches the limit: 16; 16 > 10 takes the first branch, 16 > 16 the
  // second.
  runtime::Interpreter interpreter;
  for (const auto& [limit, expected] : {std::pair{10.0, 16.0}, std::pair{16.0, -16.0}}) {
    std::vector<runtime::Literal> arguments;
    arguments.push_back(runtime::Literal::ScalarDouble(PrimitiveType::kF32, 1.0));
    arguments.push_back(runtime::Literal::ScalarDouble(PrimitiveType::kF32, limit));
    auto result = interpreter.Run(*imported->module, std::move(arguments));
    ASSERT_TRUE(result.ok()) << result.message();
    EXPECT_EQ(result->GetDouble(0), expected) << limit;
  }
}

// Operations that cannot be HLO stay opaque with one warning at their position that says
// why; a gather whose numbers read but do not fit its operands is refused by the verifier
// and the interpreter, not run out of bounds.
TEST(MlirModelImportTest, MalformedControlFlowAndGatherStayOpaqueWithAReason) {
  const std::string text =
      "func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<5x1xi32>) -> tensor<5x6xf32> {\n"
      "  %0 = \"stablehlo.while\"(%arg0) : (tensor<8x6xf32>) -> tensor<8x6xf32>\n"
      "  %1 = \"stablehlo.gather\"(%0, %arg1) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [one], collapsed_slice_dims = [0], start_index_map = "
      "[0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, "
      "tensor<5x1xi32>) -> tensor<5x6xf32>\n"
      "  %2 = \"stablehlo.gather\"(%arg0, %arg1) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = "
      "[0]>, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, tensor<5x1xi32>) -> "
      "tensor<5x6xf32>\n"
      "  \"func.return\"(%1) : (tensor<5x6xf32>) -> ()\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "bad.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(imported->unmapped.at("stablehlo.while"), 1);
  EXPECT_EQ(imported->unmapped.at("stablehlo.gather"), 2);
  ASSERT_EQ(imported->warnings.size(), 3u);
  // libMLIR places an operation after its results, the tolerant reader at their start.
  EXPECT_THAT(imported->warnings[0],
              ::testing::MatchesRegex("bad\\.mlir:2:[38]: 'stablehlo\\.while' "
                                      "kept opaque: while needs a cond "
                                      "and a do region"));
  EXPECT_THAT(imported->warnings[1],
              ::testing::MatchesRegex("bad\\.mlir:3:[38]: 'stablehlo\\.gather' kept opaque: "
                                      "offset_dims is not a list of integers: '\\[one\\]'"));
  EXPECT_THAT(imported->warnings[2],
              ::testing::MatchesRegex("bad\\.mlir:4:[38]: 'stablehlo\\.gather' kept opaque: "
                                      "index_vector_dim is missing or not an integer"));
  EXPECT_TRUE(ParseHloModule(PrintModule(*imported->module), "printed").ok());

  const std::string misfit =
      "func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<5x1xi32>) -> tensor<5x6xf32> {\n"
      "  %0 = \"stablehlo.gather\"(%arg0, %arg1) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [1, 2, 3], collapsed_slice_dims = [7], start_index_map "
      "= [9], index_vector_dim = 1>, slice_sizes = array<i64: 100, 6>}> : (tensor<8x6xf32>, "
      "tensor<5x1xi32>) -> tensor<5x6xf32>\n"
      "  \"func.return\"(%0) : (tensor<5x6xf32>) -> ()\n"
      "}\n";
  auto unfit = ImportMlirModelText(misfit, "misfit.mlir");
  ASSERT_TRUE(unfit.ok()) << unfit.message();
  EXPECT_TRUE(unfit->compilable());
  EXPECT_FALSE(VerifyModule(*unfit->module).ok());
  auto inputs = runtime::SeededInputs(*unfit->module->entry(), 1);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  runtime::Interpreter interpreter;
  EXPECT_FALSE(interpreter.Run(*unfit->module, std::move(inputs).value()).ok());
}

// rng_bit_generator maps (jax's "rbg" keys) and compiles; the interpreter refuses it rather
// than make up bits that only look like XLA's.
TEST(MlirModelImportTest, RngBitGeneratorMapsButIsNotInterpreted) {
  auto imported = ImportMlirModelFile(kData + "mlir/jax/rng_bit_generator.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  int64_t generators = 0;
  for (const auto& computation : imported->module->computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() != Opcode::kRngBitGenerator) continue;
      ++generators;
      EXPECT_EQ(instruction->attribute("algorithm").value_or(""), "rng_default");
      EXPECT_EQ(instruction->shape().ToString(false), "(u64[2], u32[4,4])");
    }
  }
  EXPECT_EQ(generators, 1);
  passes::PipelineOptions options;
  auto recording = recording::CompileAndRecord(PrintModule(*imported->module), options, "rbg");
  ASSERT_TRUE(recording.ok()) << recording.message();
  EXPECT_FALSE(recording->failed());
  auto inputs = runtime::SeededInputs(*imported->module->entry(), 3);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  auto run = runtime::Interpreter().Run(*imported->module, std::move(inputs).value());
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.message(), HasSubstr("does not reproduce XLA's random bits"));
}

// A custom_call (LAPACK's Cholesky on CPU) is a custom-call with its target: it maps and
// compiles; the interpreter names the target it cannot run.
TEST(MlirModelImportTest, CustomCallKeepsItsTarget) {
  auto imported = ImportMlirModelFile(kData + "mlir/jax/cholesky_custom_call.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  std::vector<const Instruction*> calls;
  for (const auto& computation : imported->module->computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == Opcode::kCustomCall) calls.push_back(instruction.get());
    }
  }
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0]->attribute("custom_call_target").value_or(""), "\"lapack_spotrf_ffi\"");
  EXPECT_EQ(calls[0]->shape().ToString(false), "(f32[4,4], s32[])");
  passes::PipelineOptions options;
  auto recording = recording::CompileAndRecord(PrintModule(*imported->module), options, "lapack");
  ASSERT_TRUE(recording.ok()) << recording.message();
  EXPECT_FALSE(recording->failed());
  auto inputs = runtime::SeededInputs(*imported->module->entry(), 3);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  auto run = runtime::Interpreter().Run(*imported->module, std::move(inputs).value());
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.message(), HasSubstr("custom-call lapack_spotrf_ffi cannot be run"));
}

// Tuple types and get_tuple_element, generic (`index = 1 : i32`) and pretty (`%0[0]`).
TEST(MlirModelImportTest, TuplesAndTheirElementsMap) {
  const std::string text =
      "func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<i32>) -> (tensor<i32>, "
      "tensor<2xf32>) {\n"
      "  %0 = \"stablehlo.tuple\"(%arg0, %arg1) : (tensor<2xf32>, tensor<i32>) -> "
      "tuple<tensor<2xf32>, tensor<i32>>\n"
      "  %1 = \"stablehlo.get_tuple_element\"(%0) <{index = 1 : i32}> : "
      "(tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>\n"
      "  %2 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> "
      "tensor<2xf32>\n"
      "  return %1, %2 : tensor<i32>, tensor<2xf32>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "tuple.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  EXPECT_EQ(imported->module->FindInstruction("op_0")->shape().ToString(false), "(f32[2], s32[])");
  std::vector<runtime::Literal> arguments;
  auto vector = runtime::Literal::Create(Shape(PrimitiveType::kF32, {2}));
  ASSERT_TRUE(vector.ok());
  vector->SetDouble(1, 2.5);
  arguments.push_back(std::move(vector).value());
  arguments.push_back(runtime::Literal::ScalarInt(PrimitiveType::kS32, 7));
  auto result = runtime::Interpreter().Run(*imported->module, std::move(arguments));
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->elements().size(), 2u);
  EXPECT_EQ(result->elements()[0].GetInt(0), 7);
  EXPECT_EQ(result->elements()[1].GetDouble(1), 2.5);
}

// Constants in MLIR's hex form (little-endian element bytes, or one element's for a splat), as
// jax prints weights: f32, bf16, f16, s8 and a splat, computed by the interpreter.
TEST(MlirModelImportTest, HexDenseConstantsMap) {
  const std::string text =
      "func.func @main() -> (tensor<2xf32>, tensor<2xbf16>, tensor<2xf16>, tensor<2xi8>, "
      "tensor<3xf32>) {\n"
      "  %0 = stablehlo.constant dense<\"0x0000803F000020C0\"> : tensor<2xf32>\n"
      "  %1 = stablehlo.constant dense<\"0xC03F80FF\"> : tensor<2xbf16>\n"
      "  %2 = stablehlo.constant dense<\"0x003C0100\"> : tensor<2xf16>\n"
      "  %3 = stablehlo.constant dense<\"0xFF7F\"> : tensor<2xi8>\n"
      "  %4 = stablehlo.constant dense<\"0x00004040\"> : tensor<3xf32>\n"
      "  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xbf16>, tensor<2xf16>, "
      "tensor<2xi8>, tensor<3xf32>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "hex.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  auto result = runtime::Interpreter().Run(*imported->module, {});
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->elements().size(), 5u);
  EXPECT_EQ(result->elements()[0].GetDouble(0), 1.0);
  EXPECT_EQ(result->elements()[0].GetDouble(1), -2.5);
  EXPECT_EQ(result->elements()[1].GetDouble(0), 1.5);
  EXPECT_TRUE(std::isinf(result->elements()[1].GetDouble(1)));
  EXPECT_LT(result->elements()[1].GetDouble(1), 0);
  EXPECT_EQ(result->elements()[2].GetDouble(0), 1.0);
  EXPECT_EQ(result->elements()[2].GetDouble(1), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(result->elements()[3].GetInt(0), -1);
  EXPECT_EQ(result->elements()[3].GetInt(1), 127);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(result->elements()[4].GetDouble(i), 3.0);
  // A blob whose length fits neither one element nor all of them stays opaque.
  auto wrong = ImportMlirModelText(
      "func.func @main() -> tensor<3xf32> {\n"
      "  %0 = stablehlo.constant dense<\"0x0000803F000020C0\"> : tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n}\n",
      "wrong.mlir");
  ASSERT_TRUE(wrong.ok()) << wrong.message();
  EXPECT_FALSE(wrong->compilable());
}

// A weight past the text limit, as jax prints a model's parameters: its hex bytes become the
// constant's bytes (never dropped, never decimal text), a large splat too.
TEST(MlirModelImportTest, LargeHexConstantsKeepTheirBytes) {
  std::string hex = "0x";
  char byte[3];
  for (int i = 0; i < 64 * 64; ++i) {
    const float value = static_cast<float>(i) * 0.25f;
    uint8_t bits[4];
    std::memcpy(bits, &value, 4);
    for (uint8_t b : bits) {
      std::snprintf(byte, sizeof byte, "%02X", b);
      hex += byte;
    }
  }
  const std::string text =
      "func.func @main() -> (tensor<64x64xf32>, tensor<2048xf16>) {\n"
      "  %0 = stablehlo.constant dense<\"" +
      hex +
      "\"> : tensor<64x64xf32>\n"
      "  %1 = stablehlo.constant dense<\"0x003C\"> : tensor<2048xf16>\n"
      "  return %0, %1 : tensor<64x64xf32>, tensor<2048xf16>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "weights.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  int with_bytes = 0;
  for (const auto& instruction : imported->module->entry()->instructions()) {
    if (instruction->opcode() != ir::Opcode::kConstant) continue;
    ASSERT_NE(instruction->constant_bytes(), nullptr) << instruction->name();
    EXPECT_EQ(instruction->literal(), "{...}");
    ++with_bytes;
  }
  EXPECT_EQ(with_bytes, 2);
  auto result = runtime::Interpreter().Run(*imported->module, {});
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(result->elements()[0].GetDouble(4095), 4095 * 0.25);
  EXPECT_EQ(result->elements()[1].GetDouble(2047), 1.0);
}

// reduce_precision (pretty `format = e5m10`), fft, map and batch_norm (generic) map with
// their attributes.
TEST(MlirModelImportTest, PrecisionFftMapAndBatchNormMap) {
  const std::string text =
      "func.func @main(%arg0: tensor<2x8xf32>, %arg1: tensor<8xf32>) -> (tensor<2x8xf32>, "
      "tensor<2x5xcomplex<f32>>, tensor<2x8xf32>, tensor<2x8xf32>) {\n"
      "  %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<2x8xf32>\n"
      "  %1 = stablehlo.fft %arg0, type = RFFT, length = [8] : (tensor<2x8xf32>) -> "
      "tensor<2x5xcomplex<f32>>\n"
      "  %2 = \"stablehlo.map\"(%0, %arg0) <{dimensions = array<i64: 0, 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %5 = \"stablehlo.subtract\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%5) : (tensor<f32>) -> ()\n"
      "  }) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n"
      "  %3 = \"stablehlo.batch_norm_inference\"(%arg0, %arg1, %arg1, %arg1, %arg1) "
      "<{epsilon = 1.000000e-01 : f32, feature_index = 1 : i64}> : (tensor<2x8xf32>, "
      "tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>\n"
      "  return %0, %1, %2, %3 : tensor<2x8xf32>, tensor<2x5xcomplex<f32>>, tensor<2x8xf32>, "
      "tensor<2x8xf32>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "misc.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  ASSERT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  const Module& module = *imported->module;
  EXPECT_EQ(module.FindInstruction("op_0")->opcode(), Opcode::kReducePrecision);
  EXPECT_EQ(module.FindInstruction("op_0")->attribute("exponent_bits").value_or(""), "5");
  EXPECT_EQ(module.FindInstruction("op_0")->attribute("mantissa_bits").value_or(""), "10");
  EXPECT_EQ(module.FindInstruction("op_1")->opcode(), Opcode::kFft);
  EXPECT_EQ(module.FindInstruction("op_1")->attribute("fft_type").value_or(""), "RFFT");
  EXPECT_EQ(module.FindInstruction("op_1")->attribute("fft_length").value_or(""), "{8}");
  EXPECT_EQ(module.FindInstruction("op_2")->opcode(), Opcode::kMap);
  EXPECT_EQ(module.FindInstruction("op_2")->CalledComputations("to_apply").size(), 1u);
  EXPECT_EQ(module.FindInstruction("op_3")->opcode(), Opcode::kBatchNormInference);
  EXPECT_EQ(module.FindInstruction("op_3")->attribute("feature_index").value_or(""), "1");
  EXPECT_EQ(module.FindInstruction("op_3")->attribute("epsilon").value_or(""), "0.1");
}

// Collectives keep their replica groups (splat or not), channel and dimension; a sharding
// constraint is XLA's Sharding custom-call; the mesh it names is no warning.
TEST(MlirModelImportTest, CollectivesAndShardingMap) {
  auto imported = ImportMlirModelFile(kData + "mlir/jax/sharded.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  std::map<Opcode, const Instruction*> found;
  for (const auto& computation : imported->module->computations()) {
    for (const auto& instruction : computation->instructions())
      found[instruction->opcode()] = instruction.get();
  }
  ASSERT_TRUE(found.count(Opcode::kAllReduce));
  EXPECT_EQ(found[Opcode::kAllReduce]->attribute("replica_groups").value_or(""), "{{0}}");
  EXPECT_EQ(found[Opcode::kAllReduce]->attribute("channel_id").value_or(""), "1");
  EXPECT_EQ(found[Opcode::kAllReduce]->CalledComputations("to_apply").size(), 1u);
  ASSERT_TRUE(found.count(Opcode::kReduceScatter));
  EXPECT_EQ(found[Opcode::kReduceScatter]->attribute("dimensions").value_or(""), "{1}");
  ASSERT_TRUE(found.count(Opcode::kCollectivePermute));
  EXPECT_EQ(found[Opcode::kCollectivePermute]->attribute("source_target_pairs").value_or(""),
            "{{0,0}}");
  ASSERT_TRUE(found.count(Opcode::kCustomCall));
  EXPECT_EQ(found[Opcode::kCustomCall]->attribute("custom_call_target").value_or(""),
            "\"Sharding\"");

  const std::string text =
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<16xf32> {\n"
      "  %0 = \"stablehlo.all_gather\"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = "
      "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<8xf32>) -> tensor<16xf32>\n"
      "  %1 = \"stablehlo.all_gather\"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = "
      "dense<[[0, 1]]> : tensor<3x2xi64>}> : (tensor<8xf32>) -> tensor<16xf32>\n"
      "  \"func.return\"(%0) : (tensor<16xf32>) -> ()\n"
      "}\n";
  auto groups = ImportMlirModelText(text, "groups.mlir");
  ASSERT_TRUE(groups.ok()) << groups.message();
  const Instruction* gather = groups->module->entry()->root();
  EXPECT_EQ(gather->opcode(), Opcode::kAllGather);
  EXPECT_EQ(gather->attribute("replica_groups").value_or(""), "{{0,1},{2,3}}");
  EXPECT_EQ(gather->attribute("dimensions").value_or(""), "{0}");
  ASSERT_EQ(groups->warnings.size(), 1u);
  EXPECT_THAT(groups->warnings[0], HasSubstr("replica_groups is missing or not a dense integer"));
}

// MHLO in generic form with its older attribute spellings.
TEST(MlirModelImportTest, MhloGenericFormMapsOntoHlo) {
  const std::string text =
      "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
      "  %0 = \"mhlo.broadcast_in_dim\"(%arg0) {broadcast_dimensions = dense<0> : tensor<1xi64>} : "
      "(tensor<4xf32>) -> tensor<4x3xf32>\n"
      "  %1 = \"mhlo.compare\"(%0, %arg1) {comparison_direction = #mhlo<comparison_direction GT>} "
      ": "
      "(tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>\n"
      "  %2 = \"mhlo.select\"(%1, %0, %arg1) : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) "
      "-> "
      "tensor<4x3xf32>\n"
      "  %3 = \"mhlo.transpose\"(%2) {permutation = dense<[1, 0]> : tensor<2xi64>} : "
      "(tensor<4x3xf32>) -> tensor<3x4xf32>\n"
      "  %4 = \"mhlo.transpose\"(%3) {permutation = dense<[1, 0]> : tensor<2xi64>} : "
      "(tensor<3x4xf32>) -> tensor<4x3xf32>\n"
      "  \"func.return\"(%4) : (tensor<4x3xf32>) -> ()\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "mhlo.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->compilable()) << imported->UnmappedSummary();
  EXPECT_TRUE(VerifyModule(*imported->module).ok()) << VerifyModule(*imported->module).message();
  const Instruction* compare = imported->module->FindInstruction("op_1");
  ASSERT_NE(compare, nullptr);
  EXPECT_EQ(compare->attribute("direction").value_or(""), "GT");
  EXPECT_EQ(imported->module->FindInstruction("op_3")->attribute("dimensions").value_or(""), "{1,0}");
}

// HLO has no recursion and no calls to nowhere: such calls stay opaque, with a warning.
TEST(MlirModelImportTest, RecursiveAndDanglingCallsStayOpaque) {
  const std::string text =
      "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = call @f(%arg0) : (tensor<f32>) -> tensor<f32>\n"
      "  %1 = call @missing(%0) : (tensor<f32>) -> tensor<f32>\n"
      "  return %1 : tensor<f32>\n"
      "}\n";
  auto imported = ImportMlirModelText(text, "calls.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_EQ(imported->unmapped.at("func.call"), 2);
  EXPECT_EQ(imported->mapped, 0);
  ASSERT_EQ(imported->warnings.size(), 2u);
  EXPECT_THAT(imported->warnings[0] + imported->warnings[1], HasSubstr("called recursively"));
  const Instruction* root = imported->module->entry()->root();
  EXPECT_EQ(root->opcode_name(), "func.call");
  EXPECT_EQ(root->name(), "op_1");
  EXPECT_TRUE(ParseHloModule(PrintModule(*imported->module), "printed").ok());
}

// Nesting that would overflow the stack of a recursive parser is read without crashing.
TEST(MlirModelImportTest, DeepNestingDoesNotCrash) {
  std::string text = "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n  %0 = \"x.y\"() {a = ";
  text += std::string(200000, '[') + std::string(200000, ']') + "} : () -> tensor<f32>\n";
  for (int i = 0; i < 5000; ++i) text += "  \"x.r\"() ({\n";
  text += "  return %0 : tensor<f32>\n}\n";
  auto imported = ImportMlirModelText(text, "deep.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_THAT(imported->mlir_error, HasSubstr("nested deeper than"));
  EXPECT_FALSE(imported->warnings.empty());
}

// The mlir_log fuzzer's seeds (pieces of real files and the inputs of bugs it found), read
// tolerantly and built as models with StableHLO mapped, print as HLO that parses back: a
// garbled while whose header reads its own results once made a cycle.
TEST(MlirModelImportTest, FuzzSeedsBuildModelsThatPrintAndParseBack) {
  const std::filesystem::path corpus =
      std::filesystem::path(FUSESCOPE_SOURCE_DIR) / "fuzz" / "corpus" / "mlir_log";
  int64_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    auto text = ReadTextFile(entry.path().string(), int64_t{1} << 30);
    ASSERT_TRUE(text.ok()) << text.message();
    const TolerantReadResult read = ReadMlirTolerantly(*text, "seed");
    MlirModuleOptions options;
    options.layout = MlirModuleOptions::Layout::kModel;
    options.map_stablehlo = true;
    const MlirModule built = BuildModule(read.tree, options);
    auto reparsed = ParseHloModule(PrintModule(*built.module), "printed");
    EXPECT_TRUE(reparsed.ok()) << entry.path().filename() << ": " << reparsed.message();
    ++seeds;
  }
  EXPECT_GT(seeds, 10);
}

TEST(MlirModelImportTest, GraphOnlyRecordingHoldsTheModuleAndNoPass) {
  auto imported = ImportMlirModelFile(kData + "mlir/tosa_mlp.mlir");
  ASSERT_TRUE(imported.ok()) << imported.message();
  const int64_t instructions = imported->module->instruction_count();
  recording::Recording recording = GraphOnlyRecording(*imported, "tosa_mlp.mlir");
  EXPECT_TRUE(recording.passes.empty());
  ASSERT_EQ(recording.snapshots.size(), 1u);
  EXPECT_EQ(recording.input().instruction_count(), instructions);
}

}  // namespace
}  // namespace fusescope::ir::mlir_import
