#ifndef FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_IMPORTER_H_
#define FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_IMPORTER_H_

// Turns an MLIR pass log (`--mlir-print-ir-after-all` of mlir-opt or iree-compile) into a
// recording, as the XLA dump importer does for XLA: the first section is the input, every
// later section one pass named as its header names it ("Canonicalizer (canonicalize)"). Each
// section is read by libMLIR and, where libMLIR refuses it (the pretty form of stablehlo,
// IREE's dialects, ...), by the tolerant reader; both give the same operation tree, which
// becomes our IR (mlir_module_builder.h). A scoped section (`('func.func' operation: @f)`,
// or a bare function after a whole module) replaces only that function in the IR carried
// from section to section. Ids and provenance are inferred from one section to the next
// (xla_dump_provenance.h). A `Before` dump that shows the IR unchanged adds nothing; a
// `Failed` section ends the recording with a failed pass whose error is the diagnostics
// printed before it. A log cut off inside a section keeps what was read of it, with a
// warning; a section that yields no operation is left out with a warning
// ("FILE:LINE:COL: cause"). Only when no section reads at all is it an error. A file larger
// than `max_file_bytes` is refused unread. MLIR records no timing: passes take 0 s. Every
// snapshot keeps its section's text verbatim (Recording::sources), which is what the IR panel
// and `fusescope print` show of an MLIR recording.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "importers/xla_dump_provenance.h"
#include "ir/status.h"
#include "recording/recording.h"

namespace fusescope::recording {
class Recorder;
}  // namespace fusescope::recording

namespace fusescope::ir::mlir_import {

struct MlirLogImportOptions {
  int64_t max_file_bytes = int64_t{1} << 30;
  bool use_mlir_library = true;  // false: the tolerant reader alone
  // For a text put together from several files (a stage folder): the file a line of the text
  // came from and its line there, for warnings and the passes' stats. Unset: the log itself.
  std::function<std::pair<std::string, int64_t>(int64_t line)> origin;
};

// How one section was read.
struct MlirLogSectionReport {
  int64_t header_line = 0;  // in the log; 0 for a stage file
  std::string file;         // the stage file it was (stage folders); empty for a log
  std::string pass;         // display name
  bool read_by_mlir = false;
  std::string mlir_error;  // why libMLIR refused it, when it did
  int64_t operations = 0;  // read from the section (nested ones included)
  bool scoped = false;
  bool skipped = false;  // no operation read, or a Before dump of unchanged IR
};

struct MlirLogImport {
  recording::Recording recording;
  std::vector<std::string> warnings;  // one line each
  std::vector<MlirLogSectionReport> sections;
  int64_t refused_by_mlir = 0;  // sections libMLIR refused (all of them read tolerantly)
  bool cut_off = false;         // the log ends inside a section
  ProvenanceCarryCounts carried;
};

StatusOr<MlirLogImport> ImportMlirLogText(std::string_view text, const std::string& path,
                                          const MlirLogImportOptions& options = {});
StatusOr<MlirLogImport> ImportMlirLogFile(const std::string& path,
                                          const MlirLogImportOptions& options = {});

// How an import of another compiler's stages ends: the recorder's recording after `last`,
// untimed (the compiler records no pass times) and marked imported, with `sources` when there
// is one per snapshot.
recording::Recording FinishImportedRecording(recording::Recorder& recorder, const Module& last,
                                             std::vector<recording::SnapshotSource> sources);

// A folder's name as a recording's model name (its parent's for "dir/."); `fallback` if none.
std::string FolderModelName(const std::string& folder, const std::string& fallback);

// Reads a whole file no larger than `max_bytes` (refused unread otherwise).
StatusOr<std::string> ReadTextFile(const std::string& path, int64_t max_bytes);

}  // namespace fusescope::ir::mlir_import

#endif  // FUSESCOPE_IMPORTERS_MLIR_MLIR_LOG_IMPORTER_H_
