#include "views/qt/what_if/what_if_fusion_model.h"

#include <QStringList>
#include <algorithm>
#include <map>

namespace fusescope::views {
namespace {

QString Q(const std::string& text) { return QString::fromStdString(text); }

QString Join(const std::vector<std::string>& names) {
  QStringList list;
  for (const std::string& name : names) list << Q(name);
  return list.join(QStringLiteral(", "));
}

// The first recorded refusal, with how many other decisions the row has; for a fusion B
// keeps apart, what it is apart from.
QString Why(const WhatIfFusionModel::Row& row) {
  if (row.category == WhatIfFusionModel::Category::kNewInB) {
    return QObject::tr("B fuses these members apart from the rest of A's fusions");
  }
  const recording::FusionMatch& match = row.match;
  const recording::FusionRefusal* first = nullptr;
  int others = 0;
  for (const recording::FusionRefusal& refusal : match.refusals) {
    if (refusal.decision_index < 0) continue;
    if (first == nullptr) {
      first = &refusal;
    } else {
      ++others;
    }
  }
  if (first == nullptr) return {};
  QString text = QStringLiteral("%1 refused %2 → %3: %4")
                     .arg(first->refused_by_b ? "B" : "A", Q(first->producer), Q(first->consumer),
                          Q(first->explanation));
  if (others > 0) text += QObject::tr(" (+%1 more)").arg(others);
  return text;
}

}  // namespace

WhatIfFusionModel::WhatIfFusionModel(QObject* parent) : QAbstractTableModel(parent) {}

void WhatIfFusionModel::setData(const recording::RecordingComparison& comparison) {
  beginResetModel();
  rows_.clear();
  for (const recording::FusionMatch& match : comparison.different) {
    if (!match.from_b) rows_.push_back({match, Category::kDiffers, {match.fusion_a}, {}});
  }
  // Then B's fusions that paired with none of A's, each once.
  std::map<int64_t, size_t> new_in_b;
  for (const recording::FusionMatch& match : comparison.different) {
    if (!match.from_b) continue;
    auto [it, inserted] = new_in_b.emplace(match.fusion_b_id, rows_.size());
    if (inserted) rows_.push_back({match, Category::kNewInB, {}, match.only_b});
    Row& row = rows_[it->second];
    row.fusions_a.push_back(match.fusion_a);
    std::erase_if(row.in_no_fusion_of_a, [&](const std::string& member) {
      return std::find(match.only_b.begin(), match.only_b.end(), member) == match.only_b.end();
    });
  }
  for (const recording::FusionMatch& match : comparison.only_a) {
    rows_.push_back({match, Category::kOnlyA, {match.fusion_a}, {}});
  }
  for (const recording::FusionMatch& match : comparison.only_b) {
    rows_.push_back({match, Category::kOnlyB, {}, match.only_b});
  }
  endResetModel();
}

void WhatIfFusionModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

QString WhatIfFusionModel::CategoryName(Category category) {
  switch (category) {
    case Category::kDiffers:
      return tr("differs");
    case Category::kNewInB:
      return tr("split off in B");
    case Category::kOnlyA:
      return tr("only in A");
    case Category::kOnlyB:
      return tr("only in B");
  }
  return {};
}

QString WhatIfFusionModel::Describe(const recording::FusionRefusal& refusal) {
  const QString side = refusal.refused_by_b ? QStringLiteral("B") : QStringLiteral("A");
  if (refusal.decision_index < 0) {
    return tr("%1 never considered %2 for this fusion").arg(side, Join(refusal.members));
  }
  return tr("%1 refused %2 → %3 in %4 (#%5): %6: %7 — keeps out %8")
      .arg(side, Q(refusal.producer), Q(refusal.consumer), Q(refusal.pass))
      .arg(refusal.pass_index)
      .arg(Q(refusal.reason), Q(refusal.explanation), Join(refusal.members));
}

QString WhatIfFusionModel::DescribeRow(const Row& row) {
  const recording::FusionMatch& match = row.match;
  QString html = QStringLiteral("<b>%1</b>").arg(CategoryName(row.category).toHtmlEscaped());
  if (!row.fusions_a.empty())
    html += tr(" · A: <b>%1</b>").arg(Join(row.fusions_a).toHtmlEscaped());
  if (!match.fusion_b.empty()) html += tr(" · B: <b>%1</b>").arg(Q(match.fusion_b).toHtmlEscaped());
  const auto line = [&html](const QString& label, const std::vector<std::string>& names) {
    if (!names.empty())
      html += QStringLiteral("<br>%1: %2").arg(label, Join(names).toHtmlEscaped());
  };
  if (row.category == Category::kNewInB) {
    html += tr("<br>B keeps apart what A fused into %1.").arg(Join(row.fusions_a).toHtmlEscaped());
    line(tr("in no fusion of A"), row.in_no_fusion_of_a);
  } else {
    line(tr("in both"), match.common);
    line(tr("only in A's"), match.only_a);
    line(tr("only in B's"), match.only_b);
  }
  for (const recording::FusionRefusal& refusal : match.refusals) {
    html += QStringLiteral("<br>• %1").arg(Describe(refusal).toHtmlEscaped());
  }
  return html;
}

int WhatIfFusionModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int WhatIfFusionModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant WhatIfFusionModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rows_[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return Display(row, index.column());
    case Qt::ToolTipRole:
      return DescribeRow(row);
    case Qt::TextAlignmentRole:
      if (index.column() == kShared || index.column() == kOnlyInA || index.column() == kOnlyInB)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    default:
      return {};
  }
}

QVariant WhatIfFusionModel::Display(const Row& row, int column) const {
  const recording::FusionMatch& match = row.match;
  switch (column) {
    case kCategory:
      return CategoryName(row.category);
    case kFusionA:
      return Join(row.fusions_a);
    case kFusionB:
      return Q(match.fusion_b);
    case kShared:
      // A fusion of B apart: its members some fusion of A holds.
      if (row.category == Category::kNewInB) {
        return static_cast<int>(match.common.size() + match.only_b.size() -
                                row.in_no_fusion_of_a.size());
      }
      return static_cast<int>(match.common.size());
    case kOnlyInA:
      if (row.category == Category::kNewInB) return {};
      return static_cast<int>(match.only_a.size());
    case kOnlyInB:
      if (row.category == Category::kNewInB) return static_cast<int>(row.in_no_fusion_of_a.size());
      return static_cast<int>(match.only_b.size());
    case kWhy:
      return Why(row);
    default:
      return {};
  }
}

QVariant WhatIfFusionModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kShared:
        return tr("Input instructions both fusions answer for");
      case kOnlyInA:
        return tr("Members only A's fusion holds");
      case kOnlyInB:
        return tr("Members only B's fusion holds");
      case kWhy:
        return tr(
            "The recorded refusal that kept the members apart (all of them in the "
            "tooltip)");
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case kCategory:
      return tr("Fusion");
    case kFusionA:
      return tr("In A");
    case kFusionB:
      return tr("In B");
    case kShared:
      return tr("Shared");
    case kOnlyInA:
      return tr("A only");
    case kOnlyInB:
      return tr("B only");
    case kWhy:
      return tr("Why they differ");
    default:
      return {};
  }
}

}  // namespace fusescope::views
