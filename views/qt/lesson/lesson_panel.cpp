#include "views/qt/lesson/lesson_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "resources/explanations.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views {
namespace {

QString Q(const std::string& text) { return QString::fromStdString(text); }

// A lesson's text as HTML: paragraphs on blank lines, "- " lines as a list, `code` spans.
QString TextHtml(const std::string& text) {
  QString html;
  const QStringList paragraphs = Q(text).split(QStringLiteral("\n\n"));
  for (const QString& paragraph : paragraphs) {
    QString out;
    bool in_list = false;
    for (const QString& line : paragraph.split('\n')) {
      QString escaped = line.toHtmlEscaped();
      // `code` spans, pairwise.
      for (int open = escaped.indexOf('`'); open >= 0; open = escaped.indexOf('`', open)) {
        const int close = escaped.indexOf('`', open + 1);
        if (close < 0) break;
        const QString code = escaped.mid(open + 1, close - open - 1);
        const QString replaced = QStringLiteral("<code>%1</code>").arg(code);
        escaped.replace(open, close - open + 1, replaced);
        open += static_cast<int>(replaced.size());
      }
      if (escaped.startsWith(QStringLiteral("- "))) {
        if (!in_list) out += QStringLiteral("<ul>");
        in_list = true;
        out += QStringLiteral("<li>%1</li>").arg(escaped.mid(2));
      } else {
        if (in_list) out += QStringLiteral("</ul>");
        in_list = false;
        out += (out.isEmpty() ? QString() : QStringLiteral(" ")) + escaped;
      }
    }
    if (in_list) out += QStringLiteral("</ul>");
    html += out.startsWith(QStringLiteral("<ul>")) ? out : QStringLiteral("<p>%1</p>").arg(out);
  }
  return html;
}

}  // namespace

LessonPanel::LessonPanel(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent),
      context_(context),
      title_(new QLabel(this)),
      list_(new QListWidget(this)),
      step_title_(new QLabel(this)),
      body_(new QTextBrowser(this)),
      previous_(new QPushButton(tr("◀ Previous"), this)),
      next_(new QPushButton(tr("Next ▶"), this)),
      what_if_(new QPushButton(tr("Run What-If"), this)) {
  title_->setWordWrap(true);
  title_->setTextFormat(Qt::PlainText);
  QFont title_font = title_->font();
  title_font.setBold(true);
  title_font.setPointSizeF(title_font.pointSizeF() * 1.2);
  title_->setFont(title_font);
  step_title_->setWordWrap(true);
  step_title_->setTextFormat(Qt::PlainText);
  QFont step_font = step_title_->font();
  step_font.setBold(true);
  step_title_->setFont(step_font);
  body_->setOpenLinks(false);
  list_->setAlternatingRowColors(true);
  what_if_->setToolTip(tr("Compile the model again with this step's options and compare"));

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(previous_);
  buttons->addWidget(next_);
  buttons->addStretch(1);
  buttons->addWidget(what_if_);

  auto* step_pane = new QWidget(this);
  auto* step_layout = new QVBoxLayout(step_pane);
  step_layout->setContentsMargins(0, 0, 0, 0);
  step_layout->addWidget(step_title_);
  step_layout->addWidget(body_, 1);
  step_layout->addLayout(buttons);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(list_);
  splitter->addWidget(step_pane);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 3);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(title_);
  layout->addWidget(splitter, 1);

  connect(previous_, &QPushButton::clicked, this, &LessonPanel::Previous);
  connect(next_, &QPushButton::clicked, this, &LessonPanel::Next);
  connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0 && row != current_) GoTo(row);
  });
  connect(what_if_, &QPushButton::clicked, this, [this] {
    if (!lesson_ || current_ < 0) return;
    QStringList options;
    for (const std::string& word : lesson_->steps[static_cast<size_t>(current_)].what_if) {
      options << Q(word);
    }
    if (!options.isEmpty()) emit whatIfRequested(options);
  });
  Clear();
  context_->AddObserver(this, this);
}

void LessonPanel::SetLesson(std::shared_ptr<const Lesson> lesson, std::vector<ResolvedStep> steps,
                            const recording::Recording* recording) {
  lesson_ = std::move(lesson);
  steps_ = std::move(steps);
  recording_ = recording;
  current_ = -1;
  title_->setText(Q(lesson_->title));
  title_->setToolTip(Q(lesson_->file));
  const QSignalBlocker block(list_);
  list_->clear();
  for (size_t i = 0; i < lesson_->steps.size(); ++i) {
    list_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(Q(lesson_->steps[i].title)));
  }
  GoTo(0);
}

void LessonPanel::Clear() {
  lesson_.reset();
  steps_.clear();
  recording_ = nullptr;
  current_ = -1;
  title_->setText(tr("No lesson open"));
  title_->setToolTip({});
  const QSignalBlocker block(list_);
  list_->clear();
  step_title_->clear();
  body_->setHtml(tr("<p>Open a lesson with <b>File ▸ Open Lesson…</b> or one of the built-in "
                    "lessons in <b>Help ▸ Lessons</b>. <code>fusescope lesson --list</code> "
                    "names them; docs/lessons.md describes the format.</p>"));
  UpdateButtons();
}

const ResolvedStep* LessonPanel::current_resolved() const {
  if (current_ < 0 || current_ >= step_count()) return nullptr;
  return &steps_[static_cast<size_t>(current_)];
}

void LessonPanel::OnRecordingLoaded(const WorkbenchContext& context) {
  // Another recording took the window: the lesson's steps point into the old one.
  if (lesson_ && context.recording() != recording_) Clear();
}

void LessonPanel::GoTo(int index) {
  if (!lesson_ || steps_.empty()) return;
  index = std::clamp(index, 0, step_count() - 1);
  current_ = index;
  const LessonStep& step = lesson_->steps[static_cast<size_t>(index)];
  const ResolvedStep& at = steps_[static_cast<size_t>(index)];
  {
    const QSignalBlocker block(list_);
    list_->setCurrentRow(index);
  }
  step_title_->setText(tr("Step %1 of %2 — %3").arg(index + 1).arg(step_count()).arg(Q(step.title)));
  body_->setHtml(StepHtml(index));
  UpdateButtons();

  if (context_->recording() == recording_) {
    if (context_->requested_pass() != at.pass) context_->SetPass(at.pass);
    Selection selection;
    selection.instruction_id = at.instruction_id;
    selection.side = at.selected_before ? GraphSide::kBefore : GraphSide::kAfter;
    selection.decision_index = at.decision_index;
    if (at.decision_index >= 0 && at.instruction_id < 0) {
      selection = WorkbenchContext::DecisionSelection(*recording_, at.decision_index);
    }
    context_->SetSelection(selection, this);
  }
  emit viewRequested(step.view, Q(at.kernel), Q(at.stage_name));
  emit stepShown(index);
}

void LessonPanel::Next() { GoTo(current_ + 1); }

void LessonPanel::Previous() { GoTo(current_ - 1); }

void LessonPanel::UpdateButtons() {
  const bool any = lesson_ && !steps_.empty();
  previous_->setEnabled(any && current_ > 0);
  next_->setEnabled(any && current_ + 1 < step_count());
  what_if_->setVisible(any && current_ >= 0 &&
                       !lesson_->steps[static_cast<size_t>(current_)].what_if.empty());
}

QString LessonPanel::StepHtml(int index) const {
  const LessonStep& step = lesson_->steps[static_cast<size_t>(index)];
  const ResolvedStep& at = steps_[static_cast<size_t>(index)];
  QString html = TextHtml(step.text);
  if (recording_ && at.decision_index >= 0 &&
      at.decision_index < static_cast<int64_t>(recording_->decisions.size())) {
    const auto& decision = recording_->decisions[static_cast<size_t>(at.decision_index)];
    html += QStringLiteral(
                "<p style='border-left: 4px solid %1; padding-left: 6px'><b>%2</b> %%3 → %%4 "
                "<code>[%5]</code><br>%6</p>")
                .arg(decision.accepted() ? QStringLiteral("#1a7f37") : QStringLiteral("#cf222e"),
                     decision.accepted() ? tr("Fused") : tr("Refused"),
                     Q(decision.producer_name).toHtmlEscaped(),
                     Q(decision.consumer_name).toHtmlEscaped(),
                     Q(std::string(passes::FusionReasonCode(decision.reason))),
                     Q(decision.explanation).toHtmlEscaped());
  }
  if (!at.kernel.empty()) {
    html += QStringLiteral("<p><b>%1</b> %2%3</p>")
                .arg(tr("Kernel"), Q(at.kernel).toHtmlEscaped(),
                     at.stage_name.empty()
                         ? QString()
                         : tr(", stage <code>%1</code>").arg(Q(at.stage_name).toHtmlEscaped()));
  }
  if (!step.what_if.empty()) {
    QString options;
    for (const std::string& word : step.what_if) options += Q(word).toHtmlEscaped() + ' ';
    html += QStringLiteral("<p><b>%1</b> <code>%2</code></p>")
                .arg(tr("What if:"), options.trimmed());
  }
  if (!step.question.empty()) {
    html += QStringLiteral(
                "<div style='background: #fff8c5; border: 1px solid #d4a72c; padding: 6px'>"
                "<b>%1</b> %2</div>")
                .arg(tr("Question:"), TextHtml(step.question));
  }
  // What the pass does, once per arrival at it.
  const bool new_pass = index == 0 || steps_[static_cast<size_t>(index - 1)].pass != at.pass;
  QString pass_line = tr("Pass %1: <b>%2</b>").arg(at.pass).arg(Q(at.pass_name).toHtmlEscaped());
  if (auto explanation = resources::ExplainPass(at.pass_name); explanation && new_pass) {
    pass_line += QStringLiteral(" — %1").arg(Q(explanation->does).toHtmlEscaped());
  }
  html += QStringLiteral("<p style='color: palette(mid)'><small>%1</small></p>").arg(pass_line);
  return html;
}

}  // namespace fusescope::views
