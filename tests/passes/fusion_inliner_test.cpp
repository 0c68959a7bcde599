// The fusion inliner puts fused ops back in place: the inverse of fusion.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ir/hlo_parser.h"
#include "passes/fusion_inliner.h"
#include "passes/pipeline.h"
#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

using testing::RunPass;

// Opcode counts over the whole module, fusion instructions and fused parameters left out:
// what the module computes, wherever the ops sit.
std::map<std::string, int64_t> Work(const ir::Module& module) {
  std::map<std::string, int64_t> counts;
  for (const auto& computation : module.computations()) {
    const bool fused = computation->fusion_instruction() != nullptr;
    for (const auto& instruction : computation->instructions()) {
      if (instruction->opcode() == ir::Opcode::kFusion) continue;
      if (fused && instruction->opcode() == ir::Opcode::kParameter) continue;
      ++counts[std::string(instruction->opcode_name())];
    }
  }
  return counts;
}

int64_t CountFusions(const ir::Module& module) {
  int64_t fusions = 0;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      fusions += instruction->opcode() == ir::Opcode::kFusion ? 1 : 0;
    }
  }
  return fusions;
}

// A loop fusion's ops land in the caller under their own names; the fusion and its fused
// computation are gone.
TEST(FusionInlinerTest, PutsFusedOpsBackInPlace) {
  FusionInliner inliner;
  auto result = RunPass(inliner, R"(
HloModule m

fused_add_exp {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  sum = f32[8] add(p0, p1)
  ROOT e = f32[8] exponential(sum)
}

ENTRY main {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  f = f32[8] fusion(x, y), kind=kLoop, calls=fused_add_exp
  ROOT n = f32[8] negate(f)
}
)");
  ASSERT_NE(result->module, nullptr);
  EXPECT_TRUE(result->changed);
  const ir::Computation& entry = *result->module->entry();
  EXPECT_EQ(result->module->computations().size(), 1u);
  const ir::Instruction* n = entry.root();
  ASSERT_EQ(n->operand(0)->name(), "e");
  ASSERT_EQ(n->operand(0)->operand(0)->name(), "sum");
  EXPECT_EQ(n->operand(0)->operand(0)->operand(0)->name(), "x");
  EXPECT_EQ(n->operand(0)->operand(0)->operand(1)->name(), "y");
}

// After either pipeline, inlining every fusion gives a module without fusions that does the
// same work the fused module did: the same ops, no more, no fewer.
TEST(FusionInlinerTest, UndoesBothPipelinesFusions) {
  for (const std::string target : {"cpu", "gpu"}) {
    StatusOr<std::unique_ptr<ir::Module>> parsed = ir::ParseHloFile(
        std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/training/bert_train_step.rbg.hlo");
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    ir::Module& module = **parsed;
    PipelineOptions options;
    options.target = target;
    auto pipeline = MakeBuiltinPipeline(options);
    ASSERT_TRUE(pipeline.ok());
    ASSERT_TRUE((*pipeline)->Run(module).ok());
    ASSERT_GT(CountFusions(module), 0) << target;
    const std::map<std::string, int64_t> fused_work = Work(module);

    FusionInliner inliner;
    PassContext context;
    StatusOr<bool> changed = inliner.Run(module, context);
    ASSERT_TRUE(changed.ok()) << changed.message();
    EXPECT_TRUE(*changed);
    EXPECT_EQ(CountFusions(module), 0) << target;
    EXPECT_EQ(Work(module), fused_work) << target;
    const Status verified = ir::VerifyModule(module);
    EXPECT_TRUE(verified.ok()) << target << ": " << verified.message();
  }
}

}  // namespace
}  // namespace fusescope::passes
