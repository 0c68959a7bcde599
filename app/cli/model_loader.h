#ifndef FUSESCOPE_APP_CLI_MODEL_LOADER_H_
#define FUSESCOPE_APP_CLI_MODEL_LOADER_H_

// What the user named on the command line, as a module for a command: an HLO text file, an
// ONNX model (.onnx), a .mlir model (StableHLO/MHLO become HLO; other dialects a graph that
// can be viewed, not compiled), a built-in sample (`sample:NAME`), or the record of a compile
// — a recording (.fsdb), an MLIR pass log, an XLA dump, MLIR tree, stage or TVM DumpIR folder,
// TensorRT's exported layer information (with the layer profile and times beside it) — as
// its final snapshot or the one after pass N. What it is and how it opens is decided by
// importers/input_kind.h and importers/open_any.h, which the workbench uses too; this adds
// the command line's manners: importer warnings (symbolic dimensions given a default size,
// ops kept opaque) go to stderr, one line each.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "importers/open_options.h"
#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::app {

struct LoadedModel {
  std::unique_ptr<ir::Module> module;
  std::string display_name;     // file path or sample name
  int64_t snapshot_index = -1;  // for a recording: which snapshot `module` is; -1 otherwise
  // For a snapshot of an imported MLIR log: the IR as the compiler printed it
  // (recording::FullSourceText) and its language; unset otherwise.
  std::optional<std::string> source_text;
  std::string source_language;
};

// ONNX symbolic dimensions (`--dim NAME=N`); others get the importer's default size.
using ModelLoadOptions = importers::OpenOptions;

// Reads `--dim NAME=N` values (N a positive integer); an error names the malformed one.
StatusOr<ModelLoadOptions> ModelLoadOptionsFromDims(const std::vector<std::string>& dims);

// `pass`: for recordings, the snapshot after pass N (numbered from 0 as `fusescope passes`
// lists them; -1 is the input); the final snapshot when absent. Ignored for HLO text.
StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int64_t> pass = std::nullopt,
                                const ModelLoadOptions& options = {});

// Several snapshots of one recording (.fsdb, MLIR log or XLA dump folder), `passes` as above,
// read from one load: their constants' bytes are then held once, not once per snapshot.
StatusOr<std::vector<LoadedModel>> LoadSnapshots(const std::string& what,
                                                 const std::vector<std::optional<int64_t>>& passes);

// The text of an HLO model (file or `sample:NAME`), for commands that keep the input verbatim;
// an ONNX or .mlir model is imported and printed as HLO text, and `module` is what it imported
// to: its large constants hold bytes that the text elides, so it is what gets compiled.
struct ModelText {
  std::string text;
  std::string display_name;
  std::unique_ptr<ir::Module> module;
};
StatusOr<ModelText> ReadModelText(const std::string& what, const ModelLoadOptions& options = {});

// Whether `path` is a recording (SQLite's header, whatever its name), as
// importers::ClassifyInput tells it.
bool LooksLikeRecording(const std::string& path);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_MODEL_LOADER_H_
