#ifndef FUSESCOPE_IMPORTERS_XLA_DUMP_IMPORTER_H_
#define FUSESCOPE_IMPORTERS_XLA_DUMP_IMPORTER_H_

// Turns one module of an XLA dump folder into a recording, as if XLA's passes had run in our
// pipeline: the first snapshot (before optimizations) is the input, every later file is one
// pass, named `<pass> (<pipeline>)` after the `after_<pass>` part of its name (the optimized
// module: `<platform>_after_optimizations`): the pass first, so that a narrow pass list still
// reads like XLA's. The snapshots go through the same Recorder as
// our pipeline's, so every command and view works on the result. Ids and provenance are
// inferred from one file to the next (xla_dump_provenance.h). XLA records no timing and no
// fusion decisions: passes take 0 s and the recording has no decisions.
//
// A file that cannot be read or parsed is left out with a warning ("FILE:LINE:COL: cause"
// for parse errors) and the next good file is compared with the last good one: one broken
// file in a dump of hundreds should not hide the rest. Only when no file parses at all is it
// an error. A file larger than `max_file_bytes` is refused unread.

#include <cstdint>
#include <string>
#include <vector>

#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_provenance.h"
#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::ir {

struct XlaDumpImportOptions {
  int64_t max_file_bytes = int64_t{1} << 30;
};

struct XlaDumpImport {
  recording::Recording recording;
  std::vector<std::string> warnings;  // one line each
  int64_t files_read = 0;             // snapshot files that became snapshots
  ProvenanceCarryCounts carried;      // summed over all passes
};

StatusOr<XlaDumpImport> ImportXlaDumpModule(const XlaDumpModule& module,
                                            const std::string& folder_path,
                                            const XlaDumpImportOptions& options = {});

// The module as XLA received it: the text of its first snapshot file that reads and parses as
// HLO (the files before it that do not, one warning each), without importing the passes
// after it. The error is ImportXlaDumpModule's when no file reads.
struct XlaDumpInputText {
  std::string text;
  std::vector<std::string> warnings;
};
StatusOr<XlaDumpInputText> ReadXlaDumpInputText(const XlaDumpModule& module,
                                                const std::string& folder_path,
                                                const XlaDumpImportOptions& options = {});

// The timeline name of a snapshot file: "algsimp (simplification)", "cpu_after_optimizations".
std::string XlaDumpPassName(const XlaDumpFileName& name);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_XLA_DUMP_IMPORTER_H_
