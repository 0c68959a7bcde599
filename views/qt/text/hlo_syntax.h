#ifndef FUSESCOPE_VIEWS_QT_HLO_SYNTAX_H_
#define FUSESCOPE_VIEWS_QT_HLO_SYNTAX_H_

// Splits one line of HLO text into coloured runs. A hand-written scanner rather than
// regular expressions: it runs while painting, on lines that can be thousands of
// characters long, and must never backtrack.

#include <QColor>
#include <QPalette>
#include <QStringView>
#include <vector>

namespace fusescope::views {

class HloSyntax {
 public:
  enum class Kind {
    kPlain,
    kKeyword,    // ROOT, ENTRY, HloModule
    kName,       // %add.3, the defined name
    kType,       // f32[8,16]{1,0}
    kOpcode,     // add( ...
    kAttribute,  // dimensions=
    kString,     // "..."
    kNumber,
    kComment,  // /*index=5*/
  };
  struct Token {
    int start = 0;
    int length = 0;
    Kind kind = Kind::kPlain;
  };

  // Consecutive tokens covering the whole line.
  static std::vector<Token> Tokenize(QStringView line);
  // Colours that read on `palette` (dark palettes get lighter hues).
  static QColor Color(Kind kind, const QPalette& palette);
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_HLO_SYNTAX_H_
