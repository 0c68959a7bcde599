#ifndef FUSESCOPE_COMPARE_PEER_PROCESS_H_
#define FUSESCOPE_COMPARE_PEER_PROCESS_H_

// One adapter run as a child process: its request file on stdin, stdout and stderr into files,
// a wall-clock limit after which its whole process group is killed (an adapter's compiler may
// start processes of its own: iree-compile, TVM's tuning workers). Nothing of the child's
// runs in this process, so a peer that crashes, hangs or exhausts memory is only a finding.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/status.h"

namespace fusescope::compare {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it has no '/'
  std::string stdin_path;         // empty: /dev/null
  std::string stdout_path;
  std::string stderr_path;
  std::map<std::string, std::string> environment;  // added to (or replacing in) ours
  double time_limit_s = 600;
};

struct ProcessOutcome {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it (SIGKILL after a time-out)
  double wall_s = 0;
  int64_t max_rss_bytes = -1;  // the child's resident-set high-water (getrusage of the child)
  std::string start_error;     // why it could not start (exec failed)

  bool exited_cleanly() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exited with 3", "killed by signal 6 (Aborted)", "timed out after 5 s", ...
  std::string Describe() const;
};

// Runs `spec` to its end or its time limit. An error only when the files cannot be opened or
// no process can be made; a program that cannot be executed is an outcome (start_error).
StatusOr<ProcessOutcome> RunProcess(const ProcessSpec& spec);

// The last `max_lines` non-empty lines of a text file (an adapter's stderr), for messages.
std::string TailOfFile(const std::string& path, int max_lines = 3);

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_PEER_PROCESS_H_
