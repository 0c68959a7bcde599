#include "views/display_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "tests/views/view_test_modules.h"

namespace fusescope::views {
namespace {

using testing::kScopedModule;
using testing::LayeredModule;
using testing::ParseOrDie;

std::vector<std::string> ChildKeys(const DisplayGraph& graph, int id) {
  std::vector<std::string> keys;
  for (int child : graph.node(id).children) keys.push_back(graph.node(child).key);
  return keys;
}

int NodeOf(const DisplayGraph& graph, const ir::Module& module, std::string_view name) {
  int id = graph.FindInstruction(module.FindInstruction(name));
  EXPECT_GE(id, 0) << name;
  return id;
}

const DisplayEdge* EdgeBetween(const DisplayGraph& graph, int from, int to) {
  for (const DisplayEdge& edge : graph.edges()) {
    if (edge.from == from && edge.to == to) return &edge;
  }
  return nullptr;
}

TEST(ScopePathTest, SplitsOnSlashesOutsideParentheses) {
  EXPECT_EQ(ScopePath("jit(f)/dense_1/dot"), (std::vector<std::string>{"jit(f)", "dense_1"}));
  EXPECT_EQ(ScopePath("jit(f)/transpose(jvp(a/b))/dot"),
            (std::vector<std::string>{"jit(f)", "transpose(jvp(a/b))"}));
  EXPECT_TRUE(ScopePath("dot").empty());
  EXPECT_TRUE(ScopePath("").empty());
}

TEST(DisplayGraphTest, FusionsAndScopesBecomeBoxes) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  int jit = graph.FindKey("s:jit(f)");
  ASSERT_GE(jit, 0);
  EXPECT_EQ(graph.node(jit).kind, DisplayNodeKind::kScope);
  EXPECT_EQ(ChildKeys(graph, jit), (std::vector<std::string>{"s:jit(f)/dense", "s:jit(f)/head"}));

  const ir::Instruction* fusion = module->FindInstruction("fusion.1");
  int box = graph.FindInstruction(fusion);
  ASSERT_GE(box, 0);
  EXPECT_EQ(graph.node(box).kind, DisplayNodeKind::kFusion);
  EXPECT_EQ(graph.node(box).subtitle, "kLoop, 2 ops");
  EXPECT_EQ(graph.node(graph.node(box).parent).key, "s:jit(f)/dense");
  EXPECT_EQ(graph.node(box).children.size(), 4u);  // two parameters, add, exp

  // The fusion's input enters at its fused parameter; its output leaves from its root.
  const DisplayEdge* in =
      EdgeBetween(graph, NodeOf(graph, *module, "m"), NodeOf(graph, *module, "param_0"));
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->user, fusion);
  EXPECT_EQ(in->label, "f32[8]");
  EXPECT_NE(EdgeBetween(graph, NodeOf(graph, *module, "exp.11"), NodeOf(graph, *module, "n")),
            nullptr);
  EXPECT_EQ(graph.instruction_node_count(), module->instruction_count() - 1);
}

// A module of functions, as an MLIR log imports: each function is a box holding its body, and
// the first picture opens it instead of showing one opaque node per function.
TEST(DisplayGraphTest, FunctionsAreBoxesTheFirstPictureOpens) {
  auto module = ParseOrDie(R"(HloModule m
helper_body {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
main_body {
  q = f32[4] parameter(0)
  e = f32[4] exponential(q)
  ROOT t = f32[4] tanh(e)
}
ENTRY e {
  helper = () func.func(), calls=helper_body
  ROOT main = () func.func(), calls=main_body
})");
  DisplayGraph graph = DisplayGraph::Build(*module);
  const int main = graph.FindInstruction(module->FindInstruction("main"));
  ASSERT_GE(main, 0);
  EXPECT_EQ(graph.node(main).kind, DisplayNodeKind::kScope);
  EXPECT_EQ(graph.node(main).key, "r" + std::to_string(module->FindInstruction("main")->id()));
  EXPECT_EQ(graph.node(main).subtitle, "func.func, 3 ops");
  EXPECT_EQ(graph.node(main).children.size(), 3u);
  EXPECT_NE(EdgeBetween(graph, NodeOf(graph, *module, "e"), NodeOf(graph, *module, "t")), nullptr);
  graph.ExpandToBudget(40);
  EXPECT_TRUE(graph.node(main).expanded);
  EXPECT_TRUE(graph.IsVisible(NodeOf(graph, *module, "t")));
}

TEST(DisplayGraphTest, HiddenTuplesAreLookedThrough) {
  auto module = ParseOrDie(kScopedModule);
  DisplayOptions options;
  options.hide_tuples = true;
  options.hide_get_tuple_elements = true;
  DisplayGraph graph = DisplayGraph::Build(*module, options);
  EXPECT_LT(graph.FindInstruction(module->FindInstruction("t")), 0);
  EXPECT_LT(graph.FindInstruction(module->FindInstruction("g")), 0);
  int r = NodeOf(graph, *module, "r");
  // g = get-tuple-element(t), index=1 and t = tuple(s, m): r reads m.
  EXPECT_NE(EdgeBetween(graph, NodeOf(graph, *module, "m"), r), nullptr);
  EXPECT_EQ(EdgeBetween(graph, NodeOf(graph, *module, "s"), r), nullptr);
}

TEST(DisplayGraphTest, ShownGetTupleElementReadsOneElementOfAHiddenTuple) {
  auto module = ParseOrDie(kScopedModule);
  DisplayOptions options;
  options.hide_tuples = true;
  DisplayGraph graph = DisplayGraph::Build(*module, options);
  int g = NodeOf(graph, *module, "g");
  EXPECT_NE(EdgeBetween(graph, NodeOf(graph, *module, "m"), g), nullptr);
  EXPECT_EQ(EdgeBetween(graph, NodeOf(graph, *module, "s"), g), nullptr);
  EXPECT_NE(EdgeBetween(graph, g, NodeOf(graph, *module, "r")), nullptr);
}

TEST(DisplayGraphTest, HiddenParametersAndConstantsLeaveNoEdges) {
  auto module = ParseOrDie(kScopedModule);
  DisplayOptions options;
  options.hide_parameters = true;
  options.hide_constants = true;
  DisplayGraph graph = DisplayGraph::Build(*module, options);
  EXPECT_LT(graph.FindInstruction(module->FindInstruction("x")), 0);
  EXPECT_LT(graph.FindInstruction(module->FindInstruction("c")), 0);
  EXPECT_LT(graph.FindInstruction(module->FindInstruction("param_0")), 0);
  // Through the hidden fused parameter, the fusion's body reads m directly.
  const DisplayEdge* into_body =
      EdgeBetween(graph, NodeOf(graph, *module, "m"), NodeOf(graph, *module, "add.10"));
  ASSERT_NE(into_body, nullptr);
  // A decision about m and the fusion still finds that edge.
  EXPECT_EQ(graph.AnnotateEdge(module->FindInstruction("m")->id(),
                               module->FindInstruction("fusion.1")->id(), "too big", true),
            1);
  EXPECT_EQ(into_body->note, "too big");
  for (const DisplayEdge& edge : graph.edges()) {
    EXPECT_NE(graph.node(edge.from).instruction->opcode(), ir::Opcode::kParameter);
  }
}

TEST(DisplayGraphTest, ScopeChainsMergeAndSingleItemScopesDissolve) {
  auto module = ParseOrDie(R"(HloModule m
ENTRY main {
  p = f32[4]{0} parameter(0)
  a = f32[4]{0} negate(p), metadata={op_name="jit(f)/outer/inner/neg"}
  b = f32[4]{0} exponential(a), metadata={op_name="jit(f)/outer/inner/exp"}
  ROOT c = f32[4]{0} tanh(b), metadata={op_name="jit(f)/lonely/tanh"}
}
)");
  DisplayGraph graph = DisplayGraph::Build(*module);
  int merged = graph.FindKey("s:jit(f)/outer/inner");
  ASSERT_GE(merged, 0);
  EXPECT_EQ(graph.node(merged).title, "outer/inner");
  EXPECT_LT(graph.FindKey("s:jit(f)/outer"), 0);
  EXPECT_LT(graph.FindKey("s:jit(f)/lonely"), 0);
  EXPECT_EQ(graph.node(NodeOf(graph, *module, "c")).parent, graph.FindKey("s:jit(f)"));
}

TEST(DisplayGraphTest, LargeLevelsAreSplitIntoGroups) {
  auto module = ParseOrDie(LayeredModule(1, 500, false));
  DisplayOptions options;
  options.max_children = 40;
  DisplayGraph graph = DisplayGraph::Build(*module, options);
  EXPECT_LE(graph.top_level().size(), 40u);
  int64_t leaves = 0;
  for (const DisplayNode& node : graph.nodes()) {
    EXPECT_LE(node.children.size(), 40u) << node.key;
    if (!node.is_box()) ++leaves;
  }
  EXPECT_EQ(leaves, module->instruction_count());
  graph.ExpandAll();
  EXPECT_EQ(graph.VisibleNodeCount(), static_cast<int64_t>(graph.nodes().size()));
}

TEST(DisplayGraphTest, ExpandToBudgetStaysWithinBudget) {
  auto module = ParseOrDie(LayeredModule(30, 20));
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandToBudget(60);
  int64_t visible = graph.VisibleNodeCount();
  EXPECT_LE(visible, 60);
  EXPECT_GT(visible, static_cast<int64_t>(graph.top_level().size()));
  graph.CollapseAll();
  EXPECT_EQ(graph.VisibleNodeCount(), static_cast<int64_t>(graph.top_level().size()));
}

TEST(DisplayGraphTest, RepresentativeIsTheOutermostCollapsedBox) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  int add = NodeOf(graph, *module, "add.10");
  int jit = graph.FindKey("s:jit(f)");
  graph.CollapseAll();
  EXPECT_EQ(graph.Representative(add), jit);
  EXPECT_FALSE(graph.IsVisible(add));
  graph.ExpandAll();
  EXPECT_EQ(graph.Representative(add), add);
  EXPECT_TRUE(graph.IsVisible(add));
}

TEST(DisplayGraphTest, ExpandedKeysCarryToAnotherSnapshot) {
  auto module = ParseOrDie(kScopedModule);
  auto again = ParseOrDie(kScopedModule);
  DisplayGraph first = DisplayGraph::Build(*module);
  first.SetExpanded(first.FindKey("s:jit(f)"), true);
  first.SetExpanded(first.FindKey("s:jit(f)/head"), true);
  DisplayGraph second = DisplayGraph::Build(*again);
  second.ApplyExpandedKeys(first.ExpandedKeys());
  EXPECT_TRUE(second.node(second.FindKey("s:jit(f)/head")).expanded);
  EXPECT_FALSE(second.node(second.FindKey("s:jit(f)/dense")).expanded);
}

TEST(DisplayGraphTest, DiffStatusReachesNodesAndBoxes) {
  auto left = ParseOrDie(kScopedModule);
  std::string changed(kScopedModule);
  changed.replace(changed.find("sine(n)"), 7, "cosine(n)");
  auto right = ParseOrDie(changed);
  ir::GraphDiff diff = ir::GraphDiff::Compute(*left, *right, ir::DiffOptions::Unrelated());
  DisplayGraph graph = DisplayGraph::Build(*right);
  graph.AttachDiff(diff, false);
  EXPECT_EQ(graph.node(NodeOf(graph, *right, "s")).diff, ir::DiffStatus::kChanged);
  EXPECT_EQ(graph.node(NodeOf(graph, *right, "s")).diff_changes,
            static_cast<uint32_t>(ir::kChangeOpcode));
  EXPECT_EQ(graph.node(graph.FindKey("s:jit(f)/head")).diff, ir::DiffStatus::kChanged);
  EXPECT_EQ(graph.node(graph.FindKey("s:jit(f)/dense")).diff, ir::DiffStatus::kUnchanged);
}

TEST(DisplayGraphTest, EdgeNotesFindTheProducerConsumerPair) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  const ir::Instruction* m = module->FindInstruction("m");
  const ir::Instruction* fusion = module->FindInstruction("fusion.1");
  EXPECT_EQ(graph.AnnotateEdge(m->id(), fusion->id(), "would create a cycle", true), 1);
  const DisplayEdge* edge =
      EdgeBetween(graph, NodeOf(graph, *module, "m"), NodeOf(graph, *module, "param_0"));
  ASSERT_NE(edge, nullptr);
  EXPECT_TRUE(edge->refused);
  EXPECT_EQ(edge->note, "would create a cycle");
  graph.AnnotateEdge(m->id(), fusion->id(), "would create a cycle", true);
  EXPECT_EQ(edge->note, "would create a cycle");
  EXPECT_EQ(graph.AnnotateEdge(fusion->id(), m->id(), "no such edge", true), 0);
}

}  // namespace
}  // namespace fusescope::views
