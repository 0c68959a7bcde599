// The workbench driven like a user would: open a sample, step passes with the debugger
// keys, click a fused node and check its counterparts and the inspector, filter the fusion
// decisions and click one, click a line of IR text, search.

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeView>

#include "tests/gui/gui_test_support.h"
#include "views/qt/decisions/fusion_decision_filter_model.h"
#include "views/qt/decisions/fusion_decision_model.h"
#include "views/qt/decisions/fusion_decisions_panel.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/graph/graph_edge_item.h"
#include "views/qt/inspector/inspector_model.h"
#include "views/qt/inspector/inspector_panel.h"
#include "views/qt/text/ir_text_model.h"
#include "views/qt/text/ir_text_panel.h"
#include "views/qt/passes/pass_actions.h"
#include "views/qt/passes/pass_navigator.h"
#include "views/qt/passes/pass_timeline_model.h"
#include "views/qt/passes/pass_timeline_panel.h"
#include "views/qt/search/search_panel.h"
#include "views/qt/search/search_result_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

const ir::Instruction* EntryFusion(const PassView& view) {
  for (const auto& instruction : view.module(GraphSide::kAfter)->entry()->instructions()) {
    if (instruction->opcode() == ir::Opcode::kFusion) return instruction.get();
  }
  return nullptr;
}

void ClickItem(GraphCanvas* canvas, const QGraphicsItem* item) {
  const QPoint at = canvas->mapFromScene(item->sceneBoundingRect().center());
  QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

// A new user sees a compiled sample at once: the first fusion pass, both graphs drawn.
TEST(MainWindowTest, OpensSampleOnItsFusionPass) {
  auto window = OpenWindow();
  ASSERT_TRUE(window->IsSettled());
  WorkbenchContext* context = window->context();
  ASSERT_NE(context->recording(), nullptr);
  EXPECT_EQ(context->requested_pass(), WorkbenchContext::DefaultPass(*context->recording()));
  EXPECT_EQ(window->timeline_panel()->model()->rowCount(), context->pass_count());
  EXPECT_GT(window->graph_panel()->canvas(GraphSide::kBefore)->node_items().size(), 3u);
  EXPECT_GT(window->graph_panel()->canvas(GraphSide::kAfter)->node_items().size(), 3u);
  EXPECT_GT(window->text_panel()->model()->rowCount(), 10);
  EXPECT_TRUE(window->windowTitle().contains("sample:mlp"));
}

// F10 / Shift+F10 step one pass, F11 jumps to the next pass that changed the module.
TEST(MainWindowTest, StepsPassesWithDebuggerKeys) {
  auto window = OpenWindow();
  WorkbenchContext* context = window->context();
  QApplication::setActiveWindow(window.get());
  const int64_t start = context->requested_pass();
  QTest::keyClick(window.get(), Qt::Key_F10);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_EQ(context->requested_pass(), start + 1);
  EXPECT_EQ(context->pass_view()->pass_index(), start + 1);
  EXPECT_EQ(window->timeline_panel()->table()->currentIndex().row(), start + 1);
  QTest::keyClick(window.get(), Qt::Key_F10, Qt::ShiftModifier);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_EQ(context->requested_pass(), start);
  const int64_t next_change = PassNavigator::NextChanged(*context->recording(), start);
  ASSERT_NE(next_change, start) << "the sample should change the module after the fusion";
  QTest::keyClick(window.get(), Qt::Key_F11);
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  EXPECT_EQ(context->requested_pass(), next_change);
  EXPECT_TRUE(context->pass_view()->pass()->changed);
}

// Clicking a fusion on the right selects it, marks the originals it absorbed on the left,
// and fills the inspector with its provenance and the decisions that formed it.
TEST(MainWindowTest, FusedNodeShowsCounterpartsAndInspector) {
  auto window = OpenWindow();
  WorkbenchContext* context = window->context();
  const ir::Instruction* fusion = EntryFusion(*context->pass_view());
  ASSERT_NE(fusion, nullptr);
  GraphCanvas* after = window->graph_panel()->canvas(GraphSide::kAfter);
  GraphCanvas* before = window->graph_panel()->canvas(GraphSide::kBefore);
  GraphNodeItem* item = after->ItemOfInstruction(fusion->id());
  ASSERT_NE(item, nullptr);
  ClickItem(after, item);
  EXPECT_EQ(context->selection().instruction_id, fusion->id());
  EXPECT_EQ(context->selection().side, GraphSide::kAfter);
  EXPECT_EQ(item->mark(), GraphNodeItem::Mark::kSelected);
  int counterparts = 0;
  for (const GraphNodeItem* node : before->node_items()) {
    counterparts += node->mark() == GraphNodeItem::Mark::kCounterpart ? 1 : 0;
  }
  EXPECT_GE(counterparts, 1);
  for (int64_t id : context->pass_view()->Counterparts(GraphSide::kAfter, fusion->id())) {
    const GraphNodeItem* original = before->ItemOfInstruction(id);
    ASSERT_NE(original, nullptr);
    EXPECT_EQ(original->mark(), GraphNodeItem::Mark::kCounterpart);
  }
  InspectorPanel* inspector = window->inspector_panel();
  EXPECT_EQ(inspector->heading()->text().toStdString(), fusion->name());
  const QModelIndex provenance = inspector->model()->SectionIndex("Provenance");
  ASSERT_TRUE(provenance.isValid());
  EXPECT_GT(inspector->model()->rowCount(provenance), 2);
  EXPECT_TRUE(inspector->model()->SectionIndex("Fusion decisions").isValid());
  // The IR text follows: its current line is the fusion's.
  const QModelIndex line = window->text_panel()->view()->currentIndex();
  EXPECT_EQ(line.data(IrTextModel::kInstructionIdRole).toLongLong(), fusion->id());
}

// In a narrow inspector the property column takes at most half the width: the longest
// section heading spans its row instead of widening the column, and the values keep the
// rest.
TEST(MainWindowTest, ANarrowInspectorLeavesTheValuesRoom) {
  auto window = OpenWindow();
  WorkbenchContext* context = window->context();
  const ir::Instruction* fusion = EntryFusion(*context->pass_view());
  ASSERT_NE(fusion, nullptr);
  ClickItem(window->graph_panel()->canvas(GraphSide::kAfter),
            window->graph_panel()->canvas(GraphSide::kAfter)->ItemOfInstruction(fusion->id()));
  InspectorPanel* inspector = window->inspector_panel();
  ASSERT_EQ(inspector->heading()->text().toStdString(), fusion->name());
  for (int width : {240, 420}) {
    SCOPED_TRACE(width);
    inspector->resize(width, 600);
    QTreeView* tree = inspector->tree();
    const int viewport = tree->viewport()->width();
    const int key = tree->columnWidth(InspectorModel::kKey);
    EXPECT_LE(key, std::max(60, viewport / 2)) << "viewport " << viewport;
    EXPECT_GT(key, 0);
    // Each section's heading spans its row.
    const QModelIndex provenance = inspector->model()->SectionIndex("Provenance");
    ASSERT_TRUE(provenance.isValid());
    EXPECT_TRUE(tree->isFirstColumnSpanned(provenance.row(), QModelIndex()));
  }
}

// Filtering to refusals and clicking one shows its pass and writes the reason on the edge
// between producer and consumer.
TEST(MainWindowTest, RefusedDecisionShownOnItsEdge) {
  auto window = OpenWindow();
  FusionDecisionsPanel* panel = window->decisions_panel();
  panel->verdict_box()->setCurrentIndex(panel->verdict_box()->findText("Refused"));
  QTableView* table = panel->table();
  ASSERT_GT(table->model()->rowCount(), 0);
  for (int row = 0; row < table->model()->rowCount(); ++row) {
    EXPECT_FALSE(table->model()->index(row, 0).data(FusionDecisionModel::kAcceptedRole).toBool());
  }
  const QModelIndex first = table->model()->index(0, FusionDecisionModel::kProducer);
  const int decision = first.data(FusionDecisionModel::kDecisionIndexRole).toInt();
  const auto& record = window->context()->recording()->decisions[static_cast<size_t>(decision)];
  table->scrollTo(first);
  QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                    table->visualRect(first).center());
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  WorkbenchContext* context = window->context();
  EXPECT_EQ(context->selection().decision_index, decision);
  EXPECT_EQ(context->requested_pass(), record.pass_index);
  const QString code = QString::fromUtf8(passes::FusionReasonCode(record.reason).data());
  bool on_edge = false;
  for (GraphSide side : {GraphSide::kBefore, GraphSide::kAfter}) {
    for (const GraphEdgeItem* edge : window->graph_panel()->canvas(side)->edge_items()) {
      if (edge->has_note() && edge->note().contains(code)) on_edge = true;
    }
  }
  EXPECT_TRUE(on_edge) << "no edge carries '" << code.toStdString() << "'";
}

// A click on a line of IR text selects its instruction everywhere.
TEST(MainWindowTest, TextLineSelectsNode) {
  auto window = OpenWindow();
  IrTextPanel* text = window->text_panel();
  const ir::Instruction* fusion = EntryFusion(*window->context()->pass_view());
  ASSERT_NE(fusion, nullptr);
  const int row = text->model()->RowOf(fusion->id(), GraphSide::kAfter);
  ASSERT_GE(row, 0);
  const QModelIndex index = text->model()->index(row);
  text->view()->scrollTo(index);
  QTest::mouseClick(text->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                    text->view()->visualRect(index).center());
  EXPECT_EQ(window->context()->selection().instruction_id, fusion->id());
  EXPECT_EQ(window->inspector_panel()->heading()->text().toStdString(), fusion->name());
  GraphNodeItem* item =
      window->graph_panel()->canvas(GraphSide::kAfter)->ItemOfInstruction(fusion->id());
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->mark(), GraphNodeItem::Mark::kSelected);
}

// Search by opcode, then step through the hits; each one becomes the selection.
TEST(MainWindowTest, SearchStepsThroughHits) {
  auto window = OpenWindow();
  SearchPanel* search = window->search_panel();
  search->field_box()->setCurrentIndex(search->field_box()->findText("Opcode"));
  search->query()->setText("fusion");
  search->Search();
  const int hits = search->model()->rowCount();
  ASSERT_GE(hits, 2);
  search->Next();
  const int64_t first = window->context()->selection().instruction_id;
  EXPECT_EQ(first, search->model()->hits()[0].id);
  search->Next();
  EXPECT_EQ(window->context()->selection().instruction_id, search->model()->hits()[1].id);
  search->Previous();
  EXPECT_EQ(window->context()->selection().instruction_id, first);
}

// With Align Sides, both graphs are laid out together: same extent, and an instruction the
// pass left alone sits at the same place on both sides.
TEST(MainWindowTest, AlignedSidesLineUp) {
  auto window = OpenWindow();
  GraphDiffPanel* panel = window->graph_panel();
  ASSERT_FALSE(panel->align_sides()->isChecked()) << "off by default";
  panel->align_sides()->trigger();
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  GraphCanvas* before = panel->canvas(GraphSide::kBefore);
  GraphCanvas* after = panel->canvas(GraphSide::kAfter);
  EXPECT_EQ(before->sceneRect(), after->sceneRect());
  const PassView* view = window->context()->pass_view();
  int compared = 0;
  for (const auto& instruction : view->module(GraphSide::kBefore)->entry()->instructions()) {
    if (instruction->opcode() != ir::Opcode::kParameter) continue;
    const GraphNodeItem* left = before->ItemOfInstruction(instruction->id());
    const GraphNodeItem* right = after->ItemOfInstruction(instruction->id());
    if (!left || !right || left->expanded() || right->expanded()) continue;
    EXPECT_EQ(left->boundingRect(), right->boundingRect()) << instruction->name();
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

// Errors reach the user as a message, not a crash; the open recording stays.
TEST(MainWindowTest, BadFileIsReportedNotFatal) {
  auto window = OpenWindow();
  QSignalSpy failed(window.get(), &MainWindow::loadFailed);
  window->OpenPath("/nonexistent/model.hlo");
  ASSERT_TRUE(WaitFor([&] { return failed.count() > 0; }));
  EXPECT_TRUE(failed.at(0).at(0).toString().contains("/nonexistent/model.hlo"));
  EXPECT_NE(window->context()->recording(), nullptr);
}

}  // namespace
}  // namespace fusescope::views
