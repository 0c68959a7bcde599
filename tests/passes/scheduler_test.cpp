// The scheduler on real modules: the stored order becomes a valid schedule, side effects
// keep their order, and peak memory never grows.

#include "passes/scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "ir/hlo_parser.h"
#include "passes/side_effect_analysis.h"
#include "resources/samples.h"

namespace fusescope::passes {
namespace {

std::vector<const ir::Instruction*> StoredOrder(const ir::Computation& computation) {
  std::vector<const ir::Instruction*> order;
  for (const auto& instruction : computation.instructions()) order.push_back(instruction.get());
  return order;
}

bool IsDefBeforeUse(const ir::Computation& computation) {
  std::unordered_set<const ir::Instruction*> seen;
  for (const ir::Instruction* instruction : StoredOrder(computation)) {
    for (const ir::Instruction* operand : instruction->operands()) {
      if (seen.count(operand) == 0) return false;
    }
    seen.insert(instruction);
  }
  return true;
}

std::vector<std::string> EffectOrder(const ir::Computation& computation,
                                     const SideEffectAnalysis& effects) {
  std::vector<std::string> names;
  for (const ir::Instruction* instruction : computation.MakePostOrder()) {
    if (effects.HasSideEffect(*instruction)) names.push_back(instruction->name());
  }
  return names;
}

int64_t Stat(const PassContext& context, const std::string& key) {
  for (const auto& [name, value] : context.stats) {
    if (name == key) return std::stoll(value);
  }
  ADD_FAILURE() << "no stat " << key;
  return -1;
}

TEST(SchedulerTest, SideEffectsKeepTheirOrder) {
  // The second outfeed's operand is ready first and freeing `big` early would pay, but the
  // outfeeds must leave in program order.
  auto parsed = ir::ParseHloModule(R"(
HloModule m
ENTRY main {
  p = f32[1024] parameter(0)
  tok = token[] after-all()
  big = f32[1024] exponential(p)
  small = f32[4] slice(big), slice={[0:4]}
  o1 = token[] outfeed(p, tok)
  o2 = token[] outfeed(small, o1)
  ROOT r = f32[4] negate(small)
})");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  ir::Module& module = **parsed;
  const SideEffectAnalysis effects(module);
  const std::vector<std::string> before = EffectOrder(*module.entry(), effects);
  PassContext context;
  ASSERT_TRUE(Scheduler().Run(module, context).ok());
  EXPECT_TRUE(IsDefBeforeUse(*module.entry()));
  EXPECT_EQ(EffectOrder(*module.entry(), effects), before);
}

TEST(SchedulerTest, SamplesGetValidSchedulesNoWorseThanBefore) {
  for (const resources::SampleModel& sample : resources::SampleModels()) {
    SCOPED_TRACE(std::string(sample.name));
    auto parsed = ir::ParseHloModule(sample.text);
    ASSERT_TRUE(parsed.ok()) << parsed.message();
    ir::Module& module = **parsed;
    const SideEffectAnalysis effects(module);
    const std::vector<std::string> before = EffectOrder(*module.entry(), effects);
    const int64_t instructions = module.instruction_count();
    PassContext context;
    ASSERT_TRUE(Scheduler().Run(module, context).ok());
    for (const auto& computation : module.computations()) {
      if (computation->fusion_instruction() == nullptr) {
        EXPECT_TRUE(IsDefBeforeUse(*computation)) << computation->name();
      }
    }
    EXPECT_EQ(module.instruction_count(), instructions);
    EXPECT_EQ(EffectOrder(*module.entry(), effects), before);
    EXPECT_LE(Stat(context, "peak_bytes_after"), Stat(context, "peak_bytes_before"));
    EXPECT_GT(Stat(context, "peak_bytes_after"), 0);
  }
}

}  // namespace
}  // namespace fusescope::passes
