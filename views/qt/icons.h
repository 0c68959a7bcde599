#ifndef FUSESCOPE_VIEWS_QT_ICONS_H_
#define FUSESCOPE_VIEWS_QT_ICONS_H_

// The workbench's icons, drawn as SVG in resources/icons. Line icons use `currentColor`,
// which is replaced by the palette's text colour so they read on light and dark themes.

#include <QIcon>
#include <QString>

namespace fusescope::views {

class Icons {
 public:
  // `name` is the file name without ".svg" ("open", "step-next"). A missing icon gives a
  // null QIcon rather than failing: a button without a picture still works.
  static QIcon Get(const QString& name);
  static QIcon AppIcon();
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_ICONS_H_
