#ifndef FUSESCOPE_APP_CLI_COMMAND_H_
#define FUSESCOPE_APP_CLI_COMMAND_H_

// Headless subcommands of the `fusescope` executable. Each subcommand lives in its own file
// and registers itself with a static CommandRegistrar. Contract (DESIGN.md): human text by
// default, JSON with --json; exit 0 on success, non-zero with one clear line on stderr.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::app {

// Parsed command line of one subcommand: positionals, flags, and flag values.
class ParsedArgs {
 public:
  const std::vector<std::string>& positional() const { return positional_; }
  bool Has(std::string_view flag) const { return flags_.count(std::string(flag)) > 0; }
  std::optional<std::string> Value(std::string_view flag) const;
  // All values of a repeatable flag, in order.
  std::vector<std::string> Values(std::string_view flag) const;
  // The flag's value as an integer: nullopt when absent, an error when not a number.
  StatusOr<std::optional<int64_t>> IntValue(std::string_view flag) const;

 private:
  friend StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>&,
                                        const std::set<std::string>&,
                                        const std::set<std::string>&);
  std::vector<std::string> positional_;
  std::set<std::string> flags_;
  std::multimap<std::string, std::string> values_;
};

// `value_flags` take the next argument (`--pass 3`, also `--pass=3`); `bool_flags` do not.
// Anything else starting with '-' is an error.
StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                               const std::set<std::string>& value_flags,
                               const std::set<std::string>& bool_flags);

struct Command {
  std::string name;
  std::string usage;    // "stats FILE [--json]"
  std::string summary;  // one line
  std::function<int(const std::vector<std::string>& args)> run;
};

void RegisterCommand(Command command);
const std::vector<Command>& Commands();
const Command* FindCommand(std::string_view name);

struct CommandRegistrar {
  explicit CommandRegistrar(Command command) { RegisterCommand(std::move(command)); }
};

// This executable's path (/proc/self/exe), for commands that run another command of ours as a
// child process; "fusescope" (looked up on PATH) when it cannot be read.
std::string ExecutablePath();

// Prints `message` as the one error line and returns the failure exit code.
int Fail(std::string_view message);
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFailure = 1;

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_COMMAND_H_
