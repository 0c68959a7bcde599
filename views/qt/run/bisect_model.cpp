#include "views/qt/run/bisect_model.h"

#include <QColor>
#include <QFont>

#include "views/qt/graph/diff_colors.h"
#include "views/qt/run/run_output_model.h"

namespace fusescope::views {
namespace {

QColor Tint(QColor color, int alpha) {
  color.setAlpha(alpha);
  return color;
}

}  // namespace

BisectModel::BisectModel(QObject* parent) : QAbstractTableModel(parent) {}

void BisectModel::setData(BisectReport report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

int BisectModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(report_.passes.size());
}

int BisectModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QString BisectModel::Verdict(const BisectPass& pass) {
  if (!pass.ran) return tr("not run");
  if (!pass.ok) return tr("DIFFERS");
  const QString verdict = pass.verdict.isEmpty() ? tr("ok") : pass.verdict;
  return pass.reused ? verdict + tr(" (unchanged)") : verdict;
}

QVariant BisectModel::Display(const BisectPass& pass, int column) const {
  switch (column) {
    case kPass:
      return static_cast<qlonglong>(pass.index);
    case kName:
      return pass.name;
    case kVerdict:
      return Verdict(pass);
    case kMaxAbsError:
      return pass.ran ? RunOutputModel::FormatError(pass.max_abs_error) : QString();
    case kMaxRelError:
      return pass.ran ? RunOutputModel::FormatError(pass.max_rel_error) : QString();
    case kToExact:
      return pass.ran ? RunOutputModel::FormatError(pass.to_exact) : QString();
    case kInputToExact:
      return pass.ran ? RunOutputModel::FormatError(pass.input_to_exact) : QString();
    case kSeconds:
      return pass.ran && !pass.reused ? QString::number(pass.seconds, 'f', 3) : QString();
    case kNotes:
      return pass.error;
  }
  return {};
}

QVariant BisectModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const BisectPass& pass = report_.passes[static_cast<size_t>(index.row())];
  const bool first_bad = index.row() == report_.first_bad;
  switch (role) {
    case Qt::DisplayRole:
      return Display(pass, index.column());
    case kPassIndexRole:
      return static_cast<qlonglong>(pass.index);
    case Qt::ToolTipRole:
      if (first_bad) return tr("The first pass whose module computes different numbers");
      return pass.error.isEmpty() ? QVariant() : QVariant(pass.error);
    case Qt::TextAlignmentRole:
      return index.column() == kPass || index.column() == kMaxAbsError ||
                     index.column() == kMaxRelError || index.column() == kToExact ||
                     index.column() == kInputToExact || index.column() == kSeconds
                 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if (first_bad) return Tint(DiffColors::Refused(), 90);
      return pass.ran && !pass.ok ? QVariant(Tint(DiffColors::Refused(), 30)) : QVariant();
    case Qt::FontRole: {
      if (!first_bad) return {};
      QFont font;
      font.setBold(true);
      return font;
    }
    case Qt::ForegroundRole:
      if (index.column() != kVerdict || !pass.ran) return {};
      return RunOutputModel::VerdictColor(pass.verdict, pass.ok);
  }
  return {};
}

QVariant BisectModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kPass:
      return tr("#");
    case kName:
      return tr("Pass");
    case kVerdict:
      return tr("Verdict");
    case kMaxAbsError:
      return tr("Max abs err");
    case kMaxRelError:
      return tr("Max rel err");
    case kToExact:
      return tr("To exact");
    case kInputToExact:
      return tr("Input to exact");
    case kSeconds:
      return tr("Time (s)");
    case kNotes:
      return tr("Notes");
  }
  return {};
}

}  // namespace fusescope::views
