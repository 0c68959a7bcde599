#ifndef FUSESCOPE_VIEWS_DISPLAY_GRAPH_H_
#define FUSESCOPE_VIEWS_DISPLAY_GRAPH_H_

// What a graph view shows of one computation: instruction nodes, and boxes that can be
// collapsed into one node or expanded to show their children:
//  - fusion boxes: a fusion instruction with its fused computation's instructions inside;
//  - scope boxes: name scopes from metadata op_name ("jit(f)/dense_1/dot" lies in
//    jit(f) > dense_1);
//  - group boxes: runs of consecutive instructions, made only where a level would otherwise
//    hold more than `max_children` nodes, so that no single layout is too large;
//  - body boxes (scope kind, with their instruction): an operation that only holds a region
//    (an MLIR function, an IREE executable, a nested module) with that region's instructions
//    inside, so that a module of functions opens onto a function's body.
// Edges join instructions (a fusion's inputs enter at its fused parameters, its output leaves
// from its fused root) and carry the shape of the value as label. Instructions the options
// hide (constants, parameters, tuples, get-tuple-elements) are not nodes; edges pass through
// hidden tuples, get-tuple-elements and fused parameters to what they forward (a
// get-tuple-element to the one element it selects).
//
// A DisplayGraph holds pointers into the module it was built from; the module must outlive
// it. Node keys are stable across snapshots of one recording (they derive from instruction
// ids and scope paths), so an expansion state can be carried from one pass to the next.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph_diff.h"
#include "ir/module.h"

namespace fusescope::views {

enum class DisplayNodeKind : uint8_t { kInstruction, kFusion, kScope, kGroup };

struct DisplayNode {
  int id = -1;  // index in DisplayGraph::nodes()
  DisplayNodeKind kind = DisplayNodeKind::kInstruction;
  int parent = -1;            // enclosing box, -1 at the top level
  std::vector<int> children;  // boxes only, in def-before-use order
  // The instruction; for a fusion box the fusion instruction, for a body box the operation
  // holding the body; null for name scopes and groups.
  const ir::Instruction* instruction = nullptr;
  std::string key;                // "i42", "f42", "s:jit(f)/dense_1", "g:<parent key>:<n>"
  std::string title;              // "add.3", "fusion.3", "dense_1"
  std::string subtitle;           // "add f32[8,16]", "kLoop, 7 ops", "12 ops"
  bool expanded = false;          // boxes only
  int64_t instruction_count = 1;  // instructions inside a box (hidden ones not counted)
  ir::DiffStatus diff = ir::DiffStatus::kUnchanged;
  uint32_t diff_changes = 0;  // ir::DiffChange bits of an instruction or fusion

  bool is_box() const { return kind != DisplayNodeKind::kInstruction; }
};

struct DisplayEdge {
  int from = -1;  // instruction nodes
  int to = -1;
  // The consumer lists `value` as an operand: `user` is that consumer at its own level (the
  // fusion instruction when the edge enters a fused parameter), `value` the operand as
  // written (a get-tuple-element the edge passes through, a fusion whose root it leaves from).
  const ir::Instruction* value = nullptr;
  const ir::Instruction* user = nullptr;
  std::string label;  // shape of the value, "f32[8,16]"
  std::string note;   // shown on the edge, e.g. why a fusion of the pair was refused
  bool refused = false;
};

struct DisplayOptions {
  bool hide_constants = false;
  bool hide_parameters = false;
  bool hide_tuples = false;
  bool hide_get_tuple_elements = false;
  bool fusion_boxes = true;  // false: fusions are plain nodes without children
  bool scope_boxes = true;
  bool edge_labels = true;
  int max_children = 80;  // more direct children than this are split into group boxes
};

// "jit(f)/dense_1/dot" -> {"jit(f)", "dense_1"}: the scopes, without the op's own last part.
// Slashes inside parentheses ("transpose(jvp(a/b))") do not split.
std::vector<std::string> ScopePath(std::string_view op_name);

class DisplayGraph {
 public:
  // `computation` null means the entry computation.
  static DisplayGraph Build(const ir::Module& module, const DisplayOptions& options = {},
                            const ir::Computation* computation = nullptr);

  const std::vector<DisplayNode>& nodes() const { return nodes_; }
  const std::vector<DisplayEdge>& edges() const { return edges_; }
  const DisplayNode& node(int id) const { return nodes_[static_cast<size_t>(id)]; }
  const std::vector<int>& top_level() const { return top_; }
  int FindKey(std::string_view key) const;                        // -1 if absent
  int FindInstruction(const ir::Instruction* instruction) const;  // node or box; -1
  int64_t instruction_node_count() const { return instruction_nodes_; }

  // Expansion state. Setting it on an instruction node does nothing.
  void SetExpanded(int id, bool expanded);
  void CollapseAll();
  void ExpandAll();
  // Keys of the expanded boxes, to carry a state over to another snapshot's graph.
  std::unordered_set<std::string> ExpandedKeys() const;
  void ApplyExpandedKeys(const std::unordered_set<std::string>& keys);
  // The first picture: expands scope and group boxes breadth-first while the number of
  // visible nodes stays within `budget`; fusion boxes stay collapsed.
  void ExpandToBudget(int budget);

  // Visible: every enclosing box is expanded. A node's representative is itself when
  // visible, else its outermost collapsed ancestor.
  bool IsVisible(int id) const;
  int Representative(int id) const;
  std::vector<int> VisibleNodes() const;  // top-down, parents before children
  int64_t VisibleNodeCount() const;

  // Diff status per node from one side of a diff; boxes summarise their contents.
  void AttachDiff(const ir::GraphDiff& diff, bool left_side);
  // Puts `text` on every edge from `producer_id` (the operand) to `consumer_id` (the user);
  // returns how many edges it annotated.
  int AnnotateEdge(int64_t producer_id, int64_t consumer_id, const std::string& text, bool refused);

  // For graphs assembled by other code (the union graph of a diff layout). AddNode appends
  // the node to its parent's children (or the top level); mutable_node must not be used to
  // change parents, children or keys.
  int AddNode(DisplayNode node);
  void AddEdge(DisplayEdge edge);
  DisplayNode& mutable_node(int id) { return nodes_[static_cast<size_t>(id)]; }

 private:
  friend class DisplayGraphBuilder;
  void Index();
  void SummariseBoxDiff(int id);

  std::vector<DisplayNode> nodes_;
  std::vector<DisplayEdge> edges_;
  std::vector<int> top_;
  std::unordered_map<std::string, int> by_key_;
  std::unordered_map<const ir::Instruction*, int> by_instruction_;
  int64_t instruction_nodes_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_DISPLAY_GRAPH_H_
