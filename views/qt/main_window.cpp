#include "views/qt/main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <iostream>

#include "recording/recording_store.h"
#include "resources/samples.h"
#include "views/qt/compare/compare_panel.h"
#include "views/qt/decisions/fusion_decisions_panel.h"
#include "views/qt/graph/graph_diff_panel.h"
#include "views/qt/icons.h"
#include "views/qt/inspector/inspector_panel.h"
#include "views/qt/text/ir_text_panel.h"
#include "views/kernel_timeline.h"
#include "views/lesson.h"
#include "views/qt/kernel/kernel_panel.h"
#include "views/qt/lesson/lesson_panel.h"
#include "views/qt/passes/pass_actions.h"
#include "views/qt/passes/pass_timeline_panel.h"
#include "views/qt/profile/profile_panel.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/run/run_panel.h"
#include "views/qt/search/search_panel.h"
#include "views/qt/tuning/tuning_panel.h"
#include "views/qt/graph/stage_strip_panel.h"
#include "views/qt/what_if/what_if_dialog.h"
#include "views/qt/what_if/what_if_panel.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/worker_failure.h"
#include "views/qt/workers/worker_pool.h"
#include "views/qt/workers/worker_report_banner.h"
#include "views/qt/compare/xla_comparison_panel.h"

namespace fusescope::views {
namespace {

constexpr int kMaxRecentFiles = 10;

QString ToQString(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

MainWindow::MainWindow(bool use_settings, QWidget* parent)
    : QMainWindow(parent),
      context_(new WorkbenchContext(this)),
      loader_(new RecordingLoader(this)),
      use_settings_(use_settings) {
  setWindowTitle(tr("Fusescope"));
  setWindowIcon(Icons::AppIcon());
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                 QMainWindow::AllowNestedDocks);
  pass_actions_ = new PassActions(context_, this);
  setupPanels();
  setupActions();
  setupToolBar();
  setupStatusBar();
  setupLoader();
  setupWorkerReport();
  setupProfile();
  setupXlaComparison();
  setupRun();
  setupTuning();
  setupWhatIf();
  setupDefaultLayout();
  setupLessons();
  RestoreSettings();
  context_->AddObserver(this, this);
}

MainWindow::~MainWindow() = default;

void MainWindow::setupPanels() {
  graph_panel_ = new GraphDiffPanel(context_, use_settings_, this);
  stage_strip_panel_ = new StageStripPanel(context_, this);
  graphs_ = new QStackedWidget(this);
  graphs_->addWidget(graph_panel_);
  graphs_->addWidget(stage_strip_panel_);
  setCentralWidget(graphs_);
  timeline_panel_ = new PassTimelinePanel(context_, pass_actions_, this);
  inspector_panel_ = new InspectorPanel(context_, this);
  text_panel_ = new IrTextPanel(context_, this);
  decisions_panel_ = new FusionDecisionsPanel(context_, this);
  search_panel_ = new SearchPanel(context_, this);
  profile_panel_ = new ProfilePanel(context_, this);
  kernel_panel_ = new KernelPanel(context_, this);
  xla_panel_ = new XlaComparisonPanel(context_, this);
  compare_panel_ = new ComparePanel(context_, this);
  run_panel_ = new RunPanel(context_, this);
  what_if_panel_ = new WhatIfPanel(context_, this);
  tuning_panel_ = new TuningPanel(context_, this);
  // Checked once the current notification is over: a panel that settles while the context
  // is still telling the others about a new recording would otherwise be heard before the
  // panels told after it have started their work (and look idle).
  const auto settle = [this] {
    QTimer::singleShot(0, this, [this] {
      if (waiting_for_settle_ && IsSettled()) {
        waiting_for_settle_ = false;
        emit settled();
      }
    });
  };
  connect(graph_panel_, &GraphDiffPanel::picturesSettled, this, settle);
  connect(stage_strip_panel_, &StageStripPanel::picturesSettled, this, settle);
  connect(profile_panel_, &ProfilePanel::updated, this, settle);
  connect(profile_panel_, &ProfilePanel::profilesLoaded, this, settle);
  connect(xla_panel_, &XlaComparisonPanel::updated, this, settle);
  connect(kernel_panel_, &KernelPanel::updated, this, settle);
  connect(kernel_panel_, &KernelPanel::kernelsListed, this, settle);
  connect(kernel_panel_, &KernelPanel::busyChanged, this, settle, Qt::QueuedConnection);
  connect(tuning_panel_, &TuningPanel::runsLoaded, this, settle);
  connect(tuning_panel_, &TuningPanel::updated, this, settle);
  connect(tuning_panel_, &TuningPanel::busyChanged, this, settle, Qt::QueuedConnection);
  // Queued: a comparison's end is announced before its result reaches the table. A superseded
  // one updates nothing, and only this tells that the window may have settled.
  connect(xla_panel_, &XlaComparisonPanel::busyChanged, this, settle, Qt::QueuedConnection);
}

// The heat overlay goes from the profile panel to the graphs; a recording with profiles
// brings the profile panel to the front.
void MainWindow::setupProfile() {
  connect(profile_panel_, &ProfilePanel::heatChanged, graph_panel_, &GraphDiffPanel::SetHeat);
  graph_panel_->AddOverlayAction(profile_panel_->heat_action());
  connect(profile_panel_, &ProfilePanel::profilesLoaded, this, [this](int count) {
    if (count > 0) RaiseDock(profile_panel_);
  });
}

// An XLA dump brings its comparison with our fusion to the front; a recording with stored
// compiler comparisons brings the Compare view, whose rows open each compiler's own passes.
void MainWindow::setupXlaComparison() {
  connect(xla_panel_, &XlaComparisonPanel::availabilityChanged, this, [this](bool available) {
    if (available) RaiseDock(xla_panel_);
  });
  // Queued: the comparison is read as the recording arrives, before the window has settled
  // its docks; raised then, the tab would be covered again.
  connect(
      compare_panel_, &ComparePanel::availabilityChanged, this,
      [this](bool available) {
        if (available) RaiseDock(compare_panel_);
      },
      Qt::QueuedConnection);
  connect(compare_panel_, &ComparePanel::openRecordingRequested, this, &MainWindow::OpenPath);
}

// Runs, bisections and profiles bring the Run dock to the front and speak in the status bar;
// a saved profile is read into the Profile dock, which comes to the front once it has it.
void MainWindow::setupRun() {
  connect(run_panel_, &RunPanel::started, this, [this](const QString& what) {
    RaiseDock(run_panel_);
    statusBar()->showMessage(what);
  });
  connect(run_panel_, &RunPanel::progressed, this,
          [this](const QString& text) { statusBar()->showMessage(text); });
  connect(run_panel_, &RunPanel::finished, this,
          [this](const QString& summary) { statusBar()->showMessage(summary, 10000); });
  connect(run_panel_, &RunPanel::canceled, this,
          [this] { statusBar()->showMessage(tr("Canceled"), 4000); });
  connect(run_panel_, &RunPanel::failed, this, [this](const QString& message) {
    RaiseDock(run_panel_);
    statusBar()->showMessage(message);
    if (!interactive_) std::cerr << message.toStdString() << '\n';
  });
  connect(run_panel_, &RunPanel::profileSaved, this, [this](const QString& path) {
    if (path == context_->file_path()) profile_panel_->reload_action()->trigger();
  });
}

// A recording with tuning runs brings the Tuning dock to the front, and so does a search that
// ends; a picked trial's kernel goes to the Kernel dock, which comes to the front with it.
void MainWindow::setupTuning() {
  // Queued: the runs are read as the recording arrives, before the window has settled its
  // docks; raised then, the tab would be covered again.
  connect(
      tuning_panel_, &TuningPanel::runsLoaded, this,
      [this](int count) {
        if (count > 0) RaiseDock(tuning_panel_);
      },
      Qt::QueuedConnection);
  connect(tuning_panel_, &TuningPanel::trialKernelReady, this,
          [this](std::shared_ptr<const KernelTimeline> timeline, const QString& origin) {
            kernel_panel_->ShowCompiledKernel(std::move(timeline), origin);
            RaiseDock(kernel_panel_);
          });
  connect(tuning_panel_, &TuningPanel::trialKernelFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Could not compile the trial's kernel: %1").arg(message), 10000);
  });
  connect(tuning_panel_, &TuningPanel::tuneStarted, this, [this](const QString& what) {
    RaiseDock(tuning_panel_);
    statusBar()->showMessage(what);
  });
  connect(tuning_panel_, &TuningPanel::tuneProgressed, this,
          [this](const QString& text) { statusBar()->showMessage(tr("Tuning: %1").arg(text)); });
  connect(tuning_panel_, &TuningPanel::tuneFinished, this, [this](const QString& summary) {
    RaiseDock(tuning_panel_);
    statusBar()->showMessage(summary, 10000);
  });
  connect(tuning_panel_, &TuningPanel::tuneFailed, this, [this](const QString& message) {
    RaiseDock(tuning_panel_);
    statusBar()->showMessage(message);
    if (!interactive_) std::cerr << message.toStdString() << '\n';
  });
}

// A what-if brings its dock to the front and speaks in the status bar; its B can become the
// open recording.
void MainWindow::setupWhatIf() {
  connect(what_if_panel_, &WhatIfPanel::started, this, [this](const QString& what) {
    RaiseDock(what_if_panel_);
    statusBar()->showMessage(what);
  });
  connect(what_if_panel_, &WhatIfPanel::whatIfReady, this,
          [this](std::shared_ptr<const recording::Recording> b) {
            statusBar()->showMessage(tr("What if: B compiled and compared"), 10000);
            emit whatIfReady(std::move(b));
          });
  connect(what_if_panel_, &WhatIfPanel::failed, this, [this](const QString& message) {
    statusBar()->showMessage(message);
    if (!interactive_) std::cerr << message.toStdString() << '\n';
  });
  connect(what_if_panel_, &WhatIfPanel::openRecordingRequested, this,
          [this](std::shared_ptr<const recording::Recording> b, const QString& title) {
            ShowRecording(std::move(b), title);
          });
  connect(what_if_panel_, &WhatIfPanel::savedB, this,
          [this](const QString& path, const QString& error) {
            if (error.isEmpty()) {
              statusBar()->showMessage(tr("Saved B as %1").arg(path), 5000);
            } else {
              ReportError(tr("Could not save B"), error);
            }
          });
}

void MainWindow::RaiseDock(QWidget* panel) {
  for (QDockWidget* dock : docks_) {
    if (dock->widget() != panel) continue;
    dock->show();
    dock->raise();
  }
}

QDockWidget* MainWindow::AddDock(QWidget* panel, const QString& title, const QString& name,
                                 Qt::DockWidgetArea area, const QString& icon) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);
  dock->setWidget(panel);
  addDockWidget(area, dock);
  QAction* toggle = dock->toggleViewAction();
  toggle->setIcon(Icons::Get(icon));
  docks_.push_back(dock);
  return dock;
}

void MainWindow::setupDefaultLayout() {
  QDockWidget* timeline =
      AddDock(timeline_panel_, tr("Passes"), "passes", Qt::LeftDockWidgetArea, "timeline");
  QDockWidget* inspector =
      AddDock(inspector_panel_, tr("Inspector"), "inspector", Qt::RightDockWidgetArea, "inspector");
  QDockWidget* text =
      AddDock(text_panel_, tr("IR Text"), "ir_text", Qt::BottomDockWidgetArea, "text");
  QDockWidget* decisions = AddDock(decisions_panel_, tr("Fusion Decisions"), "decisions",
                                   Qt::BottomDockWidgetArea, "decisions");
  QDockWidget* search =
      AddDock(search_panel_, tr("Search"), "search", Qt::BottomDockWidgetArea, "search");
  QDockWidget* profile =
      AddDock(profile_panel_, tr("Profile"), "profile", Qt::BottomDockWidgetArea, "run");
  tabifyDockWidget(text, decisions);
  tabifyDockWidget(decisions, search);
  QDockWidget* xla = AddDock(xla_panel_, tr("XLA vs Ours"), "xla_vs_ours", Qt::BottomDockWidgetArea,
                             "counterpart");
  tabifyDockWidget(search, profile);
  tabifyDockWidget(profile, xla);
  QDockWidget* compare =
      AddDock(compare_panel_, tr("Compare"), "compare", Qt::BottomDockWidgetArea, "counterpart");
  tabifyDockWidget(xla, compare);
  QDockWidget* run = AddDock(run_panel_, tr("Run"), "run", Qt::BottomDockWidgetArea, "run");
  tabifyDockWidget(compare, run);
  QDockWidget* kernel =
      AddDock(kernel_panel_, tr("Kernel"), "kernel", Qt::BottomDockWidgetArea, "kernel");
  tabifyDockWidget(run, kernel);
  QDockWidget* what_if =
      AddDock(what_if_panel_, tr("What If"), "what_if", Qt::BottomDockWidgetArea, "counterpart");
  tabifyDockWidget(kernel, what_if);
  QDockWidget* tuning =
      AddDock(tuning_panel_, tr("Tuning"), "tuning", Qt::BottomDockWidgetArea, "run");
  tabifyDockWidget(what_if, tuning);
  text->raise();
  resizeDocks({timeline, inspector}, {380, 360}, Qt::Horizontal);
  resizeDocks({text}, {300}, Qt::Vertical);
  for (QDockWidget* dock : docks_) view_menu_->addAction(dock->toggleViewAction());
  view_menu_->addSeparator();
  view_menu_->addAction(tr("&Reset Layout"), this, [this] { restoreState(default_state_); });
  default_state_ = saveState();
}

void MainWindow::setupActions() {
  setupFileMenu();
  setupCompileMenu();
  setupRunMenu();
  setupNavigateMenu();
  view_menu_ = menuBar()->addMenu(tr("&View"));
  setupStageStrip();
  setupHelpMenu();
}

void MainWindow::setupStageStrip() {
  stage_strip_action_ = view_menu_->addAction(tr("&Stage Strip"));
  stage_strip_action_->setCheckable(true);
  stage_strip_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  stage_strip_action_->setToolTip(
      tr("Several stages side by side in one viewport, in place of the pass's two graphs "
         "(Ctrl+Shift+S)"));
  connect(stage_strip_action_, &QAction::toggled, this, [this](bool on) {
    graphs_->setCurrentWidget(on ? static_cast<QWidget*>(stage_strip_panel_) : graph_panel_);
  });
  view_menu_->addSeparator();
}

void MainWindow::setupFileMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&File"));
  open_ = menu->addAction(Icons::Get("open"), tr("&Open…"), this, &MainWindow::ShowOpenDialog);
  open_->setShortcut(QKeySequence::Open);
  open_->setToolTip(tr("Open an HLO text file or a .fsdb recording (Ctrl+O)"));
  open_folder_ = menu->addAction(Icons::Get("open"), tr("Open &Folder…"), this,
                                 &MainWindow::ShowOpenFolderDialog);
  open_folder_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  open_folder_->setToolTip(
      tr("Import an XLA dump folder (XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*): "
         "its largest module, one pass per file (Ctrl+Shift+O)"));
  recent_menu_ = menu->addMenu(Icons::Get("recent"), tr("Open &Recent"));
  samples_menu_ = menu->addMenu(Icons::Get("sample"), tr("&Samples"));
  for (const resources::SampleModel& sample : resources::SampleModels()) {
    const QString name = ToQString(sample.name);
    samples_menu_->addAction(name, this, [this, name] { OpenSample(name); });
  }
  menu->addSeparator();
  save_ = menu->addAction(Icons::Get("save"), tr("&Save Recording As…"), this,
                          &MainWindow::ShowSaveDialog);
  save_->setShortcut(QKeySequence::Save);
  save_->setEnabled(false);
  menu->addSeparator();
  QAction* quit = menu->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::setupRunMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Run"));
  menu->addAction(run_panel_->run_action());
  menu->addAction(run_panel_->bisect_action());
  menu->addAction(run_panel_->profile_action());
  menu->addSeparator();
  menu->addAction(run_panel_->cancel_action());
}

void MainWindow::setupCompileMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Compile"));
  targets_ = new QActionGroup(this);
  for (const QString& target : {QStringLiteral("cpu"), QStringLiteral("gpu")}) {
    QAction* action = menu->addAction(tr("%1 Pipeline").arg(target.toUpper()));
    action->setCheckable(true);
    action->setData(target);
    action->setChecked(target == QLatin1String("cpu"));
    targets_->addAction(action);
  }
  menu->addSeparator();
  recompile_ =
      menu->addAction(Icons::Get("run"), tr("&Run Pipeline"), this, &MainWindow::Recompile);
  recompile_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  recompile_->setToolTip(tr("Compile the model again with the chosen pipeline (Ctrl+R)"));
  recompile_->setEnabled(false);
  what_if_ = menu->addAction(Icons::Get("counterpart"), tr("&What If…"), this,
                             &MainWindow::ShowWhatIfDialog);
  what_if_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  what_if_->setToolTip(
      tr("Compile the model again with other options and compare the two "
         "(Ctrl+Shift+R)"));
  what_if_->setEnabled(false);
  cancel_ = menu->addAction(Icons::Get("stop"), tr("&Cancel"), this, &MainWindow::CancelWork);
  cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel_->setEnabled(false);
  menu->addSeparator();
  menu->addAction(tuning_panel_->tune_action());
  menu->addAction(tuning_panel_->cancel_action());
}

void MainWindow::setupNavigateMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Navigate"));
  menu->addAction(pass_actions_->next());
  menu->addAction(pass_actions_->previous());
  menu->addAction(pass_actions_->next_changed());
  menu->addAction(pass_actions_->previous_changed());
  menu->addAction(pass_actions_->first());
  menu->addAction(pass_actions_->last());
  menu->addSeparator();
  QAction* find = menu->addAction(Icons::Get("search"), tr("&Find Instruction…"), this, [this] {
    for (QDockWidget* dock : docks_) {
      if (dock->widget() != search_panel_) continue;
      dock->show();
      dock->raise();
    }
    search_panel_->FocusQuery();
  });
  find->setShortcut(QKeySequence::Find);
  QAction* next = menu->addAction(tr("Find &Next"), search_panel_, &SearchPanel::Next);
  next->setShortcut(QKeySequence::FindNext);
  QAction* previous = menu->addAction(tr("Find &Previous"), search_panel_, &SearchPanel::Previous);
  previous->setShortcut(QKeySequence::FindPrevious);
}

void MainWindow::setupHelpMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Help"));
  menu->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::ShowShortcuts);
  menu->addAction(tr("&About Fusescope"), this, &MainWindow::ShowAbout);
}

void MainWindow::setupToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName("main_toolbar");
  bar->setIconSize(QSize(20, 20));
  bar->addAction(open_);
  auto* samples = new QToolButton(bar);
  samples->setIcon(Icons::Get("sample"));
  samples->setToolTip(tr("Open a built-in sample model"));
  samples->setMenu(samples_menu_);
  samples->setPopupMode(QToolButton::InstantPopup);
  bar->addWidget(samples);
  bar->addAction(save_);
  bar->addSeparator();
  for (QAction* action : targets_->actions()) bar->addAction(action);
  bar->addAction(recompile_);
  bar->addAction(cancel_);
  bar->addSeparator();
  bar->addAction(run_panel_->run_action());
  bar->addAction(run_panel_->bisect_action());
  bar->addSeparator();
  bar->addAction(pass_actions_->previous());
  bar->addAction(pass_actions_->next());
  bar->addAction(pass_actions_->next_changed());
}

void MainWindow::setupStatusBar() {
  pass_status_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->setTextVisible(true);
  progress_->hide();
  cancel_button_ = new QToolButton(this);
  cancel_button_->setDefaultAction(cancel_);
  cancel_button_->setAutoRaise(true);
  cancel_button_->hide();
  statusBar()->addPermanentWidget(pass_status_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_button_);
  statusBar()->showMessage(tr("Ready"));
}

void MainWindow::setupLoader() {
  connect(loader_, &RecordingLoader::started, this, [this](const QString& what) {
    warnings_.clear();
    SetBusy(true, what);
  });
  connect(loader_, &RecordingLoader::progress, this,
          [this](int done, int total, const QString& pass) {
            progress_->setRange(0, total);
            progress_->setValue(done);
            progress_->setFormat(QStringLiteral("%v/%m %1").arg(pass));
          });
  connect(loader_, &RecordingLoader::loaded, this,
          [this](std::shared_ptr<const recording::Recording> recording, const QString& title,
                 const QString& path) {
            SetBusy(false);
            if (TakeLesson(recording, title, path)) return;
            if (!path.isEmpty()) AddRecent(path);
            // A model file was compiled into a recording that lives nowhere yet.
            const bool is_recording = !path.isEmpty() && RecordingLoader::IsRecordingFile(path);
            ShowRecording(std::move(recording), title, is_recording ? path : QString());
          });
  connect(loader_, &RecordingLoader::warned, this,
          [this](const QStringList& warnings) { ReportWarnings(warnings); });
  connect(loader_, &RecordingLoader::lessonNamed, this, &MainWindow::OpenLesson);
  connect(loader_, &RecordingLoader::failed, this, [this](const QString& message) {
    SetBusy(false);
    ReportError(tr("Could not open the model"), message);
    emit loadFailed(message);
  });
  connect(loader_, &RecordingLoader::canceled, this, [this] {
    SetBusy(false);
    statusBar()->showMessage(tr("Canceled"), 4000);
  });
}

// The banner sits above the graphs, inside the central area, so that it pushes them down
// rather than covering them.
void MainWindow::setupWorkerReport() {
  worker_report_ = new WorkerReportBanner(this);
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(worker_report_);
  layout->addWidget(takeCentralWidget(), 1);
  setCentralWidget(central);
  connect(loader_, &RecordingLoader::workerFailed, this, &MainWindow::ShowWorkerFailure);
  connect(loader_, &RecordingLoader::loaded, worker_report_, &QWidget::hide);
  connect(worker_report_, &WorkerReportBanner::saveReproducerRequested, this,
          &MainWindow::ShowReproducerDialog);
}

void MainWindow::ShowWorkerFailure(std::shared_ptr<const WorkerFailure> failure) {
  SetBusy(false);
  const QString message = failure->Message();
  worker_report_->Show(std::move(failure), context_->recording() != nullptr);
  statusBar()->showMessage(message);
  if (!interactive_) std::cerr << message.toStdString() << '\n';
  emit loadFailed(message);
}

void MainWindow::CancelWork() {
  if (!loader_->busy()) return;
  statusBar()->showMessage(tr("Stopping…"));
  loader_->Cancel();
}

void MainWindow::ShowReproducerDialog() {
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Save Reproducer Into Folder"),
                                                           settings.value("last_dir").toString());
  if (folder.isEmpty()) return;
  settings.setValue("last_dir", folder);
  SaveReproducer(folder);
}

bool MainWindow::SaveReproducer(const QString& folder) {
  const std::shared_ptr<const WorkerFailure>& failure = worker_report_->failure();
  if (!failure) return false;
  const QString error = failure->SaveReproducer(folder);
  if (!error.isEmpty()) {
    ReportError(tr("Could not save the reproducer"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved the reproducer in %1 (%2, %3, %4)")
                               .arg(folder, WorkerFailure::kModelFile, WorkerFailure::kCommandFile,
                                    WorkerFailure::kErrorsFile),
                           10000);
  return true;
}

void MainWindow::SetBusy(bool busy, const QString& what) {
  progress_->setVisible(busy);
  cancel_button_->setVisible(busy);
  cancel_->setEnabled(busy);
  progress_->setRange(0, 0);
  if (busy) {
    statusBar()->showMessage(what);
  } else {
    statusBar()->clearMessage();
  }
}

void MainWindow::OpenPath(const QString& path) { loader_->OpenFile(path, pipeline_target()); }

void MainWindow::OpenSample(const QString& name) {
  OpenPath(QStringLiteral("sample:%1").arg(name));
}

void MainWindow::ShowRecording(std::shared_ptr<const recording::Recording> recording,
                               const QString& title, const QString& file_path) {
  waiting_for_settle_ = true;
  // A what-if's B belongs to the recording it was compared with.
  stage_strip_panel_->SetSecondRecording(nullptr, {});
  const int64_t pass = initial_pass_;
  initial_pass_ = -1;
  context_->SetRecording(std::move(recording), title, pass, file_path);
}

void MainWindow::Recompile() {
  const recording::Recording* recording = context_->recording();
  if (!recording) return;
  const QString title = context_->title();
  const QString source = QString::fromStdString(recording->source_path);
  loader_->CompileText(recording->input_text, title, source.isEmpty() ? title : source,
                       pipeline_target());
}

void MainWindow::ShowWhatIfDialog() {
  const recording::Recording* recording = context_->recording();
  if (!recording || recording->input_text.empty()) return;
  WhatIfDialog dialog(recording->options, this);
  if (dialog.exec() != QDialog::Accepted) return;
  StatusOr<passes::PipelineOptions> options = dialog.options();
  if (options.ok()) RunWhatIf(*options);
}

void MainWindow::RunWhatIf(const passes::PipelineOptions& b_options) {
  what_if_panel_->Run(b_options);
}

QString MainWindow::pipeline_target() const {
  QAction* checked = targets_->checkedAction();
  return checked ? checked->data().toString() : QStringLiteral("cpu");
}

void MainWindow::SetPipelineTarget(const QString& target) {
  for (QAction* action : targets_->actions()) {
    if (action->data().toString() == target) action->setChecked(true);
  }
}

void MainWindow::FitPassesToNames() {
  // Wider for long names (MLIR's `ClassName (argument)`), never past 2/5 of the window, and
  // never narrower than the user made it.
  const int wanted = std::min(timeline_panel_->WidthForNames(), width() * 2 / 5);
  for (QDockWidget* dock : docks_) {
    if (dock->widget() == timeline_panel_ && !dock->isFloating() && dock->width() < wanted)
      resizeDocks({dock}, {wanted}, Qt::Horizontal);
  }
}

bool MainWindow::IsSettled() const {
  return !loader_->busy() && !context_->busy() && context_->pass_view() &&
         graph_panel_->settled() &&
         (!stage_strip_panel_->isVisible() || stage_strip_panel_->settled()) &&
         !profile_panel_->busy() && !xla_panel_->busy() && !kernel_panel_->busy() &&
         !what_if_panel_->busy() && !tuning_panel_->busy();
}

bool MainWindow::FocusKernel(const QString& name, const QString& stage) {
  RaiseDock(kernel_panel_);
  // Stages beside a text pane: a short bottom dock shows a few lines of either.
  for (QDockWidget* dock : docks_) {
    const int wanted = height() * 2 / 5;
    if (dock->widget() == kernel_panel_ && !dock->isFloating() && dock->height() < wanted) {
      resizeDocks({dock}, {wanted}, Qt::Vertical);
    }
  }
  return kernel_panel_->FocusKernel(name, stage);
}

bool MainWindow::FocusTuningKernel(const QString& name) {
  RaiseDock(tuning_panel_);
  // The table, the chart and the heatmap need more height than a bottom dock starts with.
  for (QDockWidget* dock : docks_) {
    const int wanted = height() / 2;
    if (dock->widget() == tuning_panel_ && !dock->isFloating() && dock->height() < wanted) {
      resizeDocks({dock}, {wanted}, Qt::Vertical);
    }
  }
  return tuning_panel_->SelectKernel(name);
}

bool MainWindow::SelectInstruction(const QString& name) {
  const PassView* view = context_->pass_view();
  if (!view) return false;
  const std::string wanted = name.toStdString();
  for (GraphSide side : {GraphSide::kAfter, GraphSide::kBefore}) {
    const ir::Module* module = view->module(side);
    if (!module || !module->entry()) continue;
    // The entry's instructions first, then those of the functions and regions it holds
    // (an MLIR log's or an Inductor trace's graph bodies).
    const ir::Instruction* found = module->entry()->FindInstruction(wanted);
    for (const auto& computation : module->computations()) {
      if (!found) found = computation->FindInstruction(wanted);
    }
    if (!found) continue;
    if (compare_panel_->available()) RaiseDock(compare_panel_);
    context_->SetSelection(Selection{found->id(), side, -1});
    return true;
  }
  return false;
}

void MainWindow::OnRecordingLoaded(const WorkbenchContext& context) {
  const recording::Recording* recording = context.recording();
  save_->setEnabled(recording != nullptr);
  recompile_->setEnabled(recording != nullptr && !recording->input_text.empty());
  what_if_->setEnabled(recompile_->isEnabled());
  setWindowTitle(recording ? tr("%1 — Fusescope").arg(context.title()) : tr("Fusescope"));
  if (recording && !recording->options.target.empty()) {
    SetPipelineTarget(QString::fromStdString(recording->options.target));
  }
  // Another compiler's passes: our pipeline's targets say nothing of them.
  for (QAction* action : targets_->actions())
    action->setVisible(recording == nullptr || !recording->imported);
  // After every panel has the recording (the Passes table measures its names).
  QTimer::singleShot(0, this, [this] { FitPassesToNames(); });
  if (recording && recording->failed()) {
    const auto& reproducer = *recording->reproducer;
    statusBar()->showMessage(tr("Pass %1 (%2) failed: %3")
                                 .arg(reproducer.pass_index)
                                 .arg(QString::fromStdString(reproducer.pass_name),
                                      QString::fromStdString(reproducer.error)));
  }
}

void MainWindow::OnPassChanged(const WorkbenchContext&) { UpdatePassStatus(); }

void MainWindow::UpdatePassStatus() {
  const PassView* view = context_->pass_view();
  const recording::PassRecord* pass = view ? view->pass() : nullptr;
  if (!pass) {
    pass_status_->setText(view ? tr("Input module") : QString());
    return;
  }
  const QString change = pass->changed
                             ? tr("changed, %1").arg(QString::fromStdString(view->DescribeCounts()))
                             : tr("no change");
  pass_status_->setText(tr("Pass #%1 %2 (of %3) · %4")
                            .arg(pass->index)
                            .arg(QString::fromStdString(pass->name))
                            .arg(context_->pass_count())
                            .arg(change));
}

void MainWindow::ShowOpenDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Model or Recording"), settings.value("last_dir").toString(),
      tr("Models, recordings and dumps (*.hlo *.txt *.onnx *.mlir *.fsdb *.log *.json *.lesson);;"
         "Models (*.hlo *.txt *.onnx *.mlir);;Recordings (*.fsdb);;"
         "MLIR pass logs (*.log *.mlir);;TensorRT layer information (*.json);;"
         "Lessons (*.lesson);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue("last_dir", QFileInfo(path).absolutePath());
  OpenPath(path);
}

void MainWindow::ShowOpenFolderDialog() {
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Open XLA Dump Folder"),
                                                           settings.value("last_dir").toString());
  if (folder.isEmpty()) return;
  settings.setValue("last_dir", folder);
  OpenPath(folder);
}

void MainWindow::ShowSaveDialog() {
  if (!context_->recording()) return;
  QSettings settings;
  QString suggested = context_->title();
  suggested.replace(':', '_');
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save Recording"),
                                   settings.value("last_dir").toString() + '/' +
                                       QFileInfo(suggested).completeBaseName() + ".fsdb",
                                   tr("Recordings (*.fsdb)"));
  if (path.isEmpty()) return;
  settings.setValue("last_dir", QFileInfo(path).absolutePath());
  SaveRecording(path);
}

void MainWindow::SaveRecording(const QString& path) {
  auto recording = context_->shared_recording();
  if (!recording) return;
  statusBar()->showMessage(tr("Saving %1…").arg(path));
  auto* watcher = new QFutureWatcher<Status>(this);
  connect(watcher, &QFutureWatcher<Status>::finished, this, [this, watcher, path] {
    const Status status = watcher->result();
    watcher->deleteLater();
    if (!status.ok()) {
      ReportError(tr("Could not save the recording"), QString::fromStdString(status.message()));
      emit savedRecording(path, false);
      return;
    }
    AddRecent(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    emit savedRecording(path, true);
  });
  watcher->setFuture(
      QtConcurrent::run(WorkerPool::Instance(), [recording, file = path.toStdString()] {
        return recording::SaveRecording(*recording, file);
      }));
}

void MainWindow::AddRecent(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent_.removeAll(absolute);
  recent_.prepend(absolute);
  while (recent_.size() > kMaxRecentFiles) recent_.removeLast();
  RebuildRecentMenu();
  SaveSettings();
}

void MainWindow::RebuildRecentMenu() {
  recent_menu_->clear();
  for (const QString& path : recent_) {
    recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { OpenPath(path); })
        ->setToolTip(path);
  }
  recent_menu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::ReportError(const QString& title, const QString& message) {
  statusBar()->showMessage(message, 10000);
  if (interactive_) {
    QMessageBox::warning(this, title, message);
  } else {
    std::cerr << message.toStdString() << '\n';
  }
}

// Files left out of a load: the recording still opens, so a line in the status bar (and
// stderr when nobody reads dialogs) rather than a dialog that stops the user.
void MainWindow::ReportWarnings(const QStringList& warnings) {
  warnings_ = warnings;
  const QString message =
      warnings.size() == 1
          ? tr("Left out: %1").arg(warnings.front())
          : tr("Left out %1 files; first: %2").arg(warnings.size()).arg(warnings.front());
  statusBar()->showMessage(message, 15000);
  if (!interactive_) {
    for (const QString& warning : warnings)
      std::cerr << "warning: " << warning.toStdString() << '\n';
  }
}

void MainWindow::RestoreSettings() {
  resize(1600, 1000);
  if (!use_settings_) return;
  QSettings settings;
  recent_ = settings.value("recent_files").toStringList();
  RebuildRecentMenu();
  SetPipelineTarget(settings.value("pipeline", "cpu").toString());
  if (settings.contains("geometry")) restoreGeometry(settings.value("geometry").toByteArray());
  restoreState(settings.value("window_state").toByteArray());
}

void MainWindow::SaveSettings() const {
  if (!use_settings_) return;
  QSettings settings;
  settings.setValue("recent_files", recent_);
  settings.setValue("pipeline", pipeline_target());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (use_settings_) {
    QSettings settings;
    settings.setValue("geometry", saveGeometry());
    settings.setValue("window_state", saveState());
    SaveSettings();
  }
  loader_->Cancel();
  run_panel_->Cancel();
  what_if_panel_->Cancel();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (!url.isLocalFile()) continue;
    OpenPath(url.toLocalFile());
    event->acceptProposedAction();
    return;
  }
}

void MainWindow::ShowShortcuts() {
  QMessageBox::information(
      this, tr("Keyboard Shortcuts"),
      tr("<table>"
         "<tr><td><b>F10</b></td><td>next pass</td></tr>"
         "<tr><td><b>Shift+F10</b></td><td>previous pass</td></tr>"
         "<tr><td><b>F11</b></td><td>next pass that changed the module</td></tr>"
         "<tr><td><b>Shift+F11</b></td><td>previous changed pass</td></tr>"
         "<tr><td><b>Ctrl+Home / Ctrl+End</b></td><td>first / last pass</td></tr>"
         "<tr><td><b>Ctrl+Shift+S</b></td><td>the stage strip: several passes side by "
         "side</td></tr>"
         "<tr><td><b>Ctrl+F, F3, Shift+F3</b></td><td>find an instruction, next, previous</td></tr>"
         "<tr><td><b>Ctrl+R</b></td><td>run the pipeline again</td></tr>"
         "<tr><td><b>Ctrl+Shift+R</b></td><td>what if: compile with other options and "
         "compare</td></tr>"
         "<tr><td><b>F5</b></td><td>run the current pass against the original module</td></tr>"
         "<tr><td><b>Shift+F5</b></td><td>bisect the numbers over every pass</td></tr>"
         "<tr><td><b>Esc</b></td><td>cancel a compile</td></tr>"
         "<tr><td><b>Wheel, drag</b></td><td>zoom and pan a graph; double-click a box to open "
         "it</td></tr>"
         "</table>"));
}

void MainWindow::ShowAbout() {
  QMessageBox::about(this, tr("About Fusescope"),
                     tr("<h3>Fusescope</h3><p>A workbench for ML graph compilers: step through "
                        "every pass, see the graph before and after side by side, and why each "
                        "fusion happened or was refused.</p>"));
}

}  // namespace fusescope::views
