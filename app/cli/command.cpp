#include "app/cli/command.h"

#include <charconv>
#include <filesystem>
#include <iostream>

namespace fusescope::app {
namespace {

std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}

}  // namespace

std::optional<std::string> ParsedArgs::Value(std::string_view flag) const {
  auto it = values_.find(std::string(flag));
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> ParsedArgs::Values(std::string_view flag) const {
  std::vector<std::string> result;
  auto [begin, end] = values_.equal_range(std::string(flag));
  for (auto it = begin; it != end; ++it) result.push_back(it->second);
  return result;
}

StatusOr<std::optional<int64_t>> ParsedArgs::IntValue(std::string_view flag) const {
  std::optional<std::string> text = Value(flag);
  if (!text) return std::optional<int64_t>();
  int64_t value = 0;
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end || text->empty()) {
    return Status::Error("option " + std::string(flag) + " needs an integer, got '" + *text + "'");
  }
  return std::optional<int64_t>(value);
}

StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                               const std::set<std::string>& value_flags,
                               const std::set<std::string>& bool_flags) {
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      parsed.positional_.push_back(arg);
      continue;
    }
    std::string flag = arg;
    std::optional<std::string> inline_value;
    if (const size_t eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      flag = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    if (value_flags.count(flag)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return Status::Error("option " + flag + " needs a value");
        inline_value = args[++i];
      }
      parsed.flags_.insert(flag);
      parsed.values_.emplace(flag, *inline_value);
    } else if (bool_flags.count(flag) && !inline_value) {
      parsed.flags_.insert(flag);
    } else {
      return Status::Error("unknown option " + arg);
    }
  }
  return parsed;
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

}  // namespace fusescope::app
