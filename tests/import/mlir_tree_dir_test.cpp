// Folders of `--mlir-print-ir-tree-dir` dumps read as recordings. tests/data/iree/print_ir_tree
// is a subset of what iree-compile 3.13.0 wrote for tests/data/mlir/stablehlo_matmul_tanh.mlir
// (scripts/gen_iree_tree_dir.sh), file and folder names kept.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

#include "ir/computation.h"
#include "importers/iree_executable_dump.h"
#include "importers/mlir/mlir_tree_dir.h"
#include "ir/instruction.h"
#include "ir/module.h"
#include "recording/snapshot_source.h"

namespace fusescope::ir::mlir_import {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kTree = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/iree/print_ir_tree";
const std::string kModule = kTree + "/builtin_module_no-symbol-name";

std::string Name(const TreeDumpFile& file) { return fs::path(file.path).filename().string(); }

int64_t IndexOf(const std::vector<TreeDumpFile>& files, const std::string& name) {
  for (size_t i = 0; i < files.size(); ++i) {
    if (Name(files[i]) == name) return static_cast<int64_t>(i);
  }
  return -1;
}

int64_t CountOpcode(const Module& module, std::string_view opcode) {
  int64_t count = 0;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions())
      count += instruction->opcode_name() == opcode ? 1 : 0;
  }
  return count;
}

// A child's dumps come after its parent's dump whose number they carry and before the next:
// the function passes IREE's inliner runs (16_0, 16_1) between 16 and 17.
TEST(MlirTreeDirTest, DumpsAreInRunOrder) {
  const std::vector<TreeDumpFile> files = FindTreeDumpFiles(kTree);
  ASSERT_EQ(files.size(), 52u);
  EXPECT_EQ(Name(files.front()), "0_iree-check-vhlostablehlo-mix-usage.mlir");
  EXPECT_EQ(files.front().pass, "iree-check-vhlostablehlo-mix-usage");
  const int64_t wrap = IndexOf(files, "16_iree-abi-wrap-entry-points.mlir");
  const int64_t canonicalize = IndexOf(files, "16_0_canonicalize.mlir");
  const int64_t inline_pass = IndexOf(files, "17_inline.mlir");
  EXPECT_EQ(canonicalize, wrap + 1);
  EXPECT_EQ(inline_pass, wrap + 3);
  EXPECT_EQ(files[static_cast<size_t>(canonicalize)].folders,
            (std::vector<std::string>{"builtin_module_no-symbol-name", "util_func_main"}));
  EXPECT_LT(IndexOf(files, "2_vhlo-legalize-to-stablehlo.mlir"),
            IndexOf(files, "10_iree-auto-input-conversion.mlir"));
  EXPECT_LT(IndexOf(files, "165_1_2_6_iree-codegen-lower-executable-using-transform-dialect.mlir"),
            IndexOf(files,
                    "165_1_2_6_14_iree-codegen-tile-and-distribute-to-workgroups-using-"
                    "forall-op.mlir"));
  EXPECT_EQ(Name(files.back()), "165_1_2_8_iree-codegen-reconcile-translation-info.mlir");
}

// Every dump is one pass; a nested dump replaces only its operation: after the dispatch
// function is vectorized, the host function @main is still in the IR.
TEST(MlirTreeDirTest, NestedDumpsReplaceOnlyTheirOperation) {
  EXPECT_TRUE(LooksLikeMlirTreeDir(kTree));
  EXPECT_TRUE(LooksLikeMlirTreeDir(kModule));
  auto imported = ImportMlirTreeDir(kTree);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  const recording::Recording& recording = imported->recording;
  ASSERT_EQ(recording.passes.size(), 52u);
  int64_t vectorize = -1;
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    if (recording.passes[i].name.find("iree-codegen-generic-vectorization") != std::string::npos)
      vectorize = static_cast<int64_t>(i);
  }
  ASSERT_GE(vectorize, 0);
  EXPECT_THAT(imported->sections[static_cast<size_t>(vectorize)].file,
              HasSubstr("func_func_main_dispatch_0_matmul_4x16x8_f32/165_1_2_6_40_"));
  EXPECT_TRUE(imported->sections[static_cast<size_t>(vectorize)].scoped);
  auto before = recording.SnapshotBefore(vectorize)->ToModule();
  auto after = recording.SnapshotAfter(vectorize)->ToModule();
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(CountOpcode(**before, "vector.contract"), 0);
  EXPECT_EQ(CountOpcode(**after, "vector.contract"), 1);
  EXPECT_EQ(CountOpcode(**after, "util.func"), CountOpcode(**before, "util.func"));
  EXPECT_GE(CountOpcode(**after, "util.func"), 1);
  EXPECT_EQ(CountOpcode(**after, "hal.executable.variant"), 1);
  // The dispatch function shares its symbol with the variant's hal.executable.export: the
  // dump names the operation it replaces, so the export stays.
  EXPECT_EQ(CountOpcode(**after, "hal.executable.export"), 1);
  EXPECT_EQ(CountOpcode(**after, "func.func"), CountOpcode(**before, "func.func"));
  // The text shown for the pass is the whole IR with the function's dump spliced in, once.
  const std::optional<std::string> text =
      recording::FullSourceText(recording.sources, static_cast<size_t>(vectorize) + 1);
  ASSERT_TRUE(text.has_value());
  const std::string module_line =
      "module @hal_executable_main_dispatch_0.hal_executable_variant_embedded_elf_x86_64.module {";
  const size_t first = text->find(module_line);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(text->find(module_line, first + 1), std::string::npos);
  EXPECT_NE(text->find("vector.contract"), std::string::npos);
  EXPECT_NE(text->find("util.func public @main("), std::string::npos);
  // The module inside the variant has no symbol: its dumps go inside the variant.
  int64_t inner = -1;
  for (size_t i = 0; i < imported->sections.size(); ++i) {
    if (imported->sections[i].file.find("/165_0_1_5_iree-llvmcpu-select-lowering-strategy") !=
        std::string::npos)
      inner = static_cast<int64_t>(i);
  }
  ASSERT_GE(inner, 0);
  EXPECT_TRUE(imported->sections[static_cast<size_t>(inner)].scoped);
  auto strategy = recording.SnapshotAfter(inner)->ToModule();
  ASSERT_TRUE(strategy.ok());
  EXPECT_EQ(CountOpcode(**strategy, "hal.executable.variant"), 1);
  EXPECT_GE(CountOpcode(**strategy, "util.func"), 1);
}

// The executables iree-compile dumped for the same compile are the kernel level: one kernel
// per dispatch, its stages in lowering order, on the dispatch's node.
TEST(IreeExecutableDumpTest, DispatchFilesBecomeAKernelOnItsNode) {
  const std::string folder = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/iree/executables";
  EXPECT_TRUE(ir::LooksLikeIreeExecutableDump(folder));
  EXPECT_FALSE(ir::LooksLikeIreeExecutableDump(kModule));
  auto kernels = ir::ReadIreeExecutableDump(folder);
  ASSERT_TRUE(kernels.ok()) << kernels.message();
  ASSERT_EQ(kernels->size(), 1u);
  recording::KernelRecord& kernel = kernels->front();
  EXPECT_EQ(kernel.kernel, "main_dispatch_0");
  EXPECT_EQ(kernel.backend, "iree-embedded_elf_x86_64");
  std::vector<std::string> stages;
  for (const auto& stage : kernel.stages) stages.push_back(stage.name);
  EXPECT_EQ(stages,
            (std::vector<std::string>{"source", "configured", "benchmark", "llvm-ir", "asm"}));
  EXPECT_THAT(kernel.stages[0].text, HasSubstr("hal.executable public @main_dispatch_0"));
  EXPECT_THAT(kernel.stages[3].text, HasSubstr("define internal i32 @main_dispatch_0_matmul"));
  EXPECT_THAT(kernel.stages[4].text, HasSubstr("main_dispatch_0_matmul_4x16x8_f32:"));
  auto imported = ImportMlirTreeDir(kTree);
  ASSERT_TRUE(imported.ok()) << imported.message();
  auto last = imported->recording.snapshots.back().ToModule();
  ASSERT_TRUE(last.ok());
  ir::AttachIreeKernels(**last, *kernels);
  ASSERT_GE(kernel.instruction_id, 0);
  bool found = false;
  for (const auto& computation : (*last)->computations()) {
    for (const auto& instruction : computation->instructions()) {
      if (instruction->id() == kernel.instruction_id) {
        found = true;
        EXPECT_EQ(instruction->opcode_name(), "hal.executable");
      }
    }
  }
  EXPECT_TRUE(found);
  EXPECT_FALSE(ir::ReadIreeExecutableDump(kModule).ok());
}

// Folders of other kinds are no dump trees.
TEST(MlirTreeDirTest, OtherFoldersAreNotTrees) {
  EXPECT_FALSE(LooksLikeMlirTreeDir(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/mlir/stages"));
  EXPECT_FALSE(
      LooksLikeMlirTreeDir(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/tvm_dumpir/mlp"));
  EXPECT_FALSE(LooksLikeMlirTreeDir(kModule + "/0_iree-check-vhlostablehlo-mix-usage.mlir"));
  EXPECT_FALSE(ImportMlirTreeDir(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/onnx").ok());
}

}  // namespace
}  // namespace fusescope::ir::mlir_import
