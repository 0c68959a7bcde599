#ifndef FUSESCOPE_RECORDING_KERNEL_STORE_H_
#define FUSESCOPE_RECORDING_KERNEL_STORE_H_

// The kernel level of a recording file: the KernelRecords of compiled snapshots, in tables of
// their own created when the first kernels are added. Adding is one transaction on the
// existing file, so a failure leaves the recording (and its earlier kernels) as they were. A
// recording without kernel tables has no kernels; that is not an error.
//
// A kernel set is what one compile of one snapshot with one set of lowering options made;
// adding the same snapshot and options again replaces that set whole.
//
//   kernel_sets(set_id, snapshot_index, options)        UNIQUE(snapshot_index, options)
//   kernels(kernel_id, set_id, position, name, instruction_id, backend, options,
//           failed_stage, error, note, compile_seconds)  UNIQUE(set_id, name)
//   kernel_stages(kernel_id, position, name, lines, bytes, encoding, text)
//
// A stage's text is stored as is (encoding "plain") or, past kKernelTextCompressBytes,
// zlib-compressed (encoding "zlib"); `bytes` and `lines` describe the text itself, so a
// listing reads neither the texts nor the compressed data. Damage (a missing column, an
// unknown encoding, compressed data that does not inflate to `bytes`) is one error naming
// the file and the kernel tables.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_record.h"

namespace fusescope::recording {

inline constexpr size_t kKernelTextCompressBytes = 4096;

// Stores `records` as the kernels of snapshot `snapshot` compiled with `options`, replacing
// a set stored before for the same snapshot and options. The snapshot must exist in the
// recording; a record's own `snapshot` must be -1 or `snapshot`; kernel names must be
// unique within the set; a record with empty `options` takes the set's.
Status AddKernels(const std::string& path, int snapshot, const std::string& options,
                  const std::vector<KernelRecord>& records);

// Every kernel (with all stage texts) of every set, or of the sets of `snapshot` only; by
// snapshot, then in the order the sets were added, then in each set's order.
StatusOr<std::vector<KernelRecord>> LoadKernels(const std::string& path,
                                                std::optional<int> snapshot = std::nullopt);

struct KernelStageSummary {
  std::string name;
  int64_t lines = 0;
  int64_t bytes = 0;
};

// A kernel without its texts: what a listing shows.
struct KernelSummary {
  std::string kernel;
  int64_t instruction_id = -1;
  int snapshot = -1;
  std::string backend;
  std::string options;
  std::vector<KernelStageSummary> stages;
  std::string failed_stage;
  std::string error;
  std::string note;
  double compile_seconds = 0;
};

// As LoadKernels, without reading any stage text.
StatusOr<std::vector<KernelSummary>> ListKernels(const std::string& path,
                                                 std::optional<int> snapshot = std::nullopt);

// One kernel with its texts: the kernel named `name` of `snapshot`, from the set compiled
// with `options`, or from the set added last when `options` is not given. nullopt when there
// is no such kernel.
StatusOr<std::optional<KernelRecord>> LoadKernel(const std::string& path, int snapshot,
                                                 const std::string& name,
                                                 std::optional<std::string> options = std::nullopt);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_KERNEL_STORE_H_
