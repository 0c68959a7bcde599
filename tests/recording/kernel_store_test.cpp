// The kernel level of a recording file: kernels stored and read back exactly (large texts
// compressed), a listing without texts, sets replaced by snapshot and options, refused or
// failed adds that leave the file as it was, and damaged tables reported, not crashed on.

#include "recording/kernel_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "recording/sqlite_database.h"
#include "resources/samples.h"
#include "tests/kernel_fixture/kernel_fixture.h"

namespace fusescope::recording {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  std::string path;
  int snapshot = -1;
  std::vector<KernelRecord> kernels;
};

fs::path TestDirectory() {
  return fs::path(FUSESCOPE_BINARY_DIR) / ("kernel_store_test." + std::to_string(getpid()));
}

// sample:mlp compiled and saved as `name` (no kernels yet), with the fixture's kernels of its
// final snapshot. One folder per process: ctest runs test cases in parallel processes.
Fixture SavedRecording(const std::string& name) {
  static const Recording recording = [] {
    passes::PipelineOptions options;
    options.target = "cpu";
    auto compiled = CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
    EXPECT_TRUE(compiled.ok()) << compiled.message();
    return compiled.ok() ? std::move(*compiled) : Recording();
  }();
  Fixture fixture;
  fs::create_directories(TestDirectory());
  fixture.path = (TestDirectory() / name).string();
  fs::remove(fixture.path);
  EXPECT_TRUE(SaveRecording(recording, fixture.path).ok());
  fixture.snapshot = static_cast<int>(recording.snapshots.size()) - 1;
  fixture.kernels = testing::FixtureKernels(recording.snapshots.back(), fixture.snapshot);
  return fixture;
}

std::string FileBytes(const std::string& path) { return testing::ReadFixtureFile(path); }

void ExpectSameKernel(const KernelRecord& got, const KernelRecord& want) {
  EXPECT_EQ(got.kernel, want.kernel);
  EXPECT_EQ(got.instruction_id, want.instruction_id);
  EXPECT_EQ(got.snapshot, want.snapshot);
  EXPECT_EQ(got.backend, want.backend);
  EXPECT_EQ(got.options, want.options);
  EXPECT_EQ(got.failed_stage, want.failed_stage);
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.note, want.note);
  EXPECT_DOUBLE_EQ(got.compile_seconds, want.compile_seconds);
  ASSERT_EQ(got.stages.size(), want.stages.size()) << want.kernel;
  for (size_t i = 0; i < want.stages.size(); ++i) {
    EXPECT_EQ(got.stages[i].name, want.stages[i].name);
    EXPECT_EQ(got.stages[i].text, want.stages[i].text) << want.kernel << " " << want.stages[i].name;
  }
}

void Execute(const std::string& path, const std::string& sql) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->Execute(sql).ok()) << sql;
}

int64_t QueryInt(const std::string& path, const std::string& sql) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  EXPECT_TRUE(db.ok());
  auto value = (*db)->QueryInt(sql);
  EXPECT_TRUE(value.ok()) << value.message();
  return value.ok() ? *value : -1;
}

// The fixture's kernels come back field by field and text by text, in order.
TEST(KernelStoreTest, RoundTrip) {
  Fixture fixture = SavedRecording("round_trip.fsdb");
  ASSERT_GE(fixture.kernels.size(), 4u);
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "tile=32 vector=8", fixture.kernels).ok());
  auto loaded = LoadKernels(fixture.path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->size(), fixture.kernels.size());
  for (size_t i = 0; i < loaded->size(); ++i) ExpectSameKernel((*loaded)[i], fixture.kernels[i]);
  // The recording itself still loads.
  EXPECT_TRUE(LoadRecording(fixture.path).ok());
}

// Texts over a few KiB are stored compressed, smaller than they are, and inflate exactly.
TEST(KernelStoreTest, LargeTextsAreCompressed) {
  Fixture fixture = SavedRecording("compressed.fsdb");
  KernelRecord big;
  big.kernel = "big";
  big.backend = "mlir-cpu";
  big.snapshot = fixture.snapshot;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "  %" + std::to_string(i) + " = arith.addf %a, %b : f32\n";
  big.stages = {{"input", text}, {"small", "func.func @f() {\n}\n"}};
  ASSERT_GT(text.size(), kKernelTextCompressBytes);
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "", {big}).ok());
  EXPECT_EQ(
      QueryInt(fixture.path,
               "SELECT count(*) FROM kernel_stages WHERE encoding = 'zlib' AND name = 'input' "
               "AND length(text) < bytes / 4"),
      1);
  EXPECT_EQ(
      QueryInt(fixture.path,
               "SELECT count(*) FROM kernel_stages WHERE encoding = 'plain' AND name = 'small'"),
      1);
  auto loaded = LoadKernels(fixture.path, fixture.snapshot);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameKernel(loaded->front(), big);
}

// The listing names stages with their lines and sizes, without reading texts.
TEST(KernelStoreTest, ListsWithoutTexts) {
  Fixture fixture = SavedRecording("list.fsdb");
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "tile=32 vector=8", fixture.kernels).ok());
  auto listed = ListKernels(fixture.path);
  ASSERT_TRUE(listed.ok()) << listed.message();
  ASSERT_EQ(listed->size(), fixture.kernels.size());
  for (size_t i = 0; i < listed->size(); ++i) {
    const KernelSummary& summary = (*listed)[i];
    const KernelRecord& want = fixture.kernels[i];
    EXPECT_EQ(summary.kernel, want.kernel);
    EXPECT_EQ(summary.backend, want.backend);
    EXPECT_EQ(summary.snapshot, fixture.snapshot);
    ASSERT_EQ(summary.stages.size(), want.stages.size());
    for (size_t s = 0; s < want.stages.size(); ++s) {
      EXPECT_EQ(summary.stages[s].name, want.stages[s].name);
      EXPECT_EQ(summary.stages[s].bytes, static_cast<int64_t>(want.stages[s].text.size()));
      EXPECT_EQ(summary.stages[s].lines,
                std::count(want.stages[s].text.begin(), want.stages[s].text.end(), '\n'));
    }
  }
  auto other = ListKernels(fixture.path, 0);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->empty());
}

// The same snapshot and options again replace the set; other options make a set of their
// own; LoadKernel picks a kernel by name from the set added last unless options are named.
TEST(KernelStoreTest, SameSnapshotAndOptionsReplace) {
  Fixture fixture = SavedRecording("replace.fsdb");
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "tile=32", fixture.kernels).ok());
  KernelRecord again = fixture.kernels.front();
  again.compile_seconds = 7;
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "tile=32", {again}).ok());
  auto loaded = LoadKernels(fixture.path);
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ(loaded->front().compile_seconds, 7);
  EXPECT_EQ(QueryInt(fixture.path, "SELECT count(*) FROM kernel_stages"),
            static_cast<int64_t>(again.stages.size()));

  KernelRecord tuned = again;
  tuned.options = "";
  tuned.compile_seconds = 9;
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "tile=64", {tuned}).ok());
  loaded = LoadKernels(fixture.path);
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[1].options, "tile=64");
  auto latest = LoadKernel(fixture.path, fixture.snapshot, again.kernel);
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->compile_seconds, 9);
  auto named = LoadKernel(fixture.path, fixture.snapshot, again.kernel, std::string("tile=32"));
  ASSERT_TRUE(named.ok() && named->has_value());
  EXPECT_EQ((*named)->compile_seconds, 7);
  auto missing = LoadKernel(fixture.path, fixture.snapshot, "nope");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

// Refused before writing: a snapshot the recording lacks, two kernels of one name, a record
// of another snapshot. The file keeps every byte.
TEST(KernelStoreTest, RefusedAddLeavesFileAsItWas) {
  Fixture fixture = SavedRecording("refused.fsdb");
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
  const std::string before = FileBytes(fixture.path);
  Status status = AddKernels(fixture.path, 999, "a", fixture.kernels);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("no snapshot 999"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("unchanged"), std::string::npos) << status.message();
  std::vector<KernelRecord> twice = {fixture.kernels[0], fixture.kernels[0]};
  status = AddKernels(fixture.path, fixture.snapshot, "a", twice);
  EXPECT_NE(status.message().find("two kernels named"), std::string::npos) << status.message();
  std::vector<KernelRecord> elsewhere = {fixture.kernels[0]};
  elsewhere[0].snapshot = 0;
  EXPECT_FALSE(AddKernels(fixture.path, fixture.snapshot, "a", elsewhere).ok());
  EXPECT_EQ(FileBytes(fixture.path), before);
}

// A failure in the middle of writing (the old set already deleted, some rows written) rolls
// everything back: the earlier set is still there, whole.
TEST(KernelStoreTest, FailedWriteRollsBack) {
  Fixture fixture = SavedRecording("rollback.fsdb");
  ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
  Execute(fixture.path,
          "CREATE TRIGGER refuse BEFORE INSERT ON kernel_stages WHEN NEW.name = 'boom' "
          "BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END;");
  std::vector<KernelRecord> replacement = fixture.kernels;
  replacement.back().stages.push_back({"boom", "x\n"});
  const Status status = AddKernels(fixture.path, fixture.snapshot, "a", replacement);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("refused by a test trigger"), std::string::npos);
  EXPECT_NE(status.message().find("unchanged"), std::string::npos);
  auto loaded = LoadKernels(fixture.path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_EQ(loaded->size(), fixture.kernels.size());
  for (size_t i = 0; i < loaded->size(); ++i) ExpectSameKernel((*loaded)[i], fixture.kernels[i]);
}

// A recording that never had kernels has none, and that is no error.
TEST(KernelStoreTest, RecordingWithoutKernelTablesHasNone) {
  Fixture fixture = SavedRecording("none.fsdb");
  auto loaded = LoadKernels(fixture.path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_TRUE(loaded->empty());
  auto listed = ListKernels(fixture.path);
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());
}

// Damage gives one error naming the file and the kernel tables.
TEST(KernelStoreTest, DamagedTablesGiveOneClearError) {
  const auto expect_damaged = [](const std::string& path, const std::string& cause) {
    auto loaded = LoadKernels(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.message().find(path + ": damaged kernel tables"), std::string::npos)
        << loaded.message();
    EXPECT_NE(loaded.message().find(cause), std::string::npos) << loaded.message();
    EXPECT_EQ(loaded.message().find('\n'), std::string::npos);
  };
  {
    Fixture fixture = SavedRecording("bad_blob.fsdb");
    ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    Execute(fixture.path,
            "UPDATE kernel_stages SET text = randomblob(2000) WHERE encoding = 'zlib'");
    expect_damaged(fixture.path, "does not inflate");
    // The listing reads no text, so it still works.
    EXPECT_TRUE(ListKernels(fixture.path).ok());
  }
  {
    Fixture fixture = SavedRecording("bad_size.fsdb");
    ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    Execute(fixture.path,
            "UPDATE kernel_stages SET bytes = 1000000000000000 WHERE encoding = 'zlib'");
    expect_damaged(fixture.path, "cannot inflate to 1000000000000000 bytes");
  }
  {
    Fixture fixture = SavedRecording("bad_encoding.fsdb");
    ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    Execute(fixture.path, "UPDATE kernel_stages SET encoding = 'lz4'");
    expect_damaged(fixture.path, "unknown encoding 'lz4'");
  }
  {
    Fixture fixture = SavedRecording("bad_column.fsdb");
    ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    Execute(fixture.path, "ALTER TABLE kernels DROP COLUMN note");
    expect_damaged(fixture.path, "note");
    // Adding to damaged tables is refused and changes nothing.
    const std::string before = FileBytes(fixture.path);
    EXPECT_FALSE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    EXPECT_EQ(FileBytes(fixture.path), before);
  }
  {
    Fixture fixture = SavedRecording("missing_table.fsdb");
    ASSERT_TRUE(AddKernels(fixture.path, fixture.snapshot, "a", fixture.kernels).ok());
    Execute(fixture.path, "DROP TABLE kernel_stages");
    expect_damaged(fixture.path, "missing");
  }
}

// Not a recording at all: an error, nothing written.
TEST(KernelStoreTest, NotARecording) {
  fs::create_directories(TestDirectory());
  const std::string path = (TestDirectory() / "text.fsdb").string();
  {
    std::ofstream file(path);
    file << "not a database, just text that is long enough to look like a file";
  }
  EXPECT_FALSE(LoadKernels(path).ok());
  const Status status = AddKernels(path, 0, "", {});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path), std::string::npos);
  EXPECT_FALSE(AddKernels((TestDirectory() / "missing.fsdb").string(), 0, "", {}).ok());
  EXPECT_FALSE(fs::exists(TestDirectory() / "missing.fsdb"));
}

}  // namespace
}  // namespace fusescope::recording
