#ifndef FUSESCOPE_RUNTIME_CPU_KERNEL_DISK_CACHE_H_
#define FUSESCOPE_RUNTIME_CPU_KERNEL_DISK_CACHE_H_

// Compiled CPU kernels kept between processes: the machine code of a kernel (an ELF object)
// and the stage texts its lowering recorded, under the text of everything that made them.
// The key is the compile's own (lowering options, function, MLIR text) followed by what the
// code depends on besides: LLVM's version, the host CPU and its features, and the build of
// the compiler doing it (runtime/cpu/mlir_kernel_compiler.cpp puts it together). So another
// machine, another LLVM or a rebuilt fusescope never reads code it did not make.
//
// An SQLite file, shared by the processes that use it (WAL, a busy wait): one row per key,
// least recently used rows dropped past a size limit. The cache never fails a compile: when
// the file cannot be opened, is no database or a statement fails, it says so once on stderr
// and is left alone for the rest of the process.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recording/kernel_record.h"

struct sqlite3;

namespace fusescope::runtime {

struct CachedKernel {
  std::string object;                          // the ELF object the JIT made
  std::vector<recording::KernelStage> stages;  // empty when the compile kept none
  double compile_seconds = 0;                  // of the compile that made it
};

class KernelDiskCache {
 public:
  // The cache in the SQLite file `path` (its folder made when missing); `limit_bytes` bounds
  // the objects and stage texts it keeps.
  explicit KernelDiskCache(std::string path, int64_t limit_bytes = kDefaultLimitBytes);
  ~KernelDiskCache();
  KernelDiskCache(const KernelDiskCache&) = delete;
  KernelDiskCache& operator=(const KernelDiskCache&) = delete;

  static constexpr int64_t kDefaultLimitBytes = int64_t{512} << 20;

  // The process's cache, made on first use: $FUSESCOPE_KERNEL_CACHE names its file ("off"
  // turns it off), else $XDG_CACHE_HOME/fusescope/kernels.sqlite, else
  // ~/.cache/fusescope/kernels.sqlite; $FUSESCOPE_KERNEL_CACHE_MB its size limit. Null when
  // off, or when no folder is known.
  static KernelDiskCache* Default();

  // The kernel stored under `key`; with `need_stages`, only one stored with its stages.
  std::optional<CachedKernel> Find(const std::string& key, bool need_stages);
  // Stores (or replaces) the kernel under `key`, then drops the least recently used kernels
  // while the cache holds more than its limit.
  void Store(const std::string& key, const CachedKernel& kernel);
  // Stores every (key, kernel) in one transaction: the kernels of one compile.
  void Store(const std::vector<std::pair<std::string, const CachedKernel*>>& kernels);

  const std::string& path() const { return path_; }
  int64_t limit_bytes() const { return limit_bytes_; }
  // Why the cache is not used, or empty while it is.
  std::string problem() const;
  // Kernels and bytes held now (-1 when the cache is not usable).
  int64_t kernel_count();
  int64_t total_bytes();

 private:
  bool Open();                        // with mutex_ held
  void Fail(const std::string& why);  // with mutex_ held
  int64_t Count(const char* sql);     // with mutex_ held

  std::string path_;
  int64_t limit_bytes_;
  mutable std::mutex mutex_;
  sqlite3* db_ = nullptr;
  bool tried_ = false;
  std::string problem_;
};

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_CPU_KERNEL_DISK_CACHE_H_
