#include "views/dot_writer.h"

#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/views/view_test_modules.h"

namespace fusescope::views {
namespace {

using testing::kScopedModule;
using testing::ParseOrDie;

struct Counts {
  int nodes = -1;
  int edges = -1;
};

// Reads the text back with Graphviz's own parser.
Counts ReadBack(const std::string& dot) {
  Agraph_t* graph = agmemread(dot.c_str());
  if (graph == nullptr) return {};
  Counts counts{agnnodes(graph), agnedges(graph)};
  agclose(graph);
  return counts;
}

TEST(DotWriterTest, FlatGraphHasEveryInstructionAndNoClusters) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  DotOptions options;
  options.flat = true;
  std::string dot = DotWriter::Write(graph, options);
  EXPECT_EQ(dot.find("cluster"), std::string::npos);
  Counts counts = ReadBack(dot);
  EXPECT_EQ(counts.nodes, graph.instruction_node_count());
  EXPECT_EQ(counts.edges, static_cast<int>(graph.edges().size()));
}

TEST(DotWriterTest, ExpandedBoxesAreClustersAndCollapsedOnesNodes) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.ExpandAll();
  graph.SetExpanded(graph.FindKey("s:jit(f)/head"), false);
  std::string dot = DotWriter::Write(graph);
  EXPECT_NE(dot.find("subgraph cluster_" + std::to_string(graph.FindKey("s:jit(f)/dense"))),
            std::string::npos);
  EXPECT_EQ(dot.find("subgraph cluster_" + std::to_string(graph.FindKey("s:jit(f)/head"))),
            std::string::npos);
  EXPECT_NE(dot.find("label=\"head\\n3 ops\""), std::string::npos);
  Counts counts = ReadBack(dot);
  // The collapsed scope's three instructions became one node.
  EXPECT_EQ(counts.nodes, graph.instruction_node_count() - 3 + 1);
}

TEST(DotWriterTest, DiffColoursAndRefusalsAreAttributes) {
  auto module = ParseOrDie(kScopedModule);
  DisplayGraph graph = DisplayGraph::Build(*module);
  graph.AnnotateEdge(module->FindInstruction("m")->id(), module->FindInstruction("fusion.1")->id(),
                     "say \"no\"", true);
  DotOptions options;
  options.flat = true;
  std::string dot = DotWriter::Write(graph, options);
  EXPECT_NE(dot.find("fillcolor=\"#f3f3f3\""), std::string::npos);
  EXPECT_NE(dot.find("tooltip=\"say \\\"no\\\"\""), std::string::npos);
  EXPECT_GT(ReadBack(dot).nodes, 0);
}

}  // namespace
}  // namespace fusescope::views
