#ifndef FUSESCOPE_IMPORTERS_ONNX_ONNX_IMPORTER_H_
#define FUSESCOPE_IMPORTERS_ONNX_ONNX_IMPORTER_H_

// Reads an ONNX model (.onnx, a protobuf ModelProto) into an HLO-like module, lowering each
// ONNX op to instructions as XLA would express it (Gemm -> dot + broadcast/add, Softmax ->
// reduce/subtract/exp/reduce/divide, Conv -> convolution with dim_labels, ...).
//
// Every instruction carries metadata={op_type="<ONNX op>" op_name="<node name>"} so that
// anything later measured on it maps back to the ONNX node. Initializers become constants
// (parameters only for graph inputs that are not initializers). Ops without a lowering
// become custom-call instructions with custom_call_target="onnx.<OpType>" and the shapes
// ONNX's shape inference gives; they are listed in `opaque_ops` and in a warning, and the
// file still loads.
//
// Symbolic dimensions (dim_param) take their size from `dimension_sizes`, else
// `default_dimension_size` (1), with a warning naming the dimension.
//
// Errors are one line naming the file and the place ("model.onnx: node 'conv1' (Conv): ...",
// "model.onnx: initializer 'w': external data file 'w.bin' not found"). Files over
// `max_file_bytes` are refused before they are read; tensors over `max_tensor_elements` are
// refused before anything is allocated for them.
//
// ONNX's checker and shape inference (libonnx) run in a child process (fork): some malformed
// models crash them, and such a model then loads without ONNX's shapes, with a warning.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::ir::onnx_import {

struct OnnxImportOptions {
  std::map<std::string, int64_t> dimension_sizes;  // --dim NAME=N
  int64_t default_dimension_size = 1;
  // Protobuf cannot read a message of 2 GiB or more; bigger models keep their weights in
  // external data files, which are read tensor by tensor.
  int64_t max_file_bytes = (int64_t{2} << 30) - 1;
  int64_t max_tensor_elements = int64_t{1} << 32;
  // Constants with more elements keep their values as bytes (ir/constant_bytes.h) and print
  // as `{...}` (XLA's elided literal) rather than as decimal text; the limit the MLIR
  // importer keeps for dense attributes too.
  int64_t max_literal_elements = 1024;
  // ONNX's shape inference gives the shapes of opaque ops and a second opinion on ours. Off,
  // opaque ops have no shapes (their models fail) and no fork happens; the fuzzer uses that
  // to spend its time on the importer rather than on forking.
  bool onnx_shape_inference = true;
};

// A dim_param of a graph input: where it first appears.
struct SymbolicDimension {
  std::string name;   // "batch"
  std::string input;  // the graph input it first appears in
  int64_t axis = 0;   // its axis there
};

struct OnnxImportResult {
  std::unique_ptr<Module> module;
  std::vector<std::string> warnings;  // one line each
  // Op types (with their domain when not the default one) lowered to custom-calls, sorted,
  // once each.
  std::vector<std::string> opaque_ops;
};

// A model's graph inputs and their symbolic dimensions, read without importing the model
// (which needs those dimensions' sizes to succeed at all for some models).
struct OnnxModelInputs {
  std::vector<std::string> names;  // graph inputs that are not initializers, in order
  std::vector<SymbolicDimension> symbolic_dimensions;
  // The main graph's named nodes that compute (Constant nodes left out), in its order.
  std::vector<std::string> node_names;
};
StatusOr<OnnxModelInputs> ReadOnnxInputs(const std::string& path);

// `path`'s folder is where external data files are looked up.
StatusOr<OnnxImportResult> ImportOnnxFile(const std::string& path,
                                          const OnnxImportOptions& options = {});
// From bytes already in memory; `display_name` names the model in errors. External data
// files are looked up in `base_dir` (none when empty).
StatusOr<OnnxImportResult> ImportOnnxBytes(std::string_view bytes, std::string_view display_name,
                                           const std::string& base_dir,
                                           const OnnxImportOptions& options = {});

// A serialized TensorProto file (the backend tests' test_data_set_N/input_N.pb) as a shape
// and XLA literal text, for comparing the imported module's results with ONNX's.
struct OnnxTensorLiteral {
  Shape shape;
  std::string literal;
};
StatusOr<OnnxTensorLiteral> ReadOnnxTensorFile(const std::string& path,
                                               const OnnxImportOptions& options = {});

// True when `path` ends in ".onnx" (any case).
bool HasOnnxExtension(std::string_view path);

}  // namespace fusescope::ir::onnx_import

#endif  // FUSESCOPE_IMPORTERS_ONNX_ONNX_IMPORTER_H_
