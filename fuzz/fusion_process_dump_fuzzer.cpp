// Feeds arbitrary bytes to the reader of XLA:GPU's fusion process dump (text-format
// FusionProcessDumpProto). It must return steps or one error naming the file, never crash or
// hang; every step it returns names its producer, and an error starts with "FILE:".

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "importers/xla_fusion_process_dump.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto dump = fusescope::ir::ParseXlaFusionProcessDump(text, "dump.txt");
  if (!dump.ok()) {
    if (dump.message().rfind("dump.txt", 0) != 0) {
      std::fprintf(stderr, "error without the file: %s\n", dump.message().c_str());
      std::abort();
    }
    return 0;
  }
  for (const auto& step : dump->steps) {
    if (step.producer_name.empty() || step.line < 1) {
      std::fprintf(stderr, "step without a producer or a line\n");
      std::abort();
    }
  }
  return 0;
}
