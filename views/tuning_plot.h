#ifndef FUSESCOPE_VIEWS_TUNING_PLOT_H_
#define FUSESCOPE_VIEWS_TUNING_PLOT_H_

// What the Tuning view and `fusescope tune --plot OUT.svg` draw for a kernel's trials: each
// trial's time in search order with the best-so-far line, and a heatmap of two knobs (tile x
// vector for loop kernels, gemm x tile for library dots) coloured by the fastest trial in each
// cell. Times are drawn relative to the default build (tuning::RelativeTime: each trial over the
// default runs paired with it, 1 = the default, below 1 faster), so that a machine that got
// busier during the search does not read as a slower configuration. The data is computed here
// once for both.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tuning/tuning_run.h"

namespace fusescope::views {

// "tile=16 vector=8 gemm=mlir" as knob -> value; a default trial reads as the default build's
// knobs (tile=0 vector=8 unroll=1, gemm=openblas).
std::map<std::string, std::string> ConfigKnobs(const tuning::Trial& trial);

struct TuningPoint {
  int64_t order = 0;  // 1-based, in search order among the kernel's trials
  const tuning::Trial* trial = nullptr;
  double relative = 0;      // RelativeTime of an ok trial; 0 for a failed one
  double best_so_far = 0;   // the lowest relative time up to this trial (0 before any ok)
};

struct TuningCell {
  std::string x, y;      // knob values
  double best = 0;       // lowest relative time of an ok trial in the cell (0: none ok)
  int64_t trials = 0;
  int64_t failed = 0;
  const tuning::Trial* best_trial = nullptr;
};

struct TuningKernelPlot {
  std::string kernel;
  std::vector<TuningPoint> points;
  double default_us = 0;  // the default trial's median; 0 when the run has none
  // The lowest relative time of an ok trial that did not slow the module: the scales' low end.
  double best = 0;
  // The kernel's best as `tune --list` and the table say (tuning::BestPerKernel: a win beyond
  // noise, else the default) and its relative time.
  const tuning::Trial* best_trial = nullptr;
  double best_relative = 1;
  std::string x_knob, y_knob;
  std::vector<std::string> x_values, y_values;  // in the order the trials met them
  std::vector<TuningCell> cells;                // row-major: y, then x
  const TuningCell* Cell(const std::string& x, const std::string& y) const;
};

// The kernel's trials of `run` (all of them when `kernel` is empty: the first kernel's).
// `x_knob`/`y_knob` empty: chosen by the knobs the trials vary (tile x vector, or gemm x tile).
TuningKernelPlot BuildTuningKernelPlot(const tuning::TuningRun& run, const std::string& kernel,
                                       const std::string& x_knob = "",
                                       const std::string& y_knob = "");
// Kernels of the run that have trials other than the default, hottest default first.
std::vector<std::string> TunedKernels(const tuning::TuningRun& run);

// One SVG document: a row per tuned kernel of each run (the trial chart and the heatmap).
std::string TuningPlotSvg(const std::vector<tuning::TuningRun>& runs);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_TUNING_PLOT_H_
