// What the graph panel shows first when a pass is selected: what the pass changed, at a zoom
// where node labels can be read.

#include <gtest/gtest.h>

#include <QScrollBar>
#include <QTableView>
#include <set>

#include "tests/gui/gui_test_support.h"
#include "views/graph_layout.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/passes/pass_timeline_model.h"
#include "views/qt/passes/pass_timeline_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

// Point size of a node's title as drawn on screen.
double LabelPoints(const GraphCanvas& canvas) {
  const double pixels = NodeMetrics::kTitleFontSize * canvas.transform().m11();
  return pixels * 72.0 / canvas.logicalDpiY();
}

QRectF Visible(const GraphCanvas& canvas) {
  return canvas.mapToScene(canvas.viewport()->rect()).boundingRect();
}

// Nodes wholly in view: those whose diff status passes `wanted`.
int NodesInView(const GraphCanvas& canvas, const std::function<bool(const DisplayNode&)>& wanted) {
  const QRectF visible = Visible(canvas);
  int count = 0;
  for (const GraphNodeItem* item : canvas.node_items()) {
    const DisplayNode& node = canvas.picture()->graph().node(item->node_id());
    if (node.is_box() && node.expanded) continue;
    if (wanted(node) && visible.contains(item->sceneBoundingRect())) ++count;
  }
  return count;
}

// Selects `pass` in the pass table, as a click would, and waits for both graphs.
void SelectPass(MainWindow& window, int64_t pass) {
  QTableView* table = window.timeline_panel()->table();
  table->selectionModel()->setCurrentIndex(
      table->model()->index(static_cast<int>(pass), PassTimelineModel::kName),
      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  ASSERT_TRUE(WaitFor(
      [&] { return window.IsSettled() && window.context()->pass_view()->pass_index() == pass; }));
}

int64_t FindPass(const recording::Recording& recording, bool changed, bool fusion) {
  for (const recording::PassRecord& pass : recording.passes) {
    const bool is_fusion = pass.name.find("fusion") != std::string::npos;
    if (pass.changed == changed && is_fusion == fusion && !pass.skipped) return pass.index;
  }
  return -1;
}

// A fusion pass opens on what it fused, with every label readable, on both sides.
TEST(GraphViewTest, FusionPassOpensReadableOnWhatChanged) {
  auto window = OpenWindow("bert_encoder");
  const recording::Recording& recording = *window->context()->recording();
  const int64_t fusion = FindPass(recording, true, true);
  ASSERT_GE(fusion, 0);
  SelectPass(*window, 0);
  SelectPass(*window, fusion);
  for (GraphSide side : {GraphSide::kBefore, GraphSide::kAfter}) {
    const GraphCanvas& canvas = *window->graph_panel()->canvas(side);
    SCOPED_TRACE(side == GraphSide::kBefore ? "before" : "after");
    EXPECT_GE(LabelPoints(canvas), GraphCanvas::kReadablePoints);
    EXPECT_GE(NodesInView(
                  canvas,
                  [](const DisplayNode& node) { return node.diff != ir::DiffStatus::kUnchanged; }),
              1);
  }
}

// A pass that changed nothing opens on the top of the graph, readable.
TEST(GraphViewTest, UnchangedPassOpensReadableOnTheTop) {
  auto window = OpenWindow("bert_encoder");
  const int64_t idle = FindPass(*window->context()->recording(), false, false);
  ASSERT_GE(idle, 0);
  SelectPass(*window, idle);
  const GraphCanvas& canvas = *window->graph_panel()->canvas(GraphSide::kAfter);
  EXPECT_GE(LabelPoints(canvas), GraphCanvas::kReadablePoints);
  // A node of the top row (drawn as a node, not as the frame of an expanded box) is in view.
  double top = 1e18;
  for (const NodePlacement& placement : canvas.picture()->layout().nodes()) {
    if (!canvas.picture()->graph().node(placement.node).expanded)
      top = std::min(top, placement.rect.y);
  }
  int top_row_in_view = 0;
  for (const NodePlacement& placement : canvas.picture()->layout().nodes()) {
    const GraphNodeItem* item = canvas.ItemOfNode(placement.node);
    if (placement.rect.y > top + 1 || item->expanded()) continue;
    top_row_in_view += Visible(canvas).contains(item->sceneBoundingRect()) ? 1 : 0;
  }
  EXPECT_GE(top_row_in_view, 1);
}

// Items are made as the view reaches them: after a pan to the far end, every node in view has
// its item.
TEST(GraphViewTest, PanningMakesTheNodesThatComeIntoView) {
  auto window = OpenWindow("bert_encoder");
  GraphCanvas& canvas = *window->graph_panel()->canvas(GraphSide::kBefore);
  canvas.verticalScrollBar()->setValue(canvas.verticalScrollBar()->maximum());
  canvas.horizontalScrollBar()->setValue(canvas.horizontalScrollBar()->maximum());
  QCoreApplication::processEvents();
  std::set<int> made;
  for (const GraphNodeItem* item : canvas.node_items()) made.insert(item->node_id());
  int in_view = 0;
  for (const NodePlacement& placement : canvas.picture()->layout().nodes()) {
    const Rect& r = placement.rect;
    if (!Visible(canvas).intersects(QRectF(r.x, r.y, r.width, r.height))) continue;
    ++in_view;
    EXPECT_TRUE(made.contains(placement.node)) << "node " << placement.node;
  }
  EXPECT_GE(in_view, 1);
}

}  // namespace
}  // namespace fusescope::views
