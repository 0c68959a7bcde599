#include "views/graph_layout.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "views/layout_cache.h"

namespace fusescope::views {

Point NodeSize(const DisplayNode& node) {
  double title = static_cast<double>(node.title.size()) * NodeMetrics::kTitleCharWidth;
  double subtitle = static_cast<double>(node.subtitle.size()) * NodeMetrics::kSubtitleCharWidth;
  double text = std::max(title, subtitle);
  if (node.is_box()) return {std::max(72.0, text + 24), 40};
  return {std::max(56.0, text + 16), 34};
}

const NodePlacement* GraphLayout::Find(int node) const {
  auto it = index_.find(node);
  return it == index_.end() ? nullptr : &nodes_[it->second];
}

void GraphLayout::Index() {
  index_.clear();
  for (size_t i = 0; i < nodes_.size(); ++i) index_[nodes_[i].node] = i;
}

namespace {

void MixHash(uint64_t& hash, uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
}

uint64_t Bits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

Point Lerp(Point a, Point b, double t) { return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}; }

// Appends a straight segment to a Bezier chain.
void LineTo(std::vector<Point>& path, Point to) {
  Point from = path.back();
  path.push_back(Lerp(from, to, 1.0 / 3));
  path.push_back(Lerp(from, to, 2.0 / 3));
  path.push_back(to);
}

Point BezierMiddle(const std::vector<Point>& path) {
  if (path.size() < 4) return path.empty() ? Point{} : path.front();
  size_t segments = (path.size() - 1) / 3;
  size_t s = segments / 2;
  const Point* p = &path[3 * s];
  auto mix = [](double a, double b, double c, double d) {
    return 0.125 * a + 0.375 * b + 0.375 * c + 0.125 * d;
  };
  return {mix(p[0].x, p[1].x, p[2].x, p[3].x), mix(p[0].y, p[1].y, p[2].y, p[3].y)};
}

}  // namespace

// Lays out the visible part of a DisplayGraph, one piece per expanded level.
class Layouter {
 public:
  Layouter(const DisplayGraph& graph, const LayoutOptions& options)
      : graph_(graph),
        options_(options),
        cache_(options.cache != nullptr ? *options.cache : LayoutCache::Global()) {}

  StatusOr<GraphLayout> Run() {
    CollectPieces();
    CollectRoutes();
    for (size_t p = pieces_.size(); p-- > 0;) FS_RETURN_IF_ERROR(LayOutPiece(pieces_[p]));
    Place();
    BuildRoutes();
    layout_.Index();
    return std::move(layout_);
  }

 private:
  struct Piece {
    int box = -1;  // -1: the top level
    std::vector<int> children;
    std::vector<PieceEdge> edges;
    std::unordered_map<uint64_t, int> edge_index;  // (from, to) -> edges index
    std::unordered_map<int, int> child_index;      // node id -> position in children
    std::vector<Point> sizes;
    std::shared_ptr<const PieceLayout> layout;
    Point origin;  // absolute top-left of the content
  };
  struct Route {
    EdgeRoute route;
    int piece = -1;
    int piece_edge = -1;
    int child_from = -1;  // the children of the piece the route leaves and enters
    int child_to = -1;
  };

  const DisplayNode& Node(int id) const { return graph_.node(id); }

  // Pieces top-down, so that children come after their parents.
  void CollectPieces() {
    pieces_.push_back(Piece{});
    pieces_[0].children = graph_.top_level();
    piece_of_box_[-1] = 0;
    for (size_t p = 0; p < pieces_.size(); ++p) {
      std::vector<int> children = pieces_[p].children;
      for (size_t i = 0; i < children.size(); ++i) {
        pieces_[p].child_index[children[i]] = static_cast<int>(i);
      }
      int depth = pieces_[p].box < 0 ? 0 : depth_[pieces_[p].box] + 1;
      for (int child : children) {
        depth_[child] = depth;
        representative_[child] = child;
        if (Node(child).is_box() && Node(child).expanded && !Node(child).children.empty()) {
          piece_of_box_[child] = static_cast<int>(pieces_.size());
          Piece piece;
          piece.box = child;
          piece.children = Node(child).children;
          pieces_.push_back(std::move(piece));
        } else if (Node(child).is_box()) {
          MarkRepresented(child, child);
        }
      }
    }
  }

  void MarkRepresented(int box, int representative) {
    for (int child : Node(box).children) {
      representative_[child] = representative;
      if (Node(child).is_box()) MarkRepresented(child, representative);
    }
  }

  int Parent(int id) const { return Node(id).parent; }

  void CollectRoutes() {
    std::unordered_map<uint64_t, size_t> route_of_pair;
    for (size_t e = 0; e < graph_.edges().size(); ++e) {
      const DisplayEdge& edge = graph_.edges()[e];
      int from = representative_.at(edge.from);
      int to = representative_.at(edge.to);
      if (from == to) continue;
      uint64_t pair = (static_cast<uint64_t>(from) << 32) | static_cast<uint32_t>(to);
      auto [it, inserted] = route_of_pair.emplace(pair, routes_.size());
      if (inserted) routes_.push_back(MakeRoute(from, to));
      routes_[it->second].route.edges.push_back(static_cast<int>(e));
    }
  }

  Route MakeRoute(int from, int to) {
    Route route;
    route.route.from = from;
    route.route.to = to;
    int a = from;
    int b = to;
    while (depth_.at(a) > depth_.at(b)) a = Parent(a);
    while (depth_.at(b) > depth_.at(a)) b = Parent(b);
    while (Parent(a) != Parent(b)) {
      a = Parent(a);
      b = Parent(b);
    }
    route.child_from = a;
    route.child_to = b;
    route.piece = piece_of_box_.at(Parent(a));
    Piece& piece = pieces_[static_cast<size_t>(route.piece)];
    int ia = IndexIn(piece, a);
    int ib = IndexIn(piece, b);
    uint64_t key = (static_cast<uint64_t>(ia) << 32) | static_cast<uint32_t>(ib);
    auto [it, inserted] = piece.edge_index.emplace(key, static_cast<int>(piece.edges.size()));
    if (inserted) piece.edges.push_back({ia, ib});
    route.piece_edge = it->second;
    return route;
  }

  static int IndexIn(const Piece& piece, int child) { return piece.child_index.at(child); }

  Point SizeOf(int id) const {
    auto it = piece_of_box_.find(id);
    if (it == piece_of_box_.end()) return NodeSize(Node(id));
    const Piece& inner = pieces_[static_cast<size_t>(it->second)];
    double title = static_cast<double>(Node(id).title.size()) * NodeMetrics::kTitleCharWidth;
    double pad = NodeMetrics::kBoxPadding;
    return {std::max(inner.layout->width, title + 40) + 2 * pad,
            inner.layout->height + NodeMetrics::kBoxHeader + 2 * pad};
  }

  Status LayOutPiece(Piece& piece) {
    std::vector<PieceNode> nodes;
    DotSettings settings =
        options_.dot.value_or(DotSettings::ForSize(piece.children.size(), piece.edges.size()));
    uint64_t key = settings.Hash();
    for (int child : piece.children) {
      Point size = SizeOf(child);
      piece.sizes.push_back(size);
      nodes.push_back({size.x, size.y});
      MixHash(key, Bits(size.x));
      MixHash(key, Bits(size.y));
    }
    for (const PieceEdge& edge : piece.edges) {
      MixHash(key, (static_cast<uint64_t>(edge.from) << 32) | static_cast<uint32_t>(edge.to));
    }
    if (options_.use_cache) piece.layout = cache_.Find(key);
    if (piece.layout != nullptr) {
      ++layout_.cached_pieces_;
      return Status::Ok();
    }
    StatusOr<PieceLayout> computed = GraphvizEngine::Layout(nodes, piece.edges, settings);
    if (!computed.ok()) return computed.status();
    ++layout_.graphviz_calls_;
    piece.layout = std::make_shared<const PieceLayout>(std::move(computed).value());
    if (options_.use_cache) cache_.Insert(key, piece.layout);
    return Status::Ok();
  }

  void Place() {
    const double margin = options_.margin;
    pieces_[0].origin = {margin, margin};
    layout_.width_ = pieces_[0].layout->width + 2 * margin;
    layout_.height_ = pieces_[0].layout->height + 2 * margin;
    for (Piece& piece : pieces_) {
      for (size_t i = 0; i < piece.children.size(); ++i) {
        int child = piece.children[i];
        Point center = piece.layout->centers[i];
        Point size = piece.sizes[i];
        Rect rect{piece.origin.x + center.x - size.x / 2, piece.origin.y + center.y - size.y / 2,
                  size.x, size.y};
        layout_.nodes_.push_back({child, rect});
        rects_[child] = rect;
        auto inner = piece_of_box_.find(child);
        if (inner == piece_of_box_.end()) continue;
        Piece& content = pieces_[static_cast<size_t>(inner->second)];
        double spare = rect.width - 2 * NodeMetrics::kBoxPadding - content.layout->width;
        content.origin = {rect.x + NodeMetrics::kBoxPadding + spare / 2,
                          rect.y + NodeMetrics::kBoxHeader + NodeMetrics::kBoxPadding};
      }
    }
  }

  void BuildRoutes() {
    for (Route& route : routes_) {
      const Piece& piece = pieces_[static_cast<size_t>(route.piece)];
      const std::vector<Point>& inner = piece.layout->paths[static_cast<size_t>(route.piece_edge)];
      const Rect& from = rects_.at(route.route.from);
      const Rect& to = rects_.at(route.route.to);
      Point start{from.center().x, from.bottom()};
      Point end{to.center().x, to.y};
      std::vector<Point>& path = route.route.path;
      if (inner.size() < 4) {
        path = {start};
        LineTo(path, end);
      } else {
        auto absolute = [&](Point p) { return Point{piece.origin.x + p.x, piece.origin.y + p.y}; };
        // Inside an expanded box the route starts at the node and joins the piece's spline
        // on the box border.
        if (route.route.from != route.child_from) {
          path = {start};
          LineTo(path, absolute(inner.front()));
        } else {
          path = {absolute(inner.front())};
        }
        for (size_t i = 1; i < inner.size(); ++i) path.push_back(absolute(inner[i]));
        if (route.route.to != route.child_to) LineTo(path, end);
      }
      route.route.label = BezierMiddle(path);
      layout_.edges_.push_back(std::move(route.route));
    }
  }

  const DisplayGraph& graph_;
  const LayoutOptions& options_;
  LayoutCache& cache_;
  std::vector<Piece> pieces_;
  std::vector<Route> routes_;
  std::unordered_map<int, int> piece_of_box_;
  std::unordered_map<int, int> depth_;
  std::unordered_map<int, int> representative_;
  std::unordered_map<int, Rect> rects_;
  GraphLayout layout_;
};

StatusOr<GraphLayout> LayoutGraph(const DisplayGraph& graph, const LayoutOptions& options) {
  return Layouter(graph, options).Run();
}

}  // namespace fusescope::views
