// Builds a valid module from the fuzzer's bytes and runs both built-in pipelines on it with
// the verifier between passes. Aborts, printing the module and the cause, when the generator
// wrote an invalid module (a generator bug) or a pipeline fails on a valid one (a pass bug).
// ASan and UBSan in the fuzz build turn memory errors in the passes into crashes too.
//
// An input that starts with "HloModule" is read as HLO text instead: the modules of bugs
// found earlier stay in the corpus that way, reproducible whatever the generator becomes.
// Text that does not parse or verify is skipped; only valid modules must compile.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/module_generator.h"
#include "fuzz/pipeline_check.h"
#include "ir/hlo_parser.h"
#include "ir/verifier.h"

namespace {

[[noreturn]] void Die(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "%s\n%s\n", what.c_str(), detail.c_str());
  std::abort();
}

void CheckHloText(std::string_view text) {
  auto module = fusescope::ir::ParseHloModule(text, "corpus");
  if (!module.ok() || !fusescope::ir::VerifyModule(**module).ok()) return;
  fusescope::Status status = fusescope::fuzz::CheckBuiltinPipelines(**module, {.record = true});
  if (!status.ok()) Die("pass bug: " + status.message(), std::string(text));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.starts_with("HloModule")) {
    CheckHloText(bytes);
    return 0;
  }
  auto module = fusescope::fuzz::GenerateModule(data, size);
  if (!module.ok()) Die("generator bug:", module.message());
  // The last byte decides whether the gpu run goes through the recorder; generation reads
  // from the front, so this rarely changes the module itself.
  fusescope::fuzz::PipelineCheckOptions options;
  options.record = size > 0 && (data[size - 1] & 1) != 0;
  fusescope::Status status = fusescope::fuzz::CheckBuiltinPipelines(**module, options);
  if (!status.ok()) {
    Die("pass bug: " + status.message(), fusescope::fuzz::GenerateModuleText(data, size));
  }
  return 0;
}
