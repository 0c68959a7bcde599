#include "views/svg_writer.h"

#include <algorithm>
#include <array>

#include "views/diff_palette.h"
#include "views/markup.h"

namespace fusescope::views {

namespace {

constexpr double kTitleStrip = 26;
constexpr double kLegendStrip = 24;
constexpr double kSideGap = 40;
constexpr double kLegendWidth = 560;
constexpr const char* kEdgeColor = "#808080";
constexpr const char* kRefusedColor = "#c62828";
constexpr size_t kMaxNote = 90;

std::string Attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + EscapeXml(value) + "\"";
}

std::string Num(std::string_view name, double value) {
  return " " + std::string(name) + "=\"" + FormatNumber(value) + "\"";
}

std::string PathData(const std::vector<Point>& path) {
  std::string d;
  for (size_t i = 0; i < path.size(); ++i) {
    d += i == 0 ? "M" : (i % 3 == 1 ? " C" : " ");
    d += FormatNumber(path[i].x) + "," + FormatNumber(path[i].y);
  }
  return d;
}

std::string_view KindClass(DisplayNodeKind kind) {
  switch (kind) {
    case DisplayNodeKind::kInstruction:
      return "fs-instruction";
    case DisplayNodeKind::kFusion:
      return "fs-fusion";
    case DisplayNodeKind::kScope:
      return "fs-scope";
    case DisplayNodeKind::kGroup:
      return "fs-group";
  }
  return "fs-instruction";
}

std::string Tooltip(const DisplayNode& node) {
  std::string text = node.title;
  if (!node.subtitle.empty()) text += "\n" + node.subtitle;
  if (node.diff != ir::DiffStatus::kUnchanged) {
    text += "\n" + std::string(ir::DiffStatusName(node.diff));
    if (node.diff_changes != 0) text += ": " + ir::DescribeChanges(node.diff_changes);
  }
  return text;
}

// The opening of a node's group: classes, id and data attributes for pages and tests.
std::string GroupOpen(const DisplayNode& node, const std::string& prefix, bool expanded) {
  DiffPalette palette = DiffPalette::For(node.diff);
  std::string classes = std::string(node.is_box() ? "fs-box " : "fs-node ") +
                        std::string(KindClass(node.kind)) + " diff-" + std::string(palette.name) +
                        (expanded ? " fs-expanded" : "");
  return "<g" + Attr("class", classes) + Attr("id", prefix + "-n" + std::to_string(node.id)) +
         Attr("data-key", node.key) + Attr("data-status", palette.name) + "><title>" +
         EscapeXml(Tooltip(node)) + "</title>";
}

std::string RectElement(const Rect& rect, double radius, std::string_view fill,
                        std::string_view stroke, double stroke_width, std::string_view dash,
                        double fill_opacity = 1) {
  std::string out = "<rect" + Num("x", rect.x) + Num("y", rect.y) + Num("width", rect.width) +
                    Num("height", rect.height) + Num("rx", radius) + Attr("fill", fill) +
                    Attr("stroke", stroke) + Num("stroke-width", stroke_width);
  if (fill_opacity < 1) out += Attr("fill-opacity", FormatNumber(fill_opacity));
  if (!dash.empty()) out += Attr("stroke-dasharray", dash);
  return out + "/>";
}

std::string TextElement(double x, double y, std::string_view text, double size, bool bold,
                        std::string_view fill, std::string_view anchor = "middle") {
  return "<text" + Num("x", x) + Num("y", y) + Attr("text-anchor", anchor) +
         Num("font-size", size) + (bold ? Attr("font-weight", "bold") : "") + Attr("fill", fill) +
         ">" + EscapeXml(text) + "</text>";
}

double CornerRadius(DisplayNodeKind kind) {
  return kind == DisplayNodeKind::kFusion ? 10 : (kind == DisplayNodeKind::kInstruction ? 3 : 5);
}

std::string_view Dash(DisplayNodeKind kind) {
  if (kind == DisplayNodeKind::kScope) return "6 3";
  if (kind == DisplayNodeKind::kGroup) return "2 3";
  return "";
}

}  // namespace

void SvgWriter::Open(std::string& out, double width, double height) const {
  if (options_.standalone) out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\"" + Num("width", width) + Num("height", height) +
         Attr("viewBox", "0 0 " + FormatNumber(width) + " " + FormatNumber(height)) +
         Attr("font-family", "DejaVu Sans, Verdana, sans-serif") + ">\n<defs>";
  for (auto [suffix, color] : std::array<std::pair<const char*, const char*>, 2>{
           {{"arrow", kEdgeColor}, {"arrow-refused", kRefusedColor}}}) {
    out += "<marker" + Attr("id", options_.id_prefix + "-" + suffix) +
           Attr("viewBox", "0 0 10 10") + Attr("refX", "10") + Attr("refY", "5") +
           Attr("markerWidth", "7") + Attr("markerHeight", "7") + Attr("orient", "auto") +
           "><path d=\"M0,0 L10,5 L0,10 z\"" + Attr("fill", color) + "/></marker>";
  }
  out += "</defs>\n";
  out += "<rect" + Num("width", width) + Num("height", height) + Attr("fill", "#ffffff") + "/>\n";
}

void SvgWriter::Legend(std::string& out, double x, double y) const {
  out += "<g class=\"fs-legend\">";
  double at = x;
  for (ir::DiffStatus status :
       {ir::DiffStatus::kUnchanged, ir::DiffStatus::kChanged, ir::DiffStatus::kAdded,
        ir::DiffStatus::kRemoved, ir::DiffStatus::kFused, ir::DiffStatus::kReplaced}) {
    DiffPalette palette = DiffPalette::For(status);
    out += RectElement({at, y + 5, 14, 12}, 2, palette.fill, palette.stroke, 1, "");
    out += TextElement(at + 19, y + 15, palette.name, 10, false, "#333", "start");
    at += 90;
  }
  out += "</g>\n";
}

std::string SvgWriter::Render(const DisplayGraph& graph, const GraphLayout& layout) const {
  double top = (options_.title.empty() ? 0 : kTitleStrip) + (options_.legend ? kLegendStrip : 0);
  double width = std::max(layout.width(), options_.legend ? kLegendWidth : 0.0);
  std::string out;
  Open(out, width, layout.height() + top);
  double y = 0;
  if (!options_.title.empty()) {
    out += TextElement(12, 18, options_.title, 13, true, "#222", "start") + "\n";
    y += kTitleStrip;
  }
  if (options_.legend) Legend(out, 12, y);
  Graph(out, graph, layout, 0, top, options_.id_prefix);
  out += "</svg>\n";
  return out;
}

std::string SvgWriter::RenderSideBySide(const DisplayGraph& left, const GraphLayout& left_layout,
                                        const DisplayGraph& right,
                                        const GraphLayout& right_layout) const {
  double top = (options_.legend ? kLegendStrip : 0) + kTitleStrip;
  double right_x = left_layout.width() + kSideGap;
  double width = std::max(right_x + right_layout.width(), options_.legend ? kLegendWidth : 0.0);
  double height = top + std::max(left_layout.height(), right_layout.height());
  std::string out;
  Open(out, width, height);
  if (options_.legend) Legend(out, 12, 0);
  double title_y = top - 8;
  out += TextElement(12, title_y, options_.left_title, 13, true, "#222", "start") + "\n";
  out += TextElement(right_x + 12, title_y, options_.right_title, 13, true, "#222", "start") + "\n";
  out += "<line" + Num("x1", right_x - kSideGap / 2) + Num("y1", top - 4) +
         Num("x2", right_x - kSideGap / 2) + Num("y2", height) + Attr("stroke", "#cccccc") +
         Attr("stroke-dasharray", "4 4") + "/>\n";
  Graph(out, left, left_layout, 0, top, options_.id_prefix + "-l");
  Graph(out, right, right_layout, right_x, top, options_.id_prefix + "-r");
  out += "</svg>\n";
  return out;
}

void SvgWriter::Graph(std::string& out, const DisplayGraph& graph, const GraphLayout& layout,
                      double dx, double dy, const std::string& prefix) const {
  out += "<g class=\"fs-graph\"" +
         Attr("transform", "translate(" + FormatNumber(dx) + "," + FormatNumber(dy) + ")") + ">\n";
  for (const NodePlacement& placement : layout.nodes()) {
    const DisplayNode& node = graph.node(placement.node);
    if (node.is_box() && node.expanded) ExpandedBox(out, node, placement.rect, prefix);
  }
  for (const EdgeRoute& route : layout.edges()) Edge(out, graph, route);
  for (const NodePlacement& placement : layout.nodes()) {
    const DisplayNode& node = graph.node(placement.node);
    if (!(node.is_box() && node.expanded)) Node(out, node, placement.rect, prefix);
  }
  out += "</g>\n";
}

void SvgWriter::ExpandedBox(std::string& out, const DisplayNode& node, const Rect& rect,
                            const std::string& prefix) const {
  DiffPalette palette = DiffPalette::For(node.diff);
  bool fusion = node.kind == DisplayNodeKind::kFusion;
  std::string_view fill = fusion ? palette.fill : "#fafafa";
  out += GroupOpen(node, prefix, true);
  out += RectElement(rect, CornerRadius(node.kind), fill, palette.stroke, fusion ? 1.6 : 1,
                     Dash(node.kind), fusion ? 0.35 : 0.6);
  std::string header = node.title + (node.subtitle.empty() ? "" : "  " + node.subtitle);
  out += TextElement(rect.x + 8, rect.y + 15, header, 10.5, true, "#333", "start");
  out += "</g>\n";
}

void SvgWriter::Node(std::string& out, const DisplayNode& node, const Rect& rect,
                     const std::string& prefix) const {
  DiffPalette palette = DiffPalette::For(node.diff);
  double stroke_width = node.kind == DisplayNodeKind::kFusion ? 2 : 1.2;
  out += GroupOpen(node, prefix, false);
  out += RectElement(rect, CornerRadius(node.kind), palette.fill, palette.stroke, stroke_width,
                     Dash(node.kind));
  double cx = rect.center().x;
  double title_y = rect.y + (node.is_box() ? 17 : 15);
  out += TextElement(cx, title_y, node.title, NodeMetrics::kTitleFontSize, true, "#1f1f1f");
  if (!node.subtitle.empty()) {
    out += TextElement(cx, title_y + 13, node.subtitle, NodeMetrics::kSubtitleFontSize, false,
                       "#555555");
  }
  out += "</g>\n";
}

void SvgWriter::Edge(std::string& out, const DisplayGraph& graph, const EdgeRoute& route) const {
  if (route.path.size() < 2) return;
  bool refused = false;
  std::string note;
  for (int index : route.edges) {
    const DisplayEdge& edge = graph.edges()[static_cast<size_t>(index)];
    refused = refused || edge.refused;
    if (!edge.note.empty()) note += (note.empty() ? "" : "; ") + edge.note;
  }
  const char* color = refused ? kRefusedColor : kEdgeColor;
  out += std::string("<g class=\"fs-edge") + (refused ? " fs-refused" : "") + "\"" +
         Attr("data-from", graph.node(route.from).key) + Attr("data-to", graph.node(route.to).key) +
         ">";
  if (!note.empty()) out += "<title>" + EscapeXml(note) + "</title>";
  out += "<path" + Attr("d", PathData(route.path)) + Attr("fill", "none") + Attr("stroke", color) +
         Num("stroke-width", refused ? 1.6 : 1.1) +
         (refused ? Attr("stroke-dasharray", "5 3") : "") +
         Attr("marker-end",
              "url(#" + options_.id_prefix + (refused ? "-arrow-refused" : "-arrow") + ")") +
         "/>";
  const std::string& label =
      route.edges.empty() ? "" : graph.edges()[static_cast<size_t>(route.edges[0])].label;
  double y = route.label.y;
  if (options_.edge_labels && !label.empty()) {
    out += TextElement(route.label.x + 4, y + 3, label, 8.5, false, "#6b6b6b", "start");
    y += 11;
  }
  if (options_.edge_notes && !note.empty()) {
    out += TextElement(route.label.x + 4, y + 3, Shorten(note, kMaxNote), 9, false, kRefusedColor,
                       "start");
  }
  out += "</g>\n";
}

}  // namespace fusescope::views
