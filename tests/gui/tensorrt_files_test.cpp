// TensorRT's exported layer information opens in the workbench as a recording of the engine
// TensorRT built (tests/data/tensorrt, hand-written in TensorRT's layout).

#include <gtest/gtest.h>

#include <QFileInfo>

#include "tests/gui/gui_test_support.h"
#include "views/qt/main_window.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

using testing::OpenWindow;
using testing::WaitFor;

const QString kData = QStringLiteral(FUSESCOPE_SOURCE_DIR "/tests/data/tensorrt/");

bool OpenAndSettle(MainWindow& window, const QString& path) {
  window.OpenPath(path);
  const QString title = QFileInfo(path).fileName();
  return WaitFor([&] { return window.context()->title() == title && window.IsSettled(); });
}

TEST(TensorRtFilesTest, LayerInformationOpensAsTheEngine) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kData + "cnn.graph.json"));
  const recording::Recording* recording = window->context()->recording();
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(recording->pipeline_name, "tensorrt");
  ASSERT_EQ(recording->passes.size(), 1u);
  EXPECT_EQ(recording->passes[0].name, "tensorrt-engine-build");
  const recording::InstructionRecord* conv =
      recording->snapshots[1].FindInstruction("conv1_bn1_relu1");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->provenance().size(), 3u);
}

// The names-only form loads too, with the warning that it has no edges or shapes.
TEST(TensorRtFilesTest, NamesOnlyFormWarns) {
  auto window = OpenWindow();
  ASSERT_TRUE(OpenAndSettle(*window, kData + "cnn_names.graph.json"));
  ASSERT_NE(window->context()->recording(), nullptr);
  EXPECT_TRUE(window->load_warnings().join('\n').contains("--profilingVerbosity=detailed"));
}

}  // namespace
}  // namespace fusescope::views
