#ifndef FUSESCOPE_IMPORTERS_INPUT_KIND_H_
#define FUSESCOPE_IMPORTERS_INPUT_KIND_H_

// What a user can name — on the command line, in the workbench's Open dialogs, dropped on
// its window — told apart in one place, so that a format the command line reads the
// workbench opens too. Opening it is importers/open_any.h.
//
// Names are tried in this order, the first that fits wins:
//   `sample:NAME`                       a built-in sample model (resources/samples.h)
//   `lesson:NAME`, a `.lesson` file     a lesson (views/lesson.h runs it)
//   a folder                            an MLIR tree dump (--mlir-print-ir-tree-dir), a TVM
//                                       DumpIR folder, a folder of numbered MLIR stage files,
//                                       IREE executable files, an XLA dump folder
//   a file, by its content              a recording (SQLite's header), an MLIR pass log (an
//                                       `// -----// IR Dump` header in its first 64 KiB),
//                                       TensorRT layer information (a JSON object opening
//                                       with "Layers" or "Bindings")
//   a file, by its name                 `.onnx`, `.mlir`, `.fsdb`, `.hlo` and `.txt`
//   a file, by its content again        HLO text (`HloModule` first, after comments)
// Anything else is an error naming the path and what was tried.

#include <string>
#include <string_view>

#include "ir/status.h"

namespace fusescope::importers {

enum class InputKind {
  kSample,
  kLesson,
  kRecording,
  kHloText,
  kOnnxModel,
  kMlirModel,
  kMlirPassLog,
  kTensorRtLayerInfo,
  kXlaDumpFolder,
  kMlirTreeFolder,
  kMlirStageFolder,
  kTvmDumpFolder,
  kInductorTrace,
  kIreeExecutableFolder,
};

// "XLA dump folder", "MLIR pass log", ...: for messages.
std::string_view KindName(InputKind kind);

struct ClassifiedInput {
  InputKind kind = InputKind::kHloText;
  std::string what;    // as the user named it: a path, or `sample:NAME` / `lesson:NAME`
  std::string reason;  // why it is that kind, in a few words ("starts with SQLite's header")

  // A model our pipeline compiles (a sample, HLO text, ONNX, a .mlir model), as opposed to
  // the record of a compile (a recording, a pass log, a dump folder, a TensorRT engine).
  bool IsModel() const;
};

// Looks at `what` (its name, a file's first 64 KiB, a folder's entries) and says what it is.
// Errors: no such file or folder, no built-in sample or lesson of that name, a file that
// cannot be read, or something that is none of the kinds above (the message names the path
// and lists what was tried).
StatusOr<ClassifiedInput> ClassifyInput(const std::string& what);

// True when `path` is a file that starts with SQLite's header, whatever its name: how a
// recording (.fsdb) is told apart.
bool IsRecordingFile(const std::string& path);

}  // namespace fusescope::importers

#endif  // FUSESCOPE_IMPORTERS_INPUT_KIND_H_
