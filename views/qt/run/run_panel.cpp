#include "views/qt/run/run_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "views/qt/graph/diff_colors.h"
#include "views/qt/icons.h"
#include "views/qt/row_table.h"
#include "views/qt/run/bisect_model.h"
#include "views/qt/run/run_controller.h"
#include "views/qt/run/run_output_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

QString Seconds(double seconds) { return QString::number(seconds, 'f', 3); }

QString Plural(int64_t count, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

}  // namespace

RunPanel::RunPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      controller_(new RunController(this)),
      outputs_model_(new RunOutputModel(this)),
      bisect_model_(new BisectModel(this)),
      run_action_(new QAction(Icons::Get("run"), tr("Run &Snapshot"), this)),
      bisect_action_(new QAction(Icons::Get("find-next"), tr("&Bisect Numbers"), this)),
      profile_action_(new QAction(Icons::Get("timeline"), tr("&Profile…"), this)),
      cancel_action_(new QAction(Icons::Get("stop"), tr("&Cancel Run"), this)),
      device_box_(new QComboBox(this)),
      summary_(new QLabel(this)),
      error_(new QLabel(this)),
      progress_label_(new QLabel(this)),
      progress_bar_(new QProgressBar(this)),
      cancel_button_(new QToolButton(this)),
      progress_row_(new QWidget(this)),
      command_line_(new QLineEdit(this)),
      copy_button_(new QToolButton(this)),
      table_(new QTableView(this)) {
  setupActions();
  setupTable();
  setupLayout();
  setupController();
  context_->AddObserver(this, this);
}

RunPanel::~RunPanel() = default;

void RunPanel::setupActions() {
  run_action_->setShortcut(QKeySequence(Qt::Key_F5));
  run_action_->setToolTip(
      tr("Run the current pass's module and the original on the same inputs in the reference "
         "interpreter, and compare their outputs (F5)"));
  bisect_action_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  bisect_action_->setToolTip(
      tr("Run the module after every pass and find the first pass that changes the numbers "
         "(Shift+F5)"));
  profile_action_->setToolTip(
      tr("Run the current pass's module repeatedly and save the profile into the recording"));
  cancel_action_->setToolTip(tr("Stop the running worker; the recording stays as it was"));
  for (QAction* action : {run_action_, bisect_action_, profile_action_, cancel_action_}) {
    action->setEnabled(false);
  }
  connect(run_action_, &QAction::triggered, this, &RunPanel::StartRun);
  connect(bisect_action_, &QAction::triggered, this, &RunPanel::StartBisect);
  connect(profile_action_, &QAction::triggered, this, &RunPanel::ShowProfileDialog);
  connect(cancel_action_, &QAction::triggered, this, &RunPanel::Cancel);
  device_box_->addItems(RunRequest::Devices());
  device_box_->setToolTip(tr("Where runs, bisects and profiles execute the module"));
  device_box_->setEnabled(device_box_->count() > 1);
}

void RunPanel::setupTable() {
  table_->setModel(outputs_model_);
  SetUpRowTable(table_);
  connect(table_, &QTableView::clicked, this, &RunPanel::GoToPass);
  connect(table_, &QTableView::activated, this, &RunPanel::GoToPass);
}

void RunPanel::setupLayout() {
  auto* header = new QHBoxLayout();
  header->setContentsMargins(4, 4, 4, 0);
  header->addWidget(new QLabel(tr("Device:"), this));
  header->addWidget(device_box_);
  for (QAction* action : {run_action_, bisect_action_, profile_action_}) {
    auto* button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    header->addWidget(button);
  }
  header->addWidget(summary_, 1);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* progress = new QHBoxLayout(progress_row_);
  progress->setContentsMargins(4, 0, 4, 0);
  progress->addWidget(progress_label_, 1);
  progress->addWidget(progress_bar_, 1);
  progress->addWidget(cancel_button_);
  cancel_button_->setDefaultAction(cancel_action_);
  cancel_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  progress_bar_->setTextVisible(true);
  progress_row_->hide();

  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setContentsMargins(6, 2, 6, 2);
  error_->setStyleSheet(QStringLiteral("color: %1;").arg(DiffColors::Refused().name()));
  error_->hide();

  auto* command = new QHBoxLayout();
  command->setContentsMargins(4, 0, 4, 0);
  command->addWidget(new QLabel(tr("Command:"), this));
  command->addWidget(command_line_, 1);
  command->addWidget(copy_button_);
  command_line_->setReadOnly(true);
  command_line_->setPlaceholderText(tr("the command line of the last run, to rerun it headless"));
  copy_button_->setObjectName(QStringLiteral("copy_command"));
  copy_button_->setText(tr("Copy"));
  copy_button_->setToolTip(tr("Copy the command line"));
  copy_button_->setEnabled(false);
  connect(copy_button_, &QToolButton::clicked, this,
          [this] { QApplication::clipboard()->setText(command_line_->text()); });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addLayout(header);
  layout->addWidget(progress_row_);
  layout->addWidget(error_);
  layout->addLayout(command);
  layout->addWidget(table_, 1);
  summary_->setText(
      tr("Run the current pass against the original module, bisect the numbers "
         "over every pass, or profile the current pass."));
}

void RunPanel::setupController() {
  connect(controller_, &RunController::started, this,
          [this](const RunRequest&, const QString& command_line) {
            command_line_->setText(command_line);
            command_line_->setCursorPosition(0);
            command_line_->setToolTip(tr("The command the running worker was given"));
            copy_button_->setEnabled(true);
          });
  connect(controller_, &RunController::progress, this, &RunPanel::ShowProgress);
  connect(controller_, &RunController::finished, this, [this](const RunResult& result) {
    SetBusy(false);
    ShowResult(result);
    emit finished(summary_->text());
    if (result.request.kind == RunRequest::Kind::kProfile)
      emit profileSaved(result.request.recording);
  });
  connect(controller_, &RunController::failed, this, [this](const QString& message) {
    SetBusy(false);
    ShowError(message);
    emit failed(message);
  });
  connect(controller_, &RunController::canceled, this, [this] {
    SetBusy(false);
    progress_label_->clear();
    summary_->setText(tr("Canceled %1; the recording is as it was.").arg(running_.What()));
    emit canceled();
  });
}

void RunPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  // An answer is about the recording it ran on.
  if (busy()) controller_->Cancel();
  ClearResult();
  const bool open = context.recording() != nullptr;
  for (QAction* action : {run_action_, bisect_action_, profile_action_}) action->setEnabled(open);
}

bool RunPanel::busy() const { return controller_->busy(); }

QString RunPanel::device() const { return device_box_->currentText(); }

RunRequest RunPanel::Request(RunRequest::Kind kind) const {
  RunRequest request;
  request.kind = kind;
  request.recording = context_->file_path();
  request.title = context_->title();
  request.device = device();
  if (kind != RunRequest::Kind::kBisect && context_->pass_count() > 0) {
    request.pass = context_->requested_pass();
  }
  return request;
}

void RunPanel::StartRun() {
  if (context_->recording()) Launch(Request(RunRequest::Kind::kRun));
}

void RunPanel::StartBisect() {
  if (context_->recording()) Launch(Request(RunRequest::Kind::kBisect));
}

bool RunPanel::RefuseUnsavedProfile() {
  if (!context_->file_path().isEmpty()) return false;
  const QString message =
      tr("A profile is saved into the recording's file, and %1 is not saved: save it (File ▸ "
         "Save Recording As…) and open the saved file to profile it.")
          .arg(context_->title());
  ShowError(message);
  emit failed(message);
  return true;
}

void RunPanel::StartProfile(int reps, int warmup) {
  if (!context_->recording() || RefuseUnsavedProfile()) return;
  RunRequest request = Request(RunRequest::Kind::kProfile);
  request.reps = reps;
  request.warmup = warmup;
  Launch(request);
}

void RunPanel::ShowProfileDialog() {
  if (!context_->recording() || RefuseUnsavedProfile()) return;
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Profile"));
  auto* reps = new QSpinBox(&dialog);
  reps->setRange(1, 100000);
  reps->setValue(10);
  auto* warmup = new QSpinBox(&dialog);
  warmup->setRange(0, 100000);
  warmup->setValue(2);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* form = new QFormLayout(&dialog);
  form->addRow(tr("Timed runs:"), reps);
  form->addRow(tr("Warm-up runs:"), warmup);
  form->addRow(tr("Device:"), new QLabel(device(), &dialog));
  form->addRow(buttons);
  if (dialog.exec() == QDialog::Accepted) StartProfile(reps->value(), warmup->value());
}

void RunPanel::Launch(const RunRequest& request) {
  running_ = request;
  // The table would otherwise show the last answer under the new job's command line.
  ClearResult();
  SetBusy(true);
  progress_label_->setText(request.What());
  summary_->setText(tr("Started %1…").arg(request.What()));
  emit started(request.What());
  // A recording compiled here lives in no file: the controller saves a copy for the worker.
  controller_->Start(request, request.recording.isEmpty() ? context_->shared_recording() : nullptr);
}

void RunPanel::Cancel() {
  if (!busy()) return;
  progress_label_->setText(tr("Stopping…"));
  controller_->Cancel();
}

void RunPanel::SetBusy(bool busy) {
  progress_row_->setVisible(busy);
  progress_bar_->setRange(0, 0);
  cancel_action_->setEnabled(busy);
}

void RunPanel::ShowProgress(const WorkerStage& stage) {
  const QString text = RunController::Describe(running_, stage);
  progress_label_->setText(text);
  progress_bar_->setRange(0, stage.total);
  progress_bar_->setValue(stage.index);
  progress_bar_->setFormat(QStringLiteral("%v/%m"));
  emit progressed(text);
}

void RunPanel::ClearResult() {
  result_.reset();
  outputs_model_->setData({});
  bisect_model_->setData({});
  table_->setModel(outputs_model_);
  command_line_->clear();
  copy_button_->setEnabled(false);
  error_->hide();
}

void RunPanel::ShowResult(const RunResult& result) {
  result_ = result;
  command_line_->setText(result.command_line);
  command_line_->setCursorPosition(0);
  command_line_->setToolTip(
      result.temporary_copy
          ? tr("The worker read a temporary copy of the unsaved recording; save the recording "
               "and put its file in place of %1 to rerun this.")
                .arg(result.request.recording)
          : tr("The command that produced this result"));
  copy_button_->setEnabled(true);
  switch (result.request.kind) {
    case RunRequest::Kind::kRun:
      ShowRun(result.run);
      break;
    case RunRequest::Kind::kBisect:
      ShowBisect(result.bisect);
      break;
    case RunRequest::Kind::kProfile:
      ShowProfile(result.profile);
      break;
  }
}

void RunPanel::ShowRun(const RunReport& report) {
  outputs_model_->setData(report);
  table_->setModel(outputs_model_);
  table_->resizeColumnsToContents();
  const auto differing = std::count_if(report.outputs.begin(), report.outputs.end(),
                                       [](const RunOutput& output) { return !output.ok; });
  const QString snapshot = report.pass ? tr("Pass %1").arg(*report.pass) : tr("The final snapshot");
  const QString outputs =
      Plural(static_cast<int64_t>(report.outputs.size()), tr("output"), tr("outputs"));
  if (!report.match.has_value()) {
    summary_->setText(tr("%1: %2 in %3 s").arg(snapshot, outputs, Seconds(report.seconds)));
  } else if (report.verdict == QLatin1String("ill-conditioned")) {
    summary_->setText(tr("%1: ill-conditioned on these inputs — rounding alone moves the original "
                         "module's own outputs beyond tolerance from the exact (f64) answer, so "
                         "this run cannot be judged; not a mismatch")
                          .arg(snapshot));
  } else if (*report.match) {
    summary_->setText(
        tr("%1: %2, all within tolerance of the original module%3 (%4 s; original %5 s)")
            .arg(snapshot, outputs,
                 report.verdict == QLatin1String("ok (exact)")
                     ? tr(" or no further from the exact answer than it")
                     : QString(),
                 Seconds(report.seconds), Seconds(report.original_seconds.value_or(0))));
  } else {
    summary_->setText(tr("%1: %2 of %3 outputs DIFFER from the original module")
                          .arg(snapshot)
                          .arg(differing)
                          .arg(report.outputs.size()));
  }
}

void RunPanel::ShowBisect(const BisectReport& report) {
  bisect_model_->setData(report);
  table_->setModel(bisect_model_);
  table_->resizeColumnsToContents();
  if (report.first_bad < 0) {
    summary_->setText(tr("No pass changes the %1 beyond tolerance (rtol %2, atol %3)")
                          .arg(Plural(report.outputs, tr("output"), tr("outputs")))
                          .arg(report.rtol)
                          .arg(report.atol));
    return;
  }
  const BisectPass& bad = report.passes[static_cast<size_t>(report.first_bad)];
  summary_->setText(tr("First pass whose outputs differ: #%1 %2 (max abs err %3, max rel err %4); "
                       "click a row to go to its pass")
                        .arg(bad.index)
                        .arg(bad.name, RunOutputModel::FormatError(bad.max_abs_error),
                             RunOutputModel::FormatError(bad.max_rel_error)));
  // Brought into view, not selected: a selection would paint over its highlight.
  table_->clearSelection();
  table_->scrollTo(bisect_model_->index(report.first_bad, 0), QAbstractItemView::PositionAtCenter);
}

void RunPanel::ShowProfile(const ProfileReport& report) {
  outputs_model_->setData({});
  table_->setModel(outputs_model_);
  summary_->setText(tr("Saved a profile of snapshot %1: %2, latency p50 %3 µs, p95 %4 µs, p99 "
                       "%5 µs (%6 runs/s); the Profile panel shows it.")
                        .arg(report.snapshot)
                        .arg(Plural(report.runs, tr("run"), tr("runs")))
                        .arg(report.p50_us, 0, 'f', 1)
                        .arg(report.p95_us, 0, 'f', 1)
                        .arg(report.p99_us, 0, 'f', 1)
                        .arg(report.runs_per_second, 0, 'f', 1));
}

void RunPanel::ShowError(const QString& message) {
  error_->setText(message);
  error_->show();
  summary_->setText(tr("The last run did not finish; the recording is as it was."));
}

void RunPanel::GoToPass(const QModelIndex& index) {
  if (table_->model() != bisect_model_ || !index.isValid() || !context_->recording()) return;
  const int64_t pass_index = index.data(BisectModel::kPassIndexRole).toLongLong();
  const auto& passes = context_->recording()->passes;
  for (size_t position = 0; position < passes.size(); ++position) {
    if (passes[position].index == pass_index) {
      context_->SetPass(static_cast<int64_t>(position));
      return;
    }
  }
}

}  // namespace fusescope::views
