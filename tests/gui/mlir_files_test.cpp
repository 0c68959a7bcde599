// MLIR files in the workbench: a pass log opens as a recording of its passes, a StableHLO
// model is compiled, a tosa model that cannot be compiled shows its graph with a warning.

#include <gtest/gtest.h>

#include <QFileInfo>

#include "tests/gui/gui_test_support.h"
#include "views/qt/main_window.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

const QString kMlirData = QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/mlir/");

bool OpenAndSettle(MainWindow& window, const QString& path) {
  window.OpenPath(path);
  const QString title = QFileInfo(path).fileName();
  return WaitFor([&] { return window.context()->title() == title && window.IsSettled(); });
}

TEST(MlirFilesTest, PassLogOpensAsRecordingOfItsPasses) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "mlir_opt_tosa_mlp.log"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(recording->passes.size(), 32u);
  EXPECT_EQ(recording->pipeline_name, "mlir");
  EXPECT_EQ(recording->passes[5].name, "CSE (cse)");
  EXPECT_TRUE(window->load_warnings().isEmpty());
}

TEST(MlirFilesTest, TosaModelShowsItsGraphWithAWarning) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "tosa_mlp.mlir"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_TRUE(recording->passes.empty());
  EXPECT_GT(recording->input().instruction_count(), 5);
  ASSERT_EQ(window->load_warnings().size(), 1);
  EXPECT_TRUE(window->load_warnings().front().contains("shown as a graph, not compiled"));
}

TEST(MlirFilesTest, StablehloModelIsCompiled) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kMlirData + "stablehlo_matmul_tanh.mlir"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_FALSE(recording->passes.empty());
  EXPECT_FALSE(recording->failed());
}

}  // namespace
}  // namespace fusescope::views
