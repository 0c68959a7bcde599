#ifndef FUSESCOPE_TESTS_GUI_GUI_TEST_SUPPORT_H_
#define FUSESCOPE_TESTS_GUI_GUI_TEST_SUPPORT_H_

// Shared set-up of the GUI tests: one offscreen QApplication for the whole executable, a
// recording of a built-in sample compiled for real, and a main window on it.

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTest>
#include <functional>
#include <memory>
#include <string>

#include "recording/recording.h"
#include "views/qt/main_window.h"

namespace fusescope::views::testing {

inline QApplication& App() {
  static int argc = 1;
  static char name[] = "fusescope_gui_tests";
  static char* argv[] = {name, nullptr};
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  static QApplication* app = [] {
    QStandardPaths::setTestModeEnabled(true);
    auto* created = new QApplication(argc, argv);
    QApplication::setOrganizationName("FusescopeTests");
    QApplication::setApplicationName("FusescopeTests");
    return created;
  }();
  return *app;
}

// Compiled once per sample and pipeline; shared by the tests that only read it.
std::shared_ptr<const recording::Recording> SampleRecording(const std::string& sample,
                                                            const std::string& target = "cpu");

// Processes events until `done` or the deadline (generous: the machine may be busy).
bool WaitFor(const std::function<bool()>& done, int timeout_ms = 120000);

// A main window (no settings, no dialogs), shown offscreen, with `sample` open and settled.
std::unique_ptr<MainWindow> OpenWindow(const QString& sample = "mlp");

// Collects what QAbstractItemModelTester reports, so a test fails on it.
class ModelChecker {
 public:
  explicit ModelChecker(QAbstractItemModel* model);
  ~ModelChecker();
  const QStringList& problems() const;

 private:
  std::unique_ptr<QAbstractItemModelTester> tester_;
};

}  // namespace fusescope::views::testing

#endif  // FUSESCOPE_TESTS_GUI_GUI_TEST_SUPPORT_H_
