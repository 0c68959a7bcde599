// The pipeline: hooks in order with measured change, lying change flags, reproducers for
// passes that fail or break the IR, disabled passes, stop_after, forwarded decisions, stats.

#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "passes/algebraic_simplifier.h"
#include "passes/buffer_assignment.h"
#include "passes/dce.h"

namespace fusescope::passes {
namespace {

constexpr std::string_view kAddZero = R"(
HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  unused = f32[4] exponential(p)
  zero = f32[] constant(0)
  zeros = f32[4] broadcast(zero), dimensions={}
  ROOT add = f32[4] add(p, zeros)
}
)";

constexpr std::string_view kClean = R"(
HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
)";

std::unique_ptr<ir::Module> Parse(std::string_view text) {
  auto parsed = ir::ParseHloModule(text);
  EXPECT_TRUE(parsed.ok()) << parsed.message();
  return std::move(parsed).value();
}

std::string Canonical(const ir::Module& module) {
  return ir::PrintModule(module, ir::PrintOptions::Canonical());
}

// Says it changed the module but does nothing.
class LyingPass : public Pass {
 public:
  std::string_view name() const override { return "lie"; }
  StatusOr<bool> Run(ir::Module&, PassContext&) override { return true; }
};

// Changes the module (negates the root) but says it did not.
class SilentChangePass : public Pass {
 public:
  std::string_view name() const override { return "silent"; }
  StatusOr<bool> Run(ir::Module& module, PassContext&) override {
    ir::Computation* entry = module.entry();
    ir::Instruction* root = entry->root();
    auto negate = ir::Instruction::Create(ir::Opcode::kNegate, root->shape(), {root},
                                          module.UniqueName("negate"));
    entry->set_root(entry->AddInstruction(std::move(negate)));
    return false;
  }
};

// Makes the root a negate whose shape its operand cannot produce.
class BreakingPass : public Pass {
 public:
  std::string_view name() const override { return "break-ir"; }
  StatusOr<bool> Run(ir::Module& module, PassContext&) override {
    ir::Computation* entry = module.entry();
    auto negate =
        ir::Instruction::Create(ir::Opcode::kNegate, ir::Shape(ir::PrimitiveType::kF32, {5}),
                                {entry->root()}, module.UniqueName("negate"));
    entry->set_root(entry->AddInstruction(std::move(negate)));
    return true;
  }
};

// Negates the root on its first run only: replaying it does not repeat what it did.
class FirstRunOnlyPass : public Pass {
 public:
  std::string_view name() const override { return "first-run-only"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override {
    if (runs_++ > 0) return false;
    return SilentChangePass().Run(module, context).ok();
  }

 private:
  int runs_ = 0;
};

class FailingPass : public Pass {
 public:
  std::string_view name() const override { return "fail"; }
  StatusOr<bool> Run(ir::Module&, PassContext&) override { return Status::Error("boom"); }
};

// Records one refused pair and changes nothing.
class DecidingPass : public Pass {
 public:
  std::string_view name() const override { return "decide"; }
  StatusOr<bool> Run(ir::Module& module, PassContext& context) override {
    FusionDecisionRecord record;
    record.producer_name = "p";
    record.consumer_name = module.entry()->root()->name();
    record.reason = FusionReason::kConsumerNotFusible;
    record.explanation = "the consumer is a parameter";
    context.Record(record);
    return false;
  }
};

// Writes down everything the pipeline tells it.
class EventLog : public PassInstrumentation {
 public:
  void BeforePipeline(const ir::Module& module) override {
    events.push_back("begin");
    input_fingerprint = ir::Fingerprint(module);
  }
  void BeforePass(const PassRunInfo& info, const ir::Module&) override {
    events.push_back("before " + info.name);
  }
  void AfterPass(const PassRunInfo& info, const ir::Module&) override {
    events.push_back("after " + info.name);
    infos.push_back(info);
  }
  void PassFailed(const PassRunInfo& info, const ir::Module& module, const ir::Module& before,
                  const Status& error) override {
    events.push_back("failed " + info.name);
    failed_info = info;
    broken_text = ir::PrintModule(module);
    reproducer_text = Canonical(before);
    failure = error.message();
  }
  void OnFusionDecision(const FusionDecisionRecord& record) override {
    decisions.push_back(record);
  }
  void AfterPipeline(const ir::Module&) override { events.push_back("end"); }

  std::vector<std::string> events;
  std::vector<PassRunInfo> infos;
  std::vector<FusionDecisionRecord> decisions;
  uint64_t input_fingerprint = 0;
  PassRunInfo failed_info;
  std::string broken_text;
  std::string reproducer_text;
  std::string failure;
};

struct PipelineRun {
  std::unique_ptr<ir::Module> module;
  EventLog log;
  Status status;
};

// Runs `pipeline` over `text` with an EventLog attached.
std::unique_ptr<PipelineRun> RunPipeline(Pipeline& pipeline, std::string_view text) {
  auto run = std::make_unique<PipelineRun>();
  run->module = Parse(text);
  pipeline.AddInstrumentation(&run->log);
  run->status = pipeline.Run(*run->module);
  return run;
}

TEST(PipelineTest, HooksSeeEveryPassWithMeasuredChange) {
  Pipeline pipeline("simplify");
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<Dce>();
  pipeline.Add<Dce>();
  auto run = RunPipeline(pipeline, kAddZero);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  EXPECT_EQ(run->log.events,
            (std::vector<std::string>{"begin", "before algsimp", "after algsimp", "before dce",
                                      "after dce", "before dce", "after dce", "end"}));
  const std::vector<PassRunInfo>& infos = run->log.infos;
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(infos[0].index, 0);
  EXPECT_EQ(infos[2].index, 2);
  EXPECT_EQ(infos[0].fingerprint_before, run->log.input_fingerprint);
  EXPECT_EQ(infos[1].fingerprint_before, infos[0].fingerprint_after);
  EXPECT_EQ(infos[2].fingerprint_after, ir::Fingerprint(*run->module));
  EXPECT_TRUE(infos[0].changed() && infos[0].reported_changed);
  EXPECT_TRUE(infos[1].changed() && infos[1].reported_changed);   // removes the dead zeros
  EXPECT_FALSE(infos[2].changed() || infos[2].reported_changed);  // nothing left to remove
  for (const PassRunInfo& info : infos) EXPECT_FALSE(info.change_flag_lies()) << info.name;
  EXPECT_GE(infos[0].wall_seconds, 0.0);
}

TEST(PipelineTest, FlagsPassesWhoseChangeFlagLies) {
  Pipeline pipeline("liars");
  pipeline.Add<LyingPass>();
  pipeline.Add<SilentChangePass>();
  auto run = RunPipeline(pipeline, kClean);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  ASSERT_EQ(run->log.infos.size(), 2u);
  const PassRunInfo& lie = run->log.infos[0];
  EXPECT_TRUE(lie.reported_changed);
  EXPECT_FALSE(lie.changed());
  EXPECT_TRUE(lie.change_flag_lies());
  const PassRunInfo& silent = run->log.infos[1];
  EXPECT_FALSE(silent.reported_changed);
  EXPECT_TRUE(silent.changed());
  EXPECT_TRUE(silent.change_flag_lies());
}

TEST(PipelineTest, PassThatBreaksTheIrYieldsReproducer) {
  Pipeline pipeline("broken");
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<BreakingPass>();
  pipeline.Add<Dce>();
  auto expected_before = Parse(kAddZero);
  PassContext context;
  ASSERT_TRUE(AlgebraicSimplifier().Run(*expected_before, context).ok());

  auto run = RunPipeline(pipeline, kAddZero);
  ASSERT_FALSE(run->status.ok());
  EXPECT_TRUE(run->status.message().starts_with("pass break-ir (#1) broke the IR: "))
      << run->status.message();
  EXPECT_EQ(run->log.events,
            (std::vector<std::string>{"begin", "before algsimp", "after algsimp", "before break-ir",
                                      "failed break-ir", "end"}));
  EXPECT_EQ(run->log.failed_info.index, 1);
  EXPECT_EQ(run->log.failure, run->status.message().substr(run->status.message().find(": ") + 2));
  // The reproducer is the module as the breaking pass received it: after algsimp.
  EXPECT_EQ(run->log.reproducer_text, Canonical(*expected_before));
  EXPECT_NE(run->log.broken_text.find("f32[5]"), std::string::npos) << run->log.broken_text;
}

TEST(PipelineTest, ReproducerAfterNoOpPassIsCurrent) {
  Pipeline pipeline("broken after no-op");
  pipeline.Add<Dce>();
  pipeline.Add<Dce>();
  pipeline.Add<BreakingPass>();
  auto run = RunPipeline(pipeline, kAddZero);
  ASSERT_FALSE(run->status.ok());
  auto expected_before = Parse(kAddZero);
  PassContext context;
  ASSERT_TRUE(Dce().Run(*expected_before, context).ok());
  EXPECT_EQ(run->log.reproducer_text, Canonical(*expected_before));
}

TEST(PipelineTest, InexactReproducerIsSaid) {
  Pipeline pipeline("nondeterministic");
  pipeline.Add<FirstRunOnlyPass>();
  pipeline.Add<BreakingPass>();
  auto run = RunPipeline(pipeline, kClean);
  ASSERT_FALSE(run->status.ok());
  EXPECT_NE(run->status.message().find("the reproducer is inexact"), std::string::npos)
      << run->status.message();
  EXPECT_EQ(run->log.failure, run->status.message().substr(run->status.message().find(": ") + 2));
}

TEST(PipelineTest, FailingPassReportsErrorAndStops) {
  Pipeline pipeline("failing");
  pipeline.Add<FailingPass>();
  pipeline.Add<Dce>();
  auto run = RunPipeline(pipeline, kClean);
  EXPECT_EQ(run->status.message(), "pass fail (#0) failed: boom");
  EXPECT_EQ(run->log.failure, "boom");
  EXPECT_EQ(run->log.reproducer_text, Canonical(*Parse(kClean)));
  EXPECT_EQ(run->log.events,
            (std::vector<std::string>{"begin", "before fail", "failed fail", "end"}));
}

TEST(PipelineTest, ErrorsWithoutInstrumentations) {
  Pipeline pipeline("unobserved");
  pipeline.Add<BreakingPass>();
  auto module = Parse(kClean);
  Status status = pipeline.Run(*module);
  EXPECT_TRUE(status.message().starts_with("pass break-ir (#0) broke the IR: "))
      << status.message();
}

TEST(PipelineTest, NoVerificationWhenTurnedOff) {
  PipelineOptions options;
  options.verify_between_passes = false;
  Pipeline pipeline("unverified", options);
  pipeline.Add<BreakingPass>();
  auto run = RunPipeline(pipeline, kClean);
  EXPECT_TRUE(run->status.ok()) << run->status.message();
}

TEST(PipelineTest, RejectsInvalidInput) {
  Pipeline pipeline("input check");
  pipeline.Add<Dce>();
  auto module = Parse(kClean);
  module->entry()->root()->set_shape(ir::Shape(ir::PrimitiveType::kF32, {7}));
  Status status = pipeline.Run(*module);
  EXPECT_TRUE(status.message().starts_with("input module is invalid: ")) << status.message();
}

TEST(PipelineTest, DisabledPassesAreSkipped) {
  PipelineOptions options;
  options.disabled_passes = {"algsimp"};
  Pipeline pipeline("disabled", options);
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<Dce>();
  auto run = RunPipeline(pipeline, kAddZero);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  ASSERT_EQ(run->log.infos.size(), 2u);
  EXPECT_TRUE(run->log.infos[0].skipped);
  EXPECT_FALSE(run->log.infos[0].changed());
  EXPECT_FALSE(run->log.infos[0].change_flag_lies());
  EXPECT_FALSE(run->log.infos[1].skipped);
  // The add of zero survives because the simplifier never ran.
  EXPECT_NE(run->module->entry()->root()->opcode(), ir::Opcode::kParameter);
}

TEST(PipelineTest, StopAfterEndsThePipeline) {
  PipelineOptions options;
  options.stop_after = "algsimp";
  Pipeline pipeline("stopped", options);
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<Dce>();
  auto run = RunPipeline(pipeline, kAddZero);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  EXPECT_EQ(run->log.events,
            (std::vector<std::string>{"begin", "before algsimp", "after algsimp", "end"}));
  // DCE did not run: the dead exponential is still there.
  EXPECT_NE(run->module->entry()->FindInstruction("unused"), nullptr);
}

TEST(PipelineTest, ForwardsDecisionsWithPassIndex) {
  Pipeline pipeline("deciding");
  pipeline.Add<Dce>();
  pipeline.Add<DecidingPass>();
  auto run = RunPipeline(pipeline, kClean);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  ASSERT_EQ(run->log.decisions.size(), 1u);
  EXPECT_EQ(run->log.decisions[0].pass, "decide");
  EXPECT_EQ(run->log.decisions[0].pass_index, 1);
  EXPECT_EQ(run->log.decisions[0].reason, FusionReason::kConsumerNotFusible);
}

TEST(PipelineTest, StatsBelongToTheirPass) {
  Pipeline pipeline("stats");
  pipeline.Add<BufferAssignment>();
  pipeline.Add<AlgebraicSimplifier>();
  auto run = RunPipeline(pipeline, kClean);
  ASSERT_TRUE(run->status.ok()) << run->status.message();
  ASSERT_EQ(run->log.infos.size(), 2u);
  const auto& stats = run->log.infos[0].stats;
  const auto peak = std::find_if(stats.begin(), stats.end(),
                                 [](const auto& stat) { return stat.first == "peak_bytes"; });
  ASSERT_NE(peak, stats.end());
  EXPECT_EQ(peak->second, "32");  // parameter and result, 16 bytes each
  EXPECT_TRUE(run->log.infos[1].stats.empty());
}

}  // namespace
}  // namespace fusescope::passes
