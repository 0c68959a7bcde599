#include "compare/peer_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace fusescope::compare {
namespace {

int OpenOrNull(const std::string& path, int flags) {
  if (path.empty()) return open("/dev/null", flags | O_CLOEXEC);
  return open(path.c_str(), flags | O_CLOEXEC, 0644);
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void ExecChild(int in, int out, int err, int report, char** argv, char** envp) {
  setpgid(0, 0);
  dup2(in, 0);
  dup2(out, 1);
  dup2(err, 2);
  execvpe(argv[0], argv, envp);
  const int error = errno;
  ssize_t ignored = write(report, &error, sizeof(error));
  (void)ignored;
  _exit(127);
}

}  // namespace

std::string ProcessOutcome::Describe() const {
  if (!started) return "could not start: " + start_error;
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.0f", wall_s);
  if (timed_out) return std::string("timed out after ") + seconds + " s (killed)";
  if (signal != 0) {
    const char* name = strsignal(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (") + name + ")" : "");
  }
  return "exited with " + std::to_string(exit_code);
}

StatusOr<ProcessOutcome> RunProcess(const ProcessSpec& spec) {
  if (spec.argv.empty()) return Status::Error("no program to run");
  const int in = OpenOrNull(spec.stdin_path, O_RDONLY);
  if (in < 0) return Status::Error(spec.stdin_path + ": " + std::strerror(errno));
  const int out = OpenOrNull(spec.stdout_path, O_WRONLY | O_CREAT | O_TRUNC);
  const int err = OpenOrNull(spec.stderr_path, O_WRONLY | O_CREAT | O_TRUNC);
  int report[2] = {-1, -1};
  if (out < 0 || err < 0 || pipe2(report, O_CLOEXEC) != 0) {
    const std::string cause = std::strerror(errno);
    for (int fd : {in, out, err, report[0], report[1]})
      if (fd >= 0) close(fd);
    return Status::Error("cannot set up the peer's files: " + cause);
  }
  // argv and the environment are built before fork: the child may not allocate.
  std::vector<std::string> storage = spec.argv;
  std::vector<char*> argv;
  for (std::string& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    if (!spec.environment.count(text.substr(0, text.find('=')))) environment.push_back(text);
  }
  for (const auto& [name, value] : spec.environment) environment.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);

  ProcessOutcome outcome;
  const auto started = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) ExecChild(in, out, err, report[1], argv.data(), envp.data());
  const int fork_errno = errno;
  for (int fd : {in, out, err, report[1]}) close(fd);
  if (pid < 0) {
    close(report[0]);
    return Status::Error(std::string("cannot start a process: ") + std::strerror(fork_errno));
  }
  // Also from the parent, so that a kill of the group cannot race the child's own setpgid.
  setpgid(pid, pid);
  int exec_errno = 0;
  const ssize_t got = read(report[0], &exec_errno, sizeof(exec_errno));
  close(report[0]);
  outcome.started = got != sizeof(exec_errno);
  if (!outcome.started) outcome.start_error = spec.argv[0] + ": " + std::strerror(exec_errno);

  const auto deadline = started + std::chrono::duration<double>(spec.time_limit_s);
  int status = 0;
  struct rusage usage {};
  for (auto pause = std::chrono::milliseconds(1);;) {
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      return Status::Error(std::string("waiting for the peer: ") + std::strerror(errno));
    if (std::chrono::steady_clock::now() >= deadline) {
      outcome.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  // Whatever the adapter left behind in its group (a compiler it started) goes with it.
  kill(-pid, SIGKILL);
  outcome.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  outcome.max_rss_bytes = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  if (outcome.timed_out) outcome.signal = 0;
  return outcome;
}

std::string TailOfFile(const std::string& path, int max_lines) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(line.size() > 400 ? line.substr(0, 400) + "..." : line);
    if (static_cast<int>(lines.size()) > max_lines) lines.erase(lines.begin());
  }
  std::string tail;
  for (const std::string& line : lines) tail += (tail.empty() ? "" : " | ") + line;
  return tail;
}

}  // namespace fusescope::compare
