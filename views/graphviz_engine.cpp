#include "views/graphviz_engine.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace fusescope::views {

namespace {

constexpr double kPointsPerInch = 72.0;

std::mutex& GraphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

std::atomic<int64_t> g_calls{0};

// Graphviz 2.x declares its string parameters `char*` but never writes through them.
char* Text(const char* text) { return const_cast<char*>(text); }

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4f", value);
  return buffer;
}

// Created once, under the mutex; lives until the process ends.
GVC_t* Context() {
  static GVC_t* context = gvContext();
  return context;
}

void SetGraphAttribute(Agraph_t* graph, const char* name, const std::string& value) {
  agattr(graph, AGRAPH, Text(name), Text(value.c_str()));
}

void ApplySettings(Agraph_t* graph, const DotSettings& settings) {
  SetGraphAttribute(graph, "rankdir", "TB");
  SetGraphAttribute(graph, "nodesep", Number(settings.node_sep / kPointsPerInch));
  SetGraphAttribute(graph, "ranksep", Number(settings.rank_sep / kPointsPerInch));
  SetGraphAttribute(graph, "splines", settings.splines);
  if (settings.nslimit >= 0) {
    SetGraphAttribute(graph, "nslimit", Number(settings.nslimit));
    SetGraphAttribute(graph, "nslimit1", Number(settings.nslimit));
  }
  if (settings.mclimit >= 0) SetGraphAttribute(graph, "mclimit", Number(settings.mclimit));
  if (settings.searchsize >= 0) {
    SetGraphAttribute(graph, "searchsize", std::to_string(settings.searchsize));
  }
  agattr(graph, AGNODE, Text("shape"), Text("box"));
  agattr(graph, AGNODE, Text("fixedsize"), Text("true"));
  agattr(graph, AGNODE, Text("label"), Text(""));
  agattr(graph, AGNODE, Text("width"), Text("0.75"));
  agattr(graph, AGNODE, Text("height"), Text("0.5"));
  // Arrowheads are ours to draw; without them Graphviz ends each spline on the node border.
  agattr(graph, AGEDGE, Text("dir"), Text("none"));
}

std::vector<Agnode_t*> AddNodes(Agraph_t* graph, const std::vector<PieceNode>& nodes) {
  Agsym_t* width = agattr(graph, AGNODE, Text("width"), nullptr);
  Agsym_t* height = agattr(graph, AGNODE, Text("height"), nullptr);
  Agraph_t* top = nullptr;
  Agraph_t* bottom = nullptr;
  std::vector<Agnode_t*> handles;
  handles.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::string name = "n" + std::to_string(i);
    Agnode_t* node = agnode(graph, Text(name.c_str()), 1);
    agxset(node, width, Text(Number(nodes[i].width / kPointsPerInch).c_str()));
    agxset(node, height, Text(Number(nodes[i].height / kPointsPerInch).c_str()));
    if (nodes[i].rank != 0) {
      Agraph_t*& row = nodes[i].rank < 0 ? top : bottom;
      if (row == nullptr) {
        row = agsubg(graph, Text(nodes[i].rank < 0 ? "top_row" : "bottom_row"), 1);
        agsafeset(row, Text("rank"), Text(nodes[i].rank < 0 ? "source" : "sink"), Text(""));
      }
      agsubnode(row, node, 1);
    }
    handles.push_back(node);
  }
  return handles;
}

std::vector<Agedge_t*> AddEdges(Agraph_t* graph, const std::vector<Agnode_t*>& nodes,
                                const std::vector<PieceEdge>& edges) {
  std::vector<Agedge_t*> handles;
  handles.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    std::string name = "e" + std::to_string(i);
    Agedge_t* edge = agedge(graph, nodes[static_cast<size_t>(edges[i].from)],
                            nodes[static_cast<size_t>(edges[i].to)], Text(name.c_str()), 1);
    if (edges[i].from_bottom) agsafeset(edge, Text("tailport"), Text("s"), Text(""));
    if (edges[i].to_top) agsafeset(edge, Text("headport"), Text("n"), Text(""));
    handles.push_back(edge);
  }
  return handles;
}

// Graphviz's y axis points up and its origin is the bounding box's lower left corner.
PieceLayout ReadLayout(Agraph_t* graph, const std::vector<Agnode_t*>& nodes,
                       const std::vector<Agedge_t*>& edges) {
  boxf bb = GD_bb(graph);
  auto convert = [&](pointf p) { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
  PieceLayout layout;
  layout.width = bb.UR.x - bb.LL.x;
  layout.height = bb.UR.y - bb.LL.y;
  for (Agnode_t* node : nodes) layout.centers.push_back(convert(ND_coord(node)));
  for (Agedge_t* edge : edges) {
    std::vector<Point> path;
    splines* spl = ED_spl(edge);
    if (spl != nullptr) {
      for (int b = 0; b < spl->size; ++b) {
        const bezier& bz = spl->list[b];
        for (int i = (b == 0 ? 0 : 1); i < bz.size; ++i) path.push_back(convert(bz.list[i]));
      }
    }
    layout.paths.push_back(std::move(path));
  }
  return layout;
}

}  // namespace

DotSettings DotSettings::ForSize(size_t nodes, size_t edges) {
  DotSettings settings;
  if (nodes + edges > 250) {
    settings.nslimit = 0.2;
    settings.mclimit = 0.3;
  }
  if (nodes + edges > 900) {
    settings.nslimit = 0.01;
    settings.mclimit = 0.1;
    settings.searchsize = 10;
    settings.splines = "line";
  }
  return settings;
}

uint64_t DotSettings::Hash() const {
  uint64_t hash = 1469598103934665603ULL;
  auto mix = [&](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
    hash = (hash ^ 0xff) * 1099511628211ULL;
  };
  mix(Number(node_sep));
  mix(Number(rank_sep));
  mix(splines);
  mix(Number(nslimit));
  mix(Number(mclimit));
  mix(std::to_string(searchsize));
  return hash;
}

StatusOr<PieceLayout> GraphvizEngine::Layout(const std::vector<PieceNode>& nodes,
                                             const std::vector<PieceEdge>& edges,
                                             const DotSettings& settings) {
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  ++g_calls;
  GVC_t* context = Context();
  if (context == nullptr) return Status::Error("Graphviz could not be initialised");
  Agraph_t* graph = agopen(Text("piece"), Agdirected, nullptr);
  ApplySettings(graph, settings);
  std::vector<Agnode_t*> node_handles = AddNodes(graph, nodes);
  std::vector<Agedge_t*> edge_handles = AddEdges(graph, node_handles, edges);
  if (gvLayout(context, graph, "dot") != 0) {
    agclose(graph);
    return Status::Error("Graphviz dot layout failed (is the dot layout plugin installed?)");
  }
  PieceLayout layout = ReadLayout(graph, node_handles, edge_handles);
  gvFreeLayout(context, graph);
  agclose(graph);
  return layout;
}

int64_t GraphvizEngine::call_count() { return g_calls.load(); }

}  // namespace fusescope::views
