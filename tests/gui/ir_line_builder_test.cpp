#include "views/qt/text/ir_line_builder.h"

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"
#include "recording/snapshot.h"

namespace fusescope::views {
namespace {

// The snapshot's id marker disappears with one of the spaces around it.
TEST(IrLineBuilderTest, StripsIdMarker) {
  EXPECT_EQ(IrLineBuilder::StripIdMarker("  %add.1 /*id=7*/ = f32[] add(%a, %b)"),
            "  %add.1 = f32[] add(%a, %b)");
  EXPECT_EQ(IrLineBuilder::StripIdMarker("  add.1/*id=7*/ = f32[] add(a, b)"),
            "  add.1 = f32[] add(a, b)");
  EXPECT_EQ(IrLineBuilder::StripIdMarker("ENTRY main {"), "ENTRY main {");
}

constexpr char kBefore[] = R"(HloModule m

ENTRY main {
  p.1 = f32[8]{0} parameter(0)
  n.2 = f32[8]{0} negate(p.1)
  e.3 = f32[8]{0} exponential(n.2)
  ROOT a.4 = f32[8]{0} add(e.3, p.1)
}
)";

// A removed instruction appears in the merged text right after the instruction that
// preceded it, marked from the before side; the others come from the after side.
TEST(IrLineBuilderTest, MergesRemovedLinesInPlace) {
  auto before = ir::ParseHloModule(kBefore);
  ASSERT_TRUE(before.ok()) << before.message();
  auto after = (*before)->Clone();
  ir::Computation* entry = after->entry();
  ir::Instruction* exp = entry->FindInstruction("e.3");
  ir::Instruction* neg = entry->FindInstruction("n.2");
  exp->ReplaceOperandWith(neg, entry->FindInstruction("p.1"));
  entry->RemoveInstruction(neg);
  const recording::Snapshot left = recording::Snapshot::Capture(**before, nullptr);
  const recording::Snapshot right = recording::Snapshot::Capture(*after, &left);
  const int64_t removed_id = (*before)->entry()->FindInstruction("n.2")->id();
  auto left_status = [removed_id](int64_t id) {
    return id == removed_id ? ir::DiffStatus::kRemoved : ir::DiffStatus::kUnchanged;
  };
  auto right_status = [](int64_t) { return ir::DiffStatus::kUnchanged; };
  IrLineBuilder builder(left, right, left_status, right_status);
  std::vector<IrLine> merged = builder.Merged();
  std::vector<std::string> names;
  for (const IrLine& line : merged) {
    if (line.instruction_id < 0) continue;
    names.push_back(line.text.substr(2, 3) + (line.side == GraphSide::kBefore ? "-" : ""));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"p.1", "n.2-", "e.3", "ROO"}));
  EXPECT_EQ(builder.Side(GraphSide::kBefore).size(), builder.Side(GraphSide::kAfter).size() + 1);
}

}  // namespace
}  // namespace fusescope::views
