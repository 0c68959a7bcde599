#ifndef FUSESCOPE_IMPORTERS_TENSORRT_LAYER_PROFILE_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_LAYER_PROFILE_H_

// TensorRT's per-layer profile as `trtexec --exportProfile=FILE` writes it:
//
//   [ {"count": N},
//     {"name": LAYER, "timeMs": T, "averageMs": A, "medianMs": M, "percentage": P}, ... ]
//
// N inferences were profiled; T is the layer's time over all of them, A and M its mean and
// median per inference, P its share of the layers' summed time. Layer names are those of the
// layer information (profile suffix included). TensorRT before 8.4 wrote no medianMs. Records of
// another shape are an error "FILE:LINE:COLUMN: cause".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::ir {

struct TensorRtLayerTime {
  std::string name;
  double total_ms = 0;
  double average_ms = 0;
  double median_ms = 0;  // averageMs where the file has no medianMs
  bool has_median = false;
  double percentage = 0;
};

struct TensorRtLayerProfile {
  int64_t count = 0;                      // inferences profiled; 0 when the file does not say
  std::vector<TensorRtLayerTime> layers;  // in written order
};

StatusOr<TensorRtLayerProfile> ParseTensorRtLayerProfile(std::string_view text,
                                                         const std::string& path);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_LAYER_PROFILE_H_
