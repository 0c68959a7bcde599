// Every Qt model of the workbench under QAbstractItemModelTester, plus checks of what the
// models say about a real recording of the mlp sample.

#include <gtest/gtest.h>

#include "tests/gui/gui_test_support.h"
#include "views/qt/decisions/fusion_decision_filter_model.h"
#include "views/qt/decisions/fusion_decision_model.h"
#include "views/qt/inspector/inspector_builder.h"
#include "views/qt/inspector/inspector_model.h"
#include "views/qt/search/instruction_search.h"
#include "views/qt/text/ir_text_model.h"
#include "views/qt/passes/pass_timeline_model.h"
#include "views/qt/pass_view.h"
#include "views/qt/search/search_result_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::App;
using testing::ModelChecker;
using testing::SampleRecording;

std::shared_ptr<const PassView> FusionPassView() {
  auto recording = SampleRecording("mlp");
  return PassView::Build(recording, WorkbenchContext::DefaultPass(*recording));
}

// A fusion instruction of the entry computation after the fusion pass.
const ir::Instruction* SomeFusion(const PassView& view) {
  for (const auto& instruction : view.module(GraphSide::kAfter)->entry()->instructions()) {
    if (instruction->opcode() == ir::Opcode::kFusion) return instruction.get();
  }
  return nullptr;
}

// The checker itself must notice a model that breaks the contract, or the tests below
// prove nothing.
class BrokenModel : public QAbstractListModel {
 public:
  int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 2; }
  QVariant data(const QModelIndex&, int role) const override {
    return role == Qt::SizeHintRole ? QVariant(QStringLiteral("not a size")) : QVariant();
  }
};

TEST(ModelsTest, CheckerCatchesABrokenModel) {
  App();
  BrokenModel model;
  ModelChecker checker(&model);
  EXPECT_FALSE(checker.problems().isEmpty());
}

TEST(ModelsTest, PassTimelineModel) {
  App();
  auto recording = SampleRecording("mlp");
  ASSERT_NE(recording, nullptr);
  PassTimelineModel model;
  ModelChecker checker(&model);
  model.setData(recording);
  ASSERT_EQ(model.rowCount(), static_cast<int>(recording->passes.size()));
  for (int row = 0; row < model.rowCount(); ++row) {
    const auto& pass = recording->passes[static_cast<size_t>(row)];
    EXPECT_EQ(model.index(row, PassTimelineModel::kName).data().toString().toStdString(),
              pass.name);
    EXPECT_EQ(model.index(row, 0).data(PassTimelineModel::kChangedRole).toBool(), pass.changed);
    // Changed passes stand out: a background tint.
    EXPECT_EQ(model.index(row, 0).data(Qt::BackgroundRole).isValid(), pass.changed || pass.failed);
  }
  model.setData(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// Operations outside fusions and instructions inside them, counted here from the rebuilt
// module without the core's counting.
struct ModuleSize {
  int64_t operations = 0;
  int64_t fusions = 0;
  int64_t fused = 0;
};

ModuleSize SizeOf(const recording::Snapshot& snapshot) {
  auto module = snapshot.ToModule();
  EXPECT_TRUE(module.ok()) << module.message();
  ModuleSize size;
  if (!module.ok()) return size;
  for (const auto& computation : (*module)->computations()) {
    if (computation->fusion_instruction()) {
      size.fused += computation->instruction_count();
      continue;
    }
    for (const auto& instruction : computation->instructions()) {
      ++size.operations;
      if (instruction->opcode() == ir::Opcode::kFusion) ++size.fusions;
    }
  }
  return size;
}

// The fusion pass of a real recording reads as the reduction it is: fewer operations, and
// what it fused is shown apart, as instructions inside its fusions; not "+N instructions".
// Every pass of the pipeline says in its tooltip what it does (resources/explanations); a
// pass nothing is written for says so.
TEST(ModelsTest, PassTooltipsExplainThePass) {
  App();
  auto recording = SampleRecording("mlp");
  ASSERT_NE(recording, nullptr);
  PassTimelineModel model;
  model.setData(recording);
  for (int row = 0; row < model.rowCount(); ++row) {
    const QString tip = model.index(row, PassTimelineModel::kName).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains("<b>Does:</b>")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("<b>Cannot:</b>")) << tip.toStdString();
  }
  auto renamed = std::make_shared<recording::Recording>(*recording);
  renamed->passes[0].name = "a-pass-nobody-wrote-about";
  model.setData(renamed);
  EXPECT_TRUE(model.index(0, PassTimelineModel::kName)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains("No explanation is written for this pass"));
}

TEST(ModelsTest, PassTimelineShowsOperationsAndFusedApart) {
  App();
  auto recording = SampleRecording("bert_encoder");
  ASSERT_NE(recording, nullptr);
  PassTimelineModel model;
  model.setData(recording);
  EXPECT_EQ(model.headerData(PassTimelineModel::kOperationsDelta, Qt::Horizontal).toString(),
            QStringLiteral("Δ ops"));
  EXPECT_EQ(model.headerData(PassTimelineModel::kFused, Qt::Horizontal).toString(),
            QStringLiteral("Fused"));
  int fusion_passes = 0;
  for (const recording::PassRecord& pass : recording->passes) {
    if (!pass.changed) continue;
    const ModuleSize before = SizeOf(*recording->SnapshotBefore(pass.index));
    const ModuleSize after = SizeOf(*recording->SnapshotAfter(pass.index));
    const int row = static_cast<int>(pass.index);
    const QString delta = model.index(row, PassTimelineModel::kOperationsDelta).data().toString();
    const int64_t change = after.operations - before.operations;
    EXPECT_EQ(delta, change == 0  ? QStringLiteral("0")
                     : change > 0 ? QStringLiteral("+%1").arg(change)
                                  : QStringLiteral("−%1").arg(-change))
        << pass.name;
    const QString fused = model.index(row, PassTimelineModel::kFused).data().toString();
    EXPECT_EQ(fused, after.fusions == 0 ? QString() : QString::number(after.fused)) << pass.name;
    if (before.fusions == 0 && after.fusions > 0) {
      ++fusion_passes;
      EXPECT_TRUE(delta.startsWith(QStringLiteral("−")))
          << pass.name << ": " << delta.toStdString();
      const QString tip =
          model.index(row, PassTimelineModel::kName).data(Qt::ToolTipRole).toString();
      EXPECT_TRUE(tip.contains(QStringLiteral("%1 → %2 operations, %3 fusions holding %4")
                                   .arg(before.operations)
                                   .arg(after.operations)
                                   .arg(after.fusions)
                                   .arg(after.fused)))
          << tip.toStdString();
    }
  }
  EXPECT_GE(fusion_passes, 1);
}

TEST(ModelsTest, FusionDecisionModelAndFilter) {
  App();
  auto recording = SampleRecording("mlp");
  FusionDecisionModel model;
  FusionDecisionFilterModel filter;
  filter.setSourceModel(&model);
  ModelChecker checker(&model);
  ModelChecker filter_checker(&filter);
  model.setData(recording);
  ASSERT_EQ(model.rowCount(), static_cast<int>(recording->decisions.size()));
  int refused = 0;
  for (const auto& decision : recording->decisions) refused += decision.accepted() ? 0 : 1;
  ASSERT_GT(refused, 0) << "the mlp sample should show refusals";
  filter.SetVerdict(FusionDecisionFilterModel::Verdict::kRefused);
  EXPECT_EQ(filter.rowCount(), refused);
  for (int row = 0; row < filter.rowCount(); ++row) {
    EXPECT_FALSE(filter.index(row, 0).data(FusionDecisionModel::kAcceptedRole).toBool());
  }
  const QString reason = filter.index(0, FusionDecisionModel::kReason).data().toString();
  filter.SetReason(reason);
  for (int row = 0; row < filter.rowCount(); ++row) {
    EXPECT_EQ(filter.index(row, FusionDecisionModel::kReason).data().toString(), reason);
  }
  filter.SetVerdict(FusionDecisionFilterModel::Verdict::kAccepted);
  EXPECT_EQ(filter.rowCount(), 0) << "an accepted decision has no refusal reason";
  filter.SetVerdict(FusionDecisionFilterModel::Verdict::kAll);
  filter.SetReason(QString());
  filter.SetPass(12345);
  EXPECT_EQ(filter.rowCount(), 0);
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

TEST(ModelsTest, InspectorModelOnAFusion) {
  App();
  auto view = FusionPassView();
  const ir::Instruction* fusion = SomeFusion(*view);
  ASSERT_NE(fusion, nullptr);
  InspectorModel model;
  ModelChecker checker(&model);
  model.setData(InspectorBuilder(*view, GraphSide::kAfter, fusion->id()).Build());
  EXPECT_EQ(model.content().heading, fusion->name());
  const QModelIndex provenance = model.SectionIndex("Provenance");
  ASSERT_TRUE(provenance.isValid());
  // The count row, then one row per original: a fusion came from several.
  EXPECT_GT(model.rowCount(provenance), 2);
  EXPECT_TRUE(model.SectionIndex("Shape").isValid());
  EXPECT_TRUE(model.SectionIndex("Before this pass").isValid());
  EXPECT_TRUE(model.SectionIndex("Fusion decisions").isValid());
  model.setData(InspectorContent());
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

TEST(ModelsTest, IrTextModelModes) {
  App();
  auto view = FusionPassView();
  IrTextModel model;
  ModelChecker checker(&model);
  model.setData(view);
  const int diff_rows = model.rowCount();
  EXPECT_GT(diff_rows, static_cast<int>(view->lines(GraphSide::kAfter).size()))
      << "the diff adds the removed lines to the after text";
  model.SetChangesOnly(true);
  EXPECT_LT(model.rowCount(), diff_rows);
  for (int row = 0; row < model.rowCount(); ++row) {
    const IrLine* line = model.Line(row);
    if (line->instruction_id >= 0) {
      EXPECT_NE(line->status, ir::DiffStatus::kUnchanged);
    }
  }
  model.SetChangesOnly(false);
  model.SetMode(IrTextModel::Mode::kBefore);
  EXPECT_EQ(model.rowCount(), static_cast<int>(view->lines(GraphSide::kBefore).size()));
  const ir::Instruction* fusion = SomeFusion(*view);
  model.SetMode(IrTextModel::Mode::kAfter);
  const int row = model.RowOf(fusion->id(), GraphSide::kAfter);
  ASSERT_GE(row, 0);
  EXPECT_EQ(model.index(row).data(IrTextModel::kInstructionIdRole).toLongLong(), fusion->id());
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

TEST(ModelsTest, SearchResultModel) {
  App();
  auto view = FusionPassView();
  SearchResultModel model;
  ModelChecker checker(&model);
  model.setData(InstructionSearch::Run(*view, GraphSide::kAfter, "fusion",
                                       InstructionSearch::Field::kOpcode));
  ASSERT_GT(model.rowCount(), 0);
  for (int row = 0; row < model.rowCount(); ++row) {
    EXPECT_EQ(model.index(row, SearchResultModel::kOpcode).data().toString(), "fusion");
  }
  QString error;
  model.setData(InstructionSearch::Run(*view, GraphSide::kAfter, "([",
                                       InstructionSearch::Field::kRegex, &error));
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_FALSE(error.isEmpty());
  model.setData(InstructionSearch::Run(*view, GraphSide::kBefore, "f32\\[32,256\\]",
                                       InstructionSearch::Field::kRegex));
  EXPECT_GT(model.rowCount(), 0);
  EXPECT_TRUE(checker.problems().isEmpty()) << checker.problems().join('\n').toStdString();
}

// Counterparts across a fusion pass: the fusion on the right stands for several originals
// on the left, and each of them points back at it.
TEST(ModelsTest, PassViewLinksFusionToOriginals) {
  App();
  auto view = FusionPassView();
  const ir::Instruction* fusion = SomeFusion(*view);
  ASSERT_NE(fusion, nullptr);
  const auto& originals = view->Counterparts(GraphSide::kAfter, fusion->id());
  ASSERT_GE(originals.size(), 2u);
  for (int64_t id : originals) {
    ASSERT_NE(view->Find(GraphSide::kBefore, id), nullptr);
    const auto& back = view->Counterparts(GraphSide::kBefore, id);
    EXPECT_NE(std::find(back.begin(), back.end(), fusion->id()), back.end());
  }
}

}  // namespace
}  // namespace fusescope::views
