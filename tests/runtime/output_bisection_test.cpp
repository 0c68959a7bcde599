// Bisection over a real recording: a pipeline with a pass that turns one add into a
// subtract, recorded by the Recorder; the bisection must name that pass.

#include "runtime/output_bisection.h"

#include "runtime/cpu/cpu_executable.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"
#include "passes/dce.h"
#include "passes/pass.h"
#include "passes/pipeline.h"
#include "recording/recorder.h"
#include "runtime/cpu/cpu_executable.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

// Deliberately wrong: replaces the first add of the entry with a subtract.
class AddToSubtractPass : public passes::Pass {
 public:
  std::string_view name() const override { return "add-to-subtract"; }
  StatusOr<bool> Run(ir::Module& module, passes::PassContext&) override {
    for (const auto& instruction : module.entry()->instructions()) {
      if (instruction->opcode() != ir::Opcode::kAdd) continue;
      ir::Instruction* add = instruction.get();
      ir::Instruction* subtract = module.entry()->AddInstruction(ir::Instruction::Create(
          ir::Opcode::kSubtract, add->shape(), add->operands(), add->name() + ".sub"));
      module.entry()->ReplaceInstruction(add, subtract);
      return true;
    }
    return false;
  }
};

// Changes nothing.
class NoOpPass : public passes::Pass {
 public:
  std::string_view name() const override { return "no-op"; }
  StatusOr<bool> Run(ir::Module&, passes::PassContext&) override { return false; }
};

constexpr const char* kModule = R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  unused = f32[4] multiply(a, a)
  s = f32[4] add(a, b)
  ROOT m = f32[4] multiply(s, b)
})";

std::vector<BisectionStage> Stages(const recording::Recording& recording) {
  std::vector<BisectionStage> stages;
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    BisectionStage stage;
    stage.pass_index = recording.passes[i].index;
    stage.pass_name = recording.passes[i].name;
    const recording::Snapshot* snapshot = &recording.snapshots[i + 1];
    stage.changed = snapshot->fingerprint() != recording.snapshots[i].fingerprint();
    stage.load = [snapshot] { return snapshot->ToModule(); };
    stages.push_back(std::move(stage));
  }
  return stages;
}

recording::Recording Record(bool broken) {
  auto module = ir::ParseHloModule(kModule);
  EXPECT_TRUE(module.ok()) << module.message();
  passes::Pipeline pipeline("test");
  pipeline.Add<NoOpPass>();
  pipeline.Add<passes::Dce>();
  if (broken) pipeline.Add<AddToSubtractPass>();
  pipeline.Add<NoOpPass>();
  recording::Recorder recorder(pipeline);
  recorder.set_model("small", "small.hlo");
  pipeline.AddInstrumentation(&recorder);
  EXPECT_TRUE(pipeline.Run(**module).ok());
  return recorder.TakeRecording();
}

TEST(OutputBisectionTest, NamesTheBrokenPass) {
  const recording::Recording recording = Record(true);
  auto input = recording.input().ToModule();
  ASSERT_TRUE(input.ok()) << input.message();
  auto inputs = SeededInputs(*(*input)->entry(), 0);
  ASSERT_TRUE(inputs.ok());
  auto result = BisectOutputs(**input, Stages(recording), *inputs, 1e-5, 1e-6);
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->rows.size(), 4u);
  ASSERT_TRUE(result->first_bad.has_value());
  EXPECT_EQ(result->rows[*result->first_bad].pass_name, "add-to-subtract");
  EXPECT_EQ(result->rows[*result->first_bad].pass_index, 2);
  EXPECT_TRUE(result->rows[0].ok);  // no-op: unchanged, reused
  EXPECT_TRUE(result->rows[0].reused);
  EXPECT_TRUE(result->rows[1].ok);  // dce removed `unused`: ran, same numbers
  EXPECT_FALSE(result->rows[1].reused);
  EXPECT_GT(result->rows[2].max_abs_error, 0);
  EXPECT_FALSE(result->rows[3].ok);  // the wrong numbers carry on
}

// The stages compiled for the CPU (the reference is still the input interpreted): the same
// pass is found, and every stage really ran through the runner.
TEST(OutputBisectionTest, CompiledStagesNameTheBrokenPass) {
  const recording::Recording recording = Record(true);
  auto input = recording.input().ToModule();
  ASSERT_TRUE(input.ok()) << input.message();
  auto inputs = SeededInputs(*(*input)->entry(), 0);
  ASSERT_TRUE(inputs.ok());
  int compiled_runs = 0;
  const StageRunner compiled = [&](const ir::Module& module,
                                   const std::vector<Literal>& arguments) -> StatusOr<Literal> {
    ++compiled_runs;
    auto executable = CpuExecutable::Compile(module);
    if (!executable.ok()) return executable.status();
    return (*executable)->Run(arguments);
  };
  const std::vector<BisectionStage> stages = Stages(recording);
  auto result = BisectOutputs(**input, stages, *inputs, 1e-5, 1e-6, {}, compiled);
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_TRUE(result->first_bad.has_value());
  EXPECT_EQ(result->rows[*result->first_bad].pass_name, "add-to-subtract");
  EXPECT_TRUE(result->rows[1].ok);
  // Every stage a pass changed (dce, add-to-subtract) ran compiled; the no-ops reused.
  EXPECT_EQ(compiled_runs, std::count_if(stages.begin(), stages.end(),
                                         [](const BisectionStage& s) { return s.changed; }));
  EXPECT_EQ(compiled_runs, 2);
}

TEST(OutputBisectionTest, CleanPipelineHasNoCulprit) {
  const recording::Recording recording = Record(false);
  auto input = recording.input().ToModule();
  ASSERT_TRUE(input.ok()) << input.message();
  auto inputs = SeededInputs(*(*input)->entry(), 0);
  ASSERT_TRUE(inputs.ok());
  auto result = BisectOutputs(**input, Stages(recording), *inputs, 1e-5, 1e-6);
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_FALSE(result->first_bad.has_value());
  for (const BisectionRow& row : result->rows) EXPECT_TRUE(row.ok) << row.pass_name;
}

// A stage that cannot be interpreted is listed with its error and never blamed.
TEST(OutputBisectionTest, UnrunnableStageIsNotBlamed) {
  auto input = ir::ParseHloModule(kModule);
  ASSERT_TRUE(input.ok());
  auto inputs = SeededInputs(*(*input)->entry(), 0);
  ASSERT_TRUE(inputs.ok());
  BisectionStage stage;
  stage.pass_name = "lowering";
  stage.load = []() -> StatusOr<std::unique_ptr<ir::Module>> {
    return ir::ParseHloModule(R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT c = f32[4] custom-call(a, b), custom_call_target="kernel"
})");
  };
  auto result = BisectOutputs(**input, {stage}, *inputs, 1e-5, 1e-6);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->first_bad.has_value());
  EXPECT_NE(result->rows[0].error.find("kernel"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::runtime
