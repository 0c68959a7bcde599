#ifndef FUSESCOPE_IMPORTERS_INDUCTOR_INDUCTOR_TRACE_H_
#define FUSESCOPE_IMPORTERS_INDUCTOR_INDUCTOR_TRACE_H_

// PyTorch Inductor's debug trace (`torch._inductor.config.trace.enabled`, or
// TORCH_COMPILE_DEBUG=1) as a recording. Inductor writes a folder per graph Dynamo captured,
// `torchinductor/model__<F>_inference_<N>.<K>` (`_forward_`/`_backward_` when training; under
// `run_<date>-pid_<pid>/` when TORCH_COMPILE_DEBUG chose the place), holding:
//
//   fx_graph_readable.py     the aten graph AOTAutograd traced;
//   fx_graph_transformed.py  that graph after Inductor's post-grad passes;
//   ir_pre_fusion.txt        the scheduler's nodes: a loop body (SchedulerNode) or a library
//                            call (ExternKernelSchedulerNode) per buffer it computes;
//   ir_post_fusion.txt       the nodes after the scheduler fused them (FusedSchedulerNode,
//                            OuterLoopFusedSchedulerNode, each listing its members);
//   output_code.py           the generated wrapper and kernels;
//   inductor_provenance_tracking_node_mappings.json  with trace.provenance_tracking_level=1:
//                            each kernel call of the wrapper ("cpp_fused_relu_0:2",
//                            "extern_kernels.addmm:1") -> post-grad nodes -> pre-grad nodes.
//
// The recording has a snapshot per stage: `aot_autograd`, `post_grad_passes`, `scheduler`,
// `fusion`; each is one module with a function per graph (in Dynamo's order), so a model
// Dynamo cut into several graphs is seen whole. In the FX stages a node is an instruction with
// the aten op as its opcode (`aten.mm`), its annotated type as its shape, the pre-grad nodes it
// came from as op_name (ONNX node names for a model converted by onnx2torch) and the source
// line Dynamo noted (`# File: model.py:18`) as source_file/source_line. In the scheduler stages
// a node is an instruction named as Inductor names it (`op1`, `op1_op2_op3_op4`) whose opcode
// is its kind (`inductor.loop`, `inductor.fused`, or the library call `extern_kernels.mm`),
// shaped as its first buffer, with edges from the nodes that write the buffers it reads; a
// loop body is a computation of `ops.*` calls, a fused node a computation of its members.
//
// Which kernel a scheduler node ends up in is read from the wrapper's `call` in output_code.py:
// the first kernel call that names one of its buffers writes it (nodes are generated in order).
// With the provenance mapping, that call's handle (the comment before it) gives the post-grad
// nodes the kernel computes: the scheduler node then answers for them (provenance) and for
// their pre-grad nodes (op_name). The dump does not say which of a fused kernel's post-grad
// nodes each member computes alone, so every member answers for the kernel's. FX stages carry
// provenance by name and structure (xla_dump_provenance.h). Without the mapping (traced
// without trace.provenance_tracking_level=1) kernels are named but carry nothing, said in a
// warning.
//
// Each snapshot keeps its stage's files verbatim as its source text, the last one followed by
// output_code.py. A stage file missing for a graph leaves that graph as it was, with a warning;
// warnings name the file and line. Inductor records no pass times: passes take 0 s.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_operation_tree.h"
#include "ir/module.h"
#include "ir/status.h"

namespace fusescope::ir::inductor_import {

struct InductorGraphFolder {
  std::string path;
  std::string function;  // the folder's name without its `.K` suffix: model__0_inference_0
  int64_t order = 0;     // N of `_inference_N` (Dynamo's order)
};

// The graph folders of a trace: `root` itself when it is one (holds fx_graph_readable.py or
// ir_post_fusion.txt), else those under root/torchinductor/, root/*/torchinductor/ or root/*.
std::vector<InductorGraphFolder> FindInductorGraphs(const std::string& root);

bool LooksLikeInductorTrace(const std::string& root);

// One graph's FX text (fx_graph_readable.py, fx_graph_transformed.py) as a function named
// `function`: its forward's arguments as block arguments, a node per assignment, the
// returned values as the return's operands. `pre_grad` maps node names to the pre-grad nodes
// they came from (op_name). Lines that read as none of these are warned about and skipped.
struct FxGraphRead {
  mlir_import::MlirOperation function;
  std::vector<std::string> warnings;
  std::vector<std::string> argument_types;  // parallel to the forward's arguments
  int64_t nodes = 0;
};
FxGraphRead ReadFxGraph(std::string_view text, const std::string& path, const std::string& function,
                        const std::map<std::string, std::vector<std::string>>& pre_grad = {});

// The body of graph `function` in a snapshot of such a recording; null when it has none.
Computation* FunctionBody(const Module& module, const std::string& function);

StatusOr<mlir_import::MlirLogImport> ImportInductorTrace(
    const std::string& root, const mlir_import::MlirLogImportOptions& options = {});

}  // namespace fusescope::ir::inductor_import

#endif  // FUSESCOPE_IMPORTERS_INDUCTOR_INDUCTOR_TRACE_H_
