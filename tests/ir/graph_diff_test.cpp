#include "ir/graph_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ir/hlo_parser.h"

namespace fusescope::ir {
namespace {

std::unique_ptr<Module> Parse(std::string_view text) {
  StatusOr<std::unique_ptr<Module>> module = ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// Gives `right` the ids and provenance of the same-named instructions of `left`, as a pass
// that kept them would do; other instructions get fresh ids. `origins` then sets the
// provenance of chosen right instructions to the union of named left instructions'.
void Relate(const Module& left, Module& right,
            const std::map<std::string, std::vector<std::string>>& origins = {}) {
  int64_t fresh = 1000000;
  for (const auto& computation : right.computations()) {
    for (const auto& instruction : computation->instructions()) {
      const Instruction* same = left.FindInstruction(instruction->name());
      instruction->set_id(same != nullptr ? same->id() : fresh++);
      instruction->set_provenance(same != nullptr ? same->provenance()
                                                  : ProvenanceSet{instruction->id()});
    }
  }
  for (const auto& [name, sources] : origins) {
    ProvenanceSet provenance;
    for (const std::string& source : sources) {
      provenance.Union(left.FindInstruction(source)->provenance());
    }
    right.FindInstruction(name)->set_provenance(provenance);
  }
}

const InstructionDiff& Left(const GraphDiff& diff, const Module& module, std::string_view name) {
  const InstructionDiff* entry = diff.ForLeft(module.FindInstruction(name));
  EXPECT_NE(entry, nullptr) << name;
  static const InstructionDiff kMissing;
  return entry != nullptr ? *entry : kMissing;
}

std::vector<std::string> Names(const std::vector<const Instruction*>& instructions) {
  std::vector<std::string> names;
  for (const Instruction* instruction : instructions) names.push_back(instruction->name());
  return names;
}

constexpr std::string_view kChain = R"(HloModule m

ENTRY main {
  p0 = f32[8,16]{1,0} parameter(0)
  p1 = f32[8,16]{1,0} parameter(1)
  add.1 = f32[8,16]{1,0} add(p0, p1)
  multiply.2 = f32[8,16]{1,0} multiply(add.1, p1)
  exponential.3 = f32[8,16]{1,0} exponential(multiply.2)
  ROOT negate.4 = f32[8,16]{1,0} negate(exponential.3)
}
)";

// The same text with one line replaced.
std::string ChainWith(std::string_view old_line, std::string_view new_line) {
  std::string text(kChain);
  size_t at = text.find(old_line);
  EXPECT_NE(at, std::string::npos) << old_line;
  return text.replace(at, old_line.size(), new_line);
}

TEST(GraphDiffTest, IdenticalModulesAreUnchanged) {
  auto left = Parse(kChain);
  auto right = Parse(kChain);
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  EXPECT_EQ(diff.counts().unchanged, 6);
  EXPECT_FALSE(diff.counts().any_difference());
  EXPECT_TRUE(diff.Statements().empty());
  EXPECT_EQ(diff.CountsLine(), "6 unchanged, 0 changed, 0 added, 0 removed, 0 fused, 0 replaced");
  EXPECT_EQ(Left(diff, *left, "add.1").match, MatchKind::kId);
}

TEST(GraphDiffTest, LayoutChangeIsALayoutChangeOnly) {
  auto left = Parse(kChain);
  auto right = Parse(ChainWith("multiply.2 = f32[8,16]{1,0}", "multiply.2 = f32[8,16]{0,1}"));
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  const InstructionDiff& entry = Left(diff, *left, "multiply.2");
  EXPECT_EQ(entry.status, DiffStatus::kChanged);
  EXPECT_EQ(entry.changes, static_cast<uint32_t>(kChangeLayout));
  EXPECT_EQ(GraphDiff::DescribeEntry(entry), "changed %multiply.2: layout {1,0} -> {0,1}");
  // Its user still reads the same instruction.
  EXPECT_EQ(Left(diff, *left, "exponential.3").status, DiffStatus::kUnchanged);
  EXPECT_EQ(diff.counts().changed, 1);
}

TEST(GraphDiffTest, OpcodeAndShapeChangesAreNamed) {
  auto left = Parse(kChain);
  auto right = Parse(ChainWith("multiply.2 = f32[8,16]{1,0} multiply(add.1, p1)",
                               "multiply.2 = f32[8,16]{1,0} subtract(add.1, p1)"));
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  const InstructionDiff& entry = Left(diff, *left, "multiply.2");
  EXPECT_EQ(entry.status, DiffStatus::kChanged);
  EXPECT_EQ(entry.changes, static_cast<uint32_t>(kChangeOpcode));
  EXPECT_EQ(GraphDiff::DescribeEntry(entry), "changed %multiply.2: opcode multiply -> subtract");
  EXPECT_EQ(DescribeChanges(kChangeShape | kChangeOperands), "shape, operands");
}

TEST(GraphDiffTest, AttributeChangeIsReported) {
  constexpr std::string_view kLeft = R"(HloModule m
ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  ROOT compare.1 = pred[4]{0} compare(p0, p1), direction=LT
}
)";
  std::string right_text(kLeft);
  right_text.replace(right_text.find("LT"), 2, "GT");
  auto left = Parse(kLeft);
  auto right = Parse(right_text);
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  EXPECT_EQ(Left(diff, *left, "compare.1").changes, static_cast<uint32_t>(kChangeAttributes));
}

TEST(GraphDiffTest, RemovedAndAddedInstructions) {
  std::string text = ChainWith("exponential.3 = f32[8,16]{1,0} exponential(multiply.2)",
                               "copy.9 = f32[8,16]{1,0} copy(p0)");
  text.replace(text.find("negate(exponential.3)"), 21, "negate(multiply.2)");
  auto left = Parse(kChain);
  auto right = Parse(text);
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  EXPECT_EQ(Left(diff, *left, "exponential.3").status, DiffStatus::kRemoved);
  const InstructionDiff& negate = Left(diff, *left, "negate.4");
  EXPECT_EQ(negate.status, DiffStatus::kChanged);
  EXPECT_EQ(negate.changes, static_cast<uint32_t>(kChangeOperands));
  EXPECT_EQ(diff.RightStatus(right->FindInstruction("copy.9")), DiffStatus::kAdded);
  EXPECT_EQ(diff.counts().added, 1);
  EXPECT_EQ(diff.counts().removed, 1);
  std::string text_report = diff.ToText();
  EXPECT_NE(text_report.find("removed %exponential.3 (exponential)"), std::string::npos);
  EXPECT_NE(text_report.find("added %copy.9 (copy)"), std::string::npos);
  EXPECT_NE(text_report.find("changed %negate.4: operands"), std::string::npos);
}

constexpr std::string_view kFused = R"(HloModule m

fused_computation.3 {
  param_0 = f32[8,16]{1,0} parameter(0)
  param_1 = f32[8,16]{1,0} parameter(1)
  add.1.clone = f32[8,16]{1,0} add(param_0, param_1)
  multiply.2.clone = f32[8,16]{1,0} multiply(add.1.clone, param_1)
  ROOT exponential.3.clone = f32[8,16]{1,0} exponential(multiply.2.clone)
}

ENTRY main {
  p0 = f32[8,16]{1,0} parameter(0)
  p1 = f32[8,16]{1,0} parameter(1)
  fusion.3 = f32[8,16]{1,0} fusion(p0, p1), kind=kLoop, calls=fused_computation.3
  ROOT negate.4 = f32[8,16]{1,0} negate(fusion.3)
}
)";

TEST(GraphDiffTest, FusedInstructionsBecomeTheFusion) {
  auto left = Parse(kChain);
  auto right = Parse(kFused);
  Relate(*left, *right,
         {{"fusion.3", {"add.1", "multiply.2", "exponential.3"}},
          {"add.1.clone", {"add.1"}},
          {"multiply.2.clone", {"multiply.2"}},
          {"exponential.3.clone", {"exponential.3"}}});
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  ASSERT_EQ(diff.fusion_groups().size(), 1u);
  const FusionGroup& group = diff.fusion_groups()[0];
  EXPECT_EQ(group.fusion->name(), "fusion.3");
  EXPECT_TRUE(group.new_fusion);
  EXPECT_EQ(Names(group.members),
            (std::vector<std::string>{"add.1", "multiply.2", "exponential.3"}));
  ASSERT_EQ(diff.Statements().size(), 1u);
  EXPECT_EQ(diff.Statements()[0],
            "3 instructions became fusion.3 (kLoop): add.1, multiply.2, exponential.3");

  const InstructionDiff& add = Left(diff, *left, "add.1");
  EXPECT_EQ(add.status, DiffStatus::kFused);
  EXPECT_EQ(add.target, right->FindInstruction("fusion.3"));
  EXPECT_EQ(add.right, right->FindInstruction("add.1.clone"));
  EXPECT_EQ(diff.RightStatus(right->FindInstruction("add.1.clone")), DiffStatus::kFused);
  EXPECT_EQ(diff.RightStatus(right->FindInstruction("fusion.3")), DiffStatus::kAdded);
  EXPECT_EQ(Left(diff, *left, "negate.4").changes, static_cast<uint32_t>(kChangeOperands));
  // The fused parameters are part of the new fusion, not separate additions.
  EXPECT_EQ(diff.counts().added, 1);
  EXPECT_EQ(diff.counts().fused, 3);
}

TEST(GraphDiffTest, FusionProvenanceAloneIsEnough) {
  auto left = Parse(kChain);
  auto right = Parse(kFused);
  Relate(*left, *right, {{"fusion.3", {"add.1", "multiply.2", "exponential.3"}}});
  GraphDiff diff = GraphDiff::Compute(*left, *right, {true, true, false, false});
  ASSERT_EQ(diff.fusion_groups().size(), 1u);
  EXPECT_EQ(diff.fusion_groups()[0].members.size(), 3u);
  const InstructionDiff& multiply = Left(diff, *left, "multiply.2");
  EXPECT_EQ(multiply.status, DiffStatus::kFused);
  EXPECT_EQ(multiply.right, right->FindInstruction("fusion.3"));
  EXPECT_EQ(GraphDiff::DescribeEntry(multiply), "fused %multiply.2 into %fusion.3");
}

TEST(GraphDiffTest, CseSurvivorReplacesItsTwin) {
  constexpr std::string_view kLeft = R"(HloModule m
ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  add.1 = f32[4]{0} add(p0, p1)
  add.2 = f32[4]{0} add(p0, p1)
  ROOT multiply.3 = f32[4]{0} multiply(add.1, add.2)
}
)";
  constexpr std::string_view kRight = R"(HloModule m
ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  add.1 = f32[4]{0} add(p0, p1)
  ROOT multiply.3 = f32[4]{0} multiply(add.1, add.1)
}
)";
  auto left = Parse(kLeft);
  auto right = Parse(kRight);
  Relate(*left, *right, {{"add.1", {"add.1", "add.2"}}});
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  const InstructionDiff& twin = Left(diff, *left, "add.2");
  EXPECT_EQ(twin.status, DiffStatus::kReplaced);
  EXPECT_EQ(twin.target, right->FindInstruction("add.1"));
  EXPECT_EQ(Left(diff, *left, "add.1").status, DiffStatus::kUnchanged);
  ASSERT_EQ(diff.Statements().size(), 1u);
  EXPECT_EQ(diff.Statements()[0], "add.2 was replaced by add.1");
  EXPECT_EQ(Left(diff, *left, "multiply.3").changes, static_cast<uint32_t>(kChangeOperands));
}

TEST(GraphDiffTest, EqualProvenancePairsARewrittenInstruction) {
  auto left = Parse(kChain);
  std::string text = ChainWith("multiply.2 = f32[8,16]{1,0} multiply(add.1, p1)",
                               "divide.8 = f32[8,16]{1,0} divide(add.1, p1)");
  text.replace(text.find("exponential(multiply.2)"), 23, "exponential(divide.8)");
  auto right = Parse(text);
  Relate(*left, *right, {{"divide.8", {"multiply.2"}}});
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  const InstructionDiff& entry = Left(diff, *left, "multiply.2");
  EXPECT_EQ(entry.match, MatchKind::kProvenance);
  EXPECT_EQ(entry.status, DiffStatus::kChanged);
  EXPECT_EQ(entry.changes, static_cast<uint32_t>(kChangeOpcode | kChangeName));
  EXPECT_EQ(Left(diff, *left, "exponential.3").status, DiffStatus::kUnchanged);
}

TEST(GraphDiffTest, UnrelatedModulesMatchByNameThenStructure) {
  auto left = Parse(kChain);
  std::string text = ChainWith("multiply.2 = f32[8,16]{1,0} multiply(add.1, p1)",
                               "mul.7 = f32[8,16]{1,0} multiply(add.1, p1)");
  text.replace(text.find("exponential(multiply.2)"), 23, "exponential(mul.7)");
  auto right = Parse(text);
  GraphDiff diff = GraphDiff::Compute(*left, *right, DiffOptions::Unrelated());
  const InstructionDiff& renamed = Left(diff, *left, "multiply.2");
  EXPECT_EQ(renamed.match, MatchKind::kStructure);
  EXPECT_EQ(renamed.right, right->FindInstruction("mul.7"));
  EXPECT_EQ(renamed.changes, static_cast<uint32_t>(kChangeName));
  EXPECT_EQ(Left(diff, *left, "exponential.3").status, DiffStatus::kUnchanged);
  EXPECT_EQ(Left(diff, *left, "add.1").match, MatchKind::kName);
}

TEST(GraphDiffTest, ChangedFusionBodyMarksTheFusion) {
  std::string body_changed(kFused);
  body_changed.replace(body_changed.find("exponential(multiply.2.clone)"), 29,
                       "tanh(multiply.2.clone)");
  auto left = Parse(kFused);
  auto right = Parse(body_changed);
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  EXPECT_EQ(Left(diff, *left, "exponential.3.clone").changes, static_cast<uint32_t>(kChangeOpcode));
  const InstructionDiff& fusion = Left(diff, *left, "fusion.3");
  EXPECT_EQ(fusion.status, DiffStatus::kChanged);
  EXPECT_EQ(fusion.changes, static_cast<uint32_t>(kChangeCalled));
  EXPECT_EQ(Left(diff, *left, "negate.4").status, DiffStatus::kUnchanged);
}

TEST(GraphDiffTest, EveryInstructionOfALongChainIsMatched) {
  std::string text = "HloModule big\n\nENTRY main {\n  x.0 = f32[16]{0} parameter(0)\n";
  constexpr int kLength = 20000;
  for (int i = 1; i <= kLength; ++i) {
    text += "  x." + std::to_string(i) + " = f32[16]{0} " + (i % 2 ? "negate" : "exponential") +
            "(x." + std::to_string(i - 1) + ")\n";
  }
  text += "  ROOT out = f32[16]{0} copy(x." + std::to_string(kLength) + ")\n}\n";
  auto left = Parse(text);
  auto right = Parse(text);
  Relate(*left, *right);
  GraphDiff diff = GraphDiff::Compute(*left, *right);
  EXPECT_EQ(diff.counts().unchanged, kLength + 2);
  GraphDiff unrelated = GraphDiff::Compute(*left, *right, {false, false, false, true});
  EXPECT_EQ(unrelated.counts().unchanged, kLength + 2);
}

// XLA's own instruction fusion pass, as dumped: the files parse separately, so nothing but
// names and structure relate them, and fused clones are renamed.
TEST(GraphDiffTest, XlaFusionPassDumpIsReadAsFusions) {
  const std::string dir = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/xla_dump_mlp/";
  auto left = ParseHloFile(dir +
                           "module_0000.jit_mlp.0022.after_layout_assignment.after_pipeline-start."
                           "before_pipeline-end.txt");
  auto right = ParseHloFile(dir +
                            "module_0000.jit_mlp.0023.HLO_passes_after_layout_assignment."
                            "after_fusion.before_fusion-wrapper.txt");
  ASSERT_TRUE(left.ok()) << left.message();
  ASSERT_TRUE(right.ok()) << right.message();
  GraphDiff diff = GraphDiff::Compute(**left, **right, DiffOptions::Unrelated());
  const FusionGroup* relu = nullptr;
  for (const FusionGroup& group : diff.fusion_groups()) {
    if (group.fusion->name() == "broadcast_maximum_fusion.1") relu = &group;
  }
  ASSERT_NE(relu, nullptr) << diff.ToText();
  EXPECT_TRUE(relu->new_fusion);
  std::vector<std::string> members = Names(relu->members);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<std::string>{"add.14", "add.15", "max.0", "max.1"}));
  // The custom dot fusions existed before and after.
  EXPECT_EQ(diff.LeftStatus((*left)->FindInstruction("ynn_fusion.2")), DiffStatus::kUnchanged);
  const DiffCounts& c = diff.counts();
  EXPECT_EQ(c.unchanged + c.changed + c.removed + c.fused + c.replaced,
            (*left)->instruction_count());

  // With default options the fresh ids of the two parses are noticed and not trusted.
  GraphDiff by_default = GraphDiff::Compute(**left, **right);
  EXPECT_FALSE(by_default.used_ids());
  EXPECT_EQ(by_default.ToText(), diff.ToText());
}

}  // namespace
}  // namespace fusescope::ir
