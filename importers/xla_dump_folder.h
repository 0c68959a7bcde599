#ifndef FUSESCOPE_IMPORTERS_XLA_DUMP_FOLDER_H_
#define FUSESCOPE_IMPORTERS_XLA_DUMP_FOLDER_H_

// The contents of an XLA dump folder, read from file names only: the HLO snapshots grouped
// by module and put in compilation order, and every other entry with why it is not one.
// One folder holds every module a program jitted (a model's own module next to dozens of
// helper modules from weight initialisation), so callers pick one (SelectModule).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "importers/xla_dump_file_name.h"
#include "ir/status.h"

namespace fusescope::ir {

struct XlaDumpSnapshotFile {
  std::string path;       // folder/name
  std::string file_name;  // name only
  XlaDumpFileName name;
  int64_t bytes = 0;
};

struct XlaDumpModule {
  int64_t id = 0;
  std::string name;
  // Before-optimizations first, then the pass snapshots by ordinal, after-optimizations last.
  std::vector<XlaDumpSnapshotFile> snapshots;
  int64_t bytes = 0;     // of the snapshots
  std::string platform;  // from the after-optimizations file; "" when there is none
  // XLA:GPU's record of its priority fusion (`<label>.priority_fusion_dump.txt`,
  // xla_fusion_process_dump.h), when the folder has one; "" otherwise.
  std::string fusion_process_dump;

  // "module_0068.jit_gpt_block"
  std::string Label() const;
};

// An entry that is not an HLO snapshot, with the reason in a few words.
struct XlaDumpSkippedEntry {
  std::string file_name;
  std::string reason;
  int64_t module_id = -1;  // -1 when it belongs to no module
};

struct XlaDumpFolder {
  std::string path;
  std::vector<XlaDumpModule> modules;        // by module id
  std::vector<XlaDumpSkippedEntry> skipped;  // by file name

  // The module to show when none is named: the largest whose jitted name no other module
  // shares (a model's own module; jax's weight-initialisation helpers such as jit__normal are
  // compiled once per call site and can be larger), else the largest. nullptr when none.
  const XlaDumpModule* Default() const;
  // By label ("module_0003.jit_mlp"), "module_0003", id ("3", "0003") or jitted name
  // ("jit_mlp"). An error lists the modules there are, or those that share the name.
  StatusOr<const XlaDumpModule*> Find(std::string_view which) const;
};

// Lists `path` (not its sub-folders). Errors: the folder is missing, not a folder, or cannot
// be listed; it holds no HLO snapshot at all ("DIR: no XLA HLO dump files ...").
StatusOr<XlaDumpFolder> ScanXlaDumpFolder(const std::string& path);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_XLA_DUMP_FOLDER_H_
