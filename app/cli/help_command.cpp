// `fusescope help [COMMAND]` (also `fusescope --help`, `fusescope COMMAND --help`): the
// commands with their usage lines, or one command's usage and every flag, written from the
// commands' declarations. `help --man` writes the man page's commands in roff for
// packaging/man_page.cmake.

#include <iostream>

#include "app/cli/command.h"
#ifdef FUSESCOPE_HAVE_GUI
#include "app/gui_main.h"
#endif

namespace fusescope::app {
namespace {

#ifdef FUSESCOPE_HAVE_GUI
// The workbench parses its own options (app/gui_main.cpp, kGuiUsage).
constexpr char kGuiSummary[] =
    "open the workbench (a lesson in presenter mode, N stages side by side, a what-if)";
#endif

void WriteCommandList(std::ostream& out) {
  out << "usage: fusescope [COMMAND] [ARGS] | fusescope --version\n\ncommands:\n";
#ifdef FUSESCOPE_HAVE_GUI
  out << "  " << kGuiUsage << "\n      " << kGuiSummary << '\n';
#endif
  for (const Command& command : Commands()) {
    out << "  " << Synopsis(command) << "\n      " << command.summary << '\n';
  }
  out << "\n`fusescope help COMMAND` (or `fusescope COMMAND --help`) lists a command's flags.\n";
}

void WriteMan(std::ostream& out) {
#ifdef FUSESCOPE_HAVE_GUI
  Command gui;
  gui.name = kGuiUsage;
  gui.summary = kGuiSummary;
  WriteManCommands(out, {gui});
#endif
  WriteManCommands(out, Commands());
}

int RunHelp(const ParsedArgs& args) {
  if (args.Has("--man")) {
    WriteMan(std::cout);
    return 0;
  }
  if (args.positional().empty()) {
    WriteCommandList(std::cout);
    return 0;
  }
  const std::string& name = args.positional()[0];
#ifdef FUSESCOPE_HAVE_GUI
  if (name == "gui") {
    std::cout << "usage: fusescope " << kGuiUsage << "\n\n" << kGuiSummary << '\n';
    return 0;
  }
#endif
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    std::cerr << "unknown command '" << name << "'; see `fusescope --help`\n";
    return kExitUsage;
  }
  WriteCommandHelp(std::cout, *command);
  return 0;
}

const CommandRegistrar kRegistrar({
    .name = "help",
    .summary = "the commands; with COMMAND, its usage and every flag with its help and default",
    .positionals = {Positional{"COMMAND", "the command to describe"}.Optional()},
    .flags =
        {
            Switch("--man", "the man page's commands, in roff").Hidden(),
        },
    .run = RunHelp,
    .runs_kernels = false,
});

}  // namespace
}  // namespace fusescope::app
