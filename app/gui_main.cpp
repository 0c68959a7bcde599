#include "app/gui_main.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QImage>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "passes/pipeline_option_table.h"
#include "recording/kernel_store.h"
#include "resources/samples.h"
#include "views/qt/kernel/kernel_panel.h"
#include "views/qt/lesson/lesson_panel.h"
#include "views/qt/main_window.h"
#include "views/qt/profile/profile_panel.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/run/run_controller.h"
#include "views/qt/run/run_panel.h"
#include "views/qt/graph/stage_strip_panel.h"
#include "views/qt/tuning/tune_controller.h"
#include "views/qt/tuning/tuning_panel.h"
#include "views/qt/what_if/what_if_panel.h"
#include "views/qt/workbench_context.h"
#include "views/qt/compare/xla_comparison_panel.h"

namespace fusescope::app {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kScreenshotTimeoutMs = 10 * 60 * 1000;

struct GuiOptions {
  std::string file;
  std::optional<long long> pass;
  std::string pipeline = "cpu";
  std::string xla_pipeline;  // the XLA vs Ours panel's; empty: the dump's platform
  std::string screenshot;
  std::string kernel;        // the Kernel view on this kernel
  std::string kernel_stage;  // and this stage of it
  std::string tuning_kernel;  // the Tuning view on this kernel of the recording's tuning runs
  std::string select;         // this instruction selected in the shown pass
  bool heat = false;
  std::string lesson;                   // opened instead of a file
  std::optional<long long> lesson_step;  // 1-based
  bool presenter = false;
  std::optional<long long> strip;  // the Stage Strip with this many panes
  std::string strip_filter;        // its passes: names containing this
  std::string strip_stages;        // its stages: this list (StageWindow's syntax)
  // A what-if run once the model is open: B is the open recording's options with these.
  std::vector<std::string> what_if_sets;      // KEY=VALUE
  std::vector<std::string> what_if_disabled;  // pass names
  std::optional<long long> worker_timeout_s;
  std::optional<long long> worker_memory_mib;
};

// A count for an option; nullopt when `text` is not a non-negative integer.
std::optional<long long> ParseCount(const std::string& text) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0) return std::nullopt;
  return value;
}

// Returns an error message, or empty on success.
std::string ParseOptions(const std::vector<std::string>& args, GuiOptions& options) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](std::string& out) -> bool {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string text;
    if (arg == "--pass") {
      if (!value(text)) return "--pass needs a pass number";
      char* end = nullptr;
      options.pass = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || *options.pass < 0)
        return "--pass needs a pass number, got '" + text + "'";
    } else if (arg == "--pipeline") {
      if (!value(options.pipeline) || (options.pipeline != "cpu" && options.pipeline != "gpu"))
        return "--pipeline must be cpu or gpu";
    } else if (arg == "--xla-pipeline") {
      if (!value(options.xla_pipeline) ||
          (options.xla_pipeline != "cpu" && options.xla_pipeline != "gpu"))
        return "--xla-pipeline must be cpu or gpu";
    } else if (arg == "--worker-timeout" || arg == "--worker-memory") {
      auto& target =
          arg == "--worker-timeout" ? options.worker_timeout_s : options.worker_memory_mib;
      if (!value(text) || !(target = ParseCount(text))) {
        return arg + " needs a number (" + (arg == "--worker-timeout" ? "seconds" : "MiB") +
               ", 0 for no limit)";
      }
    } else if (arg == "--kernel") {
      if (!value(options.kernel)) return "--kernel needs a kernel name";
    } else if (arg == "--tuning-kernel") {
      if (!value(options.tuning_kernel)) return "--tuning-kernel needs a kernel name";
    } else if (arg == "--select") {
      if (!value(options.select)) return "--select needs an instruction name";
    } else if (arg == "--kernel-stage") {
      if (!value(options.kernel_stage)) return "--kernel-stage needs a stage name";
    } else if (arg == "--strip") {
      if (!value(text) || !(options.strip = ParseCount(text)) ||
          *options.strip < views::StageWindow::kMinPanes ||
          *options.strip > views::StageWindow::kMaxPanes)
        return "--strip needs a number of panes from 2 to 8";
    } else if (arg == "--strip-filter") {
      if (!value(options.strip_filter)) return "--strip-filter needs a part of a pass name";
    } else if (arg == "--strip-stages") {
      if (!value(options.strip_stages)) return "--strip-stages needs a list like 3,7-9,last";
    } else if (arg == "--what-if-set") {
      if (!value(text)) return "--what-if-set needs KEY=VALUE";
      passes::PipelineOptions check;
      if (Status set = passes::ApplyPipelineOptionAssignment(check, text); !set.ok()) {
        return "--what-if-set: " + set.message();
      }
      options.what_if_sets.push_back(text);
    } else if (arg == "--what-if-disable-pass") {
      if (!value(text)) return "--what-if-disable-pass needs a pass name";
      options.what_if_disabled.push_back(text);
    } else if (arg == "--heat") {
      options.heat = true;
    } else if (arg == "--lesson") {
      if (!value(options.lesson)) return "--lesson needs a lesson (lesson:NAME or a .lesson file)";
    } else if (arg == "--lesson-step") {
      if (!value(text) || !(options.lesson_step = ParseCount(text)) || *options.lesson_step < 1)
        return "--lesson-step needs a step number from 1";
    } else if (arg == "--presenter") {
      options.presenter = true;
    } else if (arg == "--screenshot") {
      if (!value(options.screenshot)) return "--screenshot needs an output file";
    } else if (!arg.empty() && arg[0] == '-') {
      return "unknown option '" + arg + "'";
    } else if (options.file.empty()) {
      options.file = arg;
    } else {
      return "more than one file given";
    }
  }
  if (!options.kernel_stage.empty() && options.kernel.empty())
    return "--kernel-stage needs --kernel";
  if (int(!options.kernel.empty()) + int(!options.tuning_kernel.empty()) +
          int(!options.select.empty()) >
      1)
    return "give one of --kernel, --tuning-kernel and --select";
  if (!options.lesson.empty() && !options.file.empty())
    return "give a file or --lesson, not both";
  if (options.lesson_step && options.lesson.empty()) return "--lesson-step needs --lesson";
  if ((!options.strip_filter.empty() || !options.strip_stages.empty()) && !options.strip)
    options.strip = 4;
  return {};
}

// With --kernel and no --pass, the window opens on the pass that made the kernel's snapshot,
// so that the graphs show the node the kernel was compiled from.
void StartOnKernelPass(views::MainWindow& window, const GuiOptions& options) {
  if (options.kernel.empty() || options.pass || options.file.empty()) return;
  auto kernels = recording::ListKernels(options.file);
  if (!kernels.ok()) return;
  int snapshot = -1;
  for (const recording::KernelSummary& kernel : *kernels) {
    if (kernel.kernel == options.kernel) snapshot = std::max(snapshot, kernel.snapshot);
  }
  if (snapshot > 0) window.set_initial_pass(snapshot - 1);
}

void LimitWorkers(views::MainWindow& window, const GuiOptions& options) {
  views::WorkerLimits limits = window.loader()->worker_limits();
  if (options.worker_timeout_s) limits.time_limit = std::chrono::seconds(*options.worker_timeout_s);
  if (options.worker_memory_mib) limits.memory_bytes = *options.worker_memory_mib << 20;
  window.loader()->set_worker_limits(limits);
  window.run_panel()->controller()->set_worker_limits(limits);
  // A search has no time limit of its own (it has Cancel); given one, it keeps it.
  views::WorkerLimits tuning = window.tuning_panel()->controller()->worker_limits();
  if (options.worker_timeout_s) tuning.time_limit = std::chrono::seconds(*options.worker_timeout_s);
  if (options.worker_memory_mib) tuning.memory_bytes = *options.worker_memory_mib << 20;
  window.tuning_panel()->controller()->set_worker_limits(tuning);
}

// --strip: the Stage Strip in the middle, with the whole width (the docks closed; View ▸ Reset
// Layout brings them back). The stage list is read once the recording is in.
void ShowStrip(views::MainWindow& window, const GuiOptions& options) {
  if (!options.strip) return;
  for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
  views::StageStripPanel* strip = window.stage_strip_panel();
  strip->SetPaneCount(static_cast<int>(*options.strip));
  strip->SetNameFilter(QString::fromStdString(options.strip_filter));
  strip->SetStageList(QString::fromStdString(options.strip_stages));
  window.stage_strip_action()->setChecked(true);
}

void Open(views::MainWindow& window, const GuiOptions& options) {
  LimitWorkers(window, options);
  ShowStrip(window, options);
  window.SetPipelineTarget(QString::fromStdString(options.pipeline));
  if (options.pass) window.set_initial_pass(*options.pass);
  StartOnKernelPass(window, options);
  window.xla_panel()->set_preferred_pipeline(QString::fromStdString(options.xla_pipeline));
  // Takes effect once the recording's profiles are read; nothing without a profile.
  if (options.heat) window.profile_panel()->heat_action()->setChecked(true);
  if (!options.lesson.empty()) {
    window.OpenLesson(QString::fromStdString(options.lesson));
  } else if (options.file.empty()) {
    window.OpenSample(
        QString::fromUtf8(resources::kDefaultSampleName.data(),
                          static_cast<qsizetype>(resources::kDefaultSampleName.size())));
  } else {
    window.OpenPath(QString::fromStdString(options.file));
  }
}

bool WantsWhatIf(const GuiOptions& options) {
  return !options.what_if_sets.empty() || !options.what_if_disabled.empty();
}

// Starts the what-if of --what-if-set / --what-if-disable-pass on the open recording.
void StartWhatIf(views::MainWindow& window, const GuiOptions& options) {
  const recording::Recording* a = window.context()->recording();
  if (a == nullptr) return;
  passes::PipelineOptions b = a->options;
  for (const std::string& assignment : options.what_if_sets) {
    // Checked when the options were read.
    (void)passes::ApplyPipelineOptionAssignment(b, assignment);
  }
  for (const std::string& pass : options.what_if_disabled) b.disabled_passes.insert(pass);
  window.RunWhatIf(b);
}

// Headless runs answer with one line on failure; Qt's own chatter about the offscreen
// platform (size hints, runtime folders) would bury it.
void QuietQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) std::cerr << message.toStdString() << '\n';
}

// The lesson's step and presenter mode, once the lesson is shown.
void ApplyLessonOptions(views::MainWindow& window, const GuiOptions& options) {
  if (options.presenter) window.SetPresenterMode(true);
  if (options.lesson_step) window.lesson_panel()->GoTo(static_cast<int>(*options.lesson_step - 1));
}

int RunScreenshot(QApplication& app, views::MainWindow& window, const GuiOptions& options) {
  window.set_interactive(false);
  int code = kExitFailure;
  const QString out = QString::fromStdString(options.screenshot);
  bool grabbing = false;
  const auto grab = [&] {
    if (grabbing) return;
    grabbing = true;
    // Taken once the window is still settled a turn of the event loop later (pending layouts
    // and repaints land); work that started meanwhile is waited for.
    auto* wait = new QTimer(&app);
    QObject::connect(wait, &QTimer::timeout, &app, [&, wait] {
      if (!window.IsSettled()) return;
      wait->stop();
      if (window.grab().save(out)) {
        code = kExitOk;
      } else {
        std::cerr << "cannot write " << options.screenshot << '\n';
      }
      app.quit();
    });
    wait->start(50);
  };
  // A lesson: taken on its step (and in presenter mode) once that step shows everywhere.
  QObject::connect(&window, &views::MainWindow::lessonReady, &app, [&] {
    ApplyLessonOptions(window, options);
    grab();
  });
  bool what_if_started = false;
  QObject::connect(&window, &views::MainWindow::settled, &app, [&] {
    if (!options.lesson.empty()) return;
    if (WantsWhatIf(options)) {
      if (!what_if_started) {
        what_if_started = true;
        StartWhatIf(window, options);
      }
      return;
    }
    if (const QString& error = window.stage_strip_panel()->list_error(); !error.isEmpty()) {
      std::cerr << "--strip-stages: " << error.toStdString() << '\n';
      app.quit();
      return;
    }
    if (!options.tuning_kernel.empty()) {
      // The Tuning view on the kernel: the graphs move to its node, then the picture is taken.
      if (!window.FocusTuningKernel(QString::fromStdString(options.tuning_kernel))) {
        std::cerr << options.file << ": no tuning run has a kernel '" << options.tuning_kernel
                  << "' (fusescope tune " << options.file << " --list lists them)\n";
        app.quit();
        return;
      }
      grab();
      return;
    }
    if (!options.select.empty()) {
      if (!window.SelectInstruction(QString::fromStdString(options.select))) {
        std::cerr << options.file << ": no instruction '" << options.select
                  << "' in the shown pass\n";
        app.quit();
        return;
      }
      grab();
      return;
    }
    if (options.kernel.empty()) {
      grab();
      return;
    }
    // The Kernel view reads the kernel's texts on a worker (and the graphs may move to the
    // kernel's pass): taken once everything shows.
    if (!window.FocusKernel(QString::fromStdString(options.kernel),
                            QString::fromStdString(options.kernel_stage))) {
      std::cerr << options.file << ": no kernel '" << options.kernel << "' (fusescope kernel "
                << options.file << " lists them)\n";
      app.quit();
      return;
    }
    grab();
  });
  // The comparison is shown: the What If dock gets half the height and its first fusion is
  // picked (selected on the graph); taken once the graphs settle again.
  QObject::connect(&window, &views::MainWindow::whatIfReady, &app, [&] {
    if (auto* dock = window.findChild<QDockWidget*>(QStringLiteral("what_if"))) {
      window.resizeDocks({dock}, {window.height() / 2}, Qt::Vertical);
    }
    window.what_if_panel()->fusion_table()->selectRow(0);
    grab();
  });
  QObject::connect(window.what_if_panel(), &views::WhatIfPanel::failed, &app, [&] { app.quit(); });
  QObject::connect(&window, &views::MainWindow::loadFailed, &app, [&] { app.quit(); });
  QTimer::singleShot(kScreenshotTimeoutMs, &app, [&] {
    std::cerr << "timed out waiting for the layout\n";
    app.quit();
  });
  window.show();
  Open(window, options);
  app.exec();
  return code;
}

}  // namespace

const char kGuiUsage[] =
    "gui [FILE|DUMP_DIR] [--pass N] [--pipeline cpu|gpu] [--xla-pipeline cpu|gpu] "
    "[--worker-timeout SECONDS] [--worker-memory MIB] [--heat] "
    "[--kernel NAME [--kernel-stage STAGE]] [--tuning-kernel NAME] [--select NAME] "
    "[--lesson LESSON [--lesson-step N] [--presenter]] "
    "[--strip N [--strip-filter TEXT] [--strip-stages LIST]] "
    "[--what-if-set KEY=VALUE] [--what-if-disable-pass NAME] [--screenshot OUT.png]";

int GuiMain(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "gui") args.erase(args.begin());
  GuiOptions options;
  const std::string error = ParseOptions(args, options);
  if (!error.empty()) {
    std::cerr << error << "; usage: fusescope " << kGuiUsage << '\n';
    return kExitUsage;
  }
  if (!options.screenshot.empty()) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(QuietQtWarnings);
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Fusescope"));
  QApplication::setApplicationName(QStringLiteral("Fusescope"));
  QApplication::setApplicationDisplayName(QStringLiteral("Fusescope"));
  views::MainWindow window(options.screenshot.empty());
  if (!options.screenshot.empty()) return RunScreenshot(app, window, options);
  window.show();
  QObject::connect(&window, &views::MainWindow::lessonReady, &window,
                   [&] { ApplyLessonOptions(window, options); });
  if (!options.kernel.empty()) {
    QObject::connect(
        &window, &views::MainWindow::settled, &window,
        [&] {
          window.FocusKernel(QString::fromStdString(options.kernel),
                             QString::fromStdString(options.kernel_stage));
        },
        Qt::SingleShotConnection);
  }
  if (!options.tuning_kernel.empty()) {
    QObject::connect(
        &window, &views::MainWindow::settled, &window,
        [&] { window.FocusTuningKernel(QString::fromStdString(options.tuning_kernel)); },
        Qt::SingleShotConnection);
  }
  if (!options.select.empty()) {
    QObject::connect(
        &window, &views::MainWindow::settled, &window,
        [&] { window.SelectInstruction(QString::fromStdString(options.select)); },
        Qt::SingleShotConnection);
  }
  if (WantsWhatIf(options)) {
    QObject::connect(
        &window, &views::MainWindow::settled, &window, [&] { StartWhatIf(window, options); },
        Qt::SingleShotConnection);
  }
  Open(window, options);
  return app.exec();
}

}  // namespace fusescope::app
