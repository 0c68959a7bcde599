// TVM's DumpIR stage folders (TVMScript, one file per pass) read as recordings. The folder
// tests/data/tvm_dumpir/mlp is a subset of what apache-tvm 0.27 wrote for tests/data/onnx/
// mlp.onnx through its CPU pipeline (scripts/gen_tvm_dumpir.py), file names and numbers kept.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "ir/computation.h"
#include "importers/mlir/mlir_log_importer.h"
#include "importers/mlir/mlir_stage_folder.h"
#include "importers/tvm/tvm_dump_folder.h"
#include "importers/tvm/tvmscript_reader.h"
#include "ir/instruction.h"
#include "ir/module.h"

namespace fusescope::ir::tvm_import {
namespace {

namespace fs = std::filesystem;
using mlir_import::MlirOperation;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kFolder = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/tvm_dumpir/mlp";

class TempFolder {
 public:
  TempFolder() {
    path_ = fs::temp_directory_path() /
            ("fusescope_tvm_import_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

const MlirOperation* FindFunction(const std::vector<MlirOperation>& operations,
                                  const std::string& symbol) {
  for (const MlirOperation& operation : operations) {
    if (operation.symbol == symbol && !operation.regions.empty()) return &operation;
    for (const auto& region : operation.regions) {
      for (const auto& block : region.blocks) {
        if (const MlirOperation* found = FindFunction(block.operations, symbol)) return found;
      }
    }
  }
  return nullptr;
}

const std::vector<MlirOperation>& Body(const MlirOperation& function) {
  return function.regions.at(0).blocks.at(0).operations;
}

// Opcode -> how many instructions have it, over every computation of the module.
std::map<std::string, int> Opcodes(const Module& module) {
  std::map<std::string, int> counts;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions())
      ++counts[std::string(instruction->opcode_name())];
  }
  return counts;
}

// Relax bindings are operations named after the call; annotations and out_sinfo give shapes;
// the dataflow block's bindings are the function's; metadata constants are operations.
TEST(TvmScriptReaderTest, RelaxBindingsBecomeOperations) {
  const std::string text = R"(# from tvm.script import relax as R
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((n, 16), dtype="float32")) -> R.Tensor((n, 10), dtype="float32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((n, 32), dtype="float32") = R.matmul(x, metadata["relax.expr.Constant"][0], out_dtype="void")
            lv1 = R.call_tir(cls.add, (lv, metadata["relax.expr.Constant"][1]),
                             out_sinfo=R.Tensor((n, 32), "float32"))
            gv: R.Tensor((n, 32), dtype="float32") = cls.fused_relu(lv1)
            R.output(gv)
        return gv
)";
  const TvmScriptReadResult read = ReadTvmScript(text, "m.py");
  EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
  EXPECT_EQ(read.module_name, "Module");
  const MlirOperation* main = FindFunction(read.tree.operations, "main");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->name, "R.function");
  EXPECT_THAT(main->regions[0].blocks[0].arguments, ElementsAre("%x"));
  EXPECT_THAT(main->regions[0].blocks[0].argument_types, ElementsAre("tensor<?x16xf32>"));
  std::vector<std::string> names;
  for (const MlirOperation& operation : Body(*main)) names.push_back(operation.name);
  EXPECT_THAT(names, ElementsAre("R.const", "R.matmul", "R.const", "R.call_tir", "cls.fused_relu",
                                 "R.return"));
  const MlirOperation& matmul = Body(*main)[1];
  EXPECT_THAT(matmul.results, ElementsAre("%lv"));
  EXPECT_THAT(matmul.result_types, ElementsAre("tensor<?x32xf32>"));
  EXPECT_THAT(matmul.operands, ElementsAre("%x", "%const0"));
  const MlirOperation& call_tir = Body(*main)[3];
  EXPECT_EQ(call_tir.callee, "add");
  EXPECT_THAT(call_tir.operands, ElementsAre("%lv", "%const1"));
  EXPECT_THAT(call_tir.result_types, ElementsAre("tensor<?x32xf32>"));
  EXPECT_EQ(call_tir.line, 10);
  EXPECT_EQ(Body(*main)[4].callee, "fused_relu");
  EXPECT_THAT(Body(*main)[5].operands, ElementsAre("%gv"));
}

// A PrimFunc is a scope whose blocks are operations reading T.reads and writing T.writes; a
// buffer written again is a new value, so what reads it later reads the newer write.
TEST(TvmScriptReaderTest, PrimFuncBlocksReadAndWriteBuffers) {
  const std::string text = R"(@T.prim_func(private=True)
def softmax(A: T.Buffer((T.int64(4), T.int64(10)), "float32"), C: T.Buffer((T.int64(4), T.int64(10)), "float32")):
    m = T.sblock_alloc_buffer((T.int64(4),))
    for i, k in T.grid(T.int64(4), T.int64(10)):
        with T.sblock("maxelem"):
            v_i, v_k = T.axis.remap("SR", [i, k])
            T.reads(A[v_i, v_k])
            T.writes(m[v_i])
            m[v_i] = T.max(m[v_i], A[v_i, v_k])
    for i, j in T.grid(T.int64(4), T.int64(10)):
        with T.sblock("norm"):
            T.reads(A[i, j], m[i])
            T.writes(C[i, j])
            C[i, j] = A[i, j] - m[i]
    for i in range(4):
        C[i, 0] = C[i, 0] + T.float32(1.0)
)";
  const TvmScriptReadResult read = ReadTvmScript(text, "p.py");
  EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
  const MlirOperation* function = FindFunction(read.tree.operations, "softmax");
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->name, "T.prim_func");
  EXPECT_THAT(function->regions[0].blocks[0].argument_types,
              ElementsAre("tensor<4x10xf32>", "tensor<4x10xf32>"));
  const auto& body = Body(*function);
  ASSERT_EQ(body.size(), 4u);
  EXPECT_EQ(body[0].name, "T.sblock_alloc_buffer");
  EXPECT_THAT(body[0].result_types, ElementsAre("tensor<4xf32>"));
  EXPECT_EQ(body[1].name, "T.sblock");
  EXPECT_THAT(body[1].operands, ElementsAre("%A"));
  EXPECT_THAT(body[1].results, ElementsAre("%maxelem"));
  EXPECT_THAT(body[2].operands, ElementsAre("%A", "%maxelem"));
  EXPECT_THAT(body[2].results, ElementsAre("%norm"));
  EXPECT_EQ(body[3].name, "T.buffer_store");
  EXPECT_THAT(body[3].operands, ElementsAre("%norm"));
  EXPECT_THAT(body[3].result_types, ElementsAre("tensor<4x10xf32>"));
}

// What does not read is a warning at its file, line and column; the rest still reads.
TEST(TvmScriptReaderTest, UnreadableTextWarnsWithItsPositionAndNeverFails) {
  const std::string text =
      "@R.function\n"
      "def f(x: R.Tensor((4,), \"float32\")):\n"
      "    a + 1 = R.add(x, x)\n"
      "    y = R.add(x, x))\n"
      "    def\n"
      "    z = R.multiply(y, x\n";
  const TvmScriptReadResult read = ReadTvmScript(text, "bad.py");
  EXPECT_THAT(read.warnings,
              ElementsAre(HasSubstr("bad.py:4:20: ')' closes no bracket"),
                          HasSubstr("bad.py:6:19: '(' is never closed"),
                          HasSubstr("bad.py:3:5: cannot read the target 'a + 1'"),
                          HasSubstr("bad.py:5:5: cannot read this function header")));
  const MlirOperation* f = FindFunction(read.tree.operations, "f");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(Body(*f).size(), 1u);
  EXPECT_EQ(Body(*f)[0].name, "R.add");
  EXPECT_EQ(MlirTypeOfTvmType("R.Tensor(dtype=\"float32\", ndim=2)"), "tensor<?x?xf32>");
  EXPECT_EQ(MlirTypeOfTvmType("R.Tuple(R.Tensor((2,), \"int64\"), R.Prim(\"bool\"))"),
            "tuple<tensor<2xi64>, i1>");
  EXPECT_EQ(MlirTypeOfTvmType("R.Shape(ndim=2)"), "R.Shape(ndim=2)");
}

// The real DumpIR folder: one snapshot per file in number order, named after the pass, with
// the file's text; FuseOps turns the main function's call_tir bindings into calls of fused
// functions.
TEST(TvmDumpFolderTest, RealDumpIrFolderBecomesARecording) {
  ASSERT_TRUE(LooksLikeTvmDumpFolder(kFolder));
  EXPECT_FALSE(mlir_import::LooksLikeStageFolder(kFolder));
  const std::vector<TvmStageFile> stages = FindTvmStageFiles(kFolder);
  ASSERT_EQ(stages.size(), 36u);
  EXPECT_EQ(stages.front().pass, "NormalizeGlobalVar");
  EXPECT_EQ(stages[6].number, 65);
  EXPECT_EQ(stages.back().pass, "tirx.FlattenBuffer");
  auto imported = ImportTvmDumpFolder(kFolder);
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_TRUE(imported->warnings.empty()) << imported->warnings.front();
  const recording::Recording& recording = imported->recording;
  ASSERT_EQ(recording.passes.size(), 36u);
  EXPECT_TRUE(recording.imported);
  ASSERT_EQ(recording.sources.size(), recording.snapshots.size());
  EXPECT_EQ(recording.sources.back().language, "tvmscript");
  auto text = mlir_import::ReadTextFile(kFolder + "/066_FuseOps.py", 1 << 20);
  ASSERT_TRUE(text.ok());
  int64_t fuse_ops = -1;
  for (size_t i = 0; i < recording.passes.size(); ++i) {
    if (recording.passes[i].name == "FuseOps") fuse_ops = static_cast<int64_t>(i);
  }
  ASSERT_EQ(fuse_ops, 7);
  EXPECT_EQ(recording.sources[static_cast<size_t>(fuse_ops) + 1].text, *text);
  EXPECT_TRUE(recording.passes[static_cast<size_t>(fuse_ops)].changed);
  EXPECT_FALSE(recording.passes[1].changed);  // DispatchSampling: nothing to dispatch
  auto before = recording.SnapshotBefore(fuse_ops)->ToModule();
  auto after = recording.SnapshotAfter(fuse_ops)->ToModule();
  ASSERT_TRUE(before.ok() && after.ok());
  const std::map<std::string, int> ops_before = Opcodes(**before);
  const std::map<std::string, int> ops_after = Opcodes(**after);
  EXPECT_EQ(ops_before.count("cls.fused_matmul_add_relu"), 0u);
  EXPECT_EQ(ops_after.at("cls.fused_matmul_add_relu"), 1);
  EXPECT_EQ(ops_after.at("cls.fused_matmul1_add1"), 1);
  EXPECT_EQ(ops_after.at("R.function"), 3);  // main and the two fused functions
  EXPECT_EQ(ops_before.at("R.function"), 1);
  EXPECT_EQ(ops_before.at("T.prim_func"), 7);
  EXPECT_EQ(ops_before.at("T.sblock"), 10);
}

// A stage that does not read is left out with a warning naming its file; the others still
// make the recording.
TEST(TvmDumpFolderTest, UnreadableStageIsAWarningNotAFailure) {
  TempFolder folder;
  fs::copy_file(kFolder + "/004_LegalizeOps.py", folder / "000_LegalizeOps.py");
  std::ofstream(folder / "001_Broken.py") << "@R.function\ndef main(x:\n";
  fs::copy_file(kFolder + "/066_FuseOps.py", folder / "002_FuseOps.py");
  auto imported = ImportTvmDumpFolder(folder / "");
  ASSERT_TRUE(imported.ok()) << imported.message();
  EXPECT_THAT(imported->warnings,
              ElementsAre(HasSubstr(folder / "001_Broken.py:2:9: '(' is never closed"),
                          HasSubstr(folder / "001_Broken.py:1:1: stage 'Broken' holds no")));
  EXPECT_EQ(imported->recording.passes.size(), 2u);
  EXPECT_TRUE(imported->sections[1].skipped);
}

// Numbered Python files that are not TVMScript, and MLIR stage folders, are not TVM dumps.
TEST(TvmDumpFolderTest, OtherFoldersAreNotTvmDumps) {
  TempFolder migrations;
  std::ofstream(migrations / "001_initial.py") << "import os\n";
  std::ofstream(migrations / "002_more.py") << "print(1)\n";
  EXPECT_FALSE(LooksLikeTvmDumpFolder(migrations / ""));
  EXPECT_FALSE(
      LooksLikeTvmDumpFolder(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/mlir/stages"));
  EXPECT_FALSE(ImportTvmDumpFolder(std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/mlir").ok());
}

}  // namespace
}  // namespace fusescope::ir::tvm_import
