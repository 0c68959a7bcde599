// PyTorch Inductor's debug traces read as recordings. tests/data/inductor/ holds what torch
// 2.15 wrote (scripts/gen_inductor_trace.py): `mlp`, tests/data/compare/mlp.onnx through
// onnx2torch with the provenance mapping, and `train`, one training step of a small
// convolutional network under TORCH_COMPILE_DEBUG=1 (a forward and a backward graph, the
// mapping written for the forward only).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "importers/inductor/inductor_trace.h"
#include "importers/input_kind.h"
#include "ir/computation.h"
#include "ir/instruction.h"
#include "ir/module.h"

namespace fusescope::ir::inductor_import {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/inductor";

class TempFolder {
 public:
  TempFolder() {
    path_ = fs::temp_directory_path() /
            ("fusescope_inductor_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// The instruction named `name` in the body of function `function`, nested computations
// included (a fused node's members, loop bodies); null when none.
const Instruction* Find(const Module& module, const std::string& function,
                        const std::string& name) {
  const Computation* body = FunctionBody(module, function);
  if (!body) return nullptr;
  const Instruction* found = nullptr;
  std::function<void(const Computation*)> walk = [&](const Computation* computation) {
    for (const auto& instruction : computation->instructions()) {
      if (found) return;
      if (instruction->name() == name) found = instruction.get();
      for (const Computation* called : instruction->called_computations()) walk(called);
    }
  };
  walk(body);
  return found;
}

// Every instruction of function `function`, nested ones included.
std::vector<const Instruction*> All(const Module& module, const std::string& function) {
  std::vector<const Instruction*> all;
  std::function<void(const Computation*)> walk = [&](const Computation* computation) {
    for (const auto& instruction : computation->instructions()) {
      all.push_back(instruction.get());
      for (const Computation* called : instruction->called_computations()) walk(called);
    }
  };
  if (const Computation* body = FunctionBody(module, function)) walk(body);
  return all;
}

TEST(InductorFxGraphTest, NodesArgumentsTypesAndOrigins) {
  const std::string text = R"fx(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[192, 192]", arg1_1: "f32[1, 32, 192]", s0: "Sym(s0)"):
        # File: /src/model.py:18 in forward, code: return torch.matmul(x, y)
        view: "f32[32, 192]" = torch.ops.aten.reshape.default(arg1_1, [32, 192]);  arg1_1 = None
        mm: "f32[32, 192]" = torch.ops.aten.mm.default(view, arg0_1);  view = arg0_1 = None

        var_mean = torch.ops.aten.var_mean.correction(mm, [1], correction = 0, keepdim = True)
        getitem: "f32[32, 1]" = var_mean[0]
        cat: "f32[64, 192]" = torch.ops.aten.cat.default([mm, mm]);  mm = None
        return (getitem, cat)
)fx";
  FxGraphRead read = ReadFxGraph(text, "g.py", "graph_0", {{"mm", {"attn_out_matmul"}}});
  EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
  EXPECT_EQ(read.nodes, 5);
  EXPECT_EQ(read.function.symbol, "graph_0");
  const auto& block = read.function.regions.at(0).blocks.at(0);
  EXPECT_THAT(block.arguments, ElementsAre("%arg0_1", "%arg1_1", "%s0"));
  EXPECT_THAT(block.argument_types, ElementsAre("tensor<192x192xf32>", "tensor<1x32x192xf32>", ""));
  ASSERT_EQ(block.operations.size(), 6u);
  const auto& mm = block.operations[1];
  EXPECT_EQ(mm.name, "aten.mm");
  EXPECT_THAT(mm.operands, ElementsAre("%view", "%arg0_1"));
  EXPECT_THAT(mm.result_types, ElementsAre("tensor<32x192xf32>"));
  EXPECT_EQ(mm.location, "\"attn_out_matmul\"(\"/src/model.py\":18:0)");
  EXPECT_EQ(mm.line, 5);
  // A blank line ends the comment's reach; keyword values are no operands.
  const auto& var_mean = block.operations[2];
  EXPECT_EQ(var_mean.name, "aten.var_mean");
  EXPECT_THAT(var_mean.operands, ElementsAre("%mm"));
  EXPECT_EQ(var_mean.location, "");
  EXPECT_EQ(block.operations[3].name, "getitem");
  EXPECT_THAT(block.operations[3].operands, ElementsAre("%var_mean"));
  EXPECT_THAT(block.operations[4].operands, ElementsAre("%mm"));  // once, from the list
  EXPECT_EQ(block.operations[5].name, "func.return");
  EXPECT_THAT(block.operations[5].operands, ElementsAre("%getitem", "%cat"));
}

TEST(InductorFxGraphTest, TextWithoutAForwardSaysSo) {
  FxGraphRead read = ReadFxGraph("print('hello')\n", "x.py", "g");
  EXPECT_EQ(read.nodes, 0);
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_THAT(read.warnings[0], HasSubstr("x.py:1:1: no `def forward(`"));
}

TEST(InductorTraceTest, FindsGraphFoldersInEveryLayout) {
  auto mlp = FindInductorGraphs(kData + "/mlp");
  ASSERT_EQ(mlp.size(), 1u);
  EXPECT_EQ(mlp[0].function, "model__0_inference_0");
  EXPECT_EQ(FindInductorGraphs(kData + "/mlp/torchinductor").size(), 1u);
  EXPECT_EQ(FindInductorGraphs(mlp[0].path).size(), 1u);
  // TORCH_COMPILE_DEBUG's run_*/torchinductor, in Dynamo's order.
  auto train = FindInductorGraphs(kData + "/train");
  ASSERT_EQ(train.size(), 2u);
  EXPECT_EQ(train[0].function, "model__0_forward_1");
  EXPECT_EQ(train[1].function, "model__0_backward_3");
  EXPECT_TRUE(LooksLikeInductorTrace(kData + "/train"));
  EXPECT_FALSE(LooksLikeInductorTrace(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data"));
  auto kind = importers::ClassifyInput(kData + "/mlp");
  ASSERT_TRUE(kind.ok()) << kind.message();
  EXPECT_EQ(kind->kind, importers::InputKind::kInductorTrace);
}

// The MLP: aten graph -> post-grad (mm + add become addmm) -> two library GEMMs around one
// generated kernel, each linked to the FX nodes and ONNX nodes it computes.
TEST(InductorTraceTest, MlpStagesKernelsAndProvenance) {
  auto imported = ImportInductorTrace(kData + "/mlp");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  const auto& recording = imported->recording;
  ASSERT_EQ(recording.passes.size(), 3u);
  EXPECT_EQ(recording.passes[0].name, "post_grad_passes");
  EXPECT_EQ(recording.passes[1].name, "graph_lowering");
  EXPECT_EQ(recording.passes[2].name, "scheduler_fusion");
  EXPECT_TRUE(recording.passes[0].changed);
  EXPECT_FALSE(recording.passes[2].changed);  // nothing fuses on the CPU here
  ASSERT_EQ(recording.sources.size(), recording.snapshots.size());
  EXPECT_EQ(recording.sources[0].language, "fx graph");
  EXPECT_THAT(recording.sources[0].text, HasSubstr("torch.ops.aten.mm.default(arg1_1, arg0_1)"));
  EXPECT_EQ(recording.sources.back().language, "inductor ir");
  EXPECT_THAT(recording.sources.back().text, HasSubstr("cpp_fused_relu_0 = async_compile"));

  const std::string graph = "model__0_inference_0";
  auto aot = recording.snapshots[0].ToModule();
  auto post_grad = recording.snapshots[1].ToModule();
  auto fused = recording.snapshots.back().ToModule();
  ASSERT_TRUE(aot.ok() && post_grad.ok() && fused.ok());
  const Instruction* mm = Find(**aot, graph, "mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->opcode_name(), "aten.mm");
  EXPECT_EQ(mm->shape().ToString(false), "f32[8,512]");
  EXPECT_EQ(mm->metadata().Int("source_line"), 18);
  const Instruction* addmm = Find(**post_grad, graph, "addmm_default_1");
  ASSERT_NE(addmm, nullptr);
  EXPECT_EQ(addmm->metadata().String("op_name"), "fc1_bias");
  const Instruction* relu = Find(**post_grad, graph, "relu");
  ASSERT_NE(relu, nullptr);

  const Instruction* gemm = Find(**fused, graph, "op0");
  const Instruction* loop = Find(**fused, graph, "op1");
  const Instruction* gemm2 = Find(**fused, graph, "op2");
  ASSERT_TRUE(gemm && loop && gemm2);
  EXPECT_EQ(gemm->opcode_name(), "extern_kernels.addmm");
  EXPECT_EQ(loop->opcode_name(), "inductor.loop");
  EXPECT_EQ(loop->shape().ToString(false), "f32[8,512]");
  ASSERT_EQ(loop->operands().size(), 1u);
  EXPECT_EQ(loop->operands()[0], gemm);
  EXPECT_EQ(gemm2->operands().size(), 3u);
  EXPECT_THAT(std::string(loop->attribute("mlir").value_or("")),
              HasSubstr("kernel cpp_fused_relu_0:2"));
  EXPECT_EQ(loop->metadata().String("op_name"), "relu");
  EXPECT_EQ(gemm2->metadata().String("op_name"), "y, fc2_bias");
  // The kernels answer for the post-grad nodes they compute; the loop body's ops too.
  EXPECT_EQ(loop->provenance(), relu->provenance());
  EXPECT_EQ(gemm->provenance(), addmm->provenance());
  EXPECT_FALSE(loop->provenance().empty());
  ASSERT_EQ(loop->called_computations().size(), 1u);
  for (const auto& inner : loop->called_computations()[0]->instructions())
    EXPECT_EQ(inner->provenance(), relu->provenance()) << inner->name();
  const Instruction* body_relu = Find(**fused, graph, "op1.relu");
  ASSERT_NE(body_relu, nullptr);
  EXPECT_EQ(body_relu->opcode_name(), "ops.relu");
  // The graph's output is the second GEMM.
  const Instruction* root = FunctionBody(**fused, graph)->root();
  ASSERT_NE(root, nullptr);
  ASSERT_EQ(root->operands().size(), 1u);
  EXPECT_EQ(root->operands()[0], gemm2);
}

// A training step: forward and backward graphs side by side; fused nodes hold their members;
// the backward, traced without the mapping, has its kernel calls but no origins.
TEST(InductorTraceTest, TrainingGraphsFusedNodesAndMissingMapping) {
  auto imported = ImportInductorTrace(kData + "/train");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_THAT(imported->warnings,
              ElementsAre(HasSubstr("1 of 2 graphs have no "
                                    "inductor_provenance_tracking_node_mappings.json")));
  const auto& recording = imported->recording;
  ASSERT_EQ(recording.snapshots.size(), 4u);
  auto fused = recording.snapshots.back().ToModule();
  auto lowered = recording.snapshots[2].ToModule();
  ASSERT_TRUE(fused.ok() && lowered.ok());
  ASSERT_NE(FunctionBody(**fused, "model__0_forward_1"), nullptr);
  ASSERT_NE(FunctionBody(**fused, "model__0_backward_3"), nullptr);

  // Forward: the batch norm, ReLU and pooling nodes end in one kernel, and so answer for the
  // same FX nodes; the convolution is a library call that allocates its output.
  int batch_norm_nodes = 0;
  const Instruction* fused_node = nullptr;
  for (const Instruction* instruction : All(**fused, "model__0_forward_1")) {
    const std::string text(instruction->attribute("mlir").value_or(""));
    if (text.find("_native_batch_norm_legit_functional_copy__max_pool2d_with_indices_relu_1:3") ==
        std::string::npos)
      continue;
    ++batch_norm_nodes;
    EXPECT_EQ(instruction->metadata().String("op_name"), "batch_norm, y, y_1");
    if (instruction->opcode_name() == "inductor.fused" ||
        instruction->opcode_name() == "inductor.outer_loop_fused")
      fused_node = instruction;
  }
  EXPECT_GE(batch_norm_nodes, 4);
  ASSERT_NE(fused_node, nullptr);
  // The kernel computes 26 post-grad nodes (the batch norm's statistics and updates, the ReLU,
  // the pooling): the fused node answers for the aten nodes they came from.
  EXPECT_GE(fused_node->provenance().size(), 10u);
  ASSERT_EQ(fused_node->called_computations().size(), 1u);
  EXPECT_GE(fused_node->called_computations()[0]->instructions().size(), 2u);
  bool convolution = false;
  for (const Instruction* instruction : All(**lowered, "model__0_forward_1")) {
    if (instruction->opcode_name() != "extern_kernels.convolution") continue;
    convolution = true;
    EXPECT_THAT(std::string(instruction->attribute("mlir").value_or("")),
                HasSubstr("kernel extern_kernels.convolution:2"));
    EXPECT_EQ(instruction->metadata().String("op_name"), "conv2d");
  }
  EXPECT_TRUE(convolution);

  // Backward: kernel calls from the wrapper (its handles are written without the mapping too),
  // but no origins.
  int gemms = 0;
  for (const Instruction* instruction : All(**fused, "model__0_backward_3")) {
    if (instruction->opcode_name() != "extern_kernels.mm") continue;
    ++gemms;
    EXPECT_THAT(std::string(instruction->attribute("mlir").value_or("")),
                HasSubstr("kernel extern_kernels.mm:"));
    EXPECT_EQ(instruction->metadata().String("op_name"), "");
  }
  EXPECT_EQ(gemms, 2);
}

// Kernel calls the wrapper makes besides generated kernels and extern_kernels: an aten op
// Inductor falls back to (its node's kernel is `torch.ops.aten.x.default`), one output of it
// picked by a MultiOutput node (`buf1 = buf0[0]`, kernel `None`), and a buffer made local to
// the kernel that reads it (never named by the wrapper). Files in Inductor's format, cut down
// from a GPT block's trace (attention through
// aten._scaled_dot_product_flash_attention_for_cpu).
TEST(InductorTraceTest, FallbackCallsMultiOutputsAndKernelLocalBuffers) {
  TempFolder temp;
  const fs::path graph = temp.path() / "torchinductor" / "model__0_inference_0.0";
  auto node = [](const std::string& name, const std::string& kind, const std::string& buffer,
                 const std::string& reads, const std::string& layout, const std::string& user) {
    return name + ": " + kind + "\n" + name + ".writes = [StarDep(name='" + buffer +
           "', mode=None)]\n" + name + ".unmet_dependencies = [" + reads + "]\n" + name +
           ".met_dependencies = []\n" + name + ".outputs = [\n    " + buffer + ": Buffer\n    " +
           buffer + ".layout = " + layout + "\n    " + buffer + ".users = [NodeUser(node=" +
           user + ", can_inplace=False, is_weak=False)]\n]\n";
  };
  const std::string fixed = "FixedLayout('cpu', torch.float32, size=[2, 4], stride=[4, 1])";
  Write(graph / "ir_pre_fusion.txt",
        node("op0", "ExternKernelSchedulerNode(FallbackKernel)", "buf0", "",
             "MultiOutputLayout(device=device(type='cpu'))",
             "ExternKernelSchedulerNode(name='op1')") +
            "op0.node.kernel = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default"
            "\n\n\n" +
            node("op1", "ExternKernelSchedulerNode(MultiOutput)", "buf1",
                 "StarDep(name='buf0', mode=None)", fixed, "SchedulerNode(name='op2')") +
            "op1.node.kernel = None\n\n\n" +
            node("op2", "SchedulerNode(ComputedBuffer)", "buf2", "MemoryDep('buf1', c0, {c0: 8})",
                 fixed, "SchedulerNode(name='op3')") +
            "\n\n" +
            node("op3", "SchedulerNode(ComputedBuffer)", "buf3", "MemoryDep('buf2', c0, {c0: 8})",
                 fixed, "OUTPUT"));
  Write(graph / "output_code.py",
        "cpp_fused_exp_0 = async_compile.cpp_pybinding(['const float*', 'float*'], r'''\n"
        "extern \"C\" void kernel(const float* in_ptr0, float* out_ptr0) {}\n''')\n\n"
        "class Runner:\n"
        "    def call(self, args):\n"
        "        arg0_1, = args\n"
        "        # [Provenance debug handles] "
        "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default:1\n"
        "        buf0 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default("
        "arg0_1, arg0_1, arg0_1)\n"
        "        buf1 = buf0[0]\n"
        "        del buf0\n"
        "        buf3 = empty_strided_cpu((2, 4), (4, 1), torch.float32)\n"
        "        # [Provenance debug handles] cpp_fused_exp_0:2\n"
        "        cpp_fused_exp_0(buf1, buf3)\n"
        "        return (buf3, )\n");
  auto imported = ImportInductorTrace(temp.path().string());
  ASSERT_TRUE(imported.ok()) << imported.message();
  auto lowered = imported->recording.snapshots[0].ToModule();
  ASSERT_TRUE(lowered.ok()) << lowered.message();
  const std::string function = "model__0_inference_0";
  const Instruction* attention = Find(**lowered, function, "op0");
  const Instruction* picked = Find(**lowered, function, "op1");
  const Instruction* local = Find(**lowered, function, "op2");
  const Instruction* exp = Find(**lowered, function, "op3");
  ASSERT_TRUE(attention && picked && local && exp);
  auto text = [](const Instruction* instruction) {
    return std::string(instruction->attribute("mlir").value_or(""));
  };
  EXPECT_EQ(attention->opcode_name(), "aten._scaled_dot_product_flash_attention_for_cpu");
  EXPECT_THAT(text(attention), HasSubstr("_for_cpu.default:1"));
  EXPECT_EQ(picked->opcode_name(), "inductor.multi_output");
  EXPECT_THAT(text(picked), HasSubstr("_for_cpu.default:1"));
  EXPECT_THAT(text(local), HasSubstr("kernel cpp_fused_exp_0:2"));
  EXPECT_THAT(text(exp), HasSubstr("kernel cpp_fused_exp_0:2"));
  ASSERT_EQ(picked->operands().size(), 1u);
  EXPECT_EQ(picked->operands()[0], attention);
}

// Damaged traces: what can be read is, the rest is a warning with its file and line; a folder
// with nothing readable is one error.
TEST(InductorTraceTest, DamagedTracesWarnOrFailCleanly) {
  TempFolder temp;
  const fs::path graph = temp.path() / "torchinductor" / "model__0_inference_0.0";
  const fs::path source = fs::path(kData) / "mlp/torchinductor/model__0_inference_0.0";
  fs::create_directories(graph);
  for (const char* file : {"fx_graph_readable.py", "fx_graph_transformed.py", "output_code.py"})
    fs::copy_file(source / file, graph / file);
  Write(graph / "ir_pre_fusion.txt", "op0: SchedulerNode(ComputedBuffer)\nop0.writes = [Mem");
  Write(graph / "ir_post_fusion.txt", "\x01\x02 not a dump\n");
  Write(graph / "inductor_provenance_tracking_node_mappings.json", "{\"postToPre\": [");
  auto imported = ImportInductorTrace(temp.path().string());
  ASSERT_TRUE(imported.ok()) << imported.message();
  const std::string warnings = ::testing::PrintToString(imported->warnings);
  EXPECT_THAT(warnings, HasSubstr("inductor_provenance_tracking_node_mappings.json"));
  EXPECT_THAT(warnings, HasSubstr("ir_post_fusion.txt:1:1: no scheduler node in it"));
  // The truncated pre-fusion dump still gives its one node, unlinked.
  auto lowered = imported->recording.snapshots[2].ToModule();
  ASSERT_TRUE(lowered.ok());
  EXPECT_NE(Find(**lowered, "model__0_inference_0", "op0"), nullptr);

  TempFolder empty;
  fs::create_directories(empty.path() / "torchinductor" / "model__0_inference_0.0");
  Write(empty.path() / "torchinductor" / "model__0_inference_0.0" / "ir_post_fusion.txt", "");
  auto none = ImportInductorTrace(empty.path().string());
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.message(), HasSubstr("holds a readable FX graph or scheduler dump"));
  auto missing = ImportInductorTrace((empty.path() / "nothing").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("no Inductor graph folder"));
}

}  // namespace
}  // namespace fusescope::ir::inductor_import
