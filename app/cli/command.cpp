#include "app/cli/command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fusescope::app {
namespace {

std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}

Flag MakeFlag(std::string name, FlagKind kind, std::string metavar, std::string help) {
  Flag flag;
  flag.name = std::move(name);
  flag.kind = kind;
  flag.metavar = std::move(metavar);
  flag.help = std::move(help);
  return flag;
}

std::optional<int64_t> ParseInteger(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<double> ParseNumber(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// The check CLI11 runs on each value of an integer or number flag; its message follows the
// flag's name in the error.
CLI::Validator ValueCheck(const Flag& flag) {
  const bool integer = flag.kind == FlagKind::kInteger;
  const std::optional<double> at_least = flag.at_least;
  return CLI::Validator(
      [integer, at_least](std::string& text) -> std::string {
        std::optional<double> value;
        if (integer) {
          if (auto parsed = ParseInteger(text)) value = static_cast<double>(*parsed);
        } else {
          value = ParseNumber(text);
        }
        const std::string what = integer ? "an integer" : "a number";
        const std::string bound = at_least ? " of at least " + FormatNumber(*at_least) : "";
        if (!value || (at_least && *value < *at_least)) {
          return "needs " + what + bound + ", got '" + text + "'";
        }
        return "";
      },
      integer ? "INTEGER" : "NUMBER");
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string UnknownFlag(const std::vector<Flag>& flags, const std::string& arg) {
  const std::string name = arg.substr(0, arg.find('='));
  const Flag* nearest = nullptr;
  size_t best = std::max<size_t>(2, name.size() / 3) + 1;
  for (const Flag& flag : flags) {
    if (flag.hidden) continue;
    const size_t distance = EditDistance(name, flag.name);
    if (distance < best) {
      best = distance;
      nearest = &flag;
    }
  }
  return "unknown flag " + name + (nearest ? " (did you mean " + nearest->name + "?)" : "");
}

// How often `flag` occurs in `args`, and the first occurrence that gives a switch a value.
struct Occurrences {
  int count = 0;
  std::optional<std::string> with_value;
};

Occurrences Find(const Flag& flag, const std::vector<std::string>& args) {
  Occurrences found;
  for (const std::string& arg : args) {
    if (arg == "--") break;
    const bool exact = arg == flag.name;
    const bool joined = arg.starts_with(flag.name) && arg.size() > flag.name.size() &&
                        (arg[flag.name.size()] == '=' || flag.name.size() == 2);
    if (exact || joined) ++found.count;
    if (joined && !found.with_value) found.with_value = arg;
  }
  return found;
}

// CLI11's error as one line of ours: CLI11 names the flag first ("--pass: ..."); what went
// wrong is read from the arguments themselves, so that the message does not depend on how a
// CLI11 version words it.
std::string Explain(const CLI::ParseError& error, const std::vector<Flag>& flags,
                    const std::vector<std::string>& args) {
  const std::string what = error.what();
  const Flag* flag = nullptr;
  for (const Flag& candidate : flags) {
    const std::string bare = candidate.name.substr(candidate.name.find_first_not_of('-'));
    if (what.starts_with(candidate.name + ":") || what.starts_with(bare + " ")) flag = &candidate;
  }
  if (flag == nullptr) return what;
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) {
    return flag->name + " " + CLI::detail::trim_copy(what.substr(flag->name.size() + 1));
  }
  const Occurrences found = Find(*flag, args);
  if (flag->kind == FlagKind::kSwitch && found.with_value) {
    return flag->name + " takes no value, got '" + *found.with_value + "'";
  }
  if (found.count > 1 && !flag->repeats) {
    return flag->name + " is given " + std::to_string(found.count) + " times; it takes one value";
  }
  return flag->name + " needs a value (" + flag->metavar + ")";
}

[[noreturn]] void Misuse(const std::string& what) {
  std::cerr << "internal error: " << what << '\n';
  std::abort();
}

}  // namespace

Flag Flag::Default(std::string value) && {
  default_value = std::move(value);
  return std::move(*this);
}
Flag Flag::Default(double value) && {
  default_value = FormatNumber(value);
  return std::move(*this);
}
Flag Flag::Repeats() && {
  repeats = true;
  return std::move(*this);
}
Flag Flag::Required() && {
  required = true;
  return std::move(*this);
}
Flag Flag::Mode() && {
  mode = true;
  return std::move(*this);
}
Flag Flag::Hidden() && {
  hidden = true;
  return std::move(*this);
}
Flag Flag::AtLeast(double value) && {
  at_least = value;
  return std::move(*this);
}

Flag Switch(std::string name, std::string help) {
  return MakeFlag(std::move(name), FlagKind::kSwitch, "", std::move(help));
}
Flag Text(std::string name, std::string metavar, std::string help) {
  return MakeFlag(std::move(name), FlagKind::kText, std::move(metavar), std::move(help));
}
Flag Integer(std::string name, std::string metavar, std::string help) {
  return MakeFlag(std::move(name), FlagKind::kInteger, std::move(metavar), std::move(help));
}
Flag Number(std::string name, std::string metavar, std::string help) {
  return MakeFlag(std::move(name), FlagKind::kNumber, std::move(metavar), std::move(help));
}

Positional Positional::Optional() && {
  optional = true;
  return std::move(*this);
}
Positional Positional::Repeats() && {
  repeats = true;
  return std::move(*this);
}

std::string FormatNumber(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::vector<Flag> Concat(std::vector<Flag> flags, const std::vector<Flag>& more) {
  flags.insert(flags.end(), more.begin(), more.end());
  return flags;
}

const Flag& ParsedArgs::Declared(std::string_view flag) const {
  for (const Flag& declared : declared_) {
    if (declared.name == flag) return declared;
  }
  Misuse("flag " + std::string(flag) + " is read but " +
         (command_.empty() ? std::string("not declared") : command_ + " does not declare it"));
}

bool ParsedArgs::Has(std::string_view flag) const {
  Declared(flag);
  return values_.find(flag) != values_.end();
}

std::optional<std::string> ParsedArgs::Value(std::string_view flag) const {
  const Flag& declared = Declared(flag);
  if (auto it = values_.find(flag); it != values_.end() && !it->second.empty()) {
    return it->second.front();
  }
  if (!declared.default_value.empty()) return declared.default_value;
  return std::nullopt;
}

std::vector<std::string> ParsedArgs::Values(std::string_view flag) const {
  Declared(flag);
  auto it = values_.find(flag);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<int64_t> ParsedArgs::IntValue(std::string_view flag) const {
  if (Declared(flag).kind != FlagKind::kInteger) {
    Misuse("flag " + std::string(flag) + " is read as an integer but not declared as one");
  }
  const std::optional<std::string> text = Value(flag);
  if (!text) return std::nullopt;
  const std::optional<int64_t> value = ParseInteger(*text);
  if (!value) Misuse("default of " + std::string(flag) + " is not an integer: " + *text);
  return value;
}

std::optional<double> ParsedArgs::NumberValue(std::string_view flag) const {
  if (Declared(flag).kind != FlagKind::kNumber) {
    Misuse("flag " + std::string(flag) + " is read as a number but not declared as one");
  }
  const std::optional<std::string> text = Value(flag);
  if (!text) return std::nullopt;
  const std::optional<double> value = ParseNumber(*text);
  if (!value) Misuse("default of " + std::string(flag) + " is not a number: " + *text);
  return value;
}

StatusOr<ParsedArgs> ParseFlags(const std::vector<Flag>& flags,
                                const std::vector<std::string>& args) {
  CLI::App app;
  app.set_help_flag("--help,-h");
  // Unknown flags are left for our own message (with a suggestion) rather than CLI11's.
  app.allow_extras();
  std::vector<std::string> positional;
  app.add_option("arguments", positional);
  std::vector<CLI::Option*> options;
  for (const Flag& flag : flags) {
    CLI::Option* option = nullptr;
    if (flag.kind == FlagKind::kSwitch) {
      option = app.add_flag(flag.name)->disable_flag_override();
    } else {
      option = app.add_option(flag.name)->type_name(flag.metavar);
      if (flag.kind != FlagKind::kText) option->check(ValueCheck(flag));
    }
    if (flag.repeats) option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    options.push_back(option);
  }
  ParsedArgs parsed;
  parsed.declared_ = flags;
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::CallForHelp&) {
    parsed.help_ = true;
    return parsed;
  } catch (const CLI::ParseError& error) {
    return Status::Error(Explain(error, flags, args));
  }
  for (const std::string& extra : app.remaining()) {
    if (extra == "--") continue;  // CLI11 keeps the end of the flags among the extras
    if (extra.size() > 1 && extra[0] == '-') return Status::Error(UnknownFlag(flags, extra));
    // Only unknown flags are left over: every other argument is a positional.
    return Status::Error("unexpected argument '" + extra + "'");
  }
  parsed.positional_ = std::move(positional);
  for (size_t i = 0; i < flags.size(); ++i) {
    if (options[i]->count() == 0) continue;
    std::vector<std::string>& values = parsed.values_[flags[i].name];
    if (flags[i].kind != FlagKind::kSwitch) values = options[i]->results();
  }
  return parsed;
}

StatusOr<ParsedArgs> ParseCommandLine(const Command& command,
                                      const std::vector<std::string>& args) {
  auto parsed = ParseFlags(command.flags, args);
  if (!parsed.ok() || parsed->help()) return parsed;
  parsed->command_ = command.name;
  const std::string usage = "; usage: fusescope " + Synopsis(command);
  const std::vector<std::string>& given = parsed->positional();
  size_t required = 0;
  bool unlimited = false;
  for (const Positional& positional : command.positionals) {
    if (!positional.optional) ++required;
    unlimited = unlimited || positional.repeats;
  }
  if (!unlimited && given.size() > command.positionals.size()) {
    return Status::Error("unexpected argument '" + given[command.positionals.size()] + "'" + usage);
  }
  const bool mode = std::any_of(command.flags.begin(), command.flags.end(), [&](const Flag& flag) {
    return flag.mode && parsed->Has(flag.name);
  });
  if (mode) return parsed;
  if (given.size() < required) {
    return Status::Error("missing " + command.positionals[given.size()].name + usage);
  }
  for (const Flag& flag : command.flags) {
    if (flag.required && !parsed->Has(flag.name)) {
      return Status::Error("missing " + flag.name + " " + flag.metavar + usage);
    }
  }
  return parsed;
}

int RunCommand(const Command& command, const std::vector<std::string>& args) {
  auto parsed = ParseCommandLine(command, args);
  if (!parsed.ok()) {
    std::cerr << "fusescope " << command.name << ": " << parsed.message() << '\n';
    return kExitUsage;
  }
  if (parsed->help()) {
    WriteCommandHelp(std::cout, command);
    return 0;
  }
  return command.run(*parsed);
}

void RegisterCommand(Command command) { Registry().push_back(std::move(command)); }

const std::vector<Command>& Commands() { return Registry(); }

const Command* FindCommand(std::string_view name) {
  for (const Command& command : Registry()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

std::string ExecutablePath() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("fusescope") : self.string();
}

int Fail(std::string_view message) {
  std::cerr << message << '\n';
  return kExitFailure;
}

int FailUsage(const ParsedArgs& args, std::string_view problem) {
  const Command* command = FindCommand(args.command());
  std::cerr << "fusescope " << args.command() << ": " << problem;
  if (command != nullptr) std::cerr << "; usage: fusescope " << Synopsis(*command);
  std::cerr << '\n';
  return kExitUsage;
}

}  // namespace fusescope::app
