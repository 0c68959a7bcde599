#ifndef FUSESCOPE_PROFILER_TENSORRT_PROFILE_H_
#define FUSESCOPE_PROFILER_TENSORRT_PROFILE_H_

// TensorRT's own measurements of an imported engine (importers/tensorrt_engine_importer.h) as
// a profile of the recording's engine snapshot, so that `fusescope hot` and the profile views
// show them like any other.
//
// trtexec reports a layer's total, mean and median over the inferences it profiled, not each
// inference: a kernel keeps one sample, TensorRT's median. Its total is TensorRT's; when the
// inference times are known too, the profile's runs are those timed inferences (their
// latencies, host-to-device copy, compute and device-to-host copy), and a layer's total is its
// mean per inference over that many runs, so that a share is of the end-to-end latency. The
// layers were timed in a profiling run, which synchronises after each layer: their shares can
// add up to more than the latency they are set against, and the profile's settings say so.

#include <optional>
#include <string>

#include "importers/tensorrt_engine_importer.h"
#include "profiler/profile.h"

namespace fusescope::profiler {

// Nullopt when the import has neither a layer profile nor inference times.
std::optional<Profile> TensorRtProfile(const ir::TensorRtImport& imported, std::string label);

}  // namespace fusescope::profiler

#endif  // FUSESCOPE_PROFILER_TENSORRT_PROFILE_H_
