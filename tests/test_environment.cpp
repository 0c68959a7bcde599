// Linked into every test executable: the process-wide settings the tests rely on, made
// before any test runs.

#include <cstdlib>

namespace {

// The tests compile kernels: none is loaded from the kernel cache on disk
// (runtime/cpu/kernel_disk_cache.h), whatever the environment says. The cache's own tests
// name a cache of their own.
[[maybe_unused]] const bool kKernelCacheOff = [] {
  return setenv("FUSESCOPE_KERNEL_CACHE", "off", 1) == 0;
}();

}  // namespace
