#include "recording/snapshot.h"

#include "gtest/gtest.h"
#include "ir/hlo_printer.h"
#include "recording_test_util.h"

namespace fusescope::recording {
namespace {

using testutil::AddToMultiplyPass;
using testutil::kSmallModule;
using testutil::ParseOrDie;

ir::PrintOptions WithIds() {
  ir::PrintOptions options;
  options.print_ids = true;
  return options;
}

void ReplaceAddWithMultiply(ir::Module& module) {
  AddToMultiplyPass pass;
  passes::PassContext context;
  StatusOr<bool> changed = pass.Run(module, context);
  ASSERT_TRUE(changed.ok() && *changed);
}

// The pieces of a snapshot put together are exactly the printed module.
TEST(SnapshotTest, TextIsThePrintedModuleWithIds) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot snapshot = Snapshot::Capture(*module, nullptr);
  EXPECT_EQ(snapshot.Text(), ir::PrintModule(*module, WithIds()));
  EXPECT_EQ(snapshot.instruction_count(), module->instruction_count());
  EXPECT_EQ(snapshot.fingerprint(), ir::Fingerprint(*module));
  ASSERT_EQ(snapshot.computations().size(), 2u);
  EXPECT_EQ(snapshot.computations()[0]->name, "add_reducer");
  EXPECT_FALSE(snapshot.computations()[0]->is_entry);
  EXPECT_EQ(snapshot.computations()[1]->name, "main");
  EXPECT_TRUE(snapshot.computations()[1]->is_entry);
  EXPECT_NE(snapshot.prologue().find("HloModule small"), std::string::npos);
}

// Each record carries what the views need without rebuilding a module.
TEST(SnapshotTest, RecordsDescribeTheirInstruction) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot snapshot = Snapshot::Capture(*module, nullptr);
  const ir::Instruction* exp = module->FindInstruction("exp.1");
  const ir::Instruction* add = module->FindInstruction("add.1");
  ASSERT_NE(exp, nullptr);
  const InstructionRecord* record = snapshot.FindInstruction(exp->id());
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record, snapshot.FindInstruction("exp.1"));
  EXPECT_EQ(record->name, "exp.1");
  EXPECT_EQ(record->computation, "main");
  EXPECT_EQ(record->opcode, "exponential");
  EXPECT_EQ(record->operand_ids, std::vector<int64_t>{add->id()});
  EXPECT_EQ(record->provenance(), exp->provenance());
  // The line as the module prints it, indentation included.
  const std::string line = ir::PrintInstruction(*exp, WithIds());
  ASSERT_GE(record->text.size(), line.size());
  EXPECT_EQ(record->text.substr(record->text.size() - line.size()), line);
  EXPECT_EQ(snapshot.FindInstruction("no.such"), nullptr);
  EXPECT_EQ(snapshot.FindInstruction(int64_t{987654}), nullptr);
  EXPECT_NE(snapshot.FindComputation("add_reducer"), nullptr);
}

// A pass that changes nothing costs no new records or computations at all.
TEST(SnapshotTest, UnchangedModuleSharesEverything) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot first = Snapshot::Capture(*module, nullptr);
  Snapshot second = Snapshot::Capture(*module, &first);
  SnapshotSharing sharing = second.SharingWith(first);
  EXPECT_EQ(sharing.instructions, 9);
  EXPECT_EQ(sharing.shared_instructions, 9);
  EXPECT_EQ(sharing.computations, 2);
  EXPECT_EQ(sharing.shared_computations, 2);
  EXPECT_EQ(&first.prologue(), &second.prologue());
}

// Only what a pass touched is new: the replaced add, and the exponential whose operand
// text changed; the reducer computation is shared whole.
TEST(SnapshotTest, ChangedInstructionsAreNewTheRestShared) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot before = Snapshot::Capture(*module, nullptr);
  ReplaceAddWithMultiply(*module);
  Snapshot after = Snapshot::Capture(*module, &before);
  SnapshotSharing sharing = after.SharingWith(before);
  EXPECT_EQ(sharing.instructions, 9);
  EXPECT_EQ(sharing.shared_instructions, 7);
  EXPECT_EQ(sharing.computations, 2);
  EXPECT_EQ(sharing.shared_computations, 1);
  EXPECT_EQ(after.FindInstruction("add.1"), nullptr);
  const InstructionRecord* multiply = after.FindInstruction("multiply");
  ASSERT_NE(multiply, nullptr);
  // The replacement inherits the replaced instruction's provenance.
  EXPECT_TRUE(multiply->provenance().Contains(before.FindInstruction("add.1")->id));
  EXPECT_EQ(multiply->provenance(), module->FindInstruction("multiply")->provenance());
  EXPECT_EQ(after.Text(), ir::PrintModule(*module, WithIds()));
}

// Provenance is part of a record: a change of provenance alone is not shared.
TEST(SnapshotTest, ProvenanceChangeIsNotShared) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot before = Snapshot::Capture(*module, nullptr);
  module->FindInstruction("p0")->mutable_provenance().Insert(424242);
  Snapshot after = Snapshot::Capture(*module, &before);
  EXPECT_EQ(after.SharingWith(before).shared_instructions, 8);
  EXPECT_TRUE(after.FindInstruction("p0")->provenance().Contains(424242));
}

// Records with equal provenance hold one shared set between them.
TEST(SnapshotTest, EqualProvenanceIsHeldOnce) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot before = Snapshot::Capture(*module, nullptr);
  const ir::ProvenanceSet merged = {1, 2, 3, 4, 5, 6, 7, 8};
  module->FindInstruction("p0")->set_provenance(merged);
  module->FindInstruction("p1")->set_provenance(merged);
  Snapshot after = Snapshot::Capture(*module, &before);
  const InstructionRecord* p0 = after.FindInstruction("p0");
  const InstructionRecord* p1 = after.FindInstruction("p1");
  EXPECT_EQ(p0->provenance(), merged);
  EXPECT_EQ(p0->provenance_set, p1->provenance_set);
  // Unchanged provenance is the previous record's set.
  EXPECT_EQ(after.FindInstruction("exp.1")->provenance_set,
            before.FindInstruction("exp.1")->provenance_set);
}

// Rebuilding gives the same module: fingerprint, names, ids and provenance.
TEST(SnapshotTest, ToModuleRoundTrips) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot before = Snapshot::Capture(*module, nullptr);
  ReplaceAddWithMultiply(*module);
  module->FindInstruction("p1")->mutable_provenance().Insert(77);
  Snapshot after = Snapshot::Capture(*module, &before);

  StatusOr<std::unique_ptr<ir::Module>> rebuilt = after.ToModule();
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
  EXPECT_EQ(ir::Fingerprint(**rebuilt), ir::Fingerprint(*module));
  EXPECT_EQ(ir::PrintModule(**rebuilt, WithIds()), ir::PrintModule(*module, WithIds()));
  for (const auto& computation : module->computations()) {
    for (const auto& instruction : computation->instructions()) {
      const ir::Instruction* copy = (*rebuilt)->FindInstruction(instruction->name());
      ASSERT_NE(copy, nullptr) << instruction->name();
      EXPECT_EQ(copy->id(), instruction->id()) << instruction->name();
      EXPECT_EQ(copy->provenance(), instruction->provenance()) << instruction->name();
    }
  }
}

// A snapshot of a module a pass broke keeps its text; rebuilding reports the damage.
TEST(SnapshotTest, BrokenSnapshotKeepsTextAndError) {
  auto module = ParseOrDie(kSmallModule);
  Snapshot snapshot = Snapshot::Capture(*module, nullptr);
  snapshot.MarkBroken("verifier said no");
  EXPECT_TRUE(snapshot.broken());
  EXPECT_EQ(snapshot.error(), "verifier said no");
  EXPECT_EQ(snapshot.Text(), ir::PrintModule(*module, WithIds()));
}

}  // namespace
}  // namespace fusescope::recording
