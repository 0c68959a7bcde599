#include "views/qt/workbench_context.h"

#include <gtest/gtest.h>

#include <QObject>
#include <QSignalSpy>

#include "tests/gui/gui_test_support.h"

namespace fusescope::views {
namespace {

using testing::App;
using testing::SampleRecording;
using testing::WaitFor;

struct Counts {
  int recordings = 0;
  int passes = 0;
  int selections = 0;
};

class CountingObserver : public ContextObserver {
 public:
  void OnRecordingLoaded(const WorkbenchContext&) override { ++counts.recordings; }
  void OnPassChanged(const WorkbenchContext& context) override {
    ++counts.passes;
    last_pass = context.pass_view() ? context.pass_view()->pass_index() : -2;
  }
  void OnSelectionChanged(const WorkbenchContext&) override { ++counts.selections; }
  Counts counts;
  int64_t last_pass = -2;
};

std::unique_ptr<WorkbenchContext> LoadedContext() {
  App();
  auto context = std::make_unique<WorkbenchContext>();
  context->SetRecording(SampleRecording("mlp"), "sample:mlp", 0);
  WaitFor([&] { return context->pass_view() != nullptr; });
  return context;
}

// The panel that changes the selection hears nothing back; the others do.
TEST(WorkbenchContextTest, NoEchoToTheSource) {
  auto context = LoadedContext();
  QObject lifetime;
  CountingObserver source;
  CountingObserver other;
  context->AddObserver(&source, &lifetime);
  context->AddObserver(&other, &lifetime);
  const int before_source = source.counts.selections;
  const int before_other = other.counts.selections;
  context->SetSelection(Selection{1, GraphSide::kAfter, -1}, &source);
  EXPECT_EQ(source.counts.selections, before_source);
  EXPECT_EQ(other.counts.selections, before_other + 1);
}

// A panel opened late is brought up to date at once: recording, pass and selection.
TEST(WorkbenchContextTest, LateObserverGetsCurrentState) {
  auto context = LoadedContext();
  context->SetSelection(Selection{1, GraphSide::kBefore, -1});
  QObject lifetime;
  CountingObserver late;
  context->AddObserver(&late, &lifetime);
  EXPECT_EQ(late.counts.recordings, 1);
  EXPECT_EQ(late.counts.passes, 1);
  EXPECT_EQ(late.counts.selections, 1);
  EXPECT_EQ(late.last_pass, 0);
}

// Pass changes arrive with their data, built off the GUI thread; out-of-range passes clamp.
TEST(WorkbenchContextTest, PassChangesArriveWithData) {
  auto context = LoadedContext();
  QObject lifetime;
  CountingObserver observer;
  context->AddObserver(&observer, &lifetime);
  QSignalSpy ready(context.get(), &WorkbenchContext::passViewReady);
  context->SetPass(1000);
  ASSERT_TRUE(WaitFor([&] { return ready.count() > 0; }));
  EXPECT_EQ(observer.last_pass, context->pass_count() - 1);
  EXPECT_EQ(context->pass_view()->pass_index(), context->pass_count() - 1);
}

// Stepping fast delivers only the newest request: stale pass data never shows up last.
TEST(WorkbenchContextTest, NewerPassSupersedesStale) {
  auto context = LoadedContext();
  QObject lifetime;
  CountingObserver observer;
  context->AddObserver(&observer, &lifetime);
  for (int64_t pass = 0; pass < context->pass_count(); ++pass) context->SetPass(pass);
  ASSERT_TRUE(WaitFor([&] { return !context->busy(); }));
  EXPECT_EQ(observer.last_pass, context->pass_count() - 1);
  EXPECT_LT(observer.counts.passes, context->pass_count() + 1);
}

// A panel is forgotten when its lifetime object dies: notifications stop reaching it.
TEST(WorkbenchContextTest, ForgetsDestroyedObservers) {
  auto context = LoadedContext();
  auto lifetime = std::make_unique<QObject>();
  CountingObserver observer;
  context->AddObserver(&observer, lifetime.get());
  const int selections = observer.counts.selections;
  lifetime.reset();
  context->SetSelection(Selection{2, GraphSide::kAfter, -1});
  EXPECT_EQ(observer.counts.selections, selections);
}

// The default pass is the first one that fused something.
TEST(WorkbenchContextTest, DefaultPassIsFirstFusion) {
  App();
  auto recording = SampleRecording("mlp");
  ASSERT_NE(recording, nullptr);
  const int64_t pass = WorkbenchContext::DefaultPass(*recording);
  bool fused = false;
  for (const auto& decision : recording->decisions) {
    if (decision.accepted() && decision.pass_index == pass) fused = true;
    if (decision.accepted()) {
      EXPECT_GE(decision.pass_index, pass);
    }
  }
  EXPECT_TRUE(fused);
}

// An imported dump has no decisions: the first fusion pass that changed the module, not the
// pipeline's closing marker that changed it last; without one, the last change.
TEST(WorkbenchContextTest, DefaultPassOfADumpIsItsFusionPass) {
  recording::Recording recording;
  for (const auto& [name, changed] :
       std::vector<std::pair<std::string, bool>>{{"algsimp (simplification)", true},
                                                 {"priority-fusion (dry run)", false},
                                                 {"fusion (HLO_passes_after_layout)", true},
                                                 {"pipeline-start (after_scheduling)", true}}) {
    recording::PassRecord pass;
    pass.index = static_cast<int64_t>(recording.passes.size());
    pass.name = name;
    pass.changed = changed;
    recording.passes.push_back(pass);
  }
  EXPECT_EQ(WorkbenchContext::DefaultPass(recording), 2);
  recording.passes[2].name = "cse";
  EXPECT_EQ(WorkbenchContext::DefaultPass(recording), 3);
}

}  // namespace
}  // namespace fusescope::views
