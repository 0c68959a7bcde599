#ifndef FUSESCOPE_COMPARE_PROCESS_MEMORY_H_
#define FUSESCOPE_COMPARE_PROCESS_MEMORY_H_

// This process's resident-set high-water (VmHWM), and resetting it, so that one adapter
// process can report the peak of its build and the peak of its run apart (Linux: writing 5
// to /proc/self/clear_refs resets the high-water to the current resident set).

#include <cstdint>

namespace fusescope::compare {

// Bytes, or -1 where /proc cannot tell.
int64_t PeakResidentBytes();
// False where the kernel refuses (then the run's peak includes the build's).
bool ResetPeakResident();

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_PROCESS_MEMORY_H_
