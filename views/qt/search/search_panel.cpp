#include "views/qt/search/search_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/qt/icons.h"
#include "views/qt/row_table.h"
#include "views/qt/search/search_result_model.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {

SearchPanel::SearchPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      model_(new SearchResultModel(this)),
      query_(new QLineEdit(this)),
      field_(new QComboBox(this)),
      side_(new QComboBox(this)),
      count_(new QLabel(this)),
      table_(new QTableView(this)),
      debounce_(new QTimer(this)) {
  setupInputs();
  setupTable();
  setupLayout();
  context_->AddObserver(this, this);
}

void SearchPanel::setupInputs() {
  query_->setPlaceholderText(tr("Search instructions"));
  query_->setClearButtonEnabled(true);
  query_->addAction(Icons::Get("search"), QLineEdit::LeadingPosition);
  field_->addItem(tr("Any"), static_cast<int>(InstructionSearch::Field::kAny));
  field_->addItem(tr("Name"), static_cast<int>(InstructionSearch::Field::kName));
  field_->addItem(tr("Opcode"), static_cast<int>(InstructionSearch::Field::kOpcode));
  field_->addItem(tr("Shape"), static_cast<int>(InstructionSearch::Field::kShape));
  field_->addItem(tr("Regex"), static_cast<int>(InstructionSearch::Field::kRegex));
  side_->addItem(tr("After"), static_cast<int>(GraphSide::kAfter));
  side_->addItem(tr("Before"), static_cast<int>(GraphSide::kBefore));
  debounce_->setSingleShot(true);
  debounce_->setInterval(200);
  connect(debounce_, &QTimer::timeout, this, &SearchPanel::Search);
  connect(query_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
  connect(query_, &QLineEdit::returnPressed, this, [this] {
    if (debounce_->isActive() || model_->rowCount() == 0) Search();
    Next();
  });
  connect(field_, &QComboBox::currentIndexChanged, this, &SearchPanel::Search);
  connect(side_, &QComboBox::currentIndexChanged, this, &SearchPanel::Search);
}

void SearchPanel::setupTable() {
  table_->setModel(model_);
  SetUpRowTable(table_);
  connect(table_, &QTableView::clicked, this,
          [this](const QModelIndex& index) { Go(index.row()); });
}

void SearchPanel::setupLayout() {
  auto make_button = [this](const QString& icon, const QString& tip, auto slot) {
    auto* button = new QToolButton(this);
    button->setIcon(Icons::Get(icon));
    button->setToolTip(tip);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, this, slot);
    return button;
  };
  auto* inputs = new QHBoxLayout();
  inputs->setContentsMargins(4, 4, 4, 4);
  inputs->addWidget(query_, 1);
  inputs->addWidget(field_);
  inputs->addWidget(side_);
  inputs->addWidget(
      make_button("find-prev", tr("Previous hit (Shift+F3)"), &SearchPanel::Previous));
  inputs->addWidget(make_button("find-next", tr("Next hit (F3)"), &SearchPanel::Next));
  inputs->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(inputs);
  layout->addWidget(table_);
}

void SearchPanel::FocusQuery() {
  query_->setFocus(Qt::ShortcutFocusReason);
  query_->selectAll();
}

void SearchPanel::Search() {
  debounce_->stop();
  const PassView* view = context_->pass_view();
  if (!view) return;
  QString error;
  const auto side = static_cast<GraphSide>(side_->currentData().toInt());
  const auto field = static_cast<InstructionSearch::Field>(field_->currentData().toInt());
  model_->setData(InstructionSearch::Run(*view, side, query_->text(), field, &error));
  if (!error.isEmpty()) {
    count_->setText(tr("bad regex: %1").arg(error));
  } else if (query_->text().trimmed().isEmpty()) {
    count_->clear();
  } else {
    count_->setText(tr("%n hit(s)", nullptr, model_->rowCount()));
  }
}

void SearchPanel::Go(int row) {
  if (row < 0 || row >= model_->rowCount()) return;
  const QModelIndex index = model_->index(row, 0);
  table_->selectRow(row);
  table_->scrollTo(index);
  const auto side = static_cast<GraphSide>(side_->currentData().toInt());
  const int64_t id = index.data(SearchResultModel::kInstructionIdRole).toLongLong();
  count_->setText(tr("%1 of %2").arg(row + 1).arg(model_->rowCount()));
  context_->SetSelection(Selection{id, side, -1}, this);
}

void SearchPanel::Next() {
  const int rows = model_->rowCount();
  if (rows == 0) return;
  const int current = table_->currentIndex().isValid() ? table_->currentIndex().row() : -1;
  Go((current + 1) % rows);
}

void SearchPanel::Previous() {
  const int rows = model_->rowCount();
  if (rows == 0) return;
  const int current = table_->currentIndex().isValid() ? table_->currentIndex().row() : 0;
  Go((current - 1 + rows) % rows);
}

void SearchPanel::OnPassChanged(const WorkbenchContext&) {
  if (!query_->text().trimmed().isEmpty()) Search();
}

}  // namespace fusescope::views
