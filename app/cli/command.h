#ifndef FUSESCOPE_APP_CLI_COMMAND_H_
#define FUSESCOPE_APP_CLI_COMMAND_H_

// Headless subcommands of the `fusescope` executable. Each subcommand lives in its own file
// and registers itself with a static CommandRegistrar. Contract (DESIGN.md): human text by
// default, JSON with --json; exit 0 on success, non-zero with one clear line on stderr.
//
// A command declares its positionals and flags once (Command::positionals, Command::flags):
// the parser, `fusescope help CMD`, the error for a mistyped flag and the man page all come
// from that declaration. Adding a flag is one line in the command's list, e.g.
//   Integer("--reps", "N", "timed runs").Default("10"),

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::app {

// What a flag takes: nothing (a switch), a word, an integer, or a number.
enum class FlagKind { kSwitch, kText, kInteger, kNumber };

struct Flag {
  std::string name;  // "--pass", "-o"
  FlagKind kind = FlagKind::kSwitch;
  std::string metavar;  // the value's name in usage and help: "N", "RUN.fsdb"
  std::string help;
  std::string default_value;  // what ParsedArgs::Value gives when the flag is absent; "": none
  bool repeats = false;       // may be given many times; ParsedArgs::Values has them in order
  bool required = false;      // the command needs it (unless a mode flag is given)
  // Another use of the command (`compile --list-options`): with it, the required positionals
  // and flags are not checked here; the command checks what that use needs.
  bool mode = false;
  bool hidden = false;             // accepted, left out of help
  std::optional<double> at_least;  // integers and numbers: the smallest value accepted

  Flag Default(std::string value) &&;
  Flag Default(double value) &&;  // written as std::ostream writes it: 0.25, 1e-05
  Flag Repeats() &&;
  Flag Required() &&;
  Flag Mode() &&;
  Flag Hidden() &&;
  Flag AtLeast(double value) &&;
};

Flag Switch(std::string name, std::string help);
Flag Text(std::string name, std::string metavar, std::string help);
Flag Integer(std::string name, std::string metavar, std::string help);
Flag Number(std::string name, std::string metavar, std::string help);

struct Positional {
  std::string name;  // "MODEL", "RUN.fsdb"
  std::string help;
  bool optional = false;
  bool repeats = false;

  Positional Optional() &&;
  Positional Repeats() &&;
};

// `flags` followed by `more`: a command's own flags after a shared set (PipelineFlags()).
std::vector<Flag> Concat(std::vector<Flag> flags, const std::vector<Flag>& more);

// A number as help and defaults show it (as std::ostream writes it: 0.25, 1e-05).
std::string FormatNumber(double value);

// Parsed command line of one subcommand: positionals, and the declared flags' values. Reading
// a flag the command did not declare (or an integer accessor on a flag of another kind) is a
// mistake in the program: it aborts with a message naming the flag.
class ParsedArgs {
 public:
  const std::string& command() const { return command_; }
  const std::vector<std::string>& positional() const { return positional_; }
  // Whether the flag was given on the command line.
  bool Has(std::string_view flag) const;
  // The value given (a flag that repeats: the first), else the declared default, else nullopt.
  std::optional<std::string> Value(std::string_view flag) const;
  // All values of a repeatable flag, in order.
  std::vector<std::string> Values(std::string_view flag) const;
  // Value() of a FlagKind::kInteger (kNumber) flag; the parser has checked that it is one.
  std::optional<int64_t> IntValue(std::string_view flag) const;
  std::optional<double> NumberValue(std::string_view flag) const;
  // `fusescope CMD --help`.
  bool help() const { return help_; }

 private:
  friend StatusOr<ParsedArgs> ParseFlags(const std::vector<Flag>&, const std::vector<std::string>&);
  friend StatusOr<ParsedArgs> ParseCommandLine(const struct Command&,
                                               const std::vector<std::string>&);
  const Flag& Declared(std::string_view flag) const;

  std::string command_;
  std::vector<std::string> positional_;
  std::vector<Flag> declared_;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;  // flags given
  bool help_ = false;
};

// Parses `args` as `flags` declare them (`--pass 3`, `--pass=3`, `-o FILE`, `-oFILE`);
// anything else not starting with '-' is a positional. The error is one line without the
// command's name: "unknown flag --pas (did you mean --pass?)", "--pass needs a value (N)",
// "--pass needs an integer, got 'x'", "--json takes no value, got '--json=1'", "--pass is
// given twice; it takes one value".
StatusOr<ParsedArgs> ParseFlags(const std::vector<Flag>& flags,
                                const std::vector<std::string>& args);

struct Command {
  std::string name;
  std::string summary;  // one line
  std::vector<Positional> positionals;
  std::vector<Flag> flags;
  std::function<int(const ParsedArgs& args)> run;
  std::string standard_input;  // what the command reads on stdin, for its usage: "REQUEST.json"
  // Whether it may run compiled kernels or GEMMs: only then does main start the process again
  // for OpenBLAS's better kernels (RestartForBetterOpenBlasKernels), which costs a second
  // process start (about 60 ms here).
  bool runs_kernels = true;
};

// ParseFlags, then the positionals and required flags `command` declares; their errors end
// with the command's usage line.
StatusOr<ParsedArgs> ParseCommandLine(const Command& command, const std::vector<std::string>& args);

// Parses and runs `command`: its help with --help, one line
// "fusescope NAME: PROBLEM" and kExitUsage for a command line it does not take.
int RunCommand(const Command& command, const std::vector<std::string>& args);

void RegisterCommand(Command command);
const std::vector<Command>& Commands();
const Command* FindCommand(std::string_view name);

struct CommandRegistrar {
  explicit CommandRegistrar(Command command) { RegisterCommand(std::move(command)); }
};

// "compile MODEL -o RUN.fsdb [FLAGS]": positionals, required flags, then [FLAGS] when there are
// others.
std::string Synopsis(const Command& command);
// `fusescope help CMD`: usage, summary, every positional and visible flag with its help, value
// name, default, and whether it repeats.
void WriteCommandHelp(std::ostream& out, const Command& command);
// The commands of the man page, fusescope(1), in roff: each command's usage and summary, then
// its flags as in WriteCommandHelp.
void WriteManCommands(std::ostream& out, const std::vector<Command>& commands);

// This executable's path (/proc/self/exe), for commands that run another command of ours as a
// child process; "fusescope" (looked up on PATH) when it cannot be read.
std::string ExecutablePath();

// Prints `message` as the one error line and returns the failure exit code.
int Fail(std::string_view message);
// "fusescope NAME: PROBLEM; usage: fusescope NAME SYNOPSIS" and kExitUsage: a command line
// that a command's own checks refuse (flags that exclude each other, a form it does not take).
int FailUsage(const ParsedArgs& args, std::string_view problem);
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFailure = 1;

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_COMMAND_H_
