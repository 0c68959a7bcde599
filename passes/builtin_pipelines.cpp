// The built-in pipelines, shaped after XLA's CPU and GPU compilers as their dumps show them:
// call inlining, simplification, layout assignment, post-layout simplification, then the backend's
// fusion passes with CSE/DCE cleanups between them, then scheduling and buffer assignment. The
// fusion passes read their budgets from PipelineOptions::fusion (XLA:CPU's larger operand
// budget and 5 reductions when the CPU pipeline is given the GPU-style defaults).

#include "passes/algebraic_simplifier.h"
#include "passes/buffer_assignment.h"
#include "passes/call_inliner.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/fusion_merger.h"
#include "passes/instruction_fusion.h"
#include "passes/layout_assignment.h"
#include "passes/multi_output_fusion.h"
#include "passes/pipeline.h"
#include "passes/priority_fusion.h"
#include "passes/rename_fusions.h"
#include "passes/scheduler.h"

namespace fusescope::passes {
namespace {

void AddSimplificationAndLayout(Pipeline& pipeline) {
  pipeline.Add<CallInliner>();
  pipeline.Add<AlgebraicSimplifier>();
  pipeline.Add<ConstantFolding>();
  pipeline.Add<Cse>();
  pipeline.Add<Dce>();
  pipeline.Add<LayoutAssignment>();
  // XLA simplifies again once layouts are known (its dumps name this pass algsimp too).
  pipeline.Add<AlgebraicSimplifier>();
}

void AddCleanup(Pipeline& pipeline) {
  pipeline.Add<Cse>();
  pipeline.Add<Dce>();
}

void AddScheduleAndBuffers(Pipeline& pipeline) {
  pipeline.Add<Scheduler>();
  pipeline.Add<BufferAssignment>();
}

std::unique_ptr<Pipeline> MakeCpuPipeline(const PipelineOptions& options) {
  auto pipeline = std::make_unique<Pipeline>("cpu", options);
  AddSimplificationAndLayout(*pipeline);
  pipeline->Add<InstructionFusion>();
  AddCleanup(*pipeline);
  AddScheduleAndBuffers(*pipeline);
  return pipeline;
}

std::unique_ptr<Pipeline> MakeGpuPipeline(const PipelineOptions& options) {
  auto pipeline = std::make_unique<Pipeline>("gpu", options);
  AddSimplificationAndLayout(*pipeline);
  pipeline->Add<PriorityFusion>();
  AddCleanup(*pipeline);
  pipeline->Add<MultiOutputFusion>();
  AddCleanup(*pipeline);
  pipeline->Add<FusionMerger>();
  pipeline->Add<RenameFusions>();
  AddScheduleAndBuffers(*pipeline);
  return pipeline;
}

}  // namespace

StatusOr<std::unique_ptr<Pipeline>> MakeBuiltinPipeline(const PipelineOptions& options) {
  if (options.target == "cpu") return MakeCpuPipeline(options);
  if (options.target == "gpu") return MakeGpuPipeline(options);
  return Status::Error("unknown pipeline \"" + options.target + "\" (known: cpu, gpu)");
}

}  // namespace fusescope::passes
