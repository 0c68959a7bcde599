#ifndef FUSESCOPE_VIEWS_QT_SEARCH_INSTRUCTION_SEARCH_H_
#define FUSESCOPE_VIEWS_QT_SEARCH_INSTRUCTION_SEARCH_H_

// Finds instructions of one side of a pass by name, opcode, shape, or a regular expression
// over the printed line. Hits come in printed order (computations as printed, then
// instructions), so next/previous walk the text top to bottom.

#include <QString>
#include <cstdint>
#include <vector>

#include "views/qt/pass_view.h"

namespace fusescope::views {

struct SearchHit {
  int64_t id = -1;
  QString name;
  QString opcode;
  QString shape;
  QString computation;
};

class InstructionSearch {
 public:
  enum class Field { kAny, kName, kOpcode, kShape, kRegex };

  // Case-insensitive substring for the plain fields; kOpcode matches the whole opcode
  // ("add" does not find "add-dependency"). An invalid regex finds nothing and sets
  // `error` when given.
  static std::vector<SearchHit> Run(const PassView& view, GraphSide side, const QString& query,
                                    Field field, QString* error = nullptr);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_SEARCH_INSTRUCTION_SEARCH_H_
