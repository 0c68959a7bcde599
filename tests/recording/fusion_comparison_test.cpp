#include "recording/fusion_comparison.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "importers/xla_dump_folder.h"
#include "importers/xla_dump_importer.h"
#include "recording/compile_and_record.h"

namespace fusescope::recording {
namespace {

Recording ImportDump(const std::string& folder_name) {
  const std::string path = std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/" + folder_name;
  auto folder = ir::ScanXlaDumpFolder(path);
  EXPECT_TRUE(folder.ok()) << folder.message();
  auto imported = ir::ImportXlaDumpModule(*folder->Default(), folder->path);
  EXPECT_TRUE(imported.ok()) << imported.message();
  return std::move(imported->recording);
}

struct Compared {
  Recording xla;
  Recording ours;
  FusionComparison comparison;
};

Compared CompareWith(const std::string& dump, const std::string& target) {
  Compared result;
  result.xla = ImportDump(dump);
  const int64_t base = SnapshotBeforeFirstFusion(result.xla);
  auto module = result.xla.snapshots[static_cast<size_t>(base)].ToModule();
  EXPECT_TRUE(module.ok()) << module.message();
  passes::PipelineOptions options;
  options.target = target;
  auto ours = CompileAndRecord(**module, options);
  EXPECT_TRUE(ours.ok()) << ours.message();
  result.ours = std::move(*ours);
  auto comparison = CompareFusion(result.xla, base, result.ours);
  EXPECT_TRUE(comparison.ok()) << comparison.message();
  result.comparison = std::move(*comparison);
  return result;
}

const FusedPair* Find(const std::vector<FusedPair>& pairs, const std::string& producer,
                      const std::string& consumer) {
  auto it = std::find_if(pairs.begin(), pairs.end(), [&](const FusedPair& pair) {
    return pair.producer.rfind(producer + " ", 0) == 0 && pair.consumer.rfind(consumer + " ", 0) == 0;
  });
  return it == pairs.end() ? nullptr : &*it;
}

// The base is what XLA's fusion passes saw: after its simplification, before the pass that
// first formed fusions (XLA:CPU's dot library rewriter).
TEST(FusionComparisonTest, BaseIsTheModuleBeforeXlasFirstFusingPass) {
  const Recording xla = ImportDump("xla_dump_mlp");
  const int64_t base = SnapshotBeforeFirstFusion(xla);
  ASSERT_GT(base, 0);
  EXPECT_NE(xla.passes[static_cast<size_t>(base)].name.find("dot-library"), std::string::npos)
      << xla.passes[static_cast<size_t>(base)].name;
}

// On the MLP our CPU fusion agrees with XLA's except where XLA hands a dot to its library
// alone and we fuse the bias add into the dot's output.
TEST(FusionComparisonTest, MlpOnCpuDiffersOnlyAtTheDots) {
  const Compared c = CompareWith("xla_dump_mlp", "cpu");
  const FusionComparison& r = c.comparison;
  EXPECT_EQ(r.edges, static_cast<int64_t>(r.both.size() + r.only_first.size() +
                                          r.only_second.size()) + r.neither);
  EXPECT_GE(r.both.size(), 20u);
  EXPECT_TRUE(r.only_first.empty());
  ASSERT_EQ(r.only_second.size(), 2u);
  for (const FusedPair& pair : r.only_second) {
    EXPECT_NE(pair.producer.find("(dot)"), std::string::npos) << pair.producer;
    EXPECT_NE(pair.consumer.find("(add)"), std::string::npos) << pair.consumer;
  }
}

// Against our GPU rules XLA:CPU fuses reduction epilogues; the pairs say so with our reason.
TEST(FusionComparisonTest, AttentionOnGpuGivesOurReasonsWhereXlaFused) {
  const Compared c = CompareWith("xla_dump_attention", "gpu");
  const FusedPair* epilogue = Find(c.comparison.only_first, "reduce_sum.21", "divide");
  ASSERT_NE(epilogue, nullptr);
  EXPECT_EQ(epilogue->first_fusion, "reduce_divide_fusion");
  EXPECT_TRUE(epilogue->second_fusion.empty());
  EXPECT_NE(epilogue->second_explanation.find("reduction epilogues are not fused"),
            std::string::npos)
      << epilogue->second_explanation;
  EXPECT_FALSE(epilogue->second_reason.empty());
}

TEST(FusionComparisonTest, RecordingsOfDifferentModulesAreRefused) {
  const Recording xla = ImportDump("xla_dump_mlp");
  passes::PipelineOptions options;
  auto other = CompileAndRecord(std::string_view(R"(
HloModule other
ENTRY main {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
})"), options);
  ASSERT_TRUE(other.ok()) << other.message();
  auto comparison = CompareFusion(xla, SnapshotBeforeFirstFusion(xla), *other);
  ASSERT_FALSE(comparison.ok());
  EXPECT_NE(comparison.message().find("different modules"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::recording
