#include "views/dot_writer.h"

#include <unordered_set>

#include "views/diff_palette.h"

namespace fusescope::views {

namespace {

// The text of a DOT string without its quotes.
std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string NodeName(int id) { return "n" + std::to_string(id); }

std::string NodeStatement(const DisplayNode& node, const DotOptions& options,
                          const std::string& indent) {
  std::string label = Escape(node.title);
  if (!node.subtitle.empty()) label += "\\n" + Escape(node.subtitle);
  std::string text = indent + NodeName(node.id) + " [label=\"" + label + "\"";
  std::string style = "filled";
  if (node.kind == DisplayNodeKind::kFusion) style += ",rounded";
  if (node.kind == DisplayNodeKind::kScope || node.kind == DisplayNodeKind::kGroup) {
    style += ",dashed";
  }
  text += ", style=\"" + style + "\"";
  if (options.colors) {
    DiffPalette palette = DiffPalette::For(node.diff);
    text += ", fillcolor=\"" + std::string(palette.fill) + "\", color=\"" +
            std::string(palette.stroke) + "\"";
  }
  return text + "];\n";
}

class DotEmitter {
 public:
  DotEmitter(const DisplayGraph& graph, const DotOptions& options)
      : graph_(graph), options_(options) {}

  std::string Run() {
    out_ = "digraph \"" + Escape(options_.graph_name) + "\" {\n";
    out_ += "  node [shape=box, fontname=\"DejaVu Sans\", fontsize=10];\n";
    out_ += "  edge [fontname=\"DejaVu Sans\", fontsize=8, color=\"#808080\"];\n";
    if (options_.flat) {
      for (const DisplayNode& node : graph_.nodes()) {
        if (!node.is_box()) out_ += NodeStatement(node, options_, "  ");
      }
    } else {
      for (int id : graph_.top_level()) Emit(id, "  ");
    }
    Edges();
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  void Emit(int id, const std::string& indent) {
    const DisplayNode& node = graph_.node(id);
    if (!node.is_box() || !node.expanded) {
      out_ += NodeStatement(node, options_, indent);
      return;
    }
    out_ += indent + "subgraph cluster_" + std::to_string(id) + " {\n";
    std::string label = Escape(node.title);
    if (!node.subtitle.empty()) label += " (" + Escape(node.subtitle) + ")";
    out_ += indent + "  label=\"" + label + "\";\n";
    out_ += indent + "  style=\"" +
            std::string(node.kind == DisplayNodeKind::kFusion ? "rounded" : "dashed") + "\";\n";
    if (options_.colors) {
      out_ += indent + "  color=\"" + std::string(DiffPalette::For(node.diff).stroke) + "\";\n";
    }
    for (int child : node.children) Emit(child, indent + "  ");
    out_ += indent + "}\n";
  }

  void Edges() {
    std::unordered_set<uint64_t> seen;
    for (const DisplayEdge& edge : graph_.edges()) {
      int from = options_.flat ? edge.from : graph_.Representative(edge.from);
      int to = options_.flat ? edge.to : graph_.Representative(edge.to);
      uint64_t key = (static_cast<uint64_t>(from) << 32) | static_cast<uint32_t>(to);
      if (from == to || !seen.insert(key).second) continue;
      out_ += "  " + NodeName(from) + " -> " + NodeName(to);
      std::string attributes;
      if (options_.edge_labels && !edge.label.empty()) {
        attributes += "label=\"" + Escape(edge.label) + "\"";
      }
      if (edge.refused) {
        if (!attributes.empty()) attributes += ", ";
        attributes += "color=\"#c62828\", style=dashed, tooltip=\"" + Escape(edge.note) + "\"";
      }
      out_ += attributes.empty() ? ";\n" : " [" + attributes + "];\n";
    }
  }

  const DisplayGraph& graph_;
  const DotOptions& options_;
  std::string out_;
};

}  // namespace

std::string DotWriter::Write(const DisplayGraph& graph, const DotOptions& options) {
  return DotEmitter(graph, options).Run();
}

}  // namespace fusescope::views
