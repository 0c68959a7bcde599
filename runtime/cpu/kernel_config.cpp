#include "runtime/cpu/kernel_config.h"

#include "runtime/cpu/gemm.h"

#include <algorithm>
#include <sstream>

namespace fusescope::runtime {

const std::vector<std::string>& GemmLibraryNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (GemmLibrary library : AllGemmLibraries()) all.emplace_back(GemmLibraryName(library));
    return all;
  }();
  return names;
}

std::string KernelConfig::ToString() const {
  std::string text = lowering ? lowering->ToString() : std::string();
  if (gemm)
    text += (text.empty() ? "" : " ") + std::string("gemm=") + std::string(GemmLibraryName(*gemm));
  if (threads > 0)
    text += (text.empty() ? "" : " ") + std::string("threads=") + std::to_string(threads);
  return text;
}

StatusOr<KernelConfig> KernelConfig::Parse(std::string_view text) {
  KernelConfig config;
  std::istringstream words{std::string(text)};
  std::string word;
  std::string lowering_words;
  while (words >> word) {
    if (word.rfind("gemm=", 0) == 0) {
      const std::string name = word.substr(5);
      StatusOr<GemmLibrary> library = ParseGemmLibrary(name);
      if (!library.ok())
        return Status::Error("unknown GEMM library '" + name +
                             "' (openblas, onednn, blis, mlir)");
      config.gemm = *library;
      continue;
    }
    if (word.rfind("threads=", 0) == 0) {
      StatusOr<int> threads = ParseGemmThreads(word);
      if (!threads.ok()) return threads.status();
      config.threads = *threads;
      continue;
    }
    lowering_words += (lowering_words.empty() ? "" : " ") + word;
  }
  if (!lowering_words.empty()) {
    StatusOr<LoweringOptions> lowering = LoweringOptions::Parse(lowering_words);
    if (!lowering.ok()) return lowering.status();
    config.lowering = *lowering;
  }
  return config;
}

}  // namespace fusescope::runtime
