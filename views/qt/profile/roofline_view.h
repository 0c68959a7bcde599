#ifndef FUSESCOPE_VIEWS_QT_ROOFLINE_VIEW_H_
#define FUSESCOPE_VIEWS_QT_ROOFLINE_VIEW_H_

// A profile's kernels on this machine's roofline: x the arithmetic intensity (FLOPs per byte,
// counted from the IR by passes/cost_analysis.h), y the achieved FLOP/s (FLOPs over the median
// time), both logarithmic, under the bandwidth and peak roofs of the cached machine figures
// (profiler/machine.h). Without cached figures a button measures the machine on a worker
// (about a second) and caches them. Clicking a point reports its kernel.

#include <QString>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "profiler/machine.h"

class QLabel;
class QPushButton;

namespace fusescope::views {

struct RooflineKernel {
  int64_t instruction_id = -1;
  QString name;
  double flops = 0;
  double bytes = 0;
  double seconds = 0;  // median over the runs
};

class RooflineView : public QWidget {
  Q_OBJECT

 public:
  explicit RooflineView(QWidget* parent = nullptr);
  ~RooflineView() override;

  void SetKernels(std::vector<RooflineKernel> kernels);
  // Machine figures to draw the roofs with; nullopt draws the points alone.
  void SetMachine(std::optional<profiler::MachineInfo> machine);
  // Rings the point of `instruction_id` (the selection); -1 or a kernel not drawn: none.
  void SetSelected(int64_t instruction_id);
  int64_t selected() const { return selected_; }
  // The kernels drawn (those with FLOPs, bytes and time to place).
  int point_count() const { return static_cast<int>(placed_.size()); }
  const std::optional<profiler::MachineInfo>& machine() const { return machine_; }
  QPushButton* calibrate_button() const { return calibrate_; }
  QLabel* note() const { return note_; }
  // The point of `instruction_id` in chart coordinates (intensity, FLOP/s); for tests.
  std::optional<std::pair<double, double>> PointOf(int64_t instruction_id) const;

 signals:
  void kernelClicked(int64_t instruction_id);
  void machineMeasured(bool ok);

 private:
  void Rebuild();
  void Calibrate();
  void PointClicked(double intensity, double achieved);
  void ReadCachedMachine();
  void UpdateSelectedMark();
  void ShowToolTip(double intensity, double achieved, bool hovered);
  const RooflineKernel* Nearest(double intensity, double achieved) const;

  struct Chart;
  std::unique_ptr<Chart> chart_;
  QLabel* note_;
  QPushButton* calibrate_;
  std::vector<RooflineKernel> kernels_;
  std::vector<RooflineKernel> placed_;
  std::optional<profiler::MachineInfo> machine_;
  bool looked_for_machine_ = false;
  int64_t selected_ = -1;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_ROOFLINE_VIEW_H_
