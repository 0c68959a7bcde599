#ifndef FUSESCOPE_VIEWS_QT_WHAT_IF_DIALOG_H_
#define FUSESCOPE_VIEWS_QT_WHAT_IF_DIALOG_H_

// Asks what B of a what-if experiment changes against the open recording (A): the target,
// which of the pipeline's passes run (unchecked ones are disabled), and every option of the
// option table (passes/pipeline_option_table.h) in an editor made for its kind, all
// prefilled with A's values. A value the table refuses (typed past an editor's range) is
// named with what its key accepts, and OK stays disabled until it is fixed.

#include <QDialog>
#include <QString>
#include <map>

#include "ir/status.h"
#include "passes/pipeline_options.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace fusescope::views {

class WhatIfDialog : public QDialog {
  Q_OBJECT

 public:
  explicit WhatIfDialog(const passes::PipelineOptions& a, QWidget* parent = nullptr);

  // What the editors say B runs with; an error naming the first key whose value the option
  // table refuses.
  StatusOr<passes::PipelineOptions> options() const;

  QComboBox* target_box() const { return target_; }
  QListWidget* pass_list() const { return passes_; }
  // The editor of option `key` (a QSpinBox, QDoubleSpinBox or QCheckBox); null for none.
  QWidget* editor(const QString& key) const;
  // The refusal of the first bad value, else what B changes against A.
  QLabel* message() const { return message_; }
  QPushButton* ok_button() const { return ok_; }

 private:
  void setupTarget();
  void setupPasses();
  void setupOptions();
  void setupButtons();
  // Lists the passes of `target`'s pipeline, keeping what was unchecked.
  void FillPasses(const QString& target);
  void ShowValues(const passes::PipelineOptions& options);
  void Validate();

  passes::PipelineOptions a_;
  QComboBox* target_ = nullptr;
  QListWidget* passes_ = nullptr;
  std::map<QString, QWidget*> editors_;  // by key, in table order
  QLabel* message_ = nullptr;
  QPushButton* ok_ = nullptr;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_WHAT_IF_DIALOG_H_
