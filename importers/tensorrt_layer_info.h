#ifndef FUSESCOPE_IMPORTERS_TENSORRT_LAYER_INFO_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_LAYER_INFO_H_

// A TensorRT engine's own description of its layers, as `trtexec --exportLayerInfo=FILE` (or
// IEngineInspector::getEngineInformation(kJSON)) writes it:
//
//   {"Layers": [ {"Name": ..., "LayerType": ..., "Inputs": [TENSOR...], "Outputs": [TENSOR...],
//                 "TacticName"/"TacticValue": ..., "Metadata": ..., ...}, ... ],
//    "Bindings": ["input", "output", ...]}
//   TENSOR = {"Name": ..., "Location": ..., "Dimensions": [...], "Format/Datatype": ...}
//
// That detailed form needs an engine built with `--profilingVerbosity=detailed`; otherwise
// `Layers` lists the layer names only, as strings. `Metadata` names the ONNX nodes a layer was
// built from, "[ONNX Layer: NAME]" each, separated by ASCII 0x1F (or 0x1E): a fused layer names
// all of them. An engine built with several optimization profiles holds one copy of the graph
// per profile; the layers, tensors and bindings of profile N > 0 end in " [profile N]".
//
// Fields this reader does not use are skipped; a value of the wrong kind where one it uses is
// expected is an error "FILE:LINE:COLUMN: cause".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::ir {

struct TensorRtTensor {
  std::string name;  // as written, profile suffix included
  std::string location;
  bool has_dimensions = false;
  std::vector<int64_t> dimensions;  // -1 for a dimension only known at run time
  std::string format;               // "Format/Datatype" as written
};

struct TensorRtLayer {
  std::string name;  // as written, profile suffix included
  std::string type;  // LayerType; empty in the names-only form
  int64_t profile = 0;
  std::vector<TensorRtTensor> inputs;
  std::vector<TensorRtTensor> outputs;
  std::string tactic;                   // TacticName, else TacticValue
  std::vector<std::string> onnx_nodes;  // from Metadata, in written order, once each
  int64_t line = 0;                     // where the layer starts in the file
};

struct TensorRtLayerInfo {
  bool detailed = false;  // layers are objects (`--profilingVerbosity=detailed`)
  std::vector<TensorRtLayer> layers;
  std::vector<std::string> bindings;  // as written, profile suffixes included
  std::vector<int64_t> profiles;      // the optimization profiles seen, ascending
};

StatusOr<TensorRtLayerInfo> ParseTensorRtLayerInfo(std::string_view text, const std::string& path);

// True when `prefix` (the start of a file) opens a JSON object whose first key is "Layers" or
// "Bindings": what trtexec writes, told apart from other JSON by content rather than by name.
bool LooksLikeTensorRtLayerInfo(std::string_view prefix);

// The optimization profile a name belongs to: N for "NAME [profile N]", 0 otherwise; `base`
// (may be null) receives the name without the suffix.
int64_t TensorRtProfileOf(std::string_view name, std::string* base);

// The ONNX node names in a layer's Metadata ("[ONNX Layer: a]\x1F[ONNX Layer: b]"), in order,
// once each; entries of another kind are left out.
std::vector<std::string> TensorRtOnnxNodes(std::string_view metadata);

// The element type TensorRT names in a "Format/Datatype" string ("Row major linear FP32",
// "Channel major FP16 format where channel % 8 == 0", "Int8"): the HLO name ("f32", "f16",
// "s8", ...), or "" when it names none.
std::string TensorRtElementType(std::string_view format);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_LAYER_INFO_H_
