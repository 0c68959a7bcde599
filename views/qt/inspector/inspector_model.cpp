#include "views/qt/inspector/inspector_model.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include "views/qt/graph/diff_colors.h"

namespace fusescope::views {
namespace {

// Top-level (section) indexes carry 0; a row's index carries its section number plus one.
constexpr quintptr kSectionId = 0;

}  // namespace

InspectorModel::InspectorModel(QObject* parent) : QAbstractItemModel(parent) {}

void InspectorModel::setData(InspectorContent content) {
  beginResetModel();
  content_ = std::move(content);
  endResetModel();
}

QModelIndex InspectorModel::SectionIndex(const QString& title) const {
  for (size_t i = 0; i < content_.sections.size(); ++i) {
    if (QString::fromStdString(content_.sections[i].title) == title) {
      return index(static_cast<int>(i), 0);
    }
  }
  return {};
}

QModelIndex InspectorModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, kSectionId);
  return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex InspectorModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == kSectionId) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, kSectionId);
}

int InspectorModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(content_.sections.size());
  if (parent.internalId() != kSectionId || parent.column() != 0) return 0;
  return static_cast<int>(content_.sections[static_cast<size_t>(parent.row())].rows.size());
}

int InspectorModel::columnCount(const QModelIndex&) const { return kColumnCount; }

QVariant InspectorModel::SectionData(const InspectorSection& section, int column, int role) const {
  if (role == Qt::DisplayRole) {
    return column == kKey ? QString::fromStdString(section.title) : QVariant();
  }
  if (role == Qt::FontRole) {
    QFont font;
    font.setBold(true);
    return font;
  }
  return {};
}

QVariant InspectorModel::RowData(const InspectorRow& row, int column, int role) const {
  switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
      return QString::fromStdString(column == kKey ? row.key : row.value);
    case Qt::ForegroundRole:
      if (row.refused && column == kValue) return DiffColors::Refused();
      if (row.link_id >= 0 || row.decision_index >= 0)
        return QGuiApplication::palette().color(QPalette::Link);
      return {};
    case kLinkIdRole:
      return static_cast<qlonglong>(row.link_id);
    case kLinkSideRole:
      return static_cast<int>(row.link_side);
    case kDecisionIndexRole:
      return static_cast<qlonglong>(row.decision_index);
  }
  return {};
}

QVariant InspectorModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  if (index.internalId() == kSectionId) {
    return SectionData(content_.sections[static_cast<size_t>(index.row())], index.column(), role);
  }
  const InspectorSection& section = content_.sections[index.internalId() - 1];
  return RowData(section.rows[static_cast<size_t>(index.row())], index.column(), role);
}

QVariant InspectorModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == kKey ? tr("Property") : section == kValue ? tr("Value") : QVariant();
}

}  // namespace fusescope::views
