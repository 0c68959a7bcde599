#include "views/qt/graph/graph_picture.h"

#include "views/diff_layout.h"

namespace fusescope::views {
namespace {

// The computation an instruction lives in, climbing out of fusion bodies: the graphs show
// the entry computation, and a fused instruction is found through its fusion box.
bool InEntry(const ir::Instruction& instruction, const ir::Module& module) {
  const ir::Computation* computation = instruction.parent();
  while (computation && computation->fusion_instruction()) {
    computation = computation->fusion_instruction()->parent();
  }
  return computation == module.entry();
}

}  // namespace

bool GraphPicture::PrepareGraph() {
  const GraphRequest& request = request_;
  const ir::Module* module = request.view ? request.view->module(request.side) : nullptr;
  if (!module) {
    error_ = request.view ? request.view->error() : "no pass";
    return false;
  }
  graph_ = DisplayGraph::Build(*module, request.options);
  if (const ir::GraphDiff* diff = request.view->diff(); diff && request.attach_diff) {
    graph_.AttachDiff(*diff, request.side == GraphSide::kBefore);
  }
  if (request.expanded) {
    graph_.ApplyExpandedKeys(*request.expanded);
  } else {
    graph_.ExpandToBudget(request.budget);
  }
  for (int64_t id : request.reveal) {
    const ir::Instruction* instruction = request.view->Find(request.side, id);
    const int node = instruction ? graph_.FindInstruction(instruction) : -1;
    if (node < 0) continue;
    for (int box = graph_.node(node).parent; box >= 0; box = graph_.node(box).parent) {
      graph_.SetExpanded(box, true);
    }
  }
  if (request.annotation) {
    const EdgeAnnotation& note = *request.annotation;
    graph_.AnnotateEdge(note.producer_id, note.consumer_id, note.text, note.refused);
  }
  return true;
}

void GraphPicture::ExpandBoxes(const std::unordered_set<std::string>& keys) {
  for (const std::string& key : keys) {
    const int node = graph_.FindKey(key);
    if (node >= 0) graph_.SetExpanded(node, true);
  }
}

void GraphPicture::LayOut() {
  StatusOr<GraphLayout> layout = LayoutGraph(graph_);
  if (!layout.ok()) {
    error_ = layout.message();
    return;
  }
  layout_ = std::move(layout).value();
}

void GraphPicture::Finish() {
  if (layout_.nodes().empty()) return;
  drawing_ = GraphDrawing::Prepare(graph_, layout_);
  expanded_keys_ = graph_.ExpandedKeys();
  for (const DisplayNode& node : graph_.nodes()) {
    if (node.kind == DisplayNodeKind::kScope || node.kind == DisplayNodeKind::kGroup)
      box_keys_.insert(node.key);
  }
}

std::shared_ptr<const GraphPicture> GraphPicture::Build(const GraphRequest& request) {
  std::shared_ptr<GraphPicture> picture(new GraphPicture(request));
  if (picture->PrepareGraph()) picture->LayOut();
  picture->Finish();
  return picture;
}

GraphPicture::Pair GraphPicture::BuildAligned(const GraphRequest& before,
                                              const GraphRequest& after) {
  std::shared_ptr<GraphPicture> left(new GraphPicture(before));
  std::shared_ptr<GraphPicture> right(new GraphPicture(after));
  const bool left_ready = left->PrepareGraph();
  const bool right_ready = right->PrepareGraph();
  const ir::GraphDiff* diff = before.view ? before.view->diff() : nullptr;
  if (!left_ready || !right_ready || !diff) {
    if (left->error_.empty()) left->LayOut();
    if (right->error_.empty()) right->LayOut();
    left->Finish();
    right->Finish();
    return {left, right};
  }
  // LayoutDiff lays a box out expanded when either side expands it; the pictures must
  // draw the same state.
  const auto left_keys = left->graph_.ExpandedKeys();
  left->ExpandBoxes(right->graph_.ExpandedKeys());
  right->ExpandBoxes(left_keys);
  StatusOr<DiffLayout> layout = LayoutDiff(left->graph_, right->graph_, *diff);
  if (!layout.ok()) {
    left->error_ = right->error_ = layout.message();
    return {left, right};
  }
  left->layout_ = std::move(layout->left);
  right->layout_ = std::move(layout->right);
  left->Finish();
  right->Finish();
  return {left, right};
}

int GraphPicture::VisibleNodeOf(int64_t instruction_id) const {
  if (!request_.view) return -1;
  const ir::Instruction* instruction = request_.view->Find(request_.side, instruction_id);
  const ir::Module* module = request_.view->module(request_.side);
  if (!instruction || !module || !InEntry(*instruction, *module)) return -1;
  const int node = graph_.FindInstruction(instruction);
  return node < 0 ? -1 : graph_.Representative(node);
}

}  // namespace fusescope::views
