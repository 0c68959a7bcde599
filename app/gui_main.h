#ifndef FUSESCOPE_APP_GUI_MAIN_H_
#define FUSESCOPE_APP_GUI_MAIN_H_

// The workbench entry point: `fusescope`, `fusescope gui [FILE] [--pass N] [--pipeline cpu|gpu]
// [--worker-timeout SECONDS] [--worker-memory MIB] [--heat] [--screenshot OUT.png]`. Without FILE
// the built-in default sample opens, compiled with the cpu pipeline. Compiles run in worker
// processes (this executable, or FUSESCOPE_WORKER when set), stopped after --worker-timeout
// (default 10 minutes) and limited to --worker-memory of address space (default three
// quarters of the machine's memory); 0 lifts either limit. With --screenshot the window is
// rendered offscreen once the graphs are laid out, saved as a PNG, and the program exits (0,
// or 1 with one line on stderr). --heat turns the profile's heat overlay on (a recording
// with a stored profile). --what-if-set KEY=VALUE (repeatable) and --what-if-disable-pass
// NAME (repeatable) run a what-if on the opened model once it is shown (the What If dock),
// and a screenshot waits for its comparison.

namespace fusescope::app {

int GuiMain(int argc, char** argv);

// `gui [FILE|DUMP_DIR] [--pass N] ...`: the workbench's options, for its errors and `help`.
extern const char kGuiUsage[];

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_GUI_MAIN_H_
