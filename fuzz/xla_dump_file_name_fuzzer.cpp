// Feeds arbitrary bytes to the XLA dump file-name reader as a file name. Whatever it reads as
// an HLO snapshot must have its parts (a module name; for a pass snapshot a pipeline and a
// pass), and writing those parts back into a name the way XLA does must read back as the
// same parts. Anything else aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "importers/xla_dump_file_name.h"

namespace {

using fusescope::ir::XlaDumpFileName;

[[noreturn]] void Die(std::string_view what, std::string_view name) {
  std::fprintf(stderr, "%.*s\nname: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(name.size()), name.data());
  std::abort();
}

std::string Padded(int64_t number) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%04lld", static_cast<long long>(number));
  return digits;
}

// The name XLA would give a file with these parts.
std::string Compose(const XlaDumpFileName& name) {
  std::string text = "module_" + Padded(name.module_id) + "." + name.module_name + ".";
  switch (name.kind) {
    case XlaDumpFileName::Kind::kBeforeOptimizations:
      return text + "before_optimizations.txt";
    case XlaDumpFileName::Kind::kAfterOptimizations:
      return text + name.platform + "_after_optimizations.txt";
    case XlaDumpFileName::Kind::kPass:
      text += Padded(name.ordinal) + "." + name.pipeline + ".after_" + name.pass;
      if (!name.next_pass.empty()) text += ".before_" + name.next_pass;
      return text + ".txt";
    case XlaDumpFileName::Kind::kNotHlo:
      break;
  }
  return text;
}

bool SameParts(const XlaDumpFileName& a, const XlaDumpFileName& b) {
  return a.kind == b.kind && a.module_id == b.module_id && a.module_name == b.module_name &&
         a.ordinal == b.ordinal && a.pipeline == b.pipeline && a.pass == b.pass &&
         a.next_pass == b.next_pass && a.platform == b.platform;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto name = fusescope::ir::ParseXlaDumpFileName(text);
  if (!name) return 0;
  if (name->module_id < 0) Die("negative module id", text);
  if (!name->IsHloSnapshot()) {
    if (name->what.empty()) Die("a skipped file without a reason", text);
    return 0;
  }
  if (name->module_name.empty()) Die("a snapshot without a module name", text);
  if (name->kind == XlaDumpFileName::Kind::kPass &&
      (name->ordinal < 0 || name->pipeline.empty() || name->pass.empty())) {
    Die("a pass snapshot without ordinal, pipeline or pass", text);
  }
  if (name->kind == XlaDumpFileName::Kind::kAfterOptimizations && name->platform.empty()) {
    Die("an optimized module without a platform", text);
  }
  const std::string composed = Compose(*name);
  const auto again = fusescope::ir::ParseXlaDumpFileName(composed);
  if (!again || !SameParts(*name, *again)) Die("parts do not read back from " + composed, text);
  return 0;
}
