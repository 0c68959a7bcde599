#ifndef FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_MODEL_H_
#define FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_MODEL_H_

// A two-level tree over InspectorContent: sections, then their key/value rows.

#include <QAbstractItemModel>

#include "views/qt/inspector/inspector_content.h"

namespace fusescope::views {

class InspectorModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { kKey, kValue, kColumnCount };
  enum Role {
    kLinkIdRole = Qt::UserRole + 1,  // instruction id, or -1
    kLinkSideRole,                   // GraphSide as int
    kDecisionIndexRole,              // decision index, or -1
  };

  explicit InspectorModel(QObject* parent = nullptr);

  void setData(InspectorContent content);
  const InspectorContent& content() const { return content_; }
  // The section's row, for views that want to expand or find one; invalid if absent.
  QModelIndex SectionIndex(const QString& title) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant SectionData(const InspectorSection& section, int column, int role) const;
  QVariant RowData(const InspectorRow& row, int column, int role) const;

  InspectorContent content_;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_INSPECTOR_INSPECTOR_MODEL_H_
