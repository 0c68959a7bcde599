#ifndef FUSESCOPE_RECORDING_SNAPSHOT_SOURCE_H_
#define FUSESCOPE_RECORDING_SNAPSHOT_SOURCE_H_

// The text a compiler itself printed for a snapshot, kept verbatim beside our HLO-like
// rendering of it: for an MLIR pass log, each section's IR exactly as the log has it, so that
// the IR panel and `fusescope print` show the language the compiler's engineers read. A scoped
// section (`('func.func' operation: @f)`) holds only the function the pass ran on; the whole
// IR after it is the last whole section with the scoped ones since spliced in, which
// FullSourceText rebuilds. Stored compressed (recording_writer.h, table snapshot_sources).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace fusescope::recording {

struct SnapshotSource {
  std::string language;         // "mlir"; empty: the snapshot has no source text
  std::string scope_operation;  // "func.func" for a scoped section; empty for the whole IR
  std::string scope_symbol;     // "main", without `@`
  std::string text;             // as printed

  bool empty() const { return language.empty(); }
  bool scoped() const { return !scope_operation.empty(); }
};

// The whole IR's text at snapshot `index` of `sources` (one per snapshot); nullopt when that
// snapshot has no source text. A scoped section whose function is not in the text before it
// is added at its end.
std::optional<std::string> FullSourceText(const std::vector<SnapshotSource>& sources, size_t index);

// `text` with the operation `operation @symbol` (its header line through the end of its
// region, found by brace depth outside string literals) replaced by `replacement`, indented
// as the operation it replaces was; nullopt when `text` has no such operation.
std::optional<std::string> SpliceOperation(const std::string& text, const std::string& operation,
                                           const std::string& symbol,
                                           const std::string& replacement);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_SNAPSHOT_SOURCE_H_
