#include "views/tuning_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "runtime/cpu/kernel_config.h"
#include "views/markup.h"

namespace fusescope::views {
namespace {

std::string Num(double value, int digits = 1) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

// Fast green through yellow to slow red, for t in [0, 1].
std::string HeatColour(double t) {
  if (!(t >= 0)) t = 0;  // NaN too
  t = std::clamp(t, 0.0, 1.0);
  struct Rgb {
    double r, g, b;
  };
  const Rgb fast{26, 152, 80}, middle{254, 224, 139}, slow{215, 48, 39};
  const Rgb& a = t < 0.5 ? fast : middle;
  const Rgb& b = t < 0.5 ? middle : slow;
  const double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "#%02x%02x%02x",
                static_cast<int>(a.r + (b.r - a.r) * u), static_cast<int>(a.g + (b.g - a.g) * u),
                static_cast<int>(a.b + (b.b - a.b) * u));
  return buffer;
}

bool Varies(const std::vector<const tuning::Trial*>& trials, const std::string& knob) {
  std::set<std::string> values;
  for (const tuning::Trial* trial : trials) {
    auto knobs = ConfigKnobs(*trial);
    auto found = knobs.find(knob);
    values.insert(found == knobs.end() ? "" : found->second);
  }
  return values.size() > 1;
}

}  // namespace

std::map<std::string, std::string> ConfigKnobs(const tuning::Trial& trial) {
  std::map<std::string, std::string> knobs;
  auto config = runtime::KernelConfig::Parse(trial.config);
  if (!config.ok()) return knobs;
  // A configuration with loops of ours (or the default build's, given as "") has every
  // lowering knob, at the lowering's defaults where it does not say.
  if (config->lowering || trial.config.empty()) {
    const runtime::LoweringOptions lowering = config->lowering.value_or(runtime::LoweringOptions{});
    knobs["tile"] = std::to_string(lowering.tile);
    knobs["vector"] = std::to_string(lowering.vector);
    knobs["unroll"] = std::to_string(std::max(lowering.unroll, 1));
  }
  // A library call has the library's thread count, its own (0) where it does not say.
  if (config->gemm) {
    knobs["gemm"] = std::string(runtime::GemmLibraryName(*config->gemm));
    knobs["threads"] = std::to_string(config->threads);
  }
  return knobs;
}

const TuningCell* TuningKernelPlot::Cell(const std::string& x, const std::string& y) const {
  for (const TuningCell& cell : cells)
    if (cell.x == x && cell.y == y) return &cell;
  return nullptr;
}

std::vector<std::string> TunedKernels(const tuning::TuningRun& run) {
  std::vector<std::string> kernels;
  std::map<std::string, double> default_us;
  std::set<std::string> searched;
  for (const tuning::Trial& trial : run.trials) {
    if (trial.is_default) default_us[trial.kernel] = trial.median_us;
    if (!trial.is_default) searched.insert(trial.kernel);
  }
  for (const tuning::Trial& trial : run.trials) {
    if (searched.count(trial.kernel) &&
        std::find(kernels.begin(), kernels.end(), trial.kernel) == kernels.end())
      kernels.push_back(trial.kernel);
  }
  std::stable_sort(kernels.begin(), kernels.end(), [&](const std::string& a, const std::string& b) {
    return default_us[a] > default_us[b];
  });
  return kernels;
}

TuningKernelPlot BuildTuningKernelPlot(const tuning::TuningRun& run, const std::string& kernel,
                                       const std::string& x_knob, const std::string& y_knob) {
  TuningKernelPlot plot;
  plot.kernel = kernel;
  if (plot.kernel.empty()) {
    std::vector<std::string> kernels = TunedKernels(run);
    if (!kernels.empty()) plot.kernel = kernels.front();
  }
  std::vector<const tuning::Trial*> trials;
  const tuning::Trial* default_trial = nullptr;
  for (const tuning::Trial& trial : run.trials) {
    if (trial.kernel != plot.kernel) continue;
    trials.push_back(&trial);
    if (trial.is_default && !default_trial) default_trial = &trial;
  }
  if (default_trial && default_trial->ok) plot.default_us = default_trial->median_us;
  double best = 0;
  for (const tuning::Trial* trial : trials) {
    const double relative = trial->ok ? tuning::RelativeTime(*trial, default_trial) : 0;
    if (trial->ok && !trial->SlowsTheModule() && (best == 0 || relative < best)) best = relative;
    plot.points.push_back({static_cast<int64_t>(plot.points.size()) + 1, trial, relative, best});
  }
  plot.best = best;
  const std::map<std::string, tuning::KernelBest> bests = tuning::BestPerKernel(run.trials);
  if (auto found = bests.find(plot.kernel); found != bests.end() && found->second.best) {
    plot.best_trial = found->second.best;
    plot.best_relative = tuning::RelativeTime(*plot.best_trial, default_trial);
  }
  // The two knobs: those asked for, else the first two that vary (gemm first for library dots).
  plot.x_knob = x_knob;
  plot.y_knob = y_knob;
  if (plot.x_knob.empty() || plot.y_knob.empty()) {
    std::vector<std::string> varying;
    for (const char* knob : {"gemm", "threads", "tile", "vector", "unroll"})
      if (Varies(trials, knob)) varying.push_back(knob);
    for (const char* knob : {"tile", "vector"})
      if (varying.size() < 2 && std::find(varying.begin(), varying.end(), knob) == varying.end())
        varying.push_back(knob);
    if (plot.x_knob.empty()) plot.x_knob = varying[0];
    if (plot.y_knob.empty()) plot.y_knob = varying[1] == plot.x_knob ? varying[0] : varying[1];
  }
  auto value_of = [](const std::map<std::string, std::string>& knobs, const std::string& knob) {
    auto found = knobs.find(knob);
    return found == knobs.end() ? std::string("-") : found->second;
  };
  auto numeric_order = [](std::vector<std::string>& values) {
    std::stable_sort(values.begin(), values.end(), [](const std::string& a, const std::string& b) {
      const bool na = !a.empty() && std::isdigit(static_cast<unsigned char>(a[0]));
      const bool nb = !b.empty() && std::isdigit(static_cast<unsigned char>(b[0]));
      if (na && nb) return std::stoi(a) < std::stoi(b);
      return na && !nb;
    });
  };
  for (const tuning::Trial* trial : trials) {
    auto knobs = ConfigKnobs(*trial);
    const std::string x = value_of(knobs, plot.x_knob), y = value_of(knobs, plot.y_knob);
    if (std::find(plot.x_values.begin(), plot.x_values.end(), x) == plot.x_values.end())
      plot.x_values.push_back(x);
    if (std::find(plot.y_values.begin(), plot.y_values.end(), y) == plot.y_values.end())
      plot.y_values.push_back(y);
  }
  numeric_order(plot.x_values);
  numeric_order(plot.y_values);
  for (const std::string& y : plot.y_values)
    for (const std::string& x : plot.x_values) plot.cells.push_back({x, y, 0, 0, 0, nullptr});
  for (const TuningPoint& point : plot.points) {
    auto knobs = ConfigKnobs(*point.trial);
    const std::string x = value_of(knobs, plot.x_knob), y = value_of(knobs, plot.y_knob);
    for (TuningCell& cell : plot.cells) {
      if (cell.x != x || cell.y != y) continue;
      ++cell.trials;
      if (!point.trial->ok) {
        ++cell.failed;
      } else if (cell.best == 0 || point.relative < cell.best) {
        cell.best = point.relative;
        cell.best_trial = point.trial;
      }
    }
  }
  return plot;
}

namespace {

// One row: the trial chart at (x0, y0), 540 x 240, then the heatmap to its right.
void DrawKernelRow(std::ostringstream& svg, const TuningKernelPlot& plot, double y0) {
  const double x0 = 20, width = 540, height = 240;
  const double left = x0 + 60, right = x0 + width - 10, top = y0 + 40, bottom = y0 + height - 30;
  svg << "<text x='" << x0 << "' y='" << y0 + 14 << "' font-weight='bold'>"
      << EscapeXml(plot.kernel) << "</text>\n";
  svg << "<text x='" << x0 << "' y='" << y0 + 30 << "' font-size='11'>"
      << plot.points.size() << " trials; default "
      << (plot.default_us > 0 ? Num(plot.default_us) + " us" : std::string("-"));
  if (plot.best_trial && plot.best_trial->is_default) {
    svg << "; no configuration beat the default beyond noise";
  } else if (plot.best_trial) {
    svg << "; best " << EscapeXml(plot.best_trial->config) << ", " << Num(1 / plot.best_relative, 2)
        << "x faster";
  }
  svg << "</text>\n";
  double highest = 1;
  for (const TuningPoint& point : plot.points) highest = std::max(highest, point.relative);
  // A few very slow trials (scalar loops) would flatten the rest: the axis stops at 4x the best.
  const bool clipped = plot.best > 0 && highest > 4 * plot.best && highest > 2;
  const double ymax = (clipped ? std::max(4 * plot.best, 1.2) : highest) * 1.08;
  const size_t n = std::max<size_t>(plot.points.size(), 1);
  auto px = [&](double order) { return left + (right - left) * (order - 0.5) / static_cast<double>(n); };
  auto py = [&](double us) { return bottom - (bottom - top) * std::min(us, ymax) / (ymax > 0 ? ymax : 1); };
  svg << "<rect x='" << left << "' y='" << top << "' width='" << right - left << "' height='"
      << bottom - top << "' fill='none' stroke='#888'/>\n";
  for (int tick = 0; tick <= 4; ++tick) {
    const double us = ymax * tick / 4;
    svg << "<text x='" << left - 6 << "' y='" << py(us) + 4
        << "' font-size='10' text-anchor='end'>" << Num(us, 2) << "</text>\n";
  }
  svg << "<text x='" << x0 << "' y='" << (top + bottom) / 2 + 60
      << "' font-size='10' transform='rotate(-90 " << x0 + 8 << " " << (top + bottom) / 2 + 60
      << ")'>time / default (paired runs)</text>\n";
  svg << "<text x='" << (left + right) / 2 << "' y='" << bottom + 22
      << "' font-size='10' text-anchor='middle'>trial, in search order"
      << (clipped ? " (axis cut at 4x the best; slower trials drawn at the top)" : "")
      << "</text>\n";
  svg << "<line x1='" << left << "' x2='" << right << "' y1='" << py(1) << "' y2='" << py(1)
      << "' stroke='#555' stroke-dasharray='5,4'/><text x='" << right - 4 << "' y='" << py(1) - 4
      << "' font-size='10' text-anchor='end' fill='#555'>default</text>\n";
  std::string line;
  for (const TuningPoint& point : plot.points) {
    if (point.best_so_far <= 0) continue;
    line += (line.empty() ? "M" : " L") + Num(px(static_cast<double>(point.order)), 1) + "," +
            Num(py(point.best_so_far), 1);
  }
  if (!line.empty())
    svg << "<path d='" << line << "' fill='none' stroke='#1a9850' stroke-width='2'/>\n";
  for (const TuningPoint& point : plot.points) {
    const double cx = px(static_cast<double>(point.order));
    const std::string title = EscapeXml(
        (point.trial->is_default ? std::string("default") : point.trial->config) + ": " +
        (point.trial->ok ? Num(point.trial->median_us) + " us, " + Num(point.relative, 3) +
                               " of the default" +
                               (point.trial->SlowsTheModule()
                                    ? "; slowed the module from " +
                                          Num(point.trial->module_baseline_us) + " to " +
                                          Num(point.trial->module_us) + " us"
                                    : std::string())
                         : "failed: " + point.trial->error));
    if (!point.trial->ok) {
      svg << "<text x='" << cx << "' y='" << top + 10
          << "' font-size='11' text-anchor='middle' fill='#d73027'><title>" << title
          << "</title>x</text>\n";
      continue;
    }
    svg << "<circle cx='" << Num(cx, 1) << "' cy='" << Num(py(point.relative), 1)
        << "' r='3' fill='" << (point.trial == plot.best_trial ? "#1a9850" : "#3366aa") << "'><title>"
        << title << "</title></circle>\n";
  }
  // The heatmap.
  const double hx = x0 + width + 70, hy = top;
  const double cell_w = std::min(60.0, 300.0 / std::max<size_t>(plot.x_values.size(), 1));
  const double cell_h = std::min(40.0, (bottom - top) / std::max<size_t>(plot.y_values.size(), 1));
  double slowest = plot.best;
  for (const TuningCell& cell : plot.cells) slowest = std::max(slowest, cell.best);
  svg << "<text x='" << hx << "' y='" << y0 + 30 << "' font-size='11'>fastest time / default per "
      << EscapeXml(plot.x_knob) << " x " << EscapeXml(plot.y_knob) << "</text>\n";
  for (size_t yi = 0; yi < plot.y_values.size(); ++yi) {
    svg << "<text x='" << hx - 6 << "' y='" << hy + cell_h * (static_cast<double>(yi) + 0.5) + 4
        << "' font-size='10' text-anchor='end'>" << EscapeXml(plot.y_knob) << "="
        << EscapeXml(plot.y_values[yi]) << "</text>\n";
    for (size_t xi = 0; xi < plot.x_values.size(); ++xi) {
      const TuningCell* cell = plot.Cell(plot.x_values[xi], plot.y_values[yi]);
      const double cx = hx + cell_w * static_cast<double>(xi), cy = hy + cell_h * static_cast<double>(yi);
      std::string fill = "#eeeeee", label = "";
      if (cell && cell->best > 0) {
        const double t = slowest > plot.best
                             ? std::log(cell->best / plot.best) / std::log(slowest / plot.best)
                             : 0;
        fill = HeatColour(t);
        label = Num(cell->best, 2);
      } else if (cell && cell->failed > 0) {
        fill = "#bbbbbb";
        label = "x";
      }
      svg << "<rect x='" << cx << "' y='" << cy << "' width='" << cell_w - 1 << "' height='"
          << cell_h - 1 << "' fill='" << fill << "'";
      if (cell && plot.best_trial && cell->best_trial == plot.best_trial)
        svg << " stroke='#000' stroke-width='2'";
      svg << "/><text x='" << cx + cell_w / 2 << "' y='" << cy + cell_h / 2 + 4
          << "' font-size='10' text-anchor='middle'>" << label << "</text>\n";
    }
  }
  for (size_t xi = 0; xi < plot.x_values.size(); ++xi)
    svg << "<text x='" << hx + cell_w * (static_cast<double>(xi) + 0.5) << "' y='"
        << hy + cell_h * static_cast<double>(plot.y_values.size()) + 14
        << "' font-size='10' text-anchor='middle'>" << EscapeXml(plot.x_values[xi]) << "</text>\n";
  svg << "<text x='" << hx + cell_w * static_cast<double>(plot.x_values.size()) / 2 << "' y='"
      << hy + cell_h * static_cast<double>(plot.y_values.size()) + 28
      << "' font-size='10' text-anchor='middle'>" << EscapeXml(plot.x_knob) << "</text>\n";
}

}  // namespace

std::string TuningPlotSvg(const std::vector<tuning::TuningRun>& runs) {
  std::vector<TuningKernelPlot> plots;
  for (const tuning::TuningRun& run : runs)
    for (const std::string& kernel : TunedKernels(run))
      plots.push_back(BuildTuningKernelPlot(run, kernel));
  const double row = 270;
  const double height = 20 + row * static_cast<double>(std::max<size_t>(plots.size(), 1));
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='1040' height='" << height
      << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  if (plots.empty())
    svg << "<text x='20' y='30'>no tuned kernels: the runs hold default measurements only</text>\n";
  for (size_t i = 0; i < plots.size(); ++i)
    DrawKernelRow(svg, plots[i], 10 + row * static_cast<double>(i));
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace fusescope::views
