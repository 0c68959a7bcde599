#include "views/diff_layout.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace fusescope::views {

namespace {

uint64_t PairKey(int from, int to) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(from)) << 32) | static_cast<uint32_t>(to);
}

}  // namespace

// Builds the union graph, lays it out, and projects the result onto each side.
class DiffLayouter {
 public:
  DiffLayouter(const DisplayGraph& left, const DisplayGraph& right, const ir::GraphDiff& diff)
      : left_(left), right_(right), diff_(diff) {}

  StatusOr<DiffLayout> Run(const LayoutOptions& options) {
    left_image_.assign(left_.nodes().size(), -1);
    right_image_.assign(right_.nodes().size(), -1);
    for (int id : left_.top_level()) AddLeft(id);
    for (int id : right_.top_level()) AddRight(id);
    AddEdges(left_, left_image_);
    AddEdges(right_, right_image_);
    StatusOr<GraphLayout> combined = LayoutGraph(union_, options);
    if (!combined.ok()) return combined.status();
    DiffLayout result;
    result.left = Project(*combined, left_, left_image_);
    result.right = Project(*combined, right_, right_image_);
    return result;
  }

 private:
  static DisplayNode Copy(const DisplayNode& node, int parent) {
    DisplayNode copy;
    copy.kind = node.kind;
    copy.parent = parent;
    copy.key = node.key;
    copy.title = node.title;
    copy.subtitle = node.subtitle;
    copy.expanded = node.expanded;
    return copy;
  }

  int ImageOfParent(const DisplayGraph& graph, const std::vector<int>& image, int id) const {
    int parent = graph.node(id).parent;
    return parent < 0 ? -1 : image[static_cast<size_t>(parent)];
  }

  void AddLeft(int id) {
    const DisplayNode& node = left_.node(id);
    left_image_[static_cast<size_t>(id)] =
        union_.AddNode(Copy(node, ImageOfParent(left_, left_image_, id)));
    for (int child : node.children) AddLeft(child);
  }

  // The left node a right node stands for: the counterpart instruction's node, or the box
  // with the same key.
  int LeftPartner(const DisplayNode& node) const {
    if (node.instruction != nullptr) {
      const ir::Instruction* counterpart = diff_.LeftCounterpart(node.instruction);
      int partner = counterpart != nullptr ? left_.FindInstruction(counterpart) : -1;
      return partner >= 0 && left_.node(partner).kind == node.kind ? partner : -1;
    }
    int partner = left_.FindKey(node.key);
    return partner >= 0 && left_.node(partner).kind == node.kind ? partner : -1;
  }

  void AddRight(int id) {
    const DisplayNode& node = right_.node(id);
    int parent = ImageOfParent(right_, right_image_, id);
    int partner = LeftPartner(node);
    int merged = partner >= 0 ? left_image_[static_cast<size_t>(partner)] : -1;
    if (merged >= 0 && union_.node(merged).parent == parent) {
      Widen(merged, node);
      right_image_[static_cast<size_t>(id)] = merged;
    } else {
      right_image_[static_cast<size_t>(id)] = union_.AddNode(Copy(node, parent));
    }
    for (int child : node.children) AddRight(child);
  }

  // A merged node is as large as the larger side and expanded when either side is.
  void Widen(int merged, const DisplayNode& other) {
    DisplayNode& node = union_.mutable_node(merged);
    if (other.title.size() > node.title.size()) node.title = other.title;
    if (other.subtitle.size() > node.subtitle.size()) node.subtitle = other.subtitle;
    node.expanded = node.expanded || other.expanded;
  }

  void AddEdges(const DisplayGraph& graph, const std::vector<int>& image) {
    for (const DisplayEdge& edge : graph.edges()) {
      int from = image[static_cast<size_t>(edge.from)];
      int to = image[static_cast<size_t>(edge.to)];
      if (!seen_edges_.emplace(PairKey(from, to), true).second) continue;
      DisplayEdge copy;
      copy.from = from;
      copy.to = to;
      union_.AddEdge(std::move(copy));
    }
  }

  GraphLayout Project(const GraphLayout& combined, const DisplayGraph& side,
                      const std::vector<int>& image) const {
    GraphLayout layout;
    layout.width_ = combined.width();
    layout.height_ = combined.height();
    layout.graphviz_calls_ = combined.graphviz_calls();
    layout.cached_pieces_ = combined.cached_pieces();
    for (int id : side.VisibleNodes()) {
      const NodePlacement* placement = combined.Find(image[static_cast<size_t>(id)]);
      if (placement != nullptr) layout.nodes_.push_back({id, placement->rect});
    }
    std::unordered_map<uint64_t, const EdgeRoute*> combined_routes;
    for (const EdgeRoute& route : combined.edges()) {
      combined_routes[PairKey(route.from, route.to)] = &route;
    }
    std::unordered_map<uint64_t, size_t> own_routes;
    for (size_t e = 0; e < side.edges().size(); ++e) {
      const DisplayEdge& edge = side.edges()[e];
      int from = side.Representative(edge.from);
      int to = side.Representative(edge.to);
      if (from == to) continue;
      auto route =
          combined_routes.find(PairKey(union_.Representative(image[static_cast<size_t>(edge.from)]),
                                       union_.Representative(image[static_cast<size_t>(edge.to)])));
      if (route == combined_routes.end()) continue;
      auto [it, inserted] = own_routes.emplace(PairKey(from, to), layout.edges_.size());
      if (inserted) {
        EdgeRoute own = *route->second;
        own.from = from;
        own.to = to;
        own.edges.clear();
        layout.edges_.push_back(std::move(own));
      }
      layout.edges_[it->second].edges.push_back(static_cast<int>(e));
    }
    layout.Index();
    return layout;
  }

  const DisplayGraph& left_;
  const DisplayGraph& right_;
  const ir::GraphDiff& diff_;
  DisplayGraph union_;
  std::vector<int> left_image_;
  std::vector<int> right_image_;
  std::unordered_map<uint64_t, bool> seen_edges_;
};

StatusOr<DiffLayout> LayoutDiff(const DisplayGraph& left, const DisplayGraph& right,
                                const ir::GraphDiff& diff, const LayoutOptions& options) {
  return DiffLayouter(left, right, diff).Run(options);
}

}  // namespace fusescope::views
