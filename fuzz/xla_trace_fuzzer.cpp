// Arbitrary bytes as a profiler trace file (plain JSON or gzip): the JSON reader, the gzip
// decoder with its size bound, and the mapping onto a module must give a value or one error,
// never crash, hang or allocate without bound.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ir/hlo_parser.h"
#include "profiler/xla_trace.h"

namespace {

const fusescope::ir::Module& TargetModule() {
  static const std::unique_ptr<fusescope::ir::Module> module = [] {
    auto parsed = fusescope::ir::ParseHloModule(R"(
HloModule jit_f
fused {
  p = f32[8] parameter(0)
  ROOT e = f32[8] exponential(p), metadata={op_name="jit(f)/exp" source_file="f.py" source_line=3}
}
ENTRY main {
  x = f32[8] parameter(0)
  ROOT exp_fusion = f32[8] fusion(x), kind=kLoop, calls=fused
})");
    return parsed.ok() ? std::move(*parsed) : nullptr;
  }();
  return *module;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto trace = fusescope::profiler::DecodeXlaTrace(std::move(bytes), "fuzz", 1 << 24);
  if (!trace.ok()) return 0;
  auto profile = fusescope::profiler::MapTraceOntoModule(*trace, TargetModule());
  (void)profile;
  return 0;
}
