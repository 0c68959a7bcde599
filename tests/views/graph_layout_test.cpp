#include "views/graph_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "tests/views/view_test_modules.h"
#include "views/diff_layout.h"
#include "views/layout_cache.h"

namespace fusescope::views {
namespace {

using testing::kScopedModule;
using testing::LayeredModule;
using testing::ParseOrDie;

bool Overlap(const Rect& a, const Rect& b) {
  return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

// Distance from a point to a rectangle's border region (0 when on or inside it).
double DistanceTo(const Rect& rect, Point p) {
  double dx = std::max({rect.x - p.x, 0.0, p.x - rect.right()});
  double dy = std::max({rect.y - p.y, 0.0, p.y - rect.bottom()});
  return std::hypot(dx, dy);
}

LayoutOptions PrivateCache(LayoutCache& cache) {
  LayoutOptions options;
  options.cache = &cache;
  return options;
}

// Every visible node is placed once, siblings never overlap, children lie inside their
// expanded box, and every route runs from its source's border to its target's.
void ExpectSound(const DisplayGraph& graph, const GraphLayout& layout) {
  std::vector<int> visible = graph.VisibleNodes();
  ASSERT_EQ(layout.nodes().size(), visible.size());
  for (int id : visible) {
    const NodePlacement* placement = layout.Find(id);
    ASSERT_NE(placement, nullptr) << graph.node(id).key;
    int parent = graph.node(id).parent;
    if (parent >= 0) {
      EXPECT_TRUE(layout.Find(parent)->rect.Contains(placement->rect)) << graph.node(id).key;
    }
    for (int other : visible) {
      if (other != id && graph.node(other).parent == parent) {
        EXPECT_FALSE(Overlap(placement->rect, layout.Find(other)->rect))
            << graph.node(id).key << " overlaps " << graph.node(other).key;
      }
    }
  }
  for (const EdgeRoute& route : layout.edges()) {
    ASSERT_GE(route.path.size(), 4u);
    EXPECT_EQ((route.path.size() - 1) % 3, 0u);
    EXPECT_LT(DistanceTo(layout.Find(route.from)->rect, route.path.front()), 3.0);
    EXPECT_LT(DistanceTo(layout.Find(route.to)->rect, route.path.back()), 3.0);
  }
}

TEST(GraphLayoutTest, NestedBoxesAreSound) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandAll();
  LayoutCache cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  ExpectSound(graph, *layout);
  EXPECT_GT(layout->width(), 0);
  // A route for each producer/consumer pair: the multiply feeds the fusion's parameter.
  EXPECT_EQ(layout->edges().size(), graph.edges().size());
}

TEST(GraphLayoutTest, ProducersSitAboveConsumers) {
  auto module = ParseOrDie(LayeredModule(1, 12, false));
  DisplayGraph graph = DisplayGraph::Build(*module);
  LayoutCache cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  for (const DisplayEdge& edge : graph.edges()) {
    EXPECT_LT(layout->Find(edge.from)->rect.bottom(), layout->Find(edge.to)->rect.y);
  }
}

TEST(GraphLayoutTest, CollapsedBoxIsOneNode) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.CollapseAll();
  LayoutCache cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  EXPECT_EQ(layout->nodes().size(), graph.top_level().size());
  EXPECT_EQ(layout->Find(graph.FindInstruction(module->FindInstruction("add.10"))), nullptr);
  EXPECT_EQ(layout->graphviz_calls(), 1);
  ExpectSound(graph, *layout);
}

TEST(GraphLayoutTest, CachedPiecesAreReused) {
  auto module = ParseOrDie(LayeredModule(6, 10));
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandAll();
  LayoutCache cache;
  StatusOr<GraphLayout> first = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_GT(first->graphviz_calls(), 1);
  StatusOr<GraphLayout> second = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->graphviz_calls(), 0);
  EXPECT_GT(cache.hits(), 0);
  EXPECT_EQ(cache.size(), static_cast<size_t>(first->graphviz_calls()));
  // Layers of equal shape share one piece layout already within the first run.
  EXPECT_EQ(second->cached_pieces(), first->graphviz_calls() + first->cached_pieces());
  // Collapsing one box re-lays out only the levels that contain it.
  graph.SetExpanded(graph.FindKey("s:jit(f)/layer_2"), false);
  StatusOr<GraphLayout> third = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(third.ok());
  EXPECT_GT(third->graphviz_calls(), 0);
  EXPECT_LT(third->graphviz_calls(), first->graphviz_calls());
  EXPECT_EQ(first->nodes().size(), second->nodes().size());
  EXPECT_EQ(first->nodes()[3].rect.x, second->nodes()[3].rect.x);
}

TEST(GraphLayoutTest, EverythingHiddenGivesAnEmptyPicture) {
  auto module = ParseOrDie("HloModule m\nENTRY main {\n  ROOT p = f32[4]{0} parameter(0)\n}\n");
  DisplayOptions options;
  options.hide_parameters = true;
  DisplayGraph graph = DisplayGraph::Build(*module, options);
  EXPECT_TRUE(graph.nodes().empty());
  LayoutCache cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  EXPECT_TRUE(layout->nodes().empty());
  EXPECT_TRUE(layout->edges().empty());
}

TEST(GraphLayoutTest, LargeModuleFirstPictureIsSmall) {
  auto module = ParseOrDie(LayeredModule(100, 50));
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandToBudget(120);
  LayoutCache cache;
  StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  EXPECT_LE(layout->nodes().size(), 120u);
  ExpectSound(graph, *layout);
}

TEST(GraphLayoutTest, ConcurrentLayoutsAreSerialisedSafely) {
  auto module = ParseOrDie(LayeredModule(4, 15));
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandAll();
  std::vector<size_t> placed(4, 0);
  std::vector<std::thread> workers;
  for (size_t i = 0; i < placed.size(); ++i) {
    workers.emplace_back([&, i] {
      LayoutCache cache;
      StatusOr<GraphLayout> layout = LayoutGraph(graph, PrivateCache(cache));
      if (layout.ok()) placed[i] = layout->nodes().size();
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (size_t count : placed) EXPECT_EQ(count, graph.VisibleNodes().size());
}

TEST(DiffLayoutTest, MatchedNodesShareTheirPlace) {
  auto left = ParseOrDie(kScopedModule);
  std::string changed(kScopedModule);
  changed.replace(changed.find("  r = f32[8]{0} cosine(g)"), 25,
                  "  extra = f32[8]{0} tanh(g)\n  r = f32[8]{0} cosine(extra)");
  auto right = ParseOrDie(changed);
  ir::GraphDiff diff = ir::GraphDiff::Compute(*left, *right, ir::DiffOptions::Unrelated());
  DisplayGraph left_graph = DisplayGraph::Build(*left);
  DisplayGraph right_graph = DisplayGraph::Build(*right);
  left_graph.ExpandAll();
  right_graph.ExpandAll();
  LayoutCache cache;
  StatusOr<DiffLayout> layout = LayoutDiff(left_graph, right_graph, diff, PrivateCache(cache));
  ASSERT_TRUE(layout.ok()) << layout.message();
  ExpectSound(left_graph, layout->left);
  ExpectSound(right_graph, layout->right);
  EXPECT_EQ(layout->left.width(), layout->right.width());
  for (std::string_view name : {"x", "m", "n", "add.10", "r"}) {
    const Rect& a =
        layout->left.Find(left_graph.FindInstruction(left->FindInstruction(name)))->rect;
    const Rect& b =
        layout->right.Find(right_graph.FindInstruction(right->FindInstruction(name)))->rect;
    EXPECT_EQ(a.x, b.x) << name;
    EXPECT_EQ(a.y, b.y) << name;
  }
  int extra = right_graph.FindInstruction(right->FindInstruction("extra"));
  ASSERT_NE(layout->right.Find(extra), nullptr);
  EXPECT_EQ(right_graph.node(extra).parent, -1);
}

}  // namespace
}  // namespace fusescope::views
