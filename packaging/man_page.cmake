# Writes OUT, the man page fusescope(1), from the executable itself (FUSESCOPE): the COMMANDS
# section is `fusescope help --man`, every command's usage and summary and each of its flags
# with its help and default, written from the same declarations the command line is parsed by,
# so that the page never drifts from what the program accepts.
execute_process(COMMAND ${FUSESCOPE} help --man OUTPUT_VARIABLE body RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "fusescope help --man failed: ${failed}")
endif()
file(WRITE ${OUT} ".TH FUSESCOPE 1 \"\" \"fusescope ${VERSION}\" \"User Commands\"
.SH NAME
fusescope \\- a workbench for ML graph compilers: passes, fusion decisions, kernels, profiles
.SH SYNOPSIS
.B fusescope
[\\fICOMMAND\\fR] [\\fIARGS\\fR]
.SH DESCRIPTION
Without a command, or with \\fBgui\\fR, fusescope opens the workbench on a file (an HLO text,
ONNX or .mlir model, a recording, an MLIR pass log, an XLA dump folder) or on a built-in
sample. Every other command runs headless and prints JSON with \\fB\\-\\-json\\fR; an error
is one line on standard error and a non-zero exit status (2 for a command line the command
does not take). \\fBfusescope help\\fR \\fICOMMAND\\fR (or \\fBfusescope\\fR \\fICOMMAND\\fR
\\fB\\-\\-help\\fR) prints one command's usage and flags.
.SH COMMANDS
${body}.SH FILES
.TP
.I *.fsdb
a recording: every snapshot of a compilation, its fusion decisions, kernels and profiles
(SQLite).
.SH SEE ALSO
\\fBfusescope explain \\-\\-list\\fR for what each compiler pass does.
")
