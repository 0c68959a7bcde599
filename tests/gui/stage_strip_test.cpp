// The stage strip: which stages its panes show (a window over the passes, filtered, typed, or
// two recordings side by side), scrubbing, one viewport for all panes, and a selection
// followed across stages by provenance.

#include <gtest/gtest.h>

#include <QLabel>
#include <QSlider>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

#include "tests/gui/gui_test_support.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/stage_strip_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::App;
using testing::OpenWindow;
using testing::SampleRecording;
using testing::WaitFor;

std::vector<Stage> Passes(std::initializer_list<int64_t> passes, int recording = 0) {
  std::vector<Stage> stages;
  for (int64_t pass : passes) stages.push_back({recording, pass});
  return stages;
}

// A strip on its own, over a workbench context with `sample` open, shown and laid out.
class Strip {
 public:
  explicit Strip(const std::string& sample, const std::string& target = "cpu") {
    recording_ = SampleRecording(sample, target);
    panel_.resize(1600, 700);
    panel_.show();
    context_.SetRecording(recording_, QString::fromStdString("sample:" + sample));
  }
  StageStripPanel& panel() { return panel_; }
  WorkbenchContext& context() { return context_; }
  const recording::Recording& recording() const { return *recording_; }

  // Every pane shows its stage, laid out, marked and in the shared view.
  bool Settle() {
    return WaitFor(
        [&] { return context_.pass_view() && !panel_.stages().empty() && panel_.settled(); });
  }
  // The stage's module, as the pane shows it.
  const PassView& View(int pane) { return *panel_.canvas(pane)->picture()->request().view; }
  const ir::Module& Module(int pane) {
    const GraphPicture& picture = *panel_.canvas(pane)->picture();
    return *picture.request().view->module(picture.request().side);
  }

 private:
  QApplication& app_ = App();  // before the widgets
  std::shared_ptr<const recording::Recording> recording_;
  WorkbenchContext context_;
  StageStripPanel panel_{&context_};
};

// The pass a pane's picture was laid out for; -1 for the input.
int64_t ShownPass(StageStripPanel& panel, int pane) {
  const GraphRequest& request = panel.canvas(pane)->picture()->request();
  return request.side == GraphSide::kBefore ? -1 : request.view->pass_index();
}

// Puts `instruction` in the middle of the pane and clicks it, as a user would.
void ClickInstruction(GraphCanvas* canvas, int64_t instruction) {
  GraphNodeItem* item = canvas->ItemOfInstruction(instruction);
  ASSERT_NE(item, nullptr);
  canvas->ShowAt(canvas->zoom(), item->sceneBoundingRect().center());
  const QPoint at = canvas->mapFromScene(item->sceneBoundingRect().center());
  QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, at);
}

bool InView(const GraphCanvas& canvas, const QGraphicsItem& item) {
  const QRectF visible = canvas.mapToScene(canvas.viewport()->rect()).boundingRect();
  return visible.intersects(item.sceneBoundingRect());
}

// Whether the module after the pane's pass holds `id` in its entry computation (a fused
// instruction keeps its id inside its fusion's body).
bool InEntry(const PassView& view, int64_t id) {
  const ir::Instruction* instruction = view.Find(GraphSide::kAfter, id);
  return instruction && instruction->parent() == view.module(GraphSide::kAfter)->entry();
}

// An entry instruction of the `before` pane that the `after` pane's pass fused.
int64_t FindFusedNode(Strip& strip, int before_pane, int after_pane) {
  const PassView& after = strip.View(after_pane);
  for (const auto& instruction : strip.Module(before_pane).entry()->instructions()) {
    if (instruction->opcode() == ir::Opcode::kParameter) continue;
    if (!InEntry(after, instruction->id())) return instruction->id();
  }
  return -1;
}

// The entry fusion of `module` whose provenance holds `original`.
int64_t FusionHolding(const ir::Module& module, int64_t original) {
  for (const auto& instruction : module.entry()->instructions()) {
    if (instruction->opcode() == ir::Opcode::kFusion &&
        instruction->provenance().Contains(original))
      return instruction->id();
  }
  return -1;
}

TEST(StageWindowTest, MovesOverEveryStageInOrder) {
  const auto recording = SampleRecording("mlp");
  ASSERT_NE(recording, nullptr);
  StageWindow window;
  window.SetRecordings(recording.get(), nullptr);
  window.SetPaneCount(4);
  EXPECT_EQ(window.Visible(), (std::vector<Stage>{{0, -1}, {0, 0}, {0, 1}, {0, 2}}));
  const int stages = static_cast<int>(recording->passes.size()) + 1;
  EXPECT_EQ(window.last_position(), stages - 4);
  window.SetPosition(1000);
  EXPECT_EQ(window.position(), stages - 4);
  EXPECT_EQ(window.Visible().back(), (Stage{0, stages - 2}));
  // A stage already in view does not move the window; another one brings it in after the
  // stage before it.
  EXPECT_TRUE(window.Reveal({0, stages - 3}, 1));
  EXPECT_EQ(window.position(), stages - 4);
  EXPECT_TRUE(window.Reveal({0, 3}, 1));
  EXPECT_EQ(window.Visible().front(), (Stage{0, 2}));
}

TEST(StageWindowTest, FiltersKeepOnlyMatchingPasses) {
  const auto recording = SampleRecording("mlp");
  ASSERT_NE(recording, nullptr);
  StageWindow window;
  window.SetRecordings(recording.get(), nullptr);
  window.SetFilter({false, "CSE"});
  std::vector<Stage> cse;
  for (const recording::PassRecord& pass : recording->passes) {
    if (pass.name == "cse") cse.push_back({0, pass.index});
  }
  ASSERT_GE(cse.size(), 2u);
  EXPECT_EQ(window.Visible(), cse);
  window.SetFilter({true, ""});
  for (const Stage& stage : window.Visible()) {
    EXPECT_TRUE(recording->passes[static_cast<size_t>(stage.pass)].changed) << stage.pass;
  }
  EXPECT_FALSE(window.Visible().empty());
}

TEST(StageWindowTest, ReadsTypedStageLists) {
  const auto first = SampleRecording("mlp");
  const auto second = SampleRecording("mlp", "gpu");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  const int64_t last = static_cast<int64_t>(first->passes.size()) - 1;
  const int64_t second_last = static_cast<int64_t>(second->passes.size()) - 1;
  const StageList list = ParseStageList("input, 3-5 last,B:last b:2", *first, second.get());
  EXPECT_EQ(list.error, "");
  EXPECT_EQ(
      list.stages,
      (std::vector<Stage>{{0, -1}, {0, 3}, {0, 4}, {0, 5}, {0, last}, {1, second_last}, {1, 2}}));
  EXPECT_NE(ParseStageList("B:2", *first, nullptr).error, "");
  EXPECT_NE(ParseStageList("3, 400", *first, nullptr).error, "");
  EXPECT_NE(ParseStageList("5-3", *first, nullptr).error, "");
  EXPECT_NE(ParseStageList("fusion", *first, nullptr).error, "");
  EXPECT_EQ(FormatStage({1, 7}), "B:7");
  EXPECT_EQ(FormatStage({0, -1}), "input");
}

// Interleaved, each pass of the first recording stands beside the second's pass of the same
// name and occurrence.
TEST(StageWindowTest, InterleavesMatchingPassesOfTwoRecordings) {
  const auto first = SampleRecording("mlp");
  const auto second = SampleRecording("mlp", "gpu");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  StageWindow window;
  window.SetRecordings(first.get(), second.get());
  window.SetArrangement(StageArrangement::kInterleaved);
  window.SetPaneCount(4);
  EXPECT_EQ(window.Visible(), (std::vector<Stage>{{0, -1}, {1, -1}, {0, 0}, {1, 0}}));
  window.SetFilter({false, "cse"});
  for (const std::vector<Stage>& step : window.steps()) {
    ASSERT_EQ(step.size(), 2u);
    EXPECT_EQ(first->passes[static_cast<size_t>(step[0].pass)].name, "cse");
    EXPECT_EQ(second->passes[static_cast<size_t>(step[1].pass)].name, "cse");
  }
  // The second `cse` of one stands beside the second `cse` of the other.
  ASSERT_GE(window.steps().size(), 2u);
  EXPECT_GT(window.steps()[1][1].pass, window.steps()[0][1].pass);
  window.SetArrangement(StageArrangement::kSecond);
  for (const Stage& stage : window.Visible()) EXPECT_EQ(stage.recording, 1);
}

// The strip opens on the workbench's pass with the stage before it, one pane per stage, each
// titled with its pass.
TEST(StageStripTest, PanesShowTheWindowsPasses) {
  Strip strip("mlp");
  strip.panel().SetPaneCount(3);
  ASSERT_TRUE(strip.Settle());
  const int64_t current = strip.context().pass_view()->pass_index();
  ASSERT_GT(current, 0);
  EXPECT_EQ(strip.panel().stages(), Passes({current - 1, current, current + 1}));
  ASSERT_EQ(strip.panel().pane_count(), 3);
  for (int pane = 0; pane < 3; ++pane) {
    const Stage& stage = strip.panel().stages()[static_cast<size_t>(pane)];
    EXPECT_EQ(ShownPass(strip.panel(), pane), stage.pass);
    const std::string name = strip.recording().passes[static_cast<size_t>(stage.pass)].name;
    EXPECT_NE(strip.panel().title(pane)->toolTip().toStdString().find(name), std::string::npos);
    EXPECT_TRUE(strip.panel().title(pane)->text().startsWith(QStringLiteral("#%1").arg(stage.pass)))
        << strip.panel().title(pane)->text().toStdString();
  }
  // The fusion pass says how much it changed; the pass after it changed nothing.
  EXPECT_TRUE(strip.panel().detail(1)->text().contains("nodes changed"));
  EXPECT_TRUE(strip.panel().detail(2)->text().startsWith("no change"));
}

TEST(StageStripTest, NameFilterPicksOnlyMatchingPasses) {
  Strip strip("bert_encoder", "gpu");
  ASSERT_TRUE(strip.Settle());
  strip.panel().SetNameFilter("fusion");
  ASSERT_TRUE(strip.Settle());
  std::vector<Stage> fusion_passes;
  for (const recording::PassRecord& pass : strip.recording().passes) {
    if (pass.name.find("fusion") != std::string::npos) fusion_passes.push_back({0, pass.index});
  }
  ASSERT_EQ(fusion_passes.size(), 4u) << "the gpu pipeline's fusion passes";
  EXPECT_EQ(strip.panel().stages(), fusion_passes);
  for (int pane = 0; pane < 4; ++pane) {
    EXPECT_EQ(ShownPass(strip.panel(), pane), fusion_passes[static_cast<size_t>(pane)].pass);
    EXPECT_TRUE(strip.panel().title(pane)->toolTip().contains("fusion"));
  }
}

TEST(StageStripTest, ScrubbingMovesTheWindow) {
  Strip strip("mlp");
  ASSERT_TRUE(strip.Settle());
  strip.panel().SetPosition(0);
  ASSERT_TRUE(strip.Settle());
  EXPECT_EQ(strip.panel().stages(), Passes({-1, 0, 1, 2}));
  EXPECT_EQ(ShownPass(strip.panel(), 0), -1);
  auto* slider = strip.panel().findChild<QSlider*>();
  ASSERT_NE(slider, nullptr);
  slider->setValue(3);
  ASSERT_TRUE(strip.Settle());
  EXPECT_EQ(strip.panel().stages(), Passes({2, 3, 4, 5}));
  strip.panel().Step(1);
  ASSERT_TRUE(strip.Settle());
  EXPECT_EQ(strip.panel().stages(), Passes({3, 4, 5, 6}));
  for (int pane = 0; pane < 4; ++pane) EXPECT_EQ(ShownPass(strip.panel(), pane), pane + 3);
  EXPECT_EQ(slider->value(), 4);
}

// A wheel turn in one pane zooms every pane alike, about the same node.
TEST(StageStripTest, ZoomInOnePaneZoomsAll) {
  Strip strip("mlp");
  // Passes that changed nothing: the same nodes in every pane.
  ASSERT_TRUE(strip.panel().SetStageList("2-5"));
  ASSERT_TRUE(strip.Settle());
  GraphCanvas* source = strip.panel().canvas(2);
  const double before = source->zoom();
  const QPointF middle = source->viewport()->rect().center();
  QWheelEvent wheel(middle, source->viewport()->mapToGlobal(middle), QPoint(), QPoint(0, 240),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(source->viewport(), &wheel);
  ASSERT_GT(source->zoom(), before * 1.1);
  // The node nearest the middle of the pane zoomed, and where it is from there.
  const GraphPicture& picture = *source->picture();
  int64_t anchor = -1;
  QPointF offset;
  double best = 1e18;
  for (const NodeDrawing& node : picture.drawing().nodes) {
    const DisplayNode& shown = picture.graph().node(node.node);
    if (node.expanded || !shown.instruction) continue;
    const QPointF delta = source->ViewCenter() - node.rect.center();
    if (QPointF::dotProduct(delta, delta) < best) {
      best = QPointF::dotProduct(delta, delta);
      anchor = shown.instruction->id();
      offset = delta;
    }
  }
  ASSERT_GE(anchor, 0);
  for (int pane = 0; pane < 4; ++pane) {
    GraphCanvas* canvas = strip.panel().canvas(pane);
    EXPECT_DOUBLE_EQ(canvas->zoom(), source->zoom()) << "pane " << pane;
    const GraphNodeItem* item = canvas->ItemOfInstruction(anchor);
    ASSERT_NE(item, nullptr);
    const QPointF delta = canvas->ViewCenter() - item->sceneBoundingRect().center();
    EXPECT_NEAR(delta.x(), offset.x(), 2) << "pane " << pane;
    EXPECT_NEAR(delta.y(), offset.y(), 2) << "pane " << pane;
  }
}

// A box opened in one pane opens in all of them: they keep showing the same thing.
TEST(StageStripTest, OpeningABoxOpensItInEveryPane) {
  Strip strip("mlp");
  ASSERT_TRUE(strip.panel().SetStageList("2-5"));
  ASSERT_TRUE(strip.Settle());
  strip.panel().CollapseAll();
  ASSERT_TRUE(strip.Settle());
  GraphCanvas* canvas = strip.panel().canvas(1);
  const GraphPicture& picture = *canvas->picture();
  int box = -1;
  for (const NodeDrawing& node : picture.drawing().nodes) {
    if (node.kind == DisplayNodeKind::kScope && !node.expanded) box = node.node;
  }
  ASSERT_GE(box, 0) << "the sample has name scopes";
  const std::string key = picture.graph().node(box).key;
  const GraphNodeItem* item = canvas->ItemOfNode(box);
  ASSERT_NE(item, nullptr);
  canvas->ShowAt(canvas->zoom(), item->sceneBoundingRect().center());
  QTest::mouseDClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier,
                     canvas->mapFromScene(item->sceneBoundingRect().center()));
  ASSERT_TRUE(strip.Settle());
  for (int pane = 0; pane < 4; ++pane) {
    EXPECT_TRUE(strip.panel().canvas(pane)->picture()->expanded_keys().contains(key))
        << "pane " << pane;
  }
}

// A node selected before the fusion pass is marked where it still is, and where it was fused,
// the fusion that holds it is marked and brought into view. Selecting that fusion marks the
// originals it absorbed in the panes before it.
TEST(StageStripTest, SelectionIsFollowedByProvenance) {
  Strip strip("mlp");
  ASSERT_TRUE(strip.Settle());
  const recording::Recording& recording = strip.recording();
  const int64_t fusion_pass = WorkbenchContext::DefaultPass(recording);
  ASSERT_GT(fusion_pass, 0);
  const QString list = QStringLiteral("input, %1, %2, last").arg(fusion_pass - 1).arg(fusion_pass);
  ASSERT_TRUE(strip.panel().SetStageList(list));
  ASSERT_TRUE(strip.Settle());
  // Name scopes open, so that the instructions in them can be clicked.
  strip.panel().ExpandAll();
  ASSERT_TRUE(strip.Settle());
  const int64_t fused = FindFusedNode(strip, 1, 2);
  ASSERT_GE(fused, 0);
  const int64_t fusion = FusionHolding(strip.Module(2), fused);
  ASSERT_GE(fusion, 0);

  ClickInstruction(strip.panel().canvas(1), fused);
  EXPECT_EQ(strip.context().selection().instruction_id, fused);
  for (int pane : {0, 1}) {
    const GraphNodeItem* item = strip.panel().canvas(pane)->ItemOfInstruction(fused);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->mark(), GraphNodeItem::Mark::kSelected) << "pane " << pane;
  }
  GraphCanvas* after = strip.panel().canvas(2);
  const GraphNodeItem* holder = after->ItemOfInstruction(fusion);
  ASSERT_NE(holder, nullptr);
  EXPECT_EQ(holder->mark(), GraphNodeItem::Mark::kCounterpart);
  EXPECT_TRUE(InView(*after, *holder));
  // The passes after it keep the fusion's id.
  const GraphNodeItem* last = strip.panel().canvas(3)->ItemOfInstruction(fusion);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->mark(), GraphNodeItem::Mark::kCounterpart);

  // From another panel: the fusion itself.
  strip.context().SetSelection(Selection{fusion, GraphSide::kAfter, -1});
  EXPECT_EQ(after->ItemOfInstruction(fusion)->mark(), GraphNodeItem::Mark::kSelected);
  GraphCanvas* before = strip.panel().canvas(1);
  int originals = 0;
  for (const auto& instruction : strip.Module(1).entry()->instructions()) {
    if (!InEntry(strip.View(2), instruction->id()) &&
        FusionHolding(strip.Module(2), instruction->id()) == fusion) {
      const GraphNodeItem* item = before->ItemOfInstruction(instruction->id());
      ASSERT_NE(item, nullptr);
      EXPECT_EQ(item->mark(), GraphNodeItem::Mark::kCounterpart) << instruction->name();
      ++originals;
    }
  }
  EXPECT_GE(originals, 2);
  EXPECT_EQ(before->ItemOfInstruction(fused)->mark(), GraphNodeItem::Mark::kCounterpart);
}

TEST(StageStripTest, SecondRecordingShowsItsStages) {
  Strip strip("mlp");
  ASSERT_TRUE(strip.Settle());
  const auto second = SampleRecording("mlp", "gpu");
  ASSERT_NE(second, nullptr);
  strip.panel().SetSecondRecording(second, "sample:mlp (gpu)");
  ASSERT_TRUE(strip.Settle());
  EXPECT_EQ(strip.panel().window().effective_arrangement(), StageArrangement::kInterleaved);
  bool showed_second = false;
  for (int pane = 0; pane < strip.panel().pane_count(); ++pane) {
    const Stage& stage = strip.panel().stages()[static_cast<size_t>(pane)];
    const bool from_second = &strip.View(pane).recording() == second.get();
    EXPECT_EQ(from_second, stage.recording == 1) << "pane " << pane;
    EXPECT_TRUE(strip.panel().title(pane)->text().startsWith(from_second ? "B · " : "A · "));
    showed_second = showed_second || from_second;
  }
  EXPECT_TRUE(showed_second);

  // The two final modules side by side.
  ASSERT_TRUE(strip.panel().SetStageList("last, B:last"));
  ASSERT_TRUE(strip.Settle());
  ASSERT_EQ(strip.panel().stages().size(), 2u);
  EXPECT_EQ(&strip.View(0).recording(), &strip.recording());
  EXPECT_EQ(&strip.View(1).recording(), second.get());
  EXPECT_EQ(ShownPass(strip.panel(), 1), static_cast<int64_t>(second->passes.size()) - 1);
  EXPECT_TRUE(strip.panel().title(1)->toolTip().contains("sample:mlp (gpu)"));
  EXPECT_FALSE(strip.panel().canvas(2)->isVisible());

  strip.panel().SetSecondRecording(nullptr, {});
  EXPECT_FALSE(strip.panel().SetStageList("B:1"));
  EXPECT_FALSE(strip.panel().list_error().isEmpty());
}

// View ▸ Stage Strip (Ctrl+Shift+S) puts the strip in the middle of the window in place of
// the pass's two graphs, and the window counts as settled once the strip is laid out.
TEST(StageStripTest, MainWindowShowsTheStrip) {
  auto window = OpenWindow("mlp");
  StageStripPanel* strip = window->stage_strip_panel();
  EXPECT_FALSE(strip->isVisible());
  QTest::keyClick(window.get(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
  EXPECT_TRUE(window->stage_strip_action()->isChecked());
  EXPECT_TRUE(strip->isVisible());
  EXPECT_FALSE(window->IsSettled());
  ASSERT_TRUE(WaitFor([&] { return window->IsSettled(); }));
  ASSERT_FALSE(strip->stages().empty());
  for (int pane = 0; pane < strip->pane_count(); ++pane) {
    EXPECT_NE(strip->canvas(pane)->picture(), nullptr);
  }
  window->stage_strip_action()->trigger();
  EXPECT_FALSE(strip->isVisible());
}

}  // namespace
}  // namespace fusescope::views
