#include "profiler/attribution.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

#include "profiler/profile_store.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"

namespace fusescope::profiler {
namespace {

namespace fs = std::filesystem;

// A large dot beside small elementwise work: the dot's kernel is hot by construction.
constexpr const char* kModel = R"(
HloModule hot_dot
ENTRY main {
  a = f32[256,256] parameter(0), metadata={op_name="model/matmul" source_file="model.py" source_line=10}
  b = f32[256,256] parameter(1)
  v = f32[256] parameter(2)
  d = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={op_name="model/matmul" source_file="model.py" source_line=10}
  e = f32[256] exponential(v), metadata={op_name="model/exp" source_file="model.py" source_line=11}
  n = f32[256] negate(e), metadata={op_name="model/neg" source_file="model.py" source_line=12}
  ROOT t = (f32[256,256], f32[256]) tuple(d, n)
})";

recording::Recording Compile() {
  passes::PipelineOptions options;
  options.target = "cpu";
  StatusOr<recording::Recording> recording = recording::CompileAndRecord(kModel, options, "hot.hlo");
  EXPECT_TRUE(recording.ok()) << recording.message();
  return recording.ok() ? std::move(*recording) : recording::Recording{};
}

// Kernels of the final snapshot (entry instructions that do work), with given times: the
// one holding the dot takes 900 us per run, every other 50 us.
Profile KnownProfile(const recording::Recording& recording, int runs = 2) {
  Profile profile;
  profile.label = "by construction";
  profile.source = "test";
  profile.snapshot_index = static_cast<int64_t>(recording.snapshots.size()) - 1;
  const recording::Snapshot& last = recording.snapshots.back();
  const int64_t dot_id = recording.snapshots.front().FindInstruction("d")->id;
  for (const auto& computation : last.computations()) {
    for (const auto& record : computation->instructions) {
      if (record->computation != "main") continue;
      if (record->opcode != "fusion" && record->opcode != "dot") continue;
      const bool holds_dot = record->provenance_set->Contains(dot_id);
      KernelTime kernel;
      kernel.instruction_id = record->id;
      kernel.name = record->name;
      kernel.samples_us.assign(static_cast<size_t>(runs), holds_dot ? 900.0 : 50.0);
      kernel.total_us = std::accumulate(kernel.samples_us.begin(), kernel.samples_us.end(), 0.0);
      profile.kernels.push_back(std::move(kernel));
    }
  }
  return profile;
}

TEST(AttributionTest, HotKernelLandsOnTheDotOnEveryPass) {
  const recording::Recording recording = Compile();
  ASSERT_FALSE(recording.snapshots.empty());
  const Profile profile = KnownProfile(recording);
  ASSERT_GE(profile.kernels.size(), 2u);
  StatusOr<Attribution> attribution = AttributeToOriginals(recording, profile);
  ASSERT_TRUE(attribution.ok()) << attribution.message();
  EXPECT_TRUE(attribution->kernels_not_found.empty());
  // Every measured microsecond lands on some model instruction.
  double kernels = 0;
  for (const KernelTime& kernel : profile.kernels) kernels += kernel.total_us;
  double originals = 0;
  for (const auto& [id, micros] : attribution->original_us) originals += micros;
  EXPECT_NEAR(originals, kernels, 1e-6);

  // The profiled snapshot: measured kernels only, the dot's first.
  StatusOr<std::vector<HotNode>> last =
      HotNodes(recording, profile, *attribution, profile.snapshot_index);
  ASSERT_TRUE(last.ok()) << last.message();
  ASSERT_FALSE(last->empty());
  EXPECT_TRUE(last->front().measured);
  EXPECT_DOUBLE_EQ(last->front().time_us, 1800);
  EXPECT_EQ(last->front().originals.front(), "d");
  for (const HotNode& node : *last) EXPECT_TRUE(node.measured) << node.name;

  // The input: the dot instruction is the hottest node, an estimate, with its source line.
  StatusOr<std::vector<HotNode>> input = HotNodes(recording, profile, *attribution, 0);
  ASSERT_TRUE(input.ok()) << input.message();
  ASSERT_FALSE(input->empty());
  EXPECT_EQ(input->front().name, "d");
  EXPECT_FALSE(input->front().measured);
  EXPECT_GT(input->front().time_us, 0.5 * 1800);
  EXPECT_LE(input->front().time_us, 1800 + 1e-9);
  ASSERT_FALSE(input->front().source_lines.empty());
  EXPECT_EQ(input->front().source_lines.front().file, "model.py");
  EXPECT_EQ(input->front().source_lines.front().line, 10);
  // On every snapshot a model instruction's time is shared, never counted twice: the nodes
  // add up to at most what was attributed, and on the input (every model instruction a
  // node of its own) to exactly that.
  for (size_t i = 0; i < recording.snapshots.size(); ++i) {
    StatusOr<std::vector<HotNode>> nodes =
        HotNodes(recording, profile, *attribution, static_cast<int64_t>(i));
    ASSERT_TRUE(nodes.ok()) << nodes.message();
    double sum = 0;
    for (const HotNode& node : *nodes) sum += node.time_us;
    if (static_cast<int64_t>(i) == profile.snapshot_index) {
      EXPECT_NEAR(sum, kernels, 1e-6);
    } else {
      EXPECT_LE(sum, originals + 1e-6) << "snapshot " << i;
    }
    if (i == 0) {
      EXPECT_NEAR(sum, originals, 1e-6);
    }
  }
  // No parameter or other free node carries time.
  for (const HotNode& node : *input) {
    EXPECT_NE(node.opcode, "parameter") << node.name;
    EXPECT_NE(node.opcode, "tuple") << node.name;
  }
}

// The graphs show the entry computation, where a loop is one node: its heat is its body's,
// a loop inside it included, and the body's own nodes keep theirs.
TEST(AttributionTest, ALoopCarriesTheTimeOfEverythingItRuns) {
  constexpr const char* kLoops = R"(
HloModule loops
inner_body {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  inner_exp = f32[8] exponential(x)
  ROOT t = (s32[], f32[8]) tuple(i1, inner_exp)
}
inner_cond {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
outer_body {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  zero = s32[] constant(0)
  start = (s32[], f32[8]) tuple(zero, x)
  inner = (s32[], f32[8]) while(start), condition=inner_cond, body=inner_body
  y = f32[8] get-tuple-element(inner), index=1
  outer_neg = f32[8] negate(y)
  ROOT t = (s32[], f32[8]) tuple(i1, outer_neg)
}
outer_cond {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
ENTRY main {
  x = f32[8] parameter(0)
  zero = s32[] constant(0)
  start = (s32[], f32[8]) tuple(zero, x)
  outer = (s32[], f32[8]) while(start), condition=outer_cond, body=outer_body
  y = f32[8] get-tuple-element(outer), index=1
  ROOT after_loop = f32[8] sqrt(y)
})";
  passes::PipelineOptions options;
  options.target = "cpu";
  StatusOr<recording::Recording> recording =
      recording::CompileAndRecord(kLoops, options, "loops.hlo");
  ASSERT_TRUE(recording.ok()) << recording.message();
  const recording::Snapshot& input = recording->snapshots.front();
  auto id = [&input](const char* name) { return input.FindInstruction(name)->id; };
  std::vector<HotNode> nodes;
  for (const auto& [name, share] : std::vector<std::pair<const char*, double>>{
           {"inner_exp", 0.25}, {"outer_neg", 0.125}, {"outer", 0.0625}, {"after_loop", 0.5}}) {
    HotNode node;
    node.instruction_id = id(name);
    node.name = name;
    node.share = share;
    nodes.push_back(node);
  }
  StatusOr<std::unordered_map<int64_t, double>> shares = InclusiveShares(*recording, 0, nodes);
  ASSERT_TRUE(shares.ok()) << shares.message();
  EXPECT_DOUBLE_EQ(shares->at(id("inner")), 0.25);
  EXPECT_DOUBLE_EQ(shares->at(id("outer")), 0.0625 + 0.125 + 0.25);
  EXPECT_DOUBLE_EQ(shares->at(id("inner_exp")), 0.25);
  EXPECT_DOUBLE_EQ(shares->at(id("after_loop")), 0.5);
  EXPECT_EQ(shares->count(id("x")), 0u);
  EXPECT_FALSE(InclusiveShares(*recording, 99, nodes).ok());
}

TEST(ProfileStoreTest, ProfilesAddToARecordingWithoutLosingIt) {
  const recording::Recording recording = Compile();
  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "profile_store_test";
  fs::create_directories(dir);
  const std::string path = (dir / "run.fsdb").string();
  fs::remove(path);
  ASSERT_TRUE(recording::SaveRecording(recording, path).ok());

  StatusOr<std::vector<Profile>> none = LoadProfiles(path);
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_TRUE(none->empty());

  Profile first = KnownProfile(recording, 3);
  first.run_latency_us = {1000, 1100, 990};
  StatusOr<int64_t> id1 = AddProfile(path, first);
  ASSERT_TRUE(id1.ok()) << id1.message();
  Profile second = KnownProfile(recording, 1);
  second.label = "second";
  StatusOr<int64_t> id2 = AddProfile(path, second);
  ASSERT_TRUE(id2.ok()) << id2.message();
  EXPECT_EQ(*id1, 1);
  EXPECT_EQ(*id2, 2);

  // A profile of a snapshot the recording does not have is refused; nothing changes.
  Profile bad = first;
  bad.snapshot_index = 999;
  StatusOr<int64_t> refused = AddProfile(path, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("snapshot 999"), std::string::npos) << refused.message();

  StatusOr<std::vector<Profile>> loaded = LoadProfiles(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->size(), 2u);
  const Profile& back = (*loaded)[0];
  EXPECT_EQ(back.label, "by construction");
  EXPECT_EQ(back.run_latency_us, (std::vector<double>{1000, 1100, 990}));
  ASSERT_EQ(back.kernels.size(), first.kernels.size());
  for (size_t i = 0; i < back.kernels.size(); ++i) {
    EXPECT_EQ(back.kernels[i].name, first.kernels[i].name);
    EXPECT_EQ(back.kernels[i].instruction_id, first.kernels[i].instruction_id);
    EXPECT_EQ(back.kernels[i].samples_us, first.kernels[i].samples_us);
  }
  EXPECT_EQ((*loaded)[1].label, "second");

  // The recording itself reads as before.
  StatusOr<recording::Recording> reread = recording::LoadRecording(path);
  ASSERT_TRUE(reread.ok()) << reread.message();
  EXPECT_EQ(reread->snapshots.size(), recording.snapshots.size());
  EXPECT_EQ(reread->snapshots.back().fingerprint(), recording.snapshots.back().fingerprint());
}

TEST(ProfileStoreTest, NotARecordingIsAnError) {
  const fs::path dir = fs::path(FUSESCOPE_BINARY_DIR) / "profile_store_test";
  fs::create_directories(dir);
  const std::string path = (dir / "plain.txt").string();
  { std::ofstream(path) << "hello"; }
  Profile profile;
  profile.snapshot_index = 0;
  EXPECT_FALSE(AddProfile(path, profile).ok());
  EXPECT_FALSE(LoadProfiles(path).ok());
  EXPECT_FALSE(AddProfile((dir / "missing.fsdb").string(), profile).ok());
}

}  // namespace
}  // namespace fusescope::profiler
