#ifndef FUSESCOPE_TESTS_RECORDING_RECORDING_TEST_UTIL_H_
#define FUSESCOPE_TESTS_RECORDING_RECORDING_TEST_UTIL_H_

// A small module and a handful of passes with known effects, so that recordings can be
// checked exactly: what changed, what was shared, which decisions were made, what failed.

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "ir/hlo_parser.h"
#include "ir/module.h"
#include "passes/pass.h"
#include "passes/pipeline.h"

namespace fusescope::recording::testutil {

inline constexpr std::string_view kSmallModule = R"hlo(HloModule small

%add_reducer (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %a, f32[] %b)
}

ENTRY %main (p0: f32[8], p1: f32[8]) -> f32[] {
  %p0 = f32[8]{0} parameter(0)
  %p1 = f32[8]{0} parameter(1)
  %add.1 = f32[8]{0} add(f32[8]{0} %p0, f32[8]{0} %p1)
  %exp.1 = f32[8]{0} exponential(f32[8]{0} %add.1)
  %zero = f32[] constant(0)
  ROOT %reduce.1 = f32[] reduce(f32[8]{0} %exp.1, f32[] %zero), dimensions={0}, to_apply=%add_reducer
}
)hlo";

inline std::unique_ptr<ir::Module> ParseOrDie(std::string_view text) {
  StatusOr<std::unique_ptr<ir::Module>> module = ir::ParseHloModule(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// Reports "no change" and changes nothing.
class NoOpPass : public passes::Pass {
 public:
  std::string_view name() const override { return "no-op"; }
  StatusOr<bool> Run(ir::Module&, passes::PassContext&) override { return false; }
};

// Reports "changed" and changes nothing: its flag lies.
class LyingPass : public passes::Pass {
 public:
  std::string_view name() const override { return "lying"; }
  StatusOr<bool> Run(ir::Module&, passes::PassContext&) override { return true; }
};

// Replaces the entry's first add with a multiply of the same operands.
class AddToMultiplyPass : public passes::Pass {
 public:
  std::string_view name() const override { return "add-to-multiply"; }
  StatusOr<bool> Run(ir::Module& module, passes::PassContext& context) override {
    ir::Computation* entry = module.entry();
    for (const auto& instruction : entry->instructions()) {
      if (instruction->opcode() != ir::Opcode::kAdd) continue;
      ir::Instruction* add = instruction.get();
      ir::Instruction* multiply = entry->AddInstruction(ir::Instruction::Create(
          ir::Opcode::kMultiply, add->shape(), add->operands(), module.UniqueName("multiply")));
      entry->ReplaceInstruction(add, multiply);
      context.AddStat("replaced", "1");
      return true;
    }
    return false;
  }
};

// Considers every operand -> user pair of the entry and fuses nothing: accepts pairs whose
// consumer is an exponential, refuses the rest.
class ConsiderFusionPass : public passes::Pass {
 public:
  std::string_view name() const override { return "consider-fusion"; }
  StatusOr<bool> Run(ir::Module& module, passes::PassContext& context) override {
    for (const auto& consumer : module.entry()->instructions()) {
      for (const ir::Instruction* producer : consumer->operands()) {
        context.Record(MakeRecord(*producer, *consumer));
      }
    }
    return false;
  }

 private:
  static passes::FusionDecisionRecord MakeRecord(const ir::Instruction& producer,
                                                 const ir::Instruction& consumer) {
    passes::FusionDecisionRecord record;
    record.producer_id = producer.id();
    record.producer_name = producer.name();
    record.producer_opcode = std::string(producer.opcode_name());
    record.consumer_id = consumer.id();
    record.consumer_name = consumer.name();
    record.consumer_opcode = std::string(consumer.opcode_name());
    record.computation = consumer.parent()->name();
    bool accept = consumer.opcode() == ir::Opcode::kExp;
    record.reason = accept ? passes::FusionReason::kFused : passes::FusionReason::kNotProfitable;
    record.explanation = accept ? "would fuse into loop fusion" : "the cost model says slower";
    record.fusion_name = accept ? "fusion.test" : "";
    return record;
  }
};

// Returns an error.
class FailingPass : public passes::Pass {
 public:
  std::string_view name() const override { return "failing"; }
  StatusOr<bool> Run(ir::Module&, passes::PassContext&) override {
    return Status::Error("nothing works today");
  }
};

// Gives the exponential a shape its operand cannot have, which the verifier refuses.
class BreakingPass : public passes::Pass {
 public:
  std::string_view name() const override { return "breaking"; }
  StatusOr<bool> Run(ir::Module& module, passes::PassContext&) override {
    ir::Instruction* exp = module.FindInstruction("exp.1");
    StatusOr<ir::Shape> shape = ir::ParseShape("f32[4]{0}");
    if (exp == nullptr || !shape.ok()) return Status::Error("test module lacks exp.1");
    exp->set_shape(*shape);
    return true;
  }
};

// A fresh directory under the system temp dir, removed with the object.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string name = std::string("fusescope_recording_test_") + std::to_string(getpid()) + "_" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name();
    // A parameterized test's name ends in "/N": one folder, not a folder left behind in another.
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
  std::string File(std::string_view name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace fusescope::recording::testutil

#endif  // FUSESCOPE_TESTS_RECORDING_RECORDING_TEST_UTIL_H_
