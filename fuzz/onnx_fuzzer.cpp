// Feeds arbitrary bytes to the ONNX importer as a model file. Whatever imports must verify
// (the importer checks that itself), print as HLO text that parses back and prints the same;
// whatever does not import must fail with one line that names the file. Limits are small so
// that a claimed huge tensor is refused, never allocated.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "importers/onnx/onnx_importer.h"
#include "importers/onnx/ort_optimized_graph.h"
#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"

namespace {

[[noreturn]] void Die(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  fusescope::ir::onnx_import::OnnxImportOptions options;
  options.max_tensor_elements = int64_t{1} << 24;
  options.max_literal_elements = int64_t{1} << 16;
  // libonnx's own inference runs in a forked child, which would cost most of the time here;
  // the importer's handling of its absence is what gets fuzzed.
  options.onnx_shape_inference = false;
  // The same bytes as ONNX Runtime's optimized graph of themselves: the walk from each node
  // back through the model must end, and a failure is one line naming a file.
  auto layers = fusescope::ir::onnx_import::ReadOrtOptimizedGraphBytes(bytes, "opt.onnx", bytes,
                                                                       "model.onnx");
  if (!layers.ok() && (layers.message().find('\n') != std::string::npos ||
                       (!layers.message().ends_with("not a valid ONNX model") &&
                        !layers.message().ends_with("the graph has no node"))))
    Die("optimized-graph error is not one line naming the file:", layers.message());
  auto result = fusescope::ir::onnx_import::ImportOnnxBytes(bytes, "fuzz.onnx", "", options);
  if (!result.ok()) {
    const std::string& message = result.message();
    if (!message.starts_with("fuzz.onnx: ") || message.find('\n') != std::string::npos) {
      Die("importer error is not one line naming the file:", message);
    }
    return 0;
  }
  const std::string printed = fusescope::ir::PrintModule(*result->module);
  auto reparsed = fusescope::ir::ParseHloModule(printed, "printed");
  if (!reparsed.ok()) Die("printed import does not parse: " + reparsed.message(), printed);
  if (fusescope::ir::PrintModule(**reparsed) != printed)
    Die("printing is not a fixed point:", printed);
  return 0;
}
