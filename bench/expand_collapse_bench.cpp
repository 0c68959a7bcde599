// What Expand All and Collapse All cost the GUI thread on a large module, measured on the real
// widgets (offscreen): a graph diff panel shows the fusion pass of a generated module, and each
// action runs from the call until the event loop has gone quiet (the layout on its worker,
// the scene swapped in, the old scene disposed of, both sides painted).
//
//   expand_collapse_bench [--size 10000] [--rounds 3] [--width 1600] [--height 900]
//                         [--linger 1000]
//
// Per action and round it prints
//  - gui busy:   wall milliseconds the GUI thread spent handling events (every event timed in
//                QApplication::notify, plus the action's own call), summed: what the action
//                costs that thread;
//  - gui cpu:    CPU milliseconds of the GUI thread over the same span, the event loop's own
//                overhead included (steadier than wall time on a busy machine);
//  - longest:    the longest single event, i.e. the longest frame the window could not
//                repaint in;
//  - settled:    wall milliseconds until both pictures were complete.
// The first expand lays out on a cold layout cache; later rounds find the pieces cached.
// The worker's layout time is not in the GUI figures.

#include <time.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/generated_module.h"
#include "recording/compile_and_record.h"
#include "views/qt/graph/graph_canvas.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/workbench_context.h"

namespace fusescope {
namespace {

double ThreadCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}

// Times every event the GUI thread handles (timers, posted calls, paints, the worker's
// results): their sum is the GUI thread's busy time, the longest one the longest frame the
// window could not repaint in.
class MeteredApplication : public QApplication {
 public:
  using QApplication::QApplication;

  bool notify(QObject* receiver, QEvent* event) override {
    if (depth_ > 0) return QApplication::notify(receiver, event);
    ++depth_;
    QElapsedTimer clock;
    clock.start();
    const bool result = QApplication::notify(receiver, event);
    Add(static_cast<double>(clock.nsecsElapsed()) * 1e-6);
    --depth_;
    return result;
  }

  void Start() {
    busy_ms_ = 0;
    longest_ms_ = 0;
    cpu_start_ = ThreadCpuMs();
  }
  void Stop() { cpu_ms_ = ThreadCpuMs() - cpu_start_; }
  // Work done outside any event (the action itself, called directly).
  void Add(double ms) {
    busy_ms_ += ms;
    longest_ms_ = std::max(longest_ms_, ms);
  }
  double busy_ms() const { return busy_ms_; }
  double longest_ms() const { return longest_ms_; }
  double cpu_ms() const { return cpu_ms_; }

 private:
  int depth_ = 0;
  double busy_ms_ = 0;
  double longest_ms_ = 0;
  double cpu_start_ = 0;
  double cpu_ms_ = 0;
};

struct Figures {
  double busy_ms = 0;
  double cpu_ms = 0;
  double longest_ms = 0;
  double settled_ms = 0;
};

// Runs the event loop until the panel shows its latest request, then `linger_ms` longer: the
// old scene is disposed of in slices after the new one is complete, and paints follow. The
// loop sleeps whenever it has nothing to do, so the meter sees only real work.
void Settle(views::GraphDiffPanel& panel, int linger_ms) {
  while (!panel.settled()) {
    QEventLoop loop;
    QObject::connect(&panel, &views::GraphDiffPanel::picturesSettled, &loop, &QEventLoop::quit);
    QTimer::singleShot(1000, &loop, &QEventLoop::quit);
    loop.exec();
  }
  QEventLoop linger;
  QTimer::singleShot(linger_ms, &linger, &QEventLoop::quit);
  linger.exec();
}

Figures Measure(views::GraphDiffPanel& panel, void (views::GraphDiffPanel::*action)(),
                MeteredApplication& meter, int linger_ms) {
  QElapsedTimer wall;
  wall.start();
  meter.Start();
  QElapsedTimer call;
  call.start();
  (panel.*action)();
  meter.Add(static_cast<double>(call.nsecsElapsed()) * 1e-6);
  Figures figures;
  Settle(panel, 0);
  figures.settled_ms = static_cast<double>(wall.nsecsElapsed()) * 1e-6;
  Settle(panel, linger_ms);
  meter.Stop();
  figures.busy_ms = meter.busy_ms();
  figures.cpu_ms = meter.cpu_ms();
  figures.longest_ms = meter.longest_ms();
  return figures;
}

void Print(const char* name, int round, const Figures& f, size_t nodes, size_t edges) {
  std::printf(
      "  %-13s round %d: gui busy %7.1f ms, gui cpu %7.1f ms, longest %6.1f ms, "
      "settled %7.1f ms (after side: %zu nodes, %zu edges)\n",
      name, round, f.busy_ms, f.cpu_ms, f.longest_ms, f.settled_ms, nodes, edges);
}

int64_t FusionPass(const recording::Recording& recording) {
  for (const recording::PassRecord& pass : recording.passes) {
    if (pass.changed && pass.name.find("fusion") != std::string::npos) return pass.index;
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  int size = 10000;
  int rounds = 3;
  int width = 1600;
  int height = 900;
  int linger_ms = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const int value = std::stoi(argv[i + 1]);
    if (arg == "--size") size = value;
    if (arg == "--rounds") rounds = value;
    if (arg == "--width") width = value;
    if (arg == "--height") height = value;
    if (arg == "--linger") linger_ms = value;
  }
  MeteredApplication app(argc, argv);
  StatusOr<recording::Recording> run = recording::CompileAndRecord(
      bench::GeneratedModule(size), passes::PipelineOptions{}, "generated");
  if (!run.ok()) {
    std::fprintf(stderr, "compile failed: %s\n", run.message().c_str());
    return 1;
  }
  auto recording = std::make_shared<const recording::Recording>(std::move(run).value());
  const int64_t pass = FusionPass(*recording);
  std::printf("== expand all / collapse all, %lld-instruction module, pass #%lld %s, %dx%d\n",
              static_cast<long long>(recording->input().instruction_count()),
              static_cast<long long>(pass),
              recording->passes[static_cast<size_t>(pass)].name.c_str(), width, height);
  views::WorkbenchContext context;
  views::GraphDiffPanel panel(&context, false);
  panel.resize(width, height);
  panel.show();
  context.SetRecording(recording, "generated", pass);
  Settle(panel, linger_ms);
  const views::GraphCanvas& after = *panel.canvas(views::GraphSide::kAfter);
  for (int round = 1; round <= rounds; ++round) {
    const Figures expand = Measure(panel, &views::GraphDiffPanel::ExpandAll, app, linger_ms);
    Print("expand all", round, expand, after.node_items().size(), after.edge_items().size());
    const Figures collapse = Measure(panel, &views::GraphDiffPanel::CollapseAll, app, linger_ms);
    Print("collapse all", round, collapse, after.node_items().size(), after.edge_items().size());
  }
  return 0;
}

}  // namespace
}  // namespace fusescope

int main(int argc, char** argv) { return fusescope::Main(argc, argv); }
