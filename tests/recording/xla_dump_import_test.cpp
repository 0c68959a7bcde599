// The XLA dump importer on real dumps (tests/data/xla_dump_{mlp,attention}, written by XLA
// through jax) and on broken folders: file names, module grouping and order, the recorded
// timeline, and the provenance that lets the diff of XLA's own fusion pass say which
// instructions became which fusion.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/graph_diff.h"
#include "ir/hlo_parser.h"
#include "importers/xla_dump_file_name.h"
#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "importers/xla_dump_provenance.h"
#include "recording/recording_store.h"

namespace fusescope::ir {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/";
const std::string kMlpDump = kData + "xla_dump_mlp";
const std::string kAttentionDump = kData + "xla_dump_attention";

// A fresh, empty folder under the system's temporary folder, removed at the end of the test.
class TempFolder {
 public:
  TempFolder() {
    path_ =
        fs::temp_directory_path() /
        ("fusescope_xla_dump_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() { fs::remove_all(path_); }
  std::string path() const { return path_.string(); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

void CopyFolder(const std::string& from, const std::string& to) {
  for (const auto& entry : fs::directory_iterator(from)) {
    fs::copy_file(entry.path(), fs::path(to) / entry.path().filename());
  }
}

XlaDumpImport ImportOrDie(const std::string& folder_path) {
  auto folder = ScanXlaDumpFolder(folder_path);
  EXPECT_TRUE(folder.ok()) << folder.message();
  auto imported = ImportXlaDumpModule(*folder->Default(), folder_path);
  EXPECT_TRUE(imported.ok()) << imported.message();
  return std::move(imported).value();
}

int64_t PassIndex(const recording::Recording& recording, const std::string& name) {
  for (const auto& pass : recording.passes) {
    if (pass.name == name) return pass.index;
  }
  return -1;
}

std::vector<std::string> Names(const std::vector<const Instruction*>& instructions) {
  std::vector<std::string> names;
  for (const Instruction* instruction : instructions) names.push_back(instruction->name());
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<Module> ModuleAt(const recording::Recording& recording, size_t snapshot) {
  auto module = recording.snapshots.at(snapshot).ToModule();
  EXPECT_TRUE(module.ok()) << module.message();
  return std::move(module).value();
}

// ------------------------------------------------------------------------- file names

TEST(XlaDumpFileNameTest, PassSnapshotOfJaxlib010) {
  auto name = ParseXlaDumpFileName(
      "module_0068.jit_gpt_block.0012.simplification_after_layout_assignment.after_pipeline-"
      "start.before_algsimp.txt");
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(name->kind, XlaDumpFileName::Kind::kPass);
  EXPECT_EQ(name->module_id, 68);
  EXPECT_EQ(name->module_name, "jit_gpt_block");
  EXPECT_EQ(name->ordinal, 12);
  EXPECT_EQ(name->pipeline, "simplification_after_layout_assignment");
  EXPECT_EQ(name->pass, "pipeline-start");
  EXPECT_EQ(name->next_pass, "algsimp");
  EXPECT_EQ(XlaDumpPassName(*name), "pipeline-start (simplification_after_layout_assignment)");
}

TEST(XlaDumpFileNameTest, OlderNamesAndPipelinesThatLookLikePasses) {
  auto old = ParseXlaDumpFileName("module_0001.jit_f.0004.simplification.after_algsimp.txt");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->kind, XlaDumpFileName::Kind::kPass);
  EXPECT_EQ(old->pass, "algsimp");
  EXPECT_EQ(old->next_pass, "");
  // A pipeline may itself be called after_...; the pass is the part after it.
  auto odd = ParseXlaDumpFileName(
      "module_0000.jit_mlp.0022.after_layout_assignment.after_pipeline-start.before_pipeline-"
      "end.txt");
  ASSERT_TRUE(odd.has_value());
  EXPECT_EQ(odd->pipeline, "after_layout_assignment");
  EXPECT_EQ(odd->pass, "pipeline-start");
  auto copies = ParseXlaDumpFileName(
      "module_0000.jit_mlp.0029.copy-insertion.after_adding_copies_to_resolve_interference.txt");
  ASSERT_TRUE(copies.has_value());
  EXPECT_EQ(copies->pipeline, "copy-insertion");
  EXPECT_EQ(copies->pass, "adding_copies_to_resolve_interference");
  // Module names may contain dots.
  auto dotted = ParseXlaDumpFileName("module_0002.jit_f.inner.0007.fusion.after_fusion.txt");
  ASSERT_TRUE(dotted.has_value());
  EXPECT_EQ(dotted->module_name, "jit_f.inner");
  EXPECT_EQ(dotted->ordinal, 7);
}

// Found by the file-name fuzzer: a pass whose name ends like a report was read as a report
// once its `.before_` part was gone, so the same parts gave two kinds of file.
TEST(XlaDumpFileNameTest, PassNamesThatEndLikeReports) {
  auto with_next = ParseXlaDumpFileName("module_0001.m.0003.p.after_x-live-range.before_.txt");
  auto without = ParseXlaDumpFileName("module_0001.m.0003.p.after_x-live-range.txt");
  ASSERT_TRUE(with_next.has_value());
  ASSERT_TRUE(without.has_value());
  for (const XlaDumpFileName& name : {*with_next, *without}) {
    EXPECT_EQ(name.kind, XlaDumpFileName::Kind::kPass);
    EXPECT_EQ(name.pass, "x-live-range");
    EXPECT_EQ(name.next_pass, "");
  }
}

TEST(XlaDumpFileNameTest, BeforeAndAfterOptimizations) {
  auto before = ParseXlaDumpFileName("module_0003.jit_mlp.before_optimizations.txt");
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->kind, XlaDumpFileName::Kind::kBeforeOptimizations);
  EXPECT_EQ(before->module_name, "jit_mlp");
  auto after = ParseXlaDumpFileName("module_0003.jit_mlp.gpu_after_optimizations.txt");
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->kind, XlaDumpFileName::Kind::kAfterOptimizations);
  EXPECT_EQ(after->platform, "gpu");
  EXPECT_EQ(after->module_name, "jit_mlp");
}

TEST(XlaDumpFileNameTest, FilesThatAreNoSnapshot) {
  for (const char* file : {"module_0000.jit_mlp.cpu_after_optimizations-buffer-assignment.txt",
                           "module_0000.jit_mlp.cpu_after_optimizations-memory-usage-report.txt",
                           "module_0000.jit_mlp.cpu_after_optimizations-live-range.txt",
                           "module_0000.jit_mlp.add_fusion_kernel_module.ir-no-opt.ll",
                           "module_0000.jit_mlp.obj-file.add_fusion_kernel_module.o",
                           "module_0000.jit_mlp.debug_options", "module_0000.jit_mlp.module.mlir",
                           "module_0000.jit_mlp.notes.txt"}) {
    auto name = ParseXlaDumpFileName(file);
    ASSERT_TRUE(name.has_value()) << file;
    EXPECT_FALSE(name->IsHloSnapshot()) << file;
    EXPECT_FALSE(name->what.empty()) << file;
    EXPECT_EQ(name->module_name, "jit_mlp") << file;
  }
  for (const char* file : {"", "notes.txt", "module_.jit.txt", "module_12", "module_x1.jit.txt",
                           "module_0000.", "module_99999999999999999999.jit_f.txt"}) {
    EXPECT_FALSE(ParseXlaDumpFileName(file).has_value()) << file;
  }
}

// ------------------------------------------------------------------------- folders

TEST(XlaDumpFolderTest, RealDumpIsOneModuleInCompileOrder) {
  auto folder = ScanXlaDumpFolder(kMlpDump);
  ASSERT_TRUE(folder.ok()) << folder.message();
  ASSERT_EQ(folder->modules.size(), 1u);
  const XlaDumpModule& module = folder->modules.front();
  EXPECT_EQ(module.name, "jit_mlp");
  EXPECT_EQ(module.platform, "cpu");
  ASSERT_EQ(module.snapshots.size(), 36u);
  EXPECT_EQ(module.snapshots.front().name.kind, XlaDumpFileName::Kind::kBeforeOptimizations);
  EXPECT_EQ(module.snapshots.back().name.kind, XlaDumpFileName::Kind::kAfterOptimizations);
  for (size_t i = 2; i + 1 < module.snapshots.size(); ++i) {
    EXPECT_LT(module.snapshots[i - 1].name.ordinal, module.snapshots[i].name.ordinal);
  }
  EXPECT_GT(module.bytes, 100000);
}

TEST(XlaDumpFolderTest, ModulesAreTellApartAndOtherFilesSkipped) {
  TempFolder dir;
  CopyFolder(kMlpDump, dir.path());
  for (const auto& entry : fs::directory_iterator(kAttentionDump)) {
    std::string name = entry.path().filename().string();
    name.replace(0, std::string("module_0000").size(), "module_0007");
    fs::copy_file(entry.path(), dir / name);
  }
  Write(dir / "module_0007.jit_attention.cpu_after_optimizations-buffer-assignment.txt", "x");
  Write(dir / "module_0007.jit_attention.add_fusion_kernel_module.ir-no-opt.ll", "x");
  Write(dir / "README.md", "x");
  fs::create_directories(dir / "module_0007.jit_attention");

  auto folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  ASSERT_EQ(folder->modules.size(), 2u);
  EXPECT_EQ(folder->Default()->name, "jit_attention");
  EXPECT_EQ(folder->skipped.size(), 4u);
  for (const XlaDumpSkippedEntry& entry : folder->skipped) EXPECT_FALSE(entry.reason.empty());
  for (const char* which : {"jit_mlp", "0", "0000", "module_0000", "module_0000.jit_mlp"}) {
    auto found = folder->Find(which);
    ASSERT_TRUE(found.ok()) << which << ": " << found.message();
    EXPECT_EQ((*found)->name, "jit_mlp") << which;
  }
  // Two modules of one name are told apart by number only.
  for (const auto& entry : fs::directory_iterator(kMlpDump)) {
    std::string name = entry.path().filename().string();
    name.replace(0, std::string("module_0000").size(), "module_0009");
    fs::copy_file(entry.path(), dir / name);
  }
  folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  ASSERT_EQ(folder->modules.size(), 3u);
  auto ambiguous = folder->Find("jit_mlp");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_NE(ambiguous.message().find("module_0000.jit_mlp, module_0009.jit_mlp"), std::string::npos)
      << ambiguous.message();
  auto by_number = folder->Find("9");
  ASSERT_TRUE(by_number.ok());
  EXPECT_EQ((*by_number)->id, 9);
  auto missing = folder->Find("jit_nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("module_0007.jit_attention"), std::string::npos);
}

// jax compiles its weight-initialisation helpers once per call site: jit__normal several
// times, each larger than a small model. The default is the model: the largest module whose
// name no other module shares.
TEST(XlaDumpFolderTest, DefaultSkipsHelpersCompiledPerCallSite) {
  TempFolder dir;
  CopyFolder(kMlpDump, dir.path());  // module_0000.jit_mlp
  const std::string big(1000000, ' ');
  for (const char* id : {"0002", "0004"}) {
    Write(dir / (std::string("module_") + id + ".jit__normal.before_optimizations.txt"),
          "HloModule jit__normal\n" + big);
  }
  auto folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  ASSERT_EQ(folder->modules.size(), 3u);
  ASSERT_GT(folder->modules[1].bytes, folder->modules[0].bytes);
  EXPECT_EQ(folder->Default()->name, "jit_mlp");
  // A private helper jitted once (jax's jit__threefry_split of a PRNG split) is no model
  // either, however large: seen on a fresh dump of a small MLP-Mixer block.
  Write(dir / "module_0006.jit__threefry_split.before_optimizations.txt",
        "HloModule jit__threefry_split\n" + big);
  folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  EXPECT_EQ(folder->Default()->name, "jit_mlp");
  // A folder of helpers only still has a default: the largest.
  TempFolder helpers;
  for (const char* id : {"0002", "0004"}) {
    Write(helpers / (std::string("module_") + id + ".jit__normal.before_optimizations.txt"),
          "HloModule jit__normal\n" + big + (id[3] == '4' ? " " : ""));
  }
  folder = ScanXlaDumpFolder(helpers.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  EXPECT_EQ(folder->Default()->id, 4);
}

TEST(XlaDumpFolderTest, FoldersWithoutSnapshotsAreErrors) {
  TempFolder dir;
  auto empty = ScanXlaDumpFolder(dir.path());
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.message().find("no XLA HLO dump files"), std::string::npos);
  Write(dir / "notes.txt", "HloModule m\n");
  Write(dir / "module_0000.jit_f.ir-no-opt.ll", "define void @f() { ret void }\n");
  auto unrelated = ScanXlaDumpFolder(dir.path());
  ASSERT_FALSE(unrelated.ok());
  EXPECT_NE(unrelated.message().find("2 other entries"), std::string::npos);
  EXPECT_FALSE(ScanXlaDumpFolder(dir / "missing").ok());
  EXPECT_FALSE(ScanXlaDumpFolder(dir / "notes.txt").ok());
}

// ------------------------------------------------------------------------- recordings

TEST(XlaDumpImportTest, MlpDumpBecomesXlasPassTimeline) {
  XlaDumpImport imported = ImportOrDie(kMlpDump);
  const recording::Recording& recording = imported.recording;
  EXPECT_TRUE(imported.warnings.empty());
  EXPECT_EQ(imported.files_read, 36);
  ASSERT_EQ(recording.passes.size(), 35u);
  ASSERT_EQ(recording.snapshots.size(), 36u);
  EXPECT_EQ(recording.model_name, "jit_mlp");
  EXPECT_EQ(recording.options.target, "cpu");
  for (const char* name :
       {"call-inliner (HLO_passes_through_layout_assignment)", "algsimp (simplification)",
        "cse (HLO_passes_through_layout_assignment)", "dot-library-rewriter (dot-library-passes)",
        "fusion (HLO_passes_after_layout_assignment)",
        "fusion-wrapper (HLO_passes_after_layout_assignment)", "cpu_after_optimizations"}) {
    EXPECT_GE(PassIndex(recording, name), 0) << name;
  }
  EXPECT_EQ(recording.passes.back().name, "cpu_after_optimizations");
  // Files that repeat the module are passes that changed nothing.
  EXPECT_FALSE(recording.passes.front().changed);
  EXPECT_TRUE(recording
                  .passes[static_cast<size_t>(
                      PassIndex(recording, "fusion (HLO_passes_after_layout_assignment)"))]
                  .changed);
  EXPECT_GT(imported.carried.into_fusions, 20);
}

TEST(XlaDumpImportTest, FusionPassDiffSaysWhatBecameEachFusion) {
  XlaDumpImport imported = ImportOrDie(kMlpDump);
  const recording::Recording& recording = imported.recording;
  const int64_t pass = PassIndex(recording, "fusion (HLO_passes_after_layout_assignment)");
  ASSERT_GE(pass, 0);
  auto before = ModuleAt(recording, static_cast<size_t>(pass));
  auto after = ModuleAt(recording, static_cast<size_t>(pass + 1));
  GraphDiff diff = GraphDiff::Compute(*before, *after);
  EXPECT_TRUE(diff.used_ids());
  const FusionGroup* relu = nullptr;
  for (const FusionGroup& group : diff.fusion_groups()) {
    if (group.fusion->name() == "broadcast_maximum_fusion.1") relu = &group;
  }
  ASSERT_NE(relu, nullptr) << diff.ToText();
  EXPECT_TRUE(relu->new_fusion);
  EXPECT_EQ(Names(relu->members), (std::vector<std::string>{"add.14", "add.15", "max.0", "max.1"}));
  // Each member is a fused clone with its provenance; the fusion answers for all of them.
  for (const Instruction* member : relu->members) {
    for (int64_t id : member->provenance().ids()) {
      EXPECT_TRUE(relu->fusion->provenance().Contains(id)) << member->name();
    }
  }
  // The dot fusions the library rewriter made earlier are left as they were; nothing vanished
  // without trace, and every new instruction outside the fused computations is a fusion.
  EXPECT_EQ(diff.LeftStatus(before->FindInstruction("ynn_fusion.2")), DiffStatus::kUnchanged);
  EXPECT_EQ(diff.counts().removed, 0);
  for (const InstructionDiff& entry : diff.entries()) {
    if (entry.status == DiffStatus::kAdded &&
        entry.right->parent()->fusion_instruction() == nullptr) {
      EXPECT_EQ(entry.right->opcode(), Opcode::kFusion) << entry.right->name();
    }
  }
  EXPECT_GE(diff.fusion_groups().size(), 7u);
}

TEST(XlaDumpImportTest, FinalFusionsTraceBackToTheInputModule) {
  XlaDumpImport imported = ImportOrDie(kMlpDump);
  const recording::Recording& recording = imported.recording;
  auto input = ModuleAt(recording, 0);
  auto final_module = ModuleAt(recording, recording.snapshots.size() - 1);
  std::set<int64_t> input_ids;
  for (const auto& computation : input->computations()) {
    for (const auto& instruction : computation->instructions()) input_ids.insert(instruction->id());
  }
  int64_t fusions = 0;
  for (const auto& instruction : final_module->entry()->instructions()) {
    if (instruction->opcode() != Opcode::kFusion) continue;
    ++fusions;
    const auto& ids = instruction->provenance().ids();
    EXPECT_TRUE(
        std::any_of(ids.begin(), ids.end(), [&](int64_t id) { return input_ids.count(id); }))
        << instruction->name() << " answers for nothing of the input module";
  }
  EXPECT_EQ(fusions, 12);
  // The relu of the first layer: its fusion answers for the input's add and maximum of
  // dense_1 (found through the names they had there).
  const Instruction* relu = final_module->FindInstruction("broadcast_maximum_fusion.1");
  ASSERT_NE(relu, nullptr);
  int64_t dense_1_ops = 0;
  for (int64_t id : relu->provenance().ids()) {
    const Instruction* original = input->FindInstructionById(id);
    if (original && original->metadata().String("op_name").find("dense_1/") != std::string::npos) {
      ++dense_1_ops;
    }
  }
  EXPECT_GE(dense_1_ops, 2);
}

TEST(XlaDumpImportTest, AttentionDumpFusionPass) {
  XlaDumpImport imported = ImportOrDie(kAttentionDump);
  const recording::Recording& recording = imported.recording;
  EXPECT_TRUE(imported.warnings.empty());
  ASSERT_EQ(recording.passes.size(), 40u);
  EXPECT_EQ(recording.model_name, "jit_attention");
  const int64_t pass = PassIndex(recording, "fusion (HLO_passes_after_layout_assignment)");
  ASSERT_GE(pass, 0);
  auto before = ModuleAt(recording, static_cast<size_t>(pass));
  auto after = ModuleAt(recording, static_cast<size_t>(pass + 1));
  GraphDiff diff = GraphDiff::Compute(*before, *after);
  EXPECT_TRUE(diff.used_ids());
  int64_t new_loop_fusions = 0;
  for (const auto& instruction : after->entry()->instructions()) {
    if (instruction->opcode() == Opcode::kFusion && instruction->fusion_kind() == "Loop") {
      ++new_loop_fusions;
    }
  }
  EXPECT_EQ(new_loop_fusions, 11);
  int64_t groups_with_members = 0;
  for (const FusionGroup& group : diff.fusion_groups()) {
    if (group.new_fusion && !group.members.empty()) ++groups_with_members;
  }
  EXPECT_EQ(groups_with_members, new_loop_fusions) << diff.ToText();
  EXPECT_EQ(diff.counts().removed, 0) << diff.ToText();
}

// A dump made without --xla_dump_hlo_pass_re holds only the module before and after
// optimization: one step that inlines the relu calls, fuses, and hands dots to the library.
TEST(XlaDumpImportTest, BeforeAndAfterOnly) {
  TempFolder dir;
  for (const char* file : {"module_0000.jit_mlp.before_optimizations.txt",
                           "module_0000.jit_mlp.cpu_after_optimizations.txt"}) {
    fs::copy_file(fs::path(kMlpDump) / file, fs::path(dir.path()) / file);
  }
  XlaDumpImport imported = ImportOrDie(dir.path());
  ASSERT_EQ(imported.recording.passes.size(), 1u);
  auto before = ModuleAt(imported.recording, 0);
  auto after = ModuleAt(imported.recording, 1);
  GraphDiff diff = GraphDiff::Compute(*before, *after);
  std::map<std::string, std::vector<std::string>> groups;
  for (const FusionGroup& group : diff.fusion_groups()) {
    groups[group.fusion->name()] = Names(group.members);
  }
  EXPECT_EQ(groups["ynn_fusion.1"], (std::vector<std::string>{"dot_general.4"}));
  const std::vector<std::string>& relu = groups["broadcast_maximum_fusion.1"];
  for (const char* name : {"add.15", "jit_relu_.2", "max.3"}) {
    EXPECT_NE(std::find(relu.begin(), relu.end(), name), relu.end())
        << name << ": " << diff.ToText();
  }
}

TEST(XlaDumpImportTest, RecordingSurvivesTheStore) {
  XlaDumpImport imported = ImportOrDie(kMlpDump);
  TempFolder dir;
  const std::string path = dir / "mlp.fsdb";
  ASSERT_TRUE(recording::SaveRecording(imported.recording, path).ok());
  auto loaded = recording::LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(loaded->passes, imported.recording.passes);
  EXPECT_EQ(loaded->snapshots.back().Text(), imported.recording.snapshots.back().Text());
}

// ------------------------------------------------------------------------- bad input

TEST(XlaDumpImportTest, BrokenFilesAreLeftOutWithTheirPosition) {
  TempFolder dir;
  CopyFolder(kMlpDump, dir.path());
  const std::string truncated =
      dir / "module_0000.jit_mlp.0007.simplification.after_algsimp.before_simplify-sorts.txt";
  std::string text;
  {
    std::ifstream in(truncated, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  Write(truncated, text.substr(0, text.size() / 2));
  const std::string garbage =
      dir /
      "module_0000.jit_mlp.0015.HLO_passes_through_layout_assignment.after_cse.before_cse_"
      "barrier_expander.txt";
  Write(garbage, std::string("\x00\x01\xff garbage", 11));

  auto folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  auto imported = ImportXlaDumpModule(folder->modules.front(), dir.path());
  ASSERT_TRUE(imported.ok()) << imported.message();
  ASSERT_EQ(imported->warnings.size(), 2u);
  for (const std::string& warning : imported->warnings) {
    EXPECT_EQ(warning.find('\n'), std::string::npos);
  }
  EXPECT_EQ(imported->warnings[0].rfind(truncated + ":", 0), 0u) << imported->warnings[0];
  EXPECT_EQ(imported->warnings[1].rfind(garbage + ":1:1: ", 0), 0u) << imported->warnings[1];
  EXPECT_EQ(imported->recording.passes.size(), 33u);
  EXPECT_EQ(imported->files_read, 34);
  // The pass after a gap says so.
  const auto& after_gap = imported->recording.passes[7];
  EXPECT_EQ(after_gap.name, "dce (simplification)");
  EXPECT_NE(std::find(after_gap.stats.begin(), after_gap.stats.end(),
                      std::pair<std::string, std::string>("unreadable files before", "1")),
            after_gap.stats.end());
}

TEST(XlaDumpImportTest, NothingReadableIsAnError) {
  TempFolder dir;
  Write(dir / "module_0001.jit_f.before_optimizations.txt", "HloModule f\n\nENTRY main {\n");
  Write(dir / "module_0001.jit_f.0001.p.after_q.txt", "not hlo");
  auto folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  auto imported = ImportXlaDumpModule(folder->modules.front(), dir.path());
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.message().find("could be read as HLO"), std::string::npos);
  EXPECT_EQ(imported.message().find('\n'), std::string::npos);
}

// The model a dump's compile began from: its first file that parses, the passes after it
// unread; a damaged first file is a warning, and nothing readable the import's error.
TEST(XlaDumpImportTest, TheInputTextIsTheFirstFileThatParses) {
  TempFolder dir;
  Write(dir / "module_0001.jit_f.before_optimizations.txt", "HloModule f\n\nENTRY main {\n");
  const std::string first_good = "HloModule f\n\nENTRY main {\n  ROOT p = f32[2] parameter(0)\n}\n";
  Write(dir / "module_0001.jit_f.0001.p.after_q.txt", first_good);
  Write(dir / "module_0001.jit_f.0002.p.after_r.txt", "not hlo either");
  auto folder = ScanXlaDumpFolder(dir.path());
  ASSERT_TRUE(folder.ok()) << folder.message();
  auto input = ReadXlaDumpInputText(folder->modules.front(), dir.path());
  ASSERT_TRUE(input.ok()) << input.message();
  EXPECT_EQ(input->text, first_good);
  ASSERT_EQ(input->warnings.size(), 1u);
  EXPECT_NE(input->warnings.front().find("before_optimizations.txt"), std::string::npos);

  TempFolder broken;
  Write(broken / "module_0001.jit_f.before_optimizations.txt", "HloModule f\n\nENTRY main {\n");
  auto nothing = ScanXlaDumpFolder(broken.path());
  ASSERT_TRUE(nothing.ok()) << nothing.message();
  auto none = ReadXlaDumpInputText(nothing->modules.front(), broken.path());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("could be read as HLO"), std::string::npos);
}

TEST(XlaDumpImportTest, OversizedFilesAreRefusedUnread) {
  auto folder = ScanXlaDumpFolder(kMlpDump);
  ASSERT_TRUE(folder.ok());
  XlaDumpImportOptions options;
  options.max_file_bytes = 14000;  // below every snapshot of the MLP but the smallest
  auto imported = ImportXlaDumpModule(folder->modules.front(), kMlpDump, options);
  if (imported.ok()) {
    EXPECT_FALSE(imported->warnings.empty());
    EXPECT_NE(imported->warnings.front().find("over the limit"), std::string::npos);
  } else {
    EXPECT_NE(imported.message().find("over the limit"), std::string::npos);
  }
  options.max_file_bytes = 10;
  auto none = ImportXlaDumpModule(folder->modules.front(), kMlpDump, options);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("over the limit"), std::string::npos);
}

// ------------------------------------------------------------------------- provenance

std::unique_ptr<Module> Parse(const char* text) {
  auto module = ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return std::move(module).value();
}

// XLA's fusion renames what it clones into the fused computation; operands seen through the
// fusion's parameters still tell which instruction each clone is.
TEST(XlaDumpProvenanceTest, FusedClonesAreFoundByStructure) {
  auto before = Parse(R"(HloModule m
ENTRY main {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  add.1 = f32[8] add(p0, p1)
  neg.2 = f32[8] negate(add.1)
  ROOT mul.3 = f32[8] multiply(neg.2, p1)
}
)");
  auto after = Parse(R"(HloModule m
fused_computation {
  param_0 = f32[8] parameter(0)
  param_1 = f32[8] parameter(1)
  add.7 = f32[8] add(param_0, param_1)
  ROOT neg.8 = f32[8] negate(add.7)
}
ENTRY main {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  add_negate_fusion = f32[8] fusion(p0, p1), kind=kLoop, calls=fused_computation
  ROOT mul.3 = f32[8] multiply(add_negate_fusion, p1)
}
)");
  int64_t next_id = MaxInstructionId(*before) + 1;
  const int64_t first_new = next_id;
  ProvenanceCarryCounts counts = CarryOverProvenance(*before, *after, next_id);
  EXPECT_EQ(counts.by_name, 3);
  EXPECT_EQ(counts.by_structure, 2);
  EXPECT_EQ(counts.into_fusions, 2);
  EXPECT_EQ(counts.new_instructions, 0);
  const Instruction* fusion = after->FindInstruction("add_negate_fusion");
  EXPECT_EQ(fusion->provenance(), (ProvenanceSet{before->FindInstruction("add.1")->id(),
                                                 before->FindInstruction("neg.2")->id()}));
  EXPECT_EQ(after->FindInstruction("add.7")->provenance(),
            before->FindInstruction("add.1")->provenance());
  EXPECT_EQ(after->FindInstruction("mul.3")->id(), before->FindInstruction("mul.3")->id());
  // A fused parameter answers for the fusion's operand, as in our own fusion pass.
  EXPECT_EQ(after->FindInstruction("param_1")->provenance(),
            after->FindInstruction("p1")->provenance());
  EXPECT_GE(fusion->id(), first_new);
  EXPECT_GT(next_id, first_new);
  GraphDiff diff = GraphDiff::Compute(*before, *after);
  ASSERT_EQ(diff.fusion_groups().size(), 1u);
  EXPECT_EQ(Names(diff.fusion_groups().front().members),
            (std::vector<std::string>{"add.1", "neg.2"}));
}

// An algebraic simplification replaces an instruction with a new one among its user's
// operands; the new one inherits what it replaced. Something from nowhere answers for itself.
TEST(XlaDumpProvenanceTest, ReplacementsInheritAndNewInstructionsStandAlone) {
  auto before = Parse(R"(HloModule m
ENTRY main {
  p0 = f32[8] parameter(0)
  c = f32[] constant(2)
  b = f32[8] broadcast(c), dimensions={}
  div.1 = f32[8] divide(p0, b)
  ROOT out = f32[8] negate(div.1)
}
)");
  auto after = Parse(R"(HloModule m
ENTRY main {
  p0 = f32[8] parameter(0)
  c.5 = f32[] constant(0.5)
  b.6 = f32[8] broadcast(c.5), dimensions={}
  multiply.7 = f32[8] multiply(p0, b.6)
  ROOT out = f32[8] negate(multiply.7)
}
)");
  int64_t next_id = MaxInstructionId(*before) + 1;
  ProvenanceCarryCounts counts = CarryOverProvenance(*before, *after, next_id);
  EXPECT_EQ(counts.by_name, 2);
  EXPECT_GE(counts.replacements, 1);
  EXPECT_EQ(after->FindInstruction("multiply.7")->provenance(),
            before->FindInstruction("div.1")->provenance());
  // Every id is unique and none of the new ones repeats an id of the module before.
  std::set<int64_t> ids;
  for (const auto& instruction : after->entry()->instructions()) {
    EXPECT_TRUE(ids.insert(instruction->id()).second);
    EXPECT_FALSE(instruction->provenance().empty());
  }
  EXPECT_FALSE(ids.count(before->FindInstruction("div.1")->id()));
}

}  // namespace
}  // namespace fusescope::ir

namespace fusescope::ir {
namespace {

// A dot rewrite puts a transpose in front of the new dot: that transpose exists only for the
// rewritten dot, so it answers for the dot it was made for, not for nothing.
TEST(XlaDumpProvenanceTest, NewInstructionsFeedingAReplacementArePartOfIt) {
  auto before = Parse(R"(HloModule m
ENTRY main {
  a = f32[4,8] parameter(0)
  w = f32[8,8] parameter(1)
  dot_general.1 = f32[4,8] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT out = f32[4,8] negate(dot_general.1)
}
)");
  auto after = Parse(R"(HloModule m
ENTRY main {
  a = f32[4,8] parameter(0)
  w = f32[8,8] parameter(1)
  transpose.2 = f32[8,8] transpose(w), dimensions={1,0}
  dot.3 = f32[4,8] dot(a, transpose.2), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT out = f32[4,8] negate(dot.3)
}
)");
  int64_t next_id = MaxInstructionId(*before) + 1;
  ProvenanceCarryCounts counts = CarryOverProvenance(*before, *after, next_id);
  EXPECT_EQ(counts.by_name, 3);
  // Without metadata the new dot is not taken for a renamed one (opcode and shape alone say
  // too little); it took the old one's place among the negate's operands.
  EXPECT_EQ(counts.by_structure, 0);
  EXPECT_EQ(counts.replacements, 1);
  EXPECT_EQ(counts.rewrite_parts, 1);
  EXPECT_EQ(counts.new_instructions, 0);
  const ProvenanceSet& dot = before->FindInstruction("dot_general.1")->provenance();
  EXPECT_EQ(after->FindInstruction("dot.3")->provenance(), dot);
  EXPECT_EQ(after->FindInstruction("transpose.2")->provenance(), dot);
  // Parameters keep theirs: the transpose does not make w part of the dot.
  EXPECT_EQ(after->FindInstruction("w")->provenance(), before->FindInstruction("w")->provenance());
}

// XLA's while-loop simplifier clones a loop's body and condition (`region_0.8.clone`), gives
// the cloned instructions fresh numbers or a `.clone` suffix, drops a dead element of the
// state and repacks it through a tuple. The body's work keeps answering for the original's:
// the profile of the optimized module must reach the model's ops inside the loop.
TEST(XlaDumpProvenanceTest, ACloneOfALoopBodyAnswersForTheOriginal) {
  auto before = Parse(R"(HloModule m
body {
  arg.1 = (s32[], f32[4], f32[4], f32[4], s32[]) parameter(0)
  i.1 = s32[] get-tuple-element(arg.1), index=0
  x.1 = f32[4] get-tuple-element(arg.1), index=1
  w.1 = f32[4] get-tuple-element(arg.1), index=2
  v.1 = f32[4] get-tuple-element(arg.1), index=3
  dead.1 = s32[] get-tuple-element(arg.1), index=4
  one.1 = s32[] constant(1)
  next.1 = s32[] add(i.1, one.1)
  mul.1 = f32[4] multiply(x.1, w.1)
  tanh.1 = f32[4] tanh(mul.1)
  ROOT t.1 = (s32[], f32[4], f32[4], f32[4], s32[]) tuple(next.1, tanh.1, w.1, v.1, dead.1)
}
cond {
  arg.2 = (s32[], f32[4], f32[4], f32[4], s32[]) parameter(0)
  i.2 = s32[] get-tuple-element(arg.2), index=0
  n.2 = s32[] constant(8)
  ROOT lt.2 = pred[] compare(i.2, n.2), direction=LT
}
ENTRY main {
  x = f32[4] parameter(0)
  w = f32[4] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4], f32[4], f32[4], s32[]) tuple(zero, x, w, w, zero)
  while.9 = (s32[], f32[4], f32[4], f32[4], s32[]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(while.9), index=1
}
)");
  auto after = Parse(R"(HloModule m
body.clone {
  arg.5 = (s32[], f32[4], f32[4], f32[4]) parameter(0)
  i.7 = s32[] get-tuple-element(arg.5), index=0
  x.7 = f32[4] get-tuple-element(arg.5), index=1
  w.7 = f32[4] get-tuple-element(arg.5), index=2
  v.7 = f32[4] get-tuple-element(arg.5), index=3
  repack.7 = (s32[], f32[4], f32[4], f32[4]) tuple(i.7, x.7, w.7, v.7)
  i.8 = s32[] get-tuple-element(repack.7), index=0
  x.8 = f32[4] get-tuple-element(repack.7), index=1
  w.8 = f32[4] get-tuple-element(repack.7), index=2
  v.8 = f32[4] get-tuple-element(repack.7), index=3
  one.1.clone = s32[] constant(1)
  next.9 = s32[] add(i.8, one.1.clone)
  mul.9 = f32[4] multiply(x.8, w.8)
  tanh.9 = f32[4] tanh(mul.9)
  ROOT t.9 = (s32[], f32[4], f32[4], f32[4]) tuple(next.9, tanh.9, w.8, v.8)
}
cond.clone {
  arg.6 = (s32[], f32[4], f32[4], f32[4]) parameter(0)
  i.6 = s32[] get-tuple-element(arg.6), index=0
  n.2.clone.1 = s32[] constant(8)
  ROOT lt.6 = pred[] compare(i.6, n.2.clone.1), direction=LT
}
ENTRY main {
  x = f32[4] parameter(0)
  w = f32[4] parameter(1)
  zero = s32[] constant(0)
  init.3 = (s32[], f32[4], f32[4], f32[4]) tuple(zero, x, w, w)
  while = (s32[], f32[4], f32[4], f32[4]) while(init.3), condition=cond.clone, body=body.clone
  ROOT out = f32[4] get-tuple-element(while), index=1
}
)");
  int64_t next_id = MaxInstructionId(*before) + 1;
  ProvenanceCarryCounts counts = CarryOverProvenance(*before, *after, next_id);
  EXPECT_EQ(counts.by_clone_name, 2);
  for (const auto& [clone, original] : std::vector<std::pair<std::string, std::string>>{
           {"one.1.clone", "one.1"},
           {"n.2.clone.1", "n.2"},
           {"next.9", "next.1"},
           {"mul.9", "mul.1"},
           {"tanh.9", "tanh.1"},
           {"lt.6", "lt.2"},
           // The fourth element kept its place; the fifth, dead, was dropped.
           {"v.7", "v.1"}}) {
    SCOPED_TRACE(clone);
    const Instruction* copy = after->FindInstruction(clone);
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->provenance(), before->FindInstruction(original)->provenance());
    // Only a name kept keeps an id.
    EXPECT_NE(copy->id(), before->FindInstruction(original)->id());
  }
  // Two elements of one shape are told apart by their index: x and w stay apart.
  EXPECT_NE(after->FindInstruction("x.7")->provenance(),
            after->FindInstruction("w.7")->provenance());
}

// A clone whose original is elsewhere, or of another opcode, is not taken for it; a name
// that only looks like a clone's (`clone_head.2`, `x.clones`) is nobody's clone.
TEST(XlaDumpProvenanceTest, OnlyANameXlaGivesAClonePairsIt) {
  auto before = Parse(R"(HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  a.1 = f32[4] negate(p)
  ROOT b.2 = f32[4] exponential(a.1)
}
)");
  auto after = Parse(R"(HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  a.1.clone = f32[4] abs(p)
  clone_head.2 = f32[4] negate(p)
  x.clones = f32[4] sqrt(clone_head.2)
  ROOT b.2 = f32[4] exponential(a.1.clone)
}
)");
  int64_t next_id = MaxInstructionId(*before) + 1;
  ProvenanceCarryCounts counts = CarryOverProvenance(*before, *after, next_id);
  EXPECT_EQ(counts.by_clone_name, 0);
}

}  // namespace
}  // namespace fusescope::ir
