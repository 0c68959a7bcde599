#include "compare/peer_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>

namespace fusescope::compare {
namespace {

namespace fs = std::filesystem;

class PeerProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("peer_process_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  ProcessSpec Shell(const std::string& script, double limit = 60) {
    ProcessSpec spec;
    spec.argv = {"sh", "-c", script};
    spec.stdout_path = (dir_ / "out").string();
    spec.stderr_path = (dir_ / "err").string();
    spec.time_limit_s = limit;
    return spec;
  }
  std::string Read(const std::string& name) {
    std::ifstream file(dir_ / name);
    return std::string(std::istreambuf_iterator<char>(file), {});
  }
  fs::path dir_;
};

TEST_F(PeerProcessTest, StdinStdoutStderrAndTheEnvironmentReachTheChild) {
  std::ofstream(dir_ / "in") << "request";
  ProcessSpec spec = Shell("cat; echo \" $FUSESCOPE_TEST_VALUE\"; echo diagnostics >&2");
  spec.stdin_path = (dir_ / "in").string();
  spec.environment["FUSESCOPE_TEST_VALUE"] = "forty-two";
  auto outcome = RunProcess(spec);
  ASSERT_TRUE(outcome.ok()) << outcome.message();
  EXPECT_TRUE(outcome->exited_cleanly()) << outcome->Describe();
  EXPECT_EQ(Read("out"), "request forty-two\n");
  EXPECT_EQ(Read("err"), "diagnostics\n");
  EXPECT_GT(outcome->max_rss_bytes, 0);
  EXPECT_EQ(getenv("FUSESCOPE_TEST_VALUE"), nullptr);  // ours is left as it was
}

TEST_F(PeerProcessTest, ExitCodeAndSignalAreOutcomes) {
  auto exited = RunProcess(Shell("exit 3"));
  ASSERT_TRUE(exited.ok());
  EXPECT_FALSE(exited->exited_cleanly());
  EXPECT_EQ(exited->exit_code, 3);
  EXPECT_EQ(exited->Describe(), "exited with 3");
  auto killed = RunProcess(Shell("kill -ABRT $$"));
  ASSERT_TRUE(killed.ok());
  EXPECT_EQ(killed->signal, SIGABRT);
  EXPECT_NE(killed->Describe().find("killed by signal 6"), std::string::npos) << killed->Describe();
}

// The limit kills the adapter and everything it started: a grandchild holding stdout open
// must not keep the harness waiting.
TEST_F(PeerProcessTest, TimeLimitKillsTheWholeGroup) {
  auto outcome = RunProcess(Shell("sleep 300 & sleep 300", 0.5));
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->timed_out);
  EXPECT_FALSE(outcome->exited_cleanly());
  EXPECT_LT(outcome->wall_s, 250);  // not the sleep's 300 s
  EXPECT_NE(outcome->Describe().find("timed out"), std::string::npos);
}

TEST_F(PeerProcessTest, AProgramThatCannotStartIsAnOutcome) {
  ProcessSpec spec = Shell("");
  spec.argv = {"/nonexistent/adapter-program"};
  auto outcome = RunProcess(spec);
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->started);
  EXPECT_NE(outcome->Describe().find("No such file"), std::string::npos) << outcome->Describe();
}

TEST_F(PeerProcessTest, TailKeepsTheLastLines) {
  std::ofstream(dir_ / "log") << "one\n\ntwo\nthree\nfour\n";
  EXPECT_EQ(TailOfFile((dir_ / "log").string(), 2), "three | four");
}

}  // namespace
}  // namespace fusescope::compare
