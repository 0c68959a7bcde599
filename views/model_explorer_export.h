#ifndef FUSESCOPE_VIEWS_MODEL_EXPLORER_EXPORT_H_
#define FUSESCOPE_VIEWS_MODEL_EXPLORER_EXPORT_H_

// One snapshot as Model Explorer (Google AI Edge, `ai-edge-model-explorer`) reads a graph: its
// JSON graph format, a GraphCollection `{"label", "graphs": [{"id", "nodes": [...]}]}` whose
// nodes carry `id`, `label`, `namespace`, `attrs`, `incomingEdges` and `outputsMetadata`.
// Model Explorer draws a namespace path (`a/b`) as nested, collapsible layers; so:
//  - every instruction is a node whose id is its stable id and whose label is its opcode;
//  - a fusion is no node but a layer named after it holding its fused instructions (nested
//    fusions nest); so is an instruction that calls a computation it owns alone (an MLIR
//    function, a `call`): its body's instructions are nodes in a layer named after it;
//  - a name scope (`op_name` metadata `jit(f)/block/dense/add` -> `block/dense`) is the outer
//    part of the namespace;
//  - an edge into a fusion goes to the fused instruction reading that parameter, an edge out
//    of it leaves from its root.
// Reducers and other computations shared by several callers stay out (Model Explorer has one
// graph per file here). The stored profile, when the recording has one of this snapshot,
// becomes Model Explorer node data (`{graph_id: {"results": {node_id: {"value"}},
// "gradient": [...]}}`): each kernel's mean time per run, in µs, on the node that produces the
// kernel's result (a fusion's root), coloured along a white-to-red gradient.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace fusescope::views {

struct ModelExplorerGraph {
  std::string json;
  int64_t nodes = 0;
  int64_t edges = 0;
};

// `graph_id` names the graph (node data refers to it); `label` the collection.
ModelExplorerGraph ModelExplorerGraphJson(const ir::Module& module, const std::string& graph_id,
                                          const std::string& label);

struct ModelExplorerNodeData {
  std::string json;
  int64_t values = 0;    // nodes with a value
  int64_t unplaced = 0;  // kernels whose instruction is not a node of the graph
};

// Values per instruction id of `module` (a profile's kernel times, µs per run) as node data
// of `graph_id`: on the node that produces each instruction's value.
ModelExplorerNodeData ModelExplorerNodeDataJson(
    const ir::Module& module, const std::vector<std::pair<int64_t, double>>& values,
    const std::string& graph_id);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_MODEL_EXPLORER_EXPORT_H_
