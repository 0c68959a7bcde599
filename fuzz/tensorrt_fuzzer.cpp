// Feeds arbitrary bytes to the readers of TensorRT's exports (layer information, layer
// profile, inference times) and builds the engine graph of every optimization profile the
// layer information has, with and without an ONNX model to link to. Each reader must return a
// result or one error naming "FILE:LINE:COLUMN", never crash or hang; every module built must
// print as HLO text that parses back, since a recording keeps its snapshots as that text.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"
#include "ir/hlo_printer.h"
#include "importers/tensorrt_engine_graph.h"
#include "importers/tensorrt_inference_times.h"
#include "importers/tensorrt_layer_info.h"
#include "importers/tensorrt_layer_profile.h"

namespace {

void Die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckError(const std::string& message) {
  // "f.json:LINE:COLUMN: cause" (a file-level error reads "f.json: cause").
  if (message.rfind("f.json:", 0) != 0) Die("error without the file", message);
}

void CheckRoundTrip(const fusescope::ir::Module& module) {
  const std::string text = fusescope::ir::PrintModule(module);
  auto parsed = fusescope::ir::ParseHloModule(text, "printed");
  if (!parsed.ok()) Die("built module does not parse back", parsed.message() + "\n" + text);
}

const fusescope::ir::Module& OnnxModel() {
  static const std::unique_ptr<fusescope::ir::Module> model = [] {
    auto parsed = fusescope::ir::ParseHloModule(R"(HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  a = f32[4] negate(x), metadata={op_name="a"}
  ROOT b = f32[4] negate(a), metadata={op_name="fc1"}
}
)",
                                                "model");
    if (!parsed.ok()) Die("fixed model", parsed.message());
    return std::move(parsed).value();
  }();
  return *model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto info = fusescope::ir::ParseTensorRtLayerInfo(text, "f.json");
  if (!info.ok()) {
    CheckError(info.message());
  } else {
    for (size_t i = 0; i < info->profiles.size() && i < 4; ++i) {
      for (const fusescope::ir::Module* onnx :
           {static_cast<const fusescope::ir::Module*>(nullptr), &OnnxModel()}) {
        fusescope::ir::TensorRtGraphOptions options;
        options.profile = info->profiles[i];
        options.onnx_model = onnx;
        auto graph = fusescope::ir::BuildTensorRtEngineGraph(*info, options);
        if (!graph.ok()) Die("a profile the file has does not build", graph.message());
        CheckRoundTrip(*graph->engine);
        CheckRoundTrip(*graph->input);
      }
    }
  }
  auto profile = fusescope::ir::ParseTensorRtLayerProfile(text, "f.json");
  if (!profile.ok()) CheckError(profile.message());
  auto times = fusescope::ir::ParseTensorRtInferenceTimes(text, "f.json");
  if (!times.ok()) CheckError(times.message());
  return 0;
}
