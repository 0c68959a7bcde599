#ifndef FUSESCOPE_TESTS_GUI_GUI_TEST_SUPPORT_H_
#define FUSESCOPE_TESTS_GUI_GUI_TEST_SUPPORT_H_

// Shared set-up of the GUI tests: one offscreen QApplication for the whole executable, a
// recording of a built-in sample compiled for real, and a main window on it. The window's
// compiles run in worker processes of the `fusescope` executable built alongside.

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
  // Compiles run in worker processes: the real `fusescope`, not this test program.
  if (qEnvironmentVariableIsEmpty("FUSESCOPE_WORKER")) {
    qputenv("FUSESCOPE_WORKER", FUSESCOPE_BINARY_DIR "/app/fusescope");
  }
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

// Sets an environment variable for the scope of a test; worker processes started meanwhile
// inherit it (the worker's fault hooks, FUSESCOPE_TEST_*_IN_PASS).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const QString& value) : name_(name) {
    qputenv(name_, value.toUtf8());
  }
  ~ScopedEnv() { qunsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

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
