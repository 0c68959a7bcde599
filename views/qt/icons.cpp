#include "views/qt/icons.h"

#include <QApplication>
#include <QFile>
#include <QHash>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSvgRenderer>

namespace fusescope::views {
namespace {

QByteArray ReadIcon(const QString& name) {
  QFile file(QStringLiteral(":/icons/%1.svg").arg(name));
  if (!file.open(QIODevice::ReadOnly)) return {};
  return file.readAll();
}

QPixmap Render(const QByteArray& svg, int size) {
  QSvgRenderer renderer(svg);
  QPixmap pixmap(size, size);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  renderer.render(&painter);
  return pixmap;
}

QIcon Build(const QByteArray& svg) {
  QIcon icon;
  for (int size : {16, 22, 24, 32, 48, 64}) icon.addPixmap(Render(svg, size));
  return icon;
}

}  // namespace

QIcon Icons::Get(const QString& name) {
  // Keyed by colour too: a palette change must not hand out icons in the old colour.
  const QColor color = QApplication::palette().color(QPalette::WindowText);
  const QString key = name + color.name();
  static QHash<QString, QIcon> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return *it;
  QByteArray svg = ReadIcon(name);
  QIcon icon;
  if (!svg.isEmpty()) {
    svg.replace("currentColor", color.name().toLatin1());
    icon = Build(svg);
  }
  cache.insert(key, icon);
  return icon;
}

QIcon Icons::AppIcon() { return Get(QStringLiteral("fusescope")); }

}  // namespace fusescope::views
