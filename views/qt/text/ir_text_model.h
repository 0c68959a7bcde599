#ifndef FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_MODEL_H_
#define FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_MODEL_H_

// The lines of one pass's IR text, one row per line: the text diff of the pass, or the
// module before or after it alone, optionally only the lines that differ. Rows know the
// instruction they print, so a click selects it and a selection finds its line.

#include <QAbstractListModel>
#include <memory>
#include <unordered_map>
#include <vector>

#include "views/qt/pass_view.h"

namespace fusescope::views {

class IrTextModel : public QAbstractListModel {
  Q_OBJECT

 public:
  enum class Mode { kDiff, kBefore, kAfter };
  enum Role {
    kInstructionIdRole = Qt::UserRole + 1,  // -1 for non-instruction lines
    kSideRole,                              // GraphSide as int
    kStatusRole,                            // ir::DiffStatus as int
    kLineNumberRole,                        // 1-based, in the shown text
  };

  explicit IrTextModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const PassView> view);
  void SetMode(Mode mode);
  void SetChangesOnly(bool changes_only);
  Mode mode() const { return mode_; }

  // Row of the instruction's line; prefers a line of `side`, falls back to the other side
  // (the diff shows an unchanged instruction once). -1 when not shown.
  int RowOf(int64_t instruction_id, GraphSide side) const;
  const IrLine* Line(int row) const;
  // Characters in the longest shown line, for the view's horizontal extent.
  int max_line_length() const { return max_length_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 private:
  void Rebuild();
  const std::vector<IrLine>* Source() const;

  std::shared_ptr<const PassView> view_;
  Mode mode_ = Mode::kDiff;
  bool changes_only_ = false;
  std::vector<int> rows_;  // indexes into Source()
  std::unordered_map<int64_t, int> row_of_[2];
  int max_length_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_TEXT_IR_TEXT_MODEL_H_
