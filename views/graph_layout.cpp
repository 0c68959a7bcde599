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
//
// An edge that crosses the border of expanded boxes is drawn as several splines, one per
// piece it passes through: inside a box it runs between the node and a small port node that
// Graphviz places with the box's content (inputs come in at the top, outputs leave at the
// bottom), and in the piece where the two ends meet it runs between their boxes. Short
// straight connectors join a port to the box border.
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
  static constexpr double kPortSize = 4;

  struct Piece {
    int box = -1;  // -1: the top level
    // Display nodes, then ports (-1).
    std::vector<int> items;
    std::vector<PieceEdge> edges;
    std::unordered_map<uint64_t, int> edge_index;  // (from item, to item) -> edges index
    std::unordered_map<int, int> item_of_node;
    std::unordered_map<uint64_t, int> port_index;  // (direction, far end) -> item
    std::vector<int> port_rank;                    // per port, in item order
    std::vector<Point> sizes;
    std::shared_ptr<const PieceLayout> layout;
    Point origin;  // absolute top-left of the content
  };
  struct Segment {
    int piece = -1;
    int edge = -1;
  };
  struct Route {
    EdgeRoute route;
    std::vector<Segment> segments;  // from the source to the target
  };

  const DisplayNode& Node(int id) const { return graph_.node(id); }
  int Parent(int id) const { return Node(id).parent; }

  // Pieces top-down, so that children come after their parents.
  void CollectPieces() {
    pieces_.push_back(Piece{});
    piece_of_box_[-1] = 0;
    for (size_t p = 0; p < pieces_.size(); ++p) {
      int box = pieces_[p].box;
      std::vector<int> children = box < 0 ? graph_.top_level() : Node(box).children;
      int depth = box < 0 ? 0 : depth_[box] + 1;
      for (int child : children) {
        pieces_[p].item_of_node[child] = static_cast<int>(pieces_[p].items.size());
        pieces_[p].items.push_back(child);
        depth_[child] = depth;
        representative_[child] = child;
        if (Node(child).is_box() && Node(child).expanded && !Node(child).children.empty()) {
          piece_of_box_[child] = static_cast<int>(pieces_.size());
          Piece piece;
          piece.box = child;
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

  void CollectRoutes() {
    std::unordered_map<uint64_t, size_t> route_of_pair;
    for (size_t e = 0; e < graph_.edges().size(); ++e) {
      const DisplayEdge& edge = graph_.edges()[e];
      int from = representative_.at(edge.from);
      int to = representative_.at(edge.to);
      if (from == to) continue;
      uint64_t pair = PairKey(from, to);
      auto [it, inserted] = route_of_pair.emplace(pair, routes_.size());
      if (inserted) routes_.push_back(MakeRoute(from, to));
      routes_[it->second].route.edges.push_back(static_cast<int>(e));
    }
  }

  static uint64_t PairKey(int a, int b) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  }

  // Enclosing expanded boxes of `id`, innermost first, up to (not including) the first one
  // that also encloses `other`; the last element is that common box, or -1.
  std::vector<int> AncestorsUntilCommon(int id, int other) const {
    std::vector<int> chain;
    int a = id;
    int b = other;
    while (depth_.at(b) > depth_.at(a)) b = Parent(b);
    while (depth_.at(a) > depth_.at(b)) {
      a = Parent(a);
      chain.push_back(a);
    }
    while (a != b) {
      a = Parent(a);
      b = Parent(b);
      chain.push_back(a);
    }
    if (chain.empty() || chain.back() != a) chain.push_back(a);
    return chain;
  }

  // Ports are shared by all routes between the same two nodes of the piece where the routes
  // meet: a box fed by a hundred parameters of one group gets one input port, not a hundred,
  // which keeps its piece small.
  Route MakeRoute(int from, int to) {
    Route route;
    route.route.from = from;
    route.route.to = to;
    std::vector<int> up = AncestorsUntilCommon(from, to);    // ..., common
    std::vector<int> down = AncestorsUntilCommon(to, from);  // ..., common
    int common = up.back();
    int exit = up.size() >= 2 ? up[up.size() - 2] : from;
    int entry = down.size() >= 2 ? down[down.size() - 2] : to;
    int current = from;
    for (size_t i = 0; i + 1 < up.size(); ++i) {
      Piece& piece = PieceOf(up[i]);
      route.segments.push_back(
          {piece_of_box_.at(up[i]), EdgeIn(piece, ItemOf(piece, current), Port(piece, 1, entry))});
      current = up[i];
    }
    Piece& shared = PieceOf(common);
    route.segments.push_back(
        {piece_of_box_.at(common), EdgeIn(shared, ItemOf(shared, exit), ItemOf(shared, entry))});
    for (size_t i = down.size() - 1; i-- > 0;) {
      int inner = i == 0 ? to : down[i - 1];
      Piece& piece = PieceOf(down[i]);
      route.segments.push_back(
          {piece_of_box_.at(down[i]), EdgeIn(piece, Port(piece, 0, exit), ItemOf(piece, inner))});
    }
    return route;
  }

  Piece& PieceOf(int box) { return pieces_[static_cast<size_t>(piece_of_box_.at(box))]; }
  static int ItemOf(const Piece& piece, int node) { return piece.item_of_node.at(node); }

  // The port of `piece` for edges coming in from (direction 0) or going out to (1) `far`, a
  // node of the piece where the routes meet.
  static int Port(Piece& piece, int direction, int far) {
    uint64_t key = PairKey(direction, far);
    auto [it, inserted] = piece.port_index.emplace(key, static_cast<int>(piece.items.size()));
    if (inserted) {
      piece.items.push_back(-1);
      piece.port_rank.push_back(direction == 0 ? -1 : 1);
    }
    return it->second;
  }

  // Edges leave expanded boxes at the bottom and enter them at the top, next to the ports.
  int EdgeIn(Piece& piece, int from, int to) const {
    auto [it, inserted] =
        piece.edge_index.emplace(PairKey(from, to), static_cast<int>(piece.edges.size()));
    if (inserted) {
      piece.edges.push_back({from, to, HasPiece(piece.items[static_cast<size_t>(from)]),
                             HasPiece(piece.items[static_cast<size_t>(to)])});
    }
    return it->second;
  }

  bool HasPiece(int item) const { return item >= 0 && piece_of_box_.count(item) > 0; }

  Point SizeOf(int item) const {
    if (item < 0) return {kPortSize, kPortSize};
    auto it = piece_of_box_.find(item);
    if (it == piece_of_box_.end()) return NodeSize(Node(item));
    const Piece& inner = pieces_[static_cast<size_t>(it->second)];
    double title = static_cast<double>(Node(item).title.size()) * NodeMetrics::kTitleCharWidth;
    double pad = NodeMetrics::kBoxPadding;
    return {std::max(inner.layout->width, title + 40) + 2 * pad,
            inner.layout->height + NodeMetrics::kBoxHeader + 2 * pad};
  }

  Status LayOutPiece(Piece& piece) {
    std::vector<PieceNode> nodes;
    DotSettings settings =
        options_.dot.value_or(DotSettings::ForSize(piece.items.size(), piece.edges.size()));
    uint64_t key = settings.Hash();
    size_t port = 0;
    for (int item : piece.items) {
      Point size = SizeOf(item);
      int rank = item < 0 ? piece.port_rank[port++] : 0;
      piece.sizes.push_back(size);
      nodes.push_back({size.x, size.y, rank});
      MixHash(key, Bits(size.x));
      MixHash(key, Bits(size.y));
      MixHash(key, static_cast<uint64_t>(rank + 1));
    }
    for (const PieceEdge& edge : piece.edges) {
      MixHash(key, PairKey(edge.from, edge.to));
      MixHash(key, (edge.from_bottom ? 2u : 0u) | (edge.to_top ? 1u : 0u));
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
      for (size_t i = 0; i < piece.items.size(); ++i) {
        int item = piece.items[i];
        if (item < 0) continue;
        Point center = piece.layout->centers[i];
        Point size = piece.sizes[i];
        Rect rect{piece.origin.x + center.x - size.x / 2, piece.origin.y + center.y - size.y / 2,
                  size.x, size.y};
        layout_.nodes_.push_back({item, rect});
        auto inner = piece_of_box_.find(item);
        if (inner == piece_of_box_.end()) continue;
        Piece& content = pieces_[static_cast<size_t>(inner->second)];
        double spare = rect.width - 2 * NodeMetrics::kBoxPadding - content.layout->width;
        content.origin = {rect.x + NodeMetrics::kBoxPadding + spare / 2,
                          rect.y + NodeMetrics::kBoxHeader + NodeMetrics::kBoxPadding};
      }
    }
  }

  std::vector<Point> SegmentPath(const Segment& segment) const {
    const Piece& piece = pieces_[static_cast<size_t>(segment.piece)];
    std::vector<Point> path = piece.layout->paths[static_cast<size_t>(segment.edge)];
    for (Point& p : path) p = {piece.origin.x + p.x, piece.origin.y + p.y};
    return path;
  }

  void BuildRoutes() {
    for (Route& route : routes_) {
      std::vector<Point>& path = route.route.path;
      for (size_t s = 0; s < route.segments.size(); ++s) {
        std::vector<Point> part = SegmentPath(route.segments[s]);
        if (part.size() < 4) continue;
        // The label names the value arriving at the consumer: on the last spline, which is
        // the one nearest to it and shared with no other route.
        if (s + 1 == route.segments.size()) route.route.label = BezierMiddle(part);
        if (path.empty()) {
          path = std::move(part);
          continue;
        }
        LineTo(path, part.front());
        path.insert(path.end(), part.begin() + 1, part.end());
      }
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
  GraphLayout layout_;
};

StatusOr<GraphLayout> LayoutGraph(const DisplayGraph& graph, const LayoutOptions& options) {
  return Layouter(graph, options).Run();
}

}  // namespace fusescope::views
