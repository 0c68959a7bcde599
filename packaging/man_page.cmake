# Writes OUT, the man page fusescope(1), from the executable's own `--help` (FUSESCOPE), so
# that its commands, flags and summaries never drift from what the program accepts.
execute_process(COMMAND ${FUSESCOPE} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "fusescope --help failed: ${failed}")
endif()
string(REPLACE "\\" "\\\\" help "${help}")
string(REPLACE "-" "\\-" help "${help}")
string(REGEX REPLACE "\n$" "" help "${help}")
string(REPLACE ";" "@SEMICOLON@" help "${help}")
string(REPLACE "\n" ";" lines "${help}")
set(body "")
foreach(line IN LISTS lines)
  string(REPLACE "@SEMICOLON@" ";" line "${line}")
  if(line MATCHES "^  ([a-z].*)$")
    string(APPEND body ".TP\n.B ${CMAKE_MATCH_1}\n")
  elseif(line MATCHES "^      (.*)$")
    string(APPEND body "${CMAKE_MATCH_1}\n")
  endif()
endforeach()
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
is one line on standard error and a non-zero exit status.
.SH COMMANDS
${body}.SH FILES
.TP
.I *.fsdb
a recording: every snapshot of a compilation, its fusion decisions, kernels and profiles
(SQLite).
.SH SEE ALSO
\\fBfusescope explain \\-\\-list\\fR for what each compiler pass does.
")
