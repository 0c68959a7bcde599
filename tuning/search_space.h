#ifndef FUSESCOPE_TUNING_SEARCH_SPACE_H_
#define FUSESCOPE_TUNING_SEARCH_SPACE_H_

// What a tuner searches: knobs and the values each may take, written as one line
// ("tile=0,16,32 vector=4,8,16 unroll=1,2,4 gemm=openblas,onednn,blis,mlir"), and which of
// them matter to a kernel. A loop kernel (an MLIR fusion) is shaped by tile, vector and
// unroll; a dot or convolution by its GEMM library (and by tile, vector and unroll where that
// library is our own MLIR matmul); a dot with a fused epilogue by both. Configurations that
// differ only in knobs a kernel ignores are one configuration.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"
#include "recording/kernel_record.h"
#include "runtime/cpu/kernel_config.h"

namespace fusescope::tuning {

struct Knob {
  std::string name;                 // "tile", "vector", "unroll" or "gemm"
  std::vector<std::string> values;  // as written, duplicates removed
};

class SearchSpace {
 public:
  // Errors name the knob or value: an unknown knob, an empty list, a number out of range, a
  // library this build does not know.
  static StatusOr<SearchSpace> Parse(std::string_view text);
  // tile=0,8,16,32,64 vector=0,4,8,16 unroll=1,2,4 gemm=<the libraries `available`>.
  static SearchSpace Default(const std::vector<std::string>& available_gemm_libraries);

  const std::vector<Knob>& knobs() const { return knobs_; }
  const Knob* Find(std::string_view name) const;
  std::string ToString() const;

 private:
  std::vector<Knob> knobs_;
};

enum class KernelKind {
  kLoops,         // an MLIR kernel: tile, vector, unroll
  kGemm,          // a library dot or convolution: gemm (tile, vector, unroll for gemm=mlir)
  kGemmEpilogue,  // a library call with a compiled epilogue: gemm and the epilogue's lowering
  // A small convolution compiled as our own loop nest: tile, vector and unroll as kLoops, or a
  // library instead (gemm and threads as kGemm; any epilogue keeps the default lowering).
  kConvolutionLoops,
  kFixed,  // runs on the host: nothing to tune
};
const char* KernelKindName(KernelKind kind);
KernelKind KindOf(const recording::KernelRecord& record);

// One candidate of a kernel's space: an index into each of the space's knobs that matter to
// it (SearchSpace::knobs order; -1 for a knob it ignores), and the configuration it makes.
struct Candidate {
  std::vector<int> point;
  runtime::KernelConfig config;
};

// Every distinct configuration of `space` for a kernel of `kind`, in grid order (the last knob
// varies fastest). Knobs the space leaves out take the lowering's defaults.
std::vector<Candidate> CandidatesFor(const SearchSpace& space, KernelKind kind);

}  // namespace fusescope::tuning

#endif  // FUSESCOPE_TUNING_SEARCH_SPACE_H_
