// Usage lines, `fusescope help CMD` and the man page's commands, all written from the
// commands' declarations (command.h).

#include <sstream>

#include "app/cli/command.h"

namespace fusescope::app {
namespace {

constexpr size_t kWidth = 100;
constexpr size_t kLabelWidth = 26;

std::string PositionalWord(const Positional& positional) {
  std::string word = positional.name + (positional.repeats ? "..." : "");
  return positional.optional ? "[" + word + "]" : word;
}

std::string FlagLabel(const Flag& flag) {
  return flag.metavar.empty() || flag.kind == FlagKind::kSwitch ? flag.name
                                                                : flag.name + " " + flag.metavar;
}

// What the help says after the flag's own text: required, default, repeatable.
std::string FlagNotes(const Flag& flag) {
  std::vector<std::string> notes;
  if (flag.required) notes.push_back("required");
  if (!flag.default_value.empty()) notes.push_back("default: " + flag.default_value);
  if (flag.repeats) notes.push_back("repeatable");
  std::string text;
  for (const std::string& note : notes) text += (text.empty() ? "" : "; ") + note;
  return text.empty() ? "" : "(" + text + ")";
}

std::string FlagHelp(const Flag& flag) {
  const std::string notes = FlagNotes(flag);
  if (notes.empty()) return flag.help;
  return flag.help.empty() ? notes : flag.help + " " + notes;
}

// `text` broken into lines of at most `width` characters at spaces.
std::vector<std::string> WrapWords(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string line;
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// "  LABEL   help", the help wrapped in a column of its own; a label too wide for the column
// has its help on the lines below.
void WriteEntry(std::ostream& out, const std::string& label, const std::string& help) {
  const std::string indent(2 + kLabelWidth, ' ');
  const std::vector<std::string> lines = WrapWords(help, kWidth - indent.size());
  out << "  " << label;
  size_t next = 0;
  if (label.size() + 2 <= kLabelWidth && !lines.empty()) {
    out << std::string(kLabelWidth - label.size(), ' ') << lines[next++];
  }
  out << '\n';
  for (; next < lines.size(); ++next) out << indent << lines[next] << '\n';
}

// Text escaped for roff: backslashes and hyphens, and a line that would open with a control
// character.
std::string Roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

}  // namespace

std::string Synopsis(const Command& command) {
  std::string text = command.name;
  for (const Positional& positional : command.positionals) text += " " + PositionalWord(positional);
  bool others = false;
  for (const Flag& flag : command.flags) {
    if (flag.required) {
      text += " " + FlagLabel(flag);
    } else if (!flag.hidden) {
      others = true;
    }
  }
  if (others) text += " [FLAGS]";
  if (!command.standard_input.empty()) text += " < " + command.standard_input;
  return text;
}

void WriteCommandHelp(std::ostream& out, const Command& command) {
  out << "usage: fusescope " << Synopsis(command) << "\n\n";
  for (const std::string& line : WrapWords(command.summary, kWidth)) out << line << '\n';
  if (!command.positionals.empty()) {
    out << "\narguments:\n";
    for (const Positional& positional : command.positionals) {
      WriteEntry(out, positional.name, positional.help);
    }
  }
  out << "\nflags:\n";
  for (const Flag& flag : command.flags) {
    if (!flag.hidden) WriteEntry(out, FlagLabel(flag), FlagHelp(flag));
  }
  WriteEntry(out, "-h, --help", "print this help");
}

void WriteManCommands(std::ostream& out, const std::vector<Command>& commands) {
  for (const Command& command : commands) {
    out << ".TP\n.B " << Roff(Synopsis(command)) << '\n' << Roff(command.summary) << '\n';
    out << ".RS\n";
    for (const Positional& positional : command.positionals) {
      out << ".TP\n.I " << Roff(positional.name) << '\n' << Roff(positional.help) << '\n';
    }
    for (const Flag& flag : command.flags) {
      if (flag.hidden) continue;
      out << ".TP\n\\fB" << Roff(flag.name) << "\\fR";
      if (flag.kind != FlagKind::kSwitch) out << " \\fI" << Roff(flag.metavar) << "\\fR";
      out << '\n' << Roff(FlagHelp(flag)) << '\n';
    }
    out << ".RE\n";
  }
}

}  // namespace fusescope::app
