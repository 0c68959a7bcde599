#include "views/qt/what_if/what_if_panel.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "recording/recording_store.h"
#include "views/qt/graph/diff_colors.h"
#include "views/qt/what_if/what_if_fusion_model.h"
#include "views/qt/workbench_context.h"
#include "views/qt/workers/worker_failure.h"
#include "views/qt/workers/worker_pool.h"

namespace fusescope::views {
namespace {

QString Q(const std::string& text) { return QString::fromStdString(text); }

QTableWidgetItem* Item(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}

// "* 46 ops · 14 fusions" (* when the pass changed the module); "skipped"; "-" past the end.
QString PassCell(const std::string& name, bool skipped, bool changed, int64_t operations,
                 int64_t fusions) {
  if (name.empty()) return QStringLiteral("-");
  if (skipped) return QObject::tr("skipped");
  return QObject::tr("%1%2 ops · %3 fusions")
      .arg(changed ? QStringLiteral("* ") : QString())
      .arg(operations)
      .arg(fusions);
}

// Rows as tall as a line of text: the dock is short and the lists are long.
void MakeRowsCompact(QTableView* table) {
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
}

void SetUpTable(QTableWidget* table, const QStringList& headers) {
  MakeRowsCompact(table);
  table->setColumnCount(static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setWordWrap(false);
  table->horizontalHeader()->setStretchLastSection(true);
}

}  // namespace

WhatIfPanel::WhatIfPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      experiment_(new WhatIfExperiment(this)),
      model_(new WhatIfFusionModel(this)),
      title_(new QLabel(this)),
      summary_(new QLabel(this)),
      placeholder_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      open_b_(new QPushButton(tr("Open B"), this)),
      save_b_(new QPushButton(tr("Save B…"), this)),
      options_(new QTableWidget(this)),
      passes_(new QTableWidget(this)),
      fusions_(new QTableView(this)),
      details_(new QTextBrowser(this)),
      stack_(new QStackedWidget(this)) {
  setupHeader();
  setupTables();
  setupLayout();
  setupExperiment();
}

void WhatIfPanel::setupHeader() {
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  progress_->setMaximumWidth(220);
  progress_->setTextVisible(true);
  progress_->hide();
  cancel_->hide();
  open_b_->setToolTip(tr("Open B as the main recording (A stays in this panel)"));
  save_b_->setToolTip(tr("Save B as a .fsdb recording"));
  open_b_->setEnabled(false);
  save_b_->setEnabled(false);
  connect(cancel_, &QPushButton::clicked, this, &WhatIfPanel::Cancel);
  connect(open_b_, &QPushButton::clicked, this, [this] {
    if (result_) emit openRecordingRequested(result_->b, tr("B: %1").arg(result_->b_title));
  });
  connect(save_b_, &QPushButton::clicked, this, &WhatIfPanel::ShowSaveDialog);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setText(
      tr("Compile ▸ What If… compiles the open model again with other options — a pass "
         "disabled, a smaller fusion budget, another GPU — and shows here how the two "
         "compiles differ, pass by pass and fusion by fusion, with the decisions that made "
         "them differ."));
}

void WhatIfPanel::setupTables() {
  SetUpTable(options_, {tr("Option"), tr("A"), tr("B")});
  SetUpTable(passes_, {tr("#"), tr("Pass"), tr("A"), tr("B")});
  passes_->setToolTip(tr("* the pass changed the module; highlighted: A and B differ after it"));
  fusions_->setModel(model_);
  MakeRowsCompact(fusions_);
  fusions_->setSelectionBehavior(QAbstractItemView::SelectRows);
  fusions_->setSelectionMode(QAbstractItemView::SingleSelection);
  fusions_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  fusions_->setWordWrap(false);
  fusions_->verticalHeader()->hide();
  fusions_->setTextElideMode(Qt::ElideRight);
  fusions_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  fusions_->horizontalHeader()->setSectionResizeMode(WhatIfFusionModel::kWhy, QHeaderView::Stretch);
  connect(fusions_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            ShowDetails(current);
            Activate(current);
          });
  connect(fusions_, &QTableView::clicked, this, &WhatIfPanel::Activate);
  details_->setOpenLinks(false);
}

void WhatIfPanel::setupLayout() {
  auto* header = new QHBoxLayout;
  header->addWidget(title_, 1);
  header->addWidget(progress_);
  header->addWidget(cancel_);
  header->addWidget(open_b_);
  header->addWidget(save_b_);

  auto* left = new QSplitter(Qt::Vertical, this);
  left->addWidget(options_);
  left->addWidget(passes_);
  left->setStretchFactor(0, 1);
  left->setStretchFactor(1, 3);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(fusions_);
  right->addWidget(details_);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  auto* columns = new QSplitter(Qt::Horizontal, this);
  columns->addWidget(left);
  columns->addWidget(right);
  columns->setStretchFactor(0, 2);
  columns->setStretchFactor(1, 5);

  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->addWidget(summary_);
  content_layout->addWidget(columns, 1);
  stack_->addWidget(placeholder_);
  stack_->addWidget(content);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(header);
  layout->addWidget(stack_, 1);
}

void WhatIfPanel::setupExperiment() {
  connect(experiment_, &WhatIfExperiment::started, this, [this](const QString& what) {
    SetBusy(true);
    title_->setText(what);
    emit started(what);
  });
  connect(experiment_, &WhatIfExperiment::progress, this,
          [this](int done, int total, const QString& pass) {
            progress_->setRange(0, total);
            progress_->setValue(done);
            progress_->setFormat(QStringLiteral("%v/%m %1").arg(pass));
          });
  connect(experiment_, &WhatIfExperiment::finished, this, &WhatIfPanel::Show);
  const auto fail = [this](const QString& message) {
    SetBusy(false);
    summary_->setText(message);
    emit failed(message);
  };
  connect(experiment_, &WhatIfExperiment::failed, this, fail);
  connect(experiment_, &WhatIfExperiment::workerFailed, this,
          [fail](std::shared_ptr<const WorkerFailure> failure) { fail(failure->Message()); });
  connect(experiment_, &WhatIfExperiment::canceled, this, [fail] { fail(tr("Canceled")); });
}

void WhatIfPanel::Run(const passes::PipelineOptions& b_options) {
  std::shared_ptr<const recording::Recording> a = context_->shared_recording();
  if (!a || a->input_text.empty()) {
    const QString message =
        tr("A what-if needs an open recording of our pipeline with its input "
           "module");
    summary_->setText(message);
    emit failed(message);
    return;
  }
  experiment_->Start(std::move(a), context_->title(), b_options);
}

void WhatIfPanel::Cancel() { experiment_->Cancel(); }

void WhatIfPanel::SetBusy(bool busy) {
  progress_->setVisible(busy);
  progress_->setRange(0, 0);
  cancel_->setVisible(busy);
  if (busy) {
    summary_->setText(tr("Compiling B in a worker process…"));
    stack_->setCurrentIndex(1);
  }
}

void WhatIfPanel::Show(std::shared_ptr<const WhatIfResult> result) {
  SetBusy(false);
  result_ = std::move(result);
  const WhatIfResult& r = *result_;
  const recording::RecordingComparison& c = r.comparison;
  title_->setText(tr("A: <b>%1</b> (%2) &nbsp;·&nbsp; B: <b>%3</b>")
                      .arg(r.a_title.toHtmlEscaped(), Q(r.a->options.target).toHtmlEscaped(),
                           r.b_title.toHtmlEscaped()));
  int differing_passes = 0;
  for (const recording::PassComparison& pass : c.passes) {
    differing_passes += pass.skipped_a != pass.skipped_b || pass.changed_a != pass.changed_b ||
                        pass.operations_a != pass.operations_b || pass.fusions_a != pass.fusions_b;
  }
  int differing = 0;
  for (const recording::FusionMatch& match : c.different) differing += !match.from_b;
  summary_->setText(tr("Final fusions: %1 of A's differ in B, %2 only in A, %3 only in B, %4 the "
                       "same. A and B differ after %5 of %6 passes. %7 of %8 producer→consumer "
                       "edges fused by A only, %9 by B only.")
                        .arg(differing)
                        .arg(c.only_a.size())
                        .arg(c.only_b.size())
                        .arg(c.same.size())
                        .arg(differing_passes)
                        .arg(c.passes.size())
                        .arg(c.edges_only_a.size())
                        .arg(c.edges)
                        .arg(c.edges_only_b.size()));
  ShowOptions(r);
  ShowPasses(r);
  model_->setData(c);
  ShowDetails(model_->index(0, 0));
  open_b_->setEnabled(true);
  save_b_->setEnabled(true);
  stack_->setCurrentIndex(1);
  emit whatIfReady(r.b);
}

void WhatIfPanel::ShowOptions(const WhatIfResult& result) {
  const recording::RecordingComparison& c = result.comparison;
  options_->setRowCount(0);
  options_->setRowCount(std::max<int>(1, static_cast<int>(c.options_a.size())));
  if (c.options_a.empty()) options_->setItem(0, 0, Item(tr("(same options)")));
  for (size_t i = 0; i < c.options_a.size(); ++i) {
    const int row = static_cast<int>(i);
    options_->setItem(row, 0, Item(Q(c.options_a[i].first)));
    options_->setItem(row, 1, Item(Q(c.options_a[i].second)));
    options_->setItem(row, 2, Item(Q(c.options_b[i].second)));
  }
  options_->resizeColumnsToContents();
  // No taller than its rows: the pass table below gets the rest.
  options_->setMaximumHeight(options_->horizontalHeader()->sizeHint().height() +
                             options_->rowCount() *
                                 options_->verticalHeader()->defaultSectionSize() +
                             2 * options_->frameWidth() + 2);
}

void WhatIfPanel::ShowPasses(const WhatIfResult& result) {
  const auto& passes = result.comparison.passes;
  passes_->setRowCount(static_cast<int>(passes.size()));
  int first_differing = -1;
  for (size_t i = 0; i < passes.size(); ++i) {
    const recording::PassComparison& pass = passes[i];
    const int row = static_cast<int>(i);
    const QString name =
        pass.name_a == pass.name_b || pass.name_b.empty()
            ? Q(pass.name_a)
            : (pass.name_a.empty() ? Q(pass.name_b) : Q(pass.name_a + " / " + pass.name_b));
    const bool differs = pass.skipped_a != pass.skipped_b || pass.changed_a != pass.changed_b ||
                         pass.operations_a != pass.operations_b || pass.fusions_a != pass.fusions_b;
    passes_->setItem(row, 0, Item(QString::number(pass.index)));
    passes_->setItem(row, 1, Item(name));
    passes_->setItem(row, 2,
                     Item(PassCell(pass.name_a, pass.skipped_a, pass.changed_a, pass.operations_a,
                                   pass.fusions_a)));
    passes_->setItem(row, 3,
                     Item(PassCell(pass.name_b, pass.skipped_b, pass.changed_b, pass.operations_b,
                                   pass.fusions_b)));
    if (!differs) continue;
    if (first_differing < 0) first_differing = row;
    for (int column = 0; column < passes_->columnCount(); ++column) {
      passes_->item(row, column)->setBackground(DiffColors::Tint(ir::DiffStatus::kChanged));
    }
  }
  passes_->resizeColumnsToContents();
  if (first_differing >= 0) {
    passes_->scrollToItem(passes_->item(first_differing, 0), QAbstractItemView::PositionAtCenter);
  }
}

void WhatIfPanel::ShowDetails(const QModelIndex& index) {
  if (!index.isValid() || index.row() >= static_cast<int>(model_->rows().size())) {
    details_->setHtml(model_->rows().empty() ? tr("No final fusion differs.") : QString());
    return;
  }
  details_->setHtml(
      WhatIfFusionModel::DescribeRow(model_->rows()[static_cast<size_t>(index.row())]));
}

// Selects the row's fusion on the graph of the open recording, A or B, on the last pass
// when the current one does not have it yet.
void WhatIfPanel::Activate(const QModelIndex& index) {
  if (!result_ || !index.isValid() || index.row() >= static_cast<int>(model_->rows().size()))
    return;
  const recording::Recording* open = context_->recording();
  const bool a_open = open == result_->a.get();
  if (!a_open && open != result_->b.get()) return;
  const recording::FusionMatch& match = model_->rows()[static_cast<size_t>(index.row())].match;
  int64_t id = a_open ? match.fusion_a_id : match.fusion_b_id;
  const recording::Snapshot& last = open->snapshots.back();
  if (id < 0) {
    // A fusion of the other recording only: its members, unfused here.
    for (int64_t member : match.member_ids) {
      if (last.FindInstruction(member) != nullptr) {
        id = member;
        break;
      }
    }
  }
  if (id < 0) return;
  const recording::Snapshot* shown = open->SnapshotAfter(context_->requested_pass());
  if (shown == nullptr || shown->FindInstruction(id) == nullptr) {
    context_->SetPass(static_cast<int64_t>(open->passes.size()) - 1);
  }
  context_->SetSelection(Selection{id, GraphSide::kAfter, -1});
}

void WhatIfPanel::ShowSaveDialog() {
  if (!result_) return;
  QSettings settings;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save B"), settings.value("last_dir").toString() + "/what_if_b.fsdb",
      tr("Recordings (*.fsdb)"));
  if (path.isEmpty()) return;
  settings.setValue("last_dir", QFileInfo(path).absolutePath());
  SaveB(path);
}

void WhatIfPanel::SaveB(const QString& path) {
  if (!result_) {
    emit savedB(path, tr("no what-if has been compiled yet"));
    return;
  }
  auto* watcher = new QFutureWatcher<Status>(this);
  connect(watcher, &QFutureWatcher<Status>::finished, this, [this, watcher, path] {
    const Status status = watcher->result();
    watcher->deleteLater();
    emit savedB(path, status.ok() ? QString() : QString::fromStdString(status.message()));
  });
  watcher->setFuture(QtConcurrent::run(WorkerPool::Instance(), [b = result_->b, path] {
    return recording::SaveRecording(*b, path.toStdString());
  }));
}

}  // namespace fusescope::views
