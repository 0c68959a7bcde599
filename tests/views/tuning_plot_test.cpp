// The Tuning view's data and the SVG of `tune --plot`, on a run made by hand.

#include <gtest/gtest.h>

#include "views/tuning_plot.h"

namespace fusescope::views {
namespace {

tuning::Trial MakeTrial(const std::string& config, double median, double baseline, bool ok = true) {
  tuning::Trial trial;
  trial.kernel = "add_fusion";
  trial.config = config;
  trial.ok = ok;
  trial.median_us = median;
  trial.baseline_us = baseline;
  trial.samples_us = {median};
  if (!ok) trial.error = "compiling failed at affine-super-vectorize: boom";
  return trial;
}

TEST(TuningPlotTest, TimesAreRelativeToThePairedDefaultAndCellsKeepTheFastest) {
  tuning::TuningRun run;
  tuning::Trial base = MakeTrial("tile=0 vector=8", 100, 0);
  base.is_default = true;
  run.trials = {base,
                MakeTrial("tile=16 vector=8", 90, 120),   // 0.75: fastest, though 90 > 80
                MakeTrial("tile=16 vector=4", 80, 80),    // 1.0
                MakeTrial("tile=32 vector=8", 0, 0, false),
                MakeTrial("tile=16 vector=8 unroll=2", 99, 110)};  // 0.9, same cell
  TuningKernelPlot plot = BuildTuningKernelPlot(run, "");
  EXPECT_EQ(plot.kernel, "add_fusion");
  ASSERT_EQ(plot.points.size(), 5u);
  EXPECT_DOUBLE_EQ(plot.points[0].relative, 1);
  EXPECT_DOUBLE_EQ(plot.points[1].relative, 0.75);
  EXPECT_DOUBLE_EQ(plot.points[2].best_so_far, 0.75);
  EXPECT_EQ(plot.points[3].relative, 0);  // failed
  EXPECT_DOUBLE_EQ(plot.best, 0.75);
  ASSERT_NE(plot.best_trial, nullptr);
  EXPECT_EQ(plot.best_trial->config, "tile=16 vector=8");
  EXPECT_EQ(plot.x_knob, "tile");
  EXPECT_EQ(plot.y_knob, "vector");
  EXPECT_EQ(plot.x_values, (std::vector<std::string>{"0", "16", "32"}));
  EXPECT_EQ(plot.y_values, (std::vector<std::string>{"4", "8"}));
  const TuningCell* cell = plot.Cell("16", "8");
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->trials, 2);
  EXPECT_DOUBLE_EQ(cell->best, 0.75);
  EXPECT_EQ(plot.Cell("32", "8")->failed, 1);
  EXPECT_EQ(plot.Cell("0", "4")->trials, 0);

  const std::string svg = TuningPlotSvg({run});
  EXPECT_NE(svg.find("add_fusion"), std::string::npos);
  EXPECT_NE(svg.find("best tile=16 vector=8, 1.33x faster"), std::string::npos);
  EXPECT_NE(svg.find("failed: compiling failed at affine-super-vectorize"), std::string::npos);
  EXPECT_NE(TuningPlotSvg({}).find("no tuned kernels"), std::string::npos);
}

TEST(TuningPlotTest, LibraryDotsAreMappedOverTheirLibraries) {
  tuning::TuningRun run;
  tuning::Trial base = MakeTrial("gemm=openblas", 50, 0);
  base.is_default = true;
  base.kernel = "dot.1";
  tuning::Trial mlir = MakeTrial("tile=32 vector=8 gemm=mlir", 60, 50);
  mlir.kernel = "dot.1";
  tuning::Trial blis = MakeTrial("gemm=blis", 45, 50);
  blis.kernel = "dot.1";
  run.trials = {base, mlir, blis};
  TuningKernelPlot plot = BuildTuningKernelPlot(run, "dot.1");
  EXPECT_EQ(plot.x_knob, "gemm");
  EXPECT_EQ(plot.best_trial->config, "gemm=blis");
  EXPECT_DOUBLE_EQ(plot.best, 0.9);
  EXPECT_DOUBLE_EQ(plot.best_relative, 0.9);
  // The gemm knob's values carry the library's own thread count unless a trial names one.
  EXPECT_EQ(ConfigKnobs(blis).at("threads"), "0");
  EXPECT_EQ(ConfigKnobs(blis).count("tile"), 0u) << "a library call has no lowering";
  tuning::Trial one = blis;
  one.config = "gemm=blis threads=1";
  EXPECT_EQ(ConfigKnobs(one).at("threads"), "1");
  EXPECT_EQ(ConfigKnobs(one).count("tile"), 0u);
}

// The marked best is the tuner's: a trial faster by noise (in 2 of 4 pairs) is on the chart,
// and the scale reaches it, but the best stays the default.
TEST(TuningPlotTest, TheBestIsTheTunersWinNotTheFastestNoise) {
  tuning::TuningRun run;
  tuning::Trial base = MakeTrial("tile=0 vector=8", 100, 0);
  base.is_default = true;
  tuning::Trial noisy = MakeTrial("tile=16 vector=8", 95, 100);
  noisy.samples_us = {90, 95, 101, 102};
  noisy.baseline_samples_us = {100, 100, 100, 100};
  run.trials = {base, noisy};
  TuningKernelPlot plot = BuildTuningKernelPlot(run, "add_fusion");
  EXPECT_DOUBLE_EQ(plot.best, 0.95);
  ASSERT_NE(plot.best_trial, nullptr);
  EXPECT_TRUE(plot.best_trial->is_default);
  EXPECT_DOUBLE_EQ(plot.best_relative, 1);
  EXPECT_NE(TuningPlotSvg({run}).find("no configuration beat the default beyond noise"),
            std::string::npos);
}

}  // namespace
}  // namespace fusescope::views
