// The --json answers of run, bisect and profile read back as the commands write them: errors
// the commands clamp to the largest double read as infinity, the first bad pass found by its
// index, and an answer that is not the command's is an error, not an empty table.

#include <gtest/gtest.h>

#include <cmath>

#include "views/qt/run/run_result.h"

namespace fusescope::views {
namespace {

RunRequest Request(RunRequest::Kind kind) {
  RunRequest request;
  request.kind = kind;
  request.recording = QStringLiteral("m.fsdb");
  return request;
}

TEST(RunResultTest, ReadsBisectWithItsFirstBadPass) {
  const QByteArray json = R"({"model": "mlp", "rtol": 1e-05, "atol": 1e-05, "outputs": 1,
    "input_seconds": 0.01, "first_bad_pass": {"index": 7, "name": "fusion"},
    "passes": [
      {"index": 6, "name": "algsimp", "ran": true, "reused": true, "ok": true,
       "max_abs_error": 0, "max_rel_error": 0, "seconds": 0},
      {"index": 7, "name": "fusion", "ran": true, "reused": false, "ok": false,
       "max_abs_error": 1.5, "max_rel_error": 1e308, "seconds": 0.02},
      {"index": 8, "name": "cse", "ran": false, "reused": false, "ok": false,
       "max_abs_error": 0, "max_rel_error": 0, "seconds": 0, "error": "cannot run"}]})";
  RunResult result;
  ASSERT_EQ(RunResult::Parse(Request(RunRequest::Kind::kBisect), json, &result), QString());
  const BisectReport& report = result.bisect;
  ASSERT_EQ(report.passes.size(), 3u);
  EXPECT_EQ(report.first_bad, 1);
  EXPECT_EQ(report.passes[1].name, "fusion");
  EXPECT_DOUBLE_EQ(report.passes[1].max_abs_error, 1.5);
  EXPECT_TRUE(std::isinf(report.passes[1].max_rel_error));
  EXPECT_TRUE(report.passes[0].reused);
  EXPECT_EQ(report.passes[2].error, "cannot run");
}

TEST(RunResultTest, ReadsRunOfAModelWithoutComparison) {
  const QByteArray json =
      R"({"model": "sample:mlp", "seconds": 0.5, "outputs": [{"index": 0, "shape": "f32[2]"}]})";
  RunResult result;
  ASSERT_EQ(RunResult::Parse(Request(RunRequest::Kind::kRun), json, &result), QString());
  ASSERT_EQ(result.run.outputs.size(), 1u);
  EXPECT_FALSE(result.run.outputs[0].compared);
  EXPECT_FALSE(result.run.match.has_value());
  EXPECT_FALSE(result.run.pass.has_value());
}

TEST(RunResultTest, RefusesWhatIsNotTheCommandsAnswer) {
  RunResult result;
  EXPECT_EQ(RunResult::Parse(Request(RunRequest::Kind::kRun), "", &result),
            "the worker wrote no result");
  EXPECT_TRUE(RunResult::Parse(Request(RunRequest::Kind::kRun), "{\"outputs\": [", &result)
                  .startsWith("the worker's result is not JSON"));
  EXPECT_EQ(RunResult::Parse(Request(RunRequest::Kind::kProfile), R"({"outputs": []})", &result),
            "the worker's result has no \"latency_us\"");
}

TEST(RunResultTest, ArgumentsAreWhatAUserReruns) {
  RunRequest run = Request(RunRequest::Kind::kRun);
  run.pass = 5;
  EXPECT_EQ(run.Arguments().join(' '), "run m.fsdb --pass 5 --json");
  RunRequest profile = Request(RunRequest::Kind::kProfile);
  profile.reps = 3;
  profile.warmup = 0;
  EXPECT_EQ(profile.Arguments().join(' '), "profile m.fsdb --reps 3 --warmup 0 --save --json");
  profile.device = QStringLiteral("cpu");
  EXPECT_EQ(profile.Arguments().join(' '),
            "profile m.fsdb --device cpu --reps 3 --warmup 0 --save --json");
  const WorkerJob job = Request(RunRequest::Kind::kBisect).ToWorkerJob(QStringLiteral("r.json"));
  EXPECT_EQ(job.arguments.join(' '), "bisect m.fsdb --json --progress");
  EXPECT_EQ(job.result_file, "r.json");
  RunRequest bisect = Request(RunRequest::Kind::kBisect);
  bisect.pass = 2;  // bisect runs every pass: no --pass
  bisect.device = QStringLiteral("cpu");
  EXPECT_EQ(bisect.Arguments().join(' '), "bisect m.fsdb --device cpu --json");
}

}  // namespace
}  // namespace fusescope::views
