#include "views/qt/profile/hot_node_model.h"

#include <QColor>
#include <QStringList>
#include <algorithm>

#include "views/qt/graph/heat_overlay.h"

namespace fusescope::views {
namespace {

QString Text(const std::string& text) { return QString::fromStdString(text); }

// A fusion of a large model answers for thousands of ops: a cell names the first few.
constexpr size_t kCellItems = 6;
constexpr size_t kToolTipItems = 40;

QString Join(const QStringList& items, size_t limit) {
  const qsizetype shown = std::min<qsizetype>(items.size(), static_cast<qsizetype>(limit));
  QString text = items.mid(0, shown).join(QStringLiteral(", "));
  if (items.size() > shown) text += QObject::tr(" +%1 more").arg(items.size() - shown);
  return text;
}

QStringList Names(const std::vector<std::string>& names) {
  QStringList items;
  for (const std::string& name : names) items << Text(name);
  return items;
}

QStringList Lines(const std::vector<profiler::SourceLine>& lines) {
  QStringList items;
  for (const profiler::SourceLine& line : lines) {
    items << QStringLiteral("%1:%2").arg(Text(line.file)).arg(line.line);
  }
  return items;
}

}  // namespace

HotNodeModel::HotNodeModel(QObject* parent) : QAbstractTableModel(parent) {}

void HotNodeModel::setData(std::vector<profiler::HotNode> nodes) {
  beginResetModel();
  nodes_ = std::move(nodes);
  endResetModel();
}

int HotNodeModel::RowOf(int64_t instruction_id) const {
  for (size_t row = 0; row < nodes_.size(); ++row) {
    if (nodes_[row].instruction_id == instruction_id) return static_cast<int>(row);
  }
  return -1;
}

int HotNodeModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(nodes_.size());
}

int HotNodeModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant HotNodeModel::Display(const profiler::HotNode& node, int column) const {
  switch (column) {
    case kNode:
      return Text(node.name);
    case kOpcode:
      return Text(node.opcode);
    case kTime:
      return QString::number(node.time_us, 'f', 2);
    case kShare:
      return QStringLiteral("%1%").arg(100 * node.share, 0, 'f', 1);
    case kKind:
      return node.measured ? tr("measured") : tr("~ estimate");
    case kAnswersFor:
      return Join(Names(node.originals), kCellItems);
    case kSourceLines:
      // A model without source lines (ONNX) still names its ops.
      return node.source_lines.empty() ? Join(Names(node.op_names), kCellItems)
                                       : Join(Lines(node.source_lines), kCellItems);
    default:
      return {};
  }
}

QVariant HotNodeModel::SortKey(const profiler::HotNode& node, int column) const {
  switch (column) {
    case kTime:
      return node.time_us;
    case kShare:
      return node.share;
    case kKind:
      return node.measured ? 1 : 0;
    default:
      return Display(node, column);
  }
}

QVariant HotNodeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const profiler::HotNode& node = nodes_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return Display(node, index.column());
    case kSortRole:
      return SortKey(node, index.column());
    case kInstructionIdRole:
      return static_cast<qlonglong>(node.instruction_id);
    case Qt::TextAlignmentRole:
      if (index.column() == kTime || index.column() == kShare) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return {};
    case Qt::DecorationRole:
      // The node's colour under the heat overlay, scaled to the hottest row.
      if (index.column() != kShare || nodes_.empty() || nodes_.front().share <= 0) return {};
      return HeatScale::Color(node.share / nodes_.front().share);
    case Qt::ToolTipRole:
      if (index.column() == kKind && !node.measured) {
        return tr(
            "The measured time of the kernels that hold this node, split over the "
            "model's operations by a roofline estimate");
      }
      if (index.column() == kAnswersFor) return Join(Names(node.originals), kToolTipItems);
      if (index.column() == kSourceLines) {
        return node.source_lines.empty() ? Join(Names(node.op_names), kToolTipItems)
                                         : Join(Lines(node.source_lines), kToolTipItems);
      }
      return {};
    default:
      return {};
  }
}

QVariant HotNodeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kNode:
      return tr("Node");
    case kOpcode:
      return tr("Opcode");
    case kTime:
      return tr("Time (µs)");
    case kShare:
      return tr("% of total");
    case kKind:
      return tr("Measured");
    case kAnswersFor:
      return tr("Answers for");
    case kSourceLines:
      return tr("Source lines / op names");
    default:
      return {};
  }
}

}  // namespace fusescope::views
