#ifndef FUSESCOPE_IMPORTERS_OPEN_ANY_H_
#define FUSESCOPE_IMPORTERS_OPEN_ANY_H_

// Opens whatever a user named (importers/input_kind.h says what it is) with the importer it
// needs, in the form a front needs it: a module for a command that works on one, the text of
// a model for one that compiles it, a recording for the workbench. The command line
// (app/cli/model_loader.h) and the workbench (views/qt/workers/recording_loader.h) both open
// their inputs here, so they read the same formats and say the same things about them.
//
// Importers' warnings (a dump file that would not parse, ONNX dimensions given a default
// size, operations kept opaque) are returned, one line each, never printed. Nothing here
// keeps state: every function can run on any thread.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "importers/input_kind.h"
#include "importers/open_options.h"
#include "ir/module.h"
#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::importers {

struct OpenedModule {
  std::unique_ptr<ir::Module> module;
  // For the record of a compile: which of its snapshots `module` is; -1 for a model.
  int64_t snapshot_index = -1;
  // For a snapshot of an imported MLIR log, stage or TVM folder: the IR as the compiler
  // printed it (recording::FullSourceText) and its language; unset otherwise.
  std::optional<std::string> source_text;
  std::string source_language;
};

struct OpenedModules {
  std::vector<OpenedModule> modules;  // one per pass asked for, in that order
  std::vector<std::string> warnings;
};

// Modules for commands that work on one. A model is imported: HLO text parsed, ONNX lowered,
// a .mlir model mapped (a module that cannot be compiled keeps its operations opaque, said in
// a warning); it has one module, given for every entry of `passes`. The record of a compile
// (a recording, a pass log, a dump or stage folder, a TensorRT engine) is read once and each
// entry of `passes` picks a snapshot: the one after pass N (numbered from 0 as `fusescope
// passes` lists them; -1 the input), the final one when unset. Snapshots of one read share
// their constants' bytes. A lesson or IREE executable files alone are an error saying what
// to do with them.
StatusOr<OpenedModules> OpenModules(const ClassifiedInput& input,
                                    const std::vector<std::optional<int64_t>>& passes,
                                    const OpenOptions& options = {});

struct OpenedModelText {
  std::string text;  // HLO text
  // For a model that is not HLO text (ONNX, .mlir): what it imported to. Its large constants
  // hold bytes that `text` elides, so it is what gets compiled. Null for HLO text.
  std::unique_ptr<ir::Module> module;
  std::vector<std::string> warnings;
};

// The model for our pipeline to compile: HLO text (a file or a sample) verbatim, ONNX or a
// .mlir model imported and printed (a .mlir model that cannot be compiled is an error naming
// the operations without HLO counterpart), an XLA dump folder's default module as XLA
// received it. Other compilers' records (pass logs, stage folders, TensorRT engines) and
// recordings are an error saying so.
StatusOr<OpenedModelText> OpenModelText(const ClassifiedInput& input,
                                        const OpenOptions& options = {});

struct OpenedRecording {
  // Unset for a model our pipeline compiles (a sample, HLO text, ONNX, a .mlir model that
  // maps onto HLO): the caller compiles it (the workbench in a worker process).
  std::optional<recording::Recording> recording;
  std::vector<std::string> warnings;
};

// What the workbench shows: a recording read (.fsdb) or imported (a pass log, a dump, stage,
// tree or TVM folder's passes, a TensorRT engine), a .mlir model that cannot be compiled as a
// recording of its graph alone (with a warning why), or nothing for a model to compile. A
// lesson or IREE executable files alone are an error saying what to do with them.
StatusOr<OpenedRecording> OpenRecording(const ClassifiedInput& input);

}  // namespace fusescope::importers

#endif  // FUSESCOPE_IMPORTERS_OPEN_ANY_H_
