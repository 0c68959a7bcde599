// Feeds arbitrary bytes to the HLO parser. Whatever parses must print, re-parse and print the
// same text again (the printer's fixed point) with the same fingerprint; whatever does not
// parse must fail with one "FILE:LINE:COL: cause" line. Anything else aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"

namespace {

[[noreturn]] void Die(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void CheckErrorLine(const std::string& message) {
  if (!message.starts_with("fuzz:") || message.find('\n') != std::string::npos) {
    Die("parser error is not one FILE:LINE:COL line:", message);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = fusescope::ir::ParseHloModule(text, "fuzz");
  if (!module.ok()) {
    CheckErrorLine(module.message());
    return 0;
  }
  const std::string printed = fusescope::ir::PrintModule(**module);
  auto reparsed = fusescope::ir::ParseHloModule(printed, "printed");
  if (!reparsed.ok()) Die("printed text does not parse: " + reparsed.message(), printed);
  const std::string reprinted = fusescope::ir::PrintModule(**reparsed);
  if (printed != reprinted) Die("printing is not a fixed point; first print:", printed);
  if (fusescope::ir::Fingerprint(**module) != fusescope::ir::Fingerprint(**reparsed)) {
    Die("fingerprint changed across a round trip:", printed);
  }
  return 0;
}
