#include "views/qt/compare/compare_panel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <set>

#include "compare/comparison_report.h"
#include "compare/comparison_store.h"
#include "views/qt/compare/comparison_row_model.h"
#include "views/qt/pass_view.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

// Bars this many times apart or more are drawn on a log axis.
constexpr double kLogAxisSpread = 20;

QString Text(const std::string& text) { return QString::fromStdString(text); }

std::vector<std::string> VariantsInOrder(const compare::Comparison& comparison) {
  std::vector<std::string> variants;
  for (const compare::ComparisonRow& row : comparison.rows)
    if (std::find(variants.begin(), variants.end(), row.variant) == variants.end())
      variants.push_back(row.variant);
  return variants;
}

const compare::ComparisonRow* RowAt(const compare::Comparison& comparison,
                                    const std::string& variant, const std::string& shape) {
  for (const compare::ComparisonRow& row : comparison.rows)
    if (row.variant == variant && row.shape == shape) return &row;
  return nullptr;
}

}  // namespace

ComparePanel::ComparePanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      comparison_box_(new QComboBox(this)),
      chart_box_(new QComboBox(this)),
      shape_box_(new QComboBox(this)),
      chart_(new QChart()),
      chart_view_(new QChartView(chart_, this)),
      model_(new ComparisonRowModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      compilers_(new QTextBrowser(this)),
      followed_(new QLabel(this)),
      placeholder_(new QLabel(this)),
      stack_(new QStackedWidget(this)) {
  setupHeader();
  setupBody();
  context_->AddObserver(this, this);
}

void ComparePanel::setupHeader() {
  chart_box_->addItem(tr("Latency p50 / p95 / p99"), static_cast<int>(ChartKind::kLatency));
  chart_box_->addItem(tr("Throughput against batch"), static_cast<int>(ChartKind::kThroughput));
  chart_box_->addItem(tr("Build time"), static_cast<int>(ChartKind::kBuild));
  chart_box_->addItem(tr("Peak memory (build, run)"), static_cast<int>(ChartKind::kMemory));
  chart_box_->setToolTip(tr("What the chart shows"));
  shape_box_->setToolTip(tr("The shape the latency, build and memory charts show"));
  comparison_box_->setToolTip(tr("Comparisons stored in this recording, newest last"));
  connect(comparison_box_, &QComboBox::currentIndexChanged, this, &ComparePanel::ShowComparison);
  connect(chart_box_, &QComboBox::currentIndexChanged, this, &ComparePanel::RedrawChart);
  connect(shape_box_, &QComboBox::currentIndexChanged, this, &ComparePanel::RedrawChart);
}

void ComparePanel::setupBody() {
  chart_->setMargins(QMargins(0, 0, 0, 0));
  chart_->layout()->setContentsMargins(0, 0, 0, 0);
  chart_->setBackgroundRoundness(0);
  chart_view_->setRenderHint(QPainter::Antialiasing);
  chart_view_->setMinimumHeight(180);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::UserRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  connect(table_, &QTableView::activated, this, &ComparePanel::Activate);
  compilers_->setOpenLinks(false);
  followed_->setWordWrap(true);
  followed_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  followed_->setText(tr("Select a node to see its op in each compiler's kernels."));
  placeholder_->setWordWrap(true);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setText(
      tr("No comparison in this recording. Make one with\n"
         "fusescope compare MODEL --batch 1,8,32 -o CMP.fsdb"));

  auto* bar = new QHBoxLayout();
  bar->setContentsMargins(4, 2, 4, 2);
  bar->addWidget(comparison_box_, 2);
  bar->addWidget(chart_box_, 1);
  bar->addWidget(shape_box_, 1);
  auto* lower = new QSplitter(Qt::Horizontal, this);
  lower->addWidget(table_);
  auto* side = new QWidget(this);
  auto* side_layout = new QVBoxLayout(side);
  side_layout->setContentsMargins(0, 0, 0, 0);
  side_layout->addWidget(compilers_, 1);
  // A node holding many ops lists a kernel per compiler for each: scrolled, so that the dock
  // keeps its size.
  auto* followed_scroll = new QScrollArea(side);
  followed_scroll->setWidget(followed_);
  followed_scroll->setWidgetResizable(true);
  followed_scroll->setFrameShape(QFrame::NoFrame);
  side_layout->addWidget(followed_scroll, 1);
  lower->addWidget(side);
  lower->setStretchFactor(0, 3);
  lower->setStretchFactor(1, 2);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(chart_view_);
  split->addWidget(lower);
  auto* page = new QWidget(this);
  auto* page_layout = new QVBoxLayout(page);
  page_layout->setContentsMargins(0, 0, 0, 0);
  page_layout->addLayout(bar);
  page_layout->addWidget(split, 1);
  stack_->addWidget(placeholder_);
  stack_->addWidget(page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
}

void ComparePanel::OnRecordingLoaded(const WorkbenchContext& context) {
  comparisons_.clear();
  shown_ = -1;
  {
    QSignalBlocker blocker(comparison_box_);
    comparison_box_->clear();
  }
  model_->setData({});
  const bool had = stack_->currentIndex() == 1;
  if (context.recording() && !context.file_path().isEmpty()) {
    auto stored = compare::LoadComparisons(context.file_path().toStdString());
    if (!stored.ok()) {
      placeholder_->setText(
          tr("The stored comparisons cannot be read: %1").arg(Text(stored.message())));
    } else {
      for (compare::StoredComparison& entry : *stored) {
        const QString label = tr("#%1 %2, %3 compilers, %4")
                                  .arg(entry.id)
                                  .arg(Text(entry.comparison.model))
                                  .arg(entry.comparison.peers.size())
                                  .arg(Text(entry.created_at));
        comparisons_.push_back(
            {std::move(entry.comparison), std::move(entry.peer_recordings), label});
      }
    }
  }
  stack_->setCurrentIndex(comparisons_.empty() ? 0 : 1);
  if (!comparisons_.empty()) {
    QSignalBlocker blocker(comparison_box_);
    for (const Stored& stored : comparisons_) comparison_box_->addItem(stored.label);
    comparison_box_->setCurrentIndex(static_cast<int>(comparisons_.size()) - 1);
  }
  ShowComparison(static_cast<int>(comparisons_.size()) - 1);
  if (had != available()) emit availabilityChanged(available());
}

const compare::Comparison* ComparePanel::current() const {
  return shown_ >= 0 && shown_ < static_cast<int>(comparisons_.size())
             ? &comparisons_[static_cast<size_t>(shown_)].comparison
             : nullptr;
}

QString ComparePanel::PeerRecording(const QString& compiler) const {
  if (shown_ < 0) return {};
  const auto& recordings = comparisons_[static_cast<size_t>(shown_)].peer_recordings;
  auto it = recordings.find(compiler.toStdString());
  return it == recordings.end() ? QString() : Text(it->second);
}

void ComparePanel::ShowComparison(int index) {
  shown_ = index;
  const compare::Comparison* comparison = current();
  {
    QSignalBlocker blocker(shape_box_);
    shape_box_->clear();
    if (comparison)
      for (const compare::ShapeChoice& shape : comparison->shapes)
        shape_box_->addItem(Text(shape.name));
  }
  model_->setData(comparison ? comparison->rows : std::vector<compare::ComparisonRow>{});
  table_->resizeColumnsToContents();
  ShowCompilers();
  RedrawChart();
  if (comparison) FollowSelection(*context_);
}

void ComparePanel::ShowCompilers() {
  const compare::Comparison* comparison = current();
  if (!comparison) {
    compilers_->clear();
    return;
  }
  QString html = tr("<p><b>%1</b> (%2); %3 timed calls after %4 warm-up per shape.<br>%5</p>")
                     .arg(Text(comparison->model).toHtmlEscaped(), Text(comparison->model_format))
                     .arg(comparison->reps)
                     .arg(comparison->warmup)
                     .arg(Text(comparison->reference_note).toHtmlEscaped());
  for (const compare::PeerOutcome& peer : comparison->peers) {
    const bool ok = peer.status == "ok";
    html += QStringLiteral("<p><b>%1</b>: <span style='color:%2'>%3</span>")
                .arg(Text(peer.compiler),
                     ok ? QStringLiteral("#207020") : QStringLiteral("#b02020"), Text(peer.status));
    if (!peer.message.empty()) html += QStringLiteral(" — ") + Text(peer.message).toHtmlEscaped();
    if (!peer.input_received.empty())
      html += QStringLiteral("<br><i>%1</i>").arg(Text(peer.input_received).toHtmlEscaped());
    if (ok)
      html += QStringLiteral("<br>") +
              (peer.dynamic_shapes ? tr("one build served every shape") : tr("a build per shape"));
    for (const auto& op : peer.unsupported_ops)
      html += QStringLiteral("<br>") +
              tr("cannot compile %1: %2")
                  .arg(Text(op.op).toHtmlEscaped(), Text(op.error).toHtmlEscaped());
    if (!PeerRecording(Text(peer.compiler)).isEmpty())
      html += QStringLiteral("<br>") + tr("its passes: %1 (activate a row to open)")
                                           .arg(PeerRecording(Text(peer.compiler)).toHtmlEscaped());
    html += QStringLiteral("</p>");
  }
  compilers_->setHtml(html);
}

void ComparePanel::RedrawChart() {
  chart_->removeAllSeries();
  for (QAbstractAxis* axis : chart_->axes()) {
    chart_->removeAxis(axis);
    delete axis;
  }
  const compare::Comparison* comparison = current();
  if (!comparison) return;
  const auto kind = static_cast<ChartKind>(chart_box_->currentData().toInt());
  shape_box_->setEnabled(kind != ChartKind::kThroughput);
  const QString shape = shape_box_->currentText();
  const auto variants = VariantsInOrder(*comparison);
  auto per_variant = [&](auto figure) {
    std::vector<double> values;
    for (const std::string& variant : variants) {
      const compare::ComparisonRow* row = RowAt(*comparison, variant, shape.toStdString());
      values.push_back(row ? figure(*row) : 0.0);
    }
    return values;
  };
  switch (kind) {
    case ChartKind::kLatency:
      DrawLatency(shape);
      break;
    case ChartKind::kThroughput:
      DrawThroughput();
      break;
    case ChartKind::kBuild:
      DrawBars(tr("Build time at %1").arg(shape), tr("seconds"),
               {{tr("build"), per_variant([](const compare::ComparisonRow& row) {
                   return std::max(row.build_s, 0.0);
                 })},
                {tr("tuning"),
                 per_variant([](const compare::ComparisonRow& row) { return row.tuning_s; })}});
      break;
    case ChartKind::kMemory:
      DrawBars(tr("Peak resident memory at %1").arg(shape), tr("MiB"),
               {{tr("build"), per_variant([](const compare::ComparisonRow& row) {
                   return std::max<double>(row.build_peak_rss_bytes, 0) / (1 << 20);
                 })},
                {tr("run"), per_variant([](const compare::ComparisonRow& row) {
                   return std::max<double>(row.run_peak_rss_bytes, 0) / (1 << 20);
                 })}});
      break;
  }
}

void ComparePanel::DrawLatency(const QString& shape) {
  const compare::Comparison& comparison = *current();
  const auto variants = VariantsInOrder(comparison);
  std::vector<double> p50, p95, p99;
  for (const std::string& variant : variants) {
    const compare::ComparisonRow* row = RowAt(comparison, variant, shape.toStdString());
    const bool ran = row && row->error.empty();
    p50.push_back(ran ? row->latency_us.median : 0);
    p95.push_back(ran ? row->latency_us.p95 : 0);
    p99.push_back(ran ? row->latency_us.p99 : 0);
  }
  DrawBars(
      tr("Latency at %1 (a missing bar: it did not run)").arg(shape), tr("µs"),
      {{QStringLiteral("p50"), p50}, {QStringLiteral("p95"), p95}, {QStringLiteral("p99"), p99}});
}

void ComparePanel::DrawBars(const QString& title, const QString& unit,
                            const std::vector<std::pair<QString, std::vector<double>>>& sets) {
  const auto variants = VariantsInOrder(*current());
  auto* series = new QBarSeries();
  double top = 0;
  double least = 0;  // the smallest positive value
  for (const auto& [name, values] : sets) {
    auto* set = new QBarSet(name);
    for (double value : values) {
      *set << value;
      top = std::max(top, value);
      if (value > 0) least = least > 0 ? std::min(least, value) : value;
    }
    series->append(set);
  }
  chart_->setTitle(title);
  chart_->addSeries(series);
  auto* categories = new QBarCategoryAxis();
  for (const std::string& variant : variants) categories->append(Text(variant));
  chart_->addAxis(categories, Qt::AlignBottom);
  series->attachAxis(categories);
  // Bars 20 times apart or more (an untuned TVM beside the others) on a linear axis leave the
  // small ones invisible: a log axis then, said in its title.
  QAbstractAxis* axis = nullptr;
  if (least > 0 && top / least >= kLogAxisSpread) {
    auto* log = new QLogValueAxis();
    log->setBase(10);
    log->setRange(least / 2, top * 2);
    log->setLabelFormat(QStringLiteral("%g"));
    log->setTitleText(tr("%1 (log scale)").arg(unit));
    axis = log;
  } else {
    auto* linear = new QValueAxis();
    linear->setTitleText(unit);
    linear->setRange(0, top > 0 ? top * 1.1 : 1);
    axis = linear;
  }
  chart_->addAxis(axis, Qt::AlignLeft);
  series->attachAxis(axis);
  chart_->legend()->setVisible(sets.size() > 1);
}

// Items per second against batch size, one line per compiler variant; with several sequence
// lengths, one line per variant and length.
void ComparePanel::DrawThroughput() {
  const compare::Comparison& comparison = *current();
  std::map<std::string, QLineSeries*> lines;
  double top = 0;
  int64_t largest_batch = 1;
  for (const compare::ComparisonRow& row : comparison.rows) {
    if (!row.error.empty()) continue;
    std::string key = row.variant;
    for (const compare::ShapeChoice& shape : comparison.shapes) {
      if (shape.name != row.shape) continue;
      for (const auto& [dim, size] : shape.dims)
        if (shape.batch != size || dim.find("batch") == std::string::npos)
          key += " " + dim + "=" + std::to_string(size);
    }
    QLineSeries*& line = lines[key];
    if (!line) {
      line = new QLineSeries();
      line->setName(Text(key));
      line->setPointsVisible(true);
    }
    line->append(static_cast<double>(row.batch), row.throughput_per_s);
    top = std::max(top, row.throughput_per_s);
    largest_batch = std::max(largest_batch, row.batch);
  }
  chart_->setTitle(tr("Throughput against batch size (items per second at the median latency)"));
  auto* batch = new QValueAxis();
  batch->setTitleText(tr("batch"));
  batch->setRange(0, static_cast<double>(largest_batch) * 1.05);
  batch->setLabelFormat(QStringLiteral("%d"));
  auto* rate = new QValueAxis();
  rate->setTitleText(tr("items/s"));
  rate->setRange(0, top > 0 ? top * 1.1 : 1);
  chart_->addAxis(batch, Qt::AlignBottom);
  chart_->addAxis(rate, Qt::AlignLeft);
  for (auto& [key, line] : lines) {
    QList<QPointF> points = line->points();
    std::sort(points.begin(), points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    line->replace(points);
    chart_->addSeries(line);
    line->attachAxis(batch);
    line->attachAxis(rate);
  }
  chart_->legend()->setVisible(true);
}

void ComparePanel::OnSelectionChanged(const WorkbenchContext& context) { FollowSelection(context); }

void ComparePanel::FollowSelection(const WorkbenchContext& context) {
  const compare::Comparison* comparison = current();
  const PassView* view = context.pass_view();
  const Selection& selection = context.selection();
  if (!comparison || !view || selection.instruction_id < 0) return;
  const ir::Instruction* instruction = view->Find(selection.side, selection.instruction_id);
  if (!instruction) return;
  const std::vector<std::string> ops = compare::ModelOpsOf(*instruction);
  if (ops.empty()) {
    followed_->setText(
        tr("%1 carries no op of the model (no op_name metadata).").arg(Text(instruction->name())));
    return;
  }
  const auto followed = compare::FollowOps(*comparison);
  QString text;
  for (const std::string& op : ops) {
    auto it = std::find_if(followed.begin(), followed.end(),
                           [&](const compare::OpInKernels& entry) { return entry.op == op; });
    text += QStringLiteral("<b>%1</b>").arg(Text(op).toHtmlEscaped());
    if (it == followed.end() || it->placements.empty()) {
      text += tr(": in no compiler's reported kernels<br>");
      continue;
    }
    text += QStringLiteral("<br>");
    for (const auto& placement : it->placements) {
      text += QStringLiteral("&nbsp;&nbsp;%1: %2")
                  .arg(Text(placement.compiler), Text(placement.kernel).toHtmlEscaped());
      if (placement.time_us >= 0) text += tr(" (%1 µs)").arg(placement.time_us, 0, 'f', 1);
      text += QStringLiteral("<br>");
    }
  }
  followed_->setText(text);
}

void ComparePanel::Activate(const QModelIndex& proxy_index) {
  const QModelIndex source = proxy_->mapToSource(proxy_index);
  if (!source.isValid()) return;
  const QString path = PeerRecording(Text(model_->row(source.row()).compiler));
  if (!path.isEmpty()) emit openRecordingRequested(path);
}

}  // namespace fusescope::views
