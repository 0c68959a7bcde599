#ifndef FUSESCOPE_APP_CLI_MODEL_LOADER_H_
#define FUSESCOPE_APP_CLI_MODEL_LOADER_H_

// Resolves what the user named on the command line to a module: an HLO text file, a built-in
// sample (`sample:NAME`), or a recording (.fsdb: its final snapshot, or the one after pass N).

#include <memory>
#include <optional>
#include <string>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::app {

struct LoadedModel {
  std::unique_ptr<ir::Module> module;
  std::string display_name;  // file path or sample name
};

// `pass`: for recordings, the snapshot after that pass (0 = the input); ignored otherwise.
StatusOr<LoadedModel> LoadModel(const std::string& what, std::optional<int> pass = std::nullopt);

// True when the file starts with SQLite's magic header.
bool LooksLikeRecording(const std::string& path);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_MODEL_LOADER_H_
