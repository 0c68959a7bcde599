#include "views/qt/graph_picture.h"

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

std::shared_ptr<const GraphPicture> GraphPicture::Build(const GraphRequest& request) {
  std::shared_ptr<GraphPicture> picture(new GraphPicture(request));
  const ir::Module* module = request.view ? request.view->module(request.side) : nullptr;
  if (!module) {
    picture->error_ = request.view ? request.view->error() : "no pass";
    return picture;
  }
  picture->graph_ = DisplayGraph::Build(*module, request.options);
  DisplayGraph& graph = picture->graph_;
  if (const ir::GraphDiff* diff = request.view->diff()) {
    graph.AttachDiff(*diff, request.side == GraphSide::kBefore);
  }
  if (request.expanded) {
    graph.ApplyExpandedKeys(*request.expanded);
  } else {
    graph.ExpandToBudget(request.budget);
  }
  for (int64_t id : request.reveal) {
    const ir::Instruction* instruction = request.view->Find(request.side, id);
    const int node = instruction ? graph.FindInstruction(instruction) : -1;
    if (node < 0) continue;
    for (int box = graph.node(node).parent; box >= 0; box = graph.node(box).parent) {
      graph.SetExpanded(box, true);
    }
  }
  if (request.annotation) {
    const EdgeAnnotation& note = *request.annotation;
    graph.AnnotateEdge(note.producer_id, note.consumer_id, note.text, note.refused);
  }
  StatusOr<GraphLayout> layout = LayoutGraph(graph);
  if (!layout.ok()) {
    picture->error_ = layout.message();
    return picture;
  }
  picture->layout_ = std::move(layout).value();
  return picture;
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
