#include "tests/gui/gui_test_support.h"

#include <QDeadlineTimer>
#include <map>

#include "resources/samples.h"
#include "views/qt/workers/recording_loader.h"
#include "views/qt/workbench_context.h"

namespace fusescope::views::testing {
namespace {

QStringList& Problems() {
  static QStringList problems;
  return problems;
}

QtMessageHandler& PreviousHandler() {
  static QtMessageHandler handler = nullptr;
  return handler;
}

// Checkers nest (a model and its proxy); the handler is installed by the outermost only.
int& ActiveCheckers() {
  static int count = 0;
  return count;
}

void CollectProblems(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (type != QtDebugMsg && type != QtInfoMsg && QString(context.category) == "qt.modeltest") {
    Problems() << message;
  }
  if (PreviousHandler()) PreviousHandler()(type, context, message);
}

}  // namespace

std::shared_ptr<const recording::Recording> SampleRecording(const std::string& sample,
                                                            const std::string& target) {
  static std::map<std::string, std::shared_ptr<const recording::Recording>> cache;
  const std::string key = sample + "/" + target;
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  const resources::SampleModel model = resources::FindSample(sample);
  auto compiled = RecordingLoader::Compile(std::string(model.text), "sample:" + sample, target);
  if (!compiled.ok()) return nullptr;
  auto shared = std::make_shared<const recording::Recording>(std::move(compiled).value());
  cache.emplace(key, shared);
  return shared;
}

bool WaitFor(const std::function<bool()>& done, int timeout_ms) {
  QDeadlineTimer deadline(timeout_ms);
  while (!done()) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QTest::qWait(5);
  }
  return true;
}

std::unique_ptr<MainWindow> OpenWindow(const QString& sample) {
  App();
  auto window = std::make_unique<MainWindow>(false);
  window->set_interactive(false);
  window->show();
  window->OpenSample(sample);
  WaitFor([&] { return window->IsSettled(); });
  return window;
}

ModelChecker::ModelChecker(QAbstractItemModel* model) {
  if (ActiveCheckers()++ == 0) {
    Problems().clear();
    PreviousHandler() = qInstallMessageHandler(CollectProblems);
  }
  tester_ = std::make_unique<QAbstractItemModelTester>(
      model, QAbstractItemModelTester::FailureReportingMode::Warning);
}

ModelChecker::~ModelChecker() {
  tester_.reset();
  if (--ActiveCheckers() == 0) qInstallMessageHandler(PreviousHandler());
}

const QStringList& ModelChecker::problems() const { return Problems(); }

}  // namespace fusescope::views::testing
