#include "views/qt/search/instruction_search.h"

#include <QRegularExpression>
#include <functional>

#include "views/qt/text/ir_line_builder.h"

namespace fusescope::views {
namespace {

using Matcher = std::function<bool(const recording::InstructionRecord&, const QString& shape)>;

QString ShapeOf(const PassView& view, GraphSide side, int64_t id) {
  const ir::Instruction* instruction = view.Find(side, id);
  return instruction ? QString::fromStdString(instruction->shape().ToString()) : QString();
}

Matcher MakeMatcher(const QString& query, InstructionSearch::Field field, QString* error) {
  using Field = InstructionSearch::Field;
  const QString needle = query.trimmed();
  auto contains = [needle](const std::string& text) {
    return QString::fromStdString(text).contains(needle, Qt::CaseInsensitive);
  };
  switch (field) {
    case Field::kName:
      return [contains](const auto& record, const QString&) { return contains(record.name); };
    case Field::kOpcode:
      return [needle](const auto& record, const QString&) {
        return QString::fromStdString(record.opcode).compare(needle, Qt::CaseInsensitive) == 0;
      };
    case Field::kShape:
      return [needle](const auto&, const QString& shape) {
        return shape.contains(needle, Qt::CaseInsensitive);
      };
    case Field::kRegex: {
      QRegularExpression regex(query, QRegularExpression::CaseInsensitiveOption);
      if (!regex.isValid()) {
        if (error) *error = regex.errorString();
        return nullptr;
      }
      return [regex](const auto& record, const QString&) {
        return regex.match(QString::fromStdString(IrLineBuilder::StripIdMarker(record.text)))
            .hasMatch();
      };
    }
    case Field::kAny:
      break;
  }
  return [contains, needle](const auto& record, const QString& shape) {
    return contains(record.name) || contains(record.opcode) ||
           shape.contains(needle, Qt::CaseInsensitive);
  };
}

}  // namespace

std::vector<SearchHit> InstructionSearch::Run(const PassView& view, GraphSide side,
                                              const QString& query, Field field, QString* error) {
  std::vector<SearchHit> hits;
  if (query.trimmed().isEmpty()) return hits;
  const Matcher matches = MakeMatcher(query, field, error);
  if (!matches) return hits;
  const bool wants_shape = field == Field::kShape || field == Field::kAny;
  for (const auto& computation : view.snapshot(side).computations()) {
    for (const auto& record : computation->instructions) {
      const QString shape = wants_shape ? ShapeOf(view, side, record->id) : QString();
      if (!matches(*record, shape)) continue;
      hits.push_back({record->id, QString::fromStdString(record->name),
                      QString::fromStdString(record->opcode),
                      wants_shape ? shape : ShapeOf(view, side, record->id),
                      QString::fromStdString(computation->name)});
    }
  }
  return hits;
}

}  // namespace fusescope::views
