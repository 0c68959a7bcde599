#include "recording/recording_store.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"
#include "ir/hlo_printer.h"
#include "recording/recorder.h"
#include "recording/sqlite_database.h"
#include "recording_test_util.h"

namespace fusescope::recording {
namespace {

using namespace testutil;  // NOLINT: the test passes and module

// A recording with everything in it: changes, a lying flag, stats, decisions, a skipped
// pass, and a failure with its reproducer.
Recording MakeRichRecording() {
  auto module = ParseOrDie(kSmallModule);
  passes::PipelineOptions options;
  options.disabled_passes = {"lying"};
  options.fusion.max_instructions = 17;
  options.fusion.multi_output = false;
  passes::Pipeline pipeline("test", options);
  pipeline.Add<NoOpPass>();
  pipeline.Add<ConsiderFusionPass>();
  pipeline.Add<AddToMultiplyPass>();
  pipeline.Add<LyingPass>();
  pipeline.Add<BreakingPass>();
  Recorder recorder(pipeline);
  recorder.set_model("small", "/models/small.hlo");
  recorder.set_input_text(std::string(kSmallModule));
  pipeline.AddInstrumentation(&recorder);
  EXPECT_FALSE(pipeline.Run(*module).ok());
  return recorder.TakeRecording();
}

void ExpectSameDecision(const passes::FusionDecisionRecord& a,
                        const passes::FusionDecisionRecord& b) {
  EXPECT_EQ(a.pass, b.pass);
  EXPECT_EQ(a.pass_index, b.pass_index);
  EXPECT_EQ(a.producer_id, b.producer_id);
  EXPECT_EQ(a.producer_name, b.producer_name);
  EXPECT_EQ(a.producer_opcode, b.producer_opcode);
  EXPECT_EQ(a.consumer_id, b.consumer_id);
  EXPECT_EQ(a.consumer_name, b.consumer_name);
  EXPECT_EQ(a.consumer_opcode, b.consumer_opcode);
  EXPECT_EQ(a.computation, b.computation);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.explanation, b.explanation);
  EXPECT_EQ(a.fusion_name, b.fusion_name);
}

void ExpectSameSnapshot(const Snapshot& a, const Snapshot& b) {
  EXPECT_EQ(a.Text(), b.Text());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_EQ(a.pass_index(), b.pass_index());
  EXPECT_EQ(a.broken(), b.broken());
  EXPECT_EQ(a.error(), b.error());
  ASSERT_EQ(a.computations().size(), b.computations().size());
  for (size_t c = 0; c < a.computations().size(); ++c) {
    const ComputationSnapshot& ca = *a.computations()[c];
    const ComputationSnapshot& cb = *b.computations()[c];
    EXPECT_EQ(ca.name, cb.name);
    EXPECT_EQ(ca.is_entry, cb.is_entry);
    ASSERT_EQ(ca.instructions.size(), cb.instructions.size());
    for (size_t i = 0; i < ca.instructions.size(); ++i) {
      EXPECT_EQ(*ca.instructions[i], *cb.instructions[i]) << ca.instructions[i]->name;
    }
  }
}

void ExpectSameRecording(const Recording& a, const Recording& b) {
  EXPECT_EQ(a.model_name, b.model_name);
  EXPECT_EQ(a.source_path, b.source_path);
  EXPECT_EQ(a.input_text, b.input_text);
  EXPECT_EQ(a.pipeline_name, b.pipeline_name);
  EXPECT_EQ(a.total_seconds, b.total_seconds);
  EXPECT_EQ(a.options.target, b.options.target);
  EXPECT_EQ(a.options.disabled_passes, b.options.disabled_passes);
  EXPECT_EQ(a.options.fusion.max_instructions, b.options.fusion.max_instructions);
  EXPECT_EQ(a.options.fusion.multi_output, b.options.fusion.multi_output);
  EXPECT_EQ(a.passes, b.passes);
  EXPECT_EQ(a.reproducer, b.reproducer);
  ASSERT_EQ(a.decisions.size(), b.decisions.size());
  for (size_t i = 0; i < a.decisions.size(); ++i)
    ExpectSameDecision(a.decisions[i], b.decisions[i]);
  ASSERT_EQ(a.snapshots.size(), b.snapshots.size());
  for (size_t i = 0; i < a.snapshots.size(); ++i)
    ExpectSameSnapshot(a.snapshots[i], b.snapshots[i]);
}

Recording SaveAndLoad(const Recording& recording, const std::string& path) {
  Status saved = SaveRecording(recording, path);
  EXPECT_TRUE(saved.ok()) << saved.message();
  StatusOr<Recording> loaded = LoadRecording(path);
  EXPECT_TRUE(loaded.ok()) << loaded.message();
  return loaded.ok() ? std::move(loaded).value() : Recording();
}

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void SetUserVersion(const std::string& path, int version) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  ASSERT_TRUE(db.ok()) << db.message();
  ASSERT_TRUE((*db)->Execute("PRAGMA user_version=" + std::to_string(version)).ok());
}

// Everything a recording holds survives the file: passes, timings, snapshots with their
// records and provenance, decisions, options, the failure and its reproducer.
TEST(RecordingStoreTest, RoundTripsEverything) {
  TemporaryDirectory dir;
  Recording recording = MakeRichRecording();
  ASSERT_EQ(recording.passes.size(), 5u);
  ASSERT_TRUE(recording.failed());
  ASSERT_FALSE(recording.decisions.empty());
  Recording loaded = SaveAndLoad(recording, dir.File("run.fsdb"));
  ExpectSameRecording(recording, loaded);
}

// Every option of the option table is stored under its key and read back; a file written
// before the table named the operand budget by its long name and switches as 1/0.
TEST(RecordingStoreTest, TableOptionsSurviveTheFile) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  Recording recording = MakeRichRecording();
  recording.options.fusion.max_operands_and_outputs = 8;
  recording.options.fusion.allow_duplication = false;
  recording.options.gpu_device.peak_tflops = 19.5;
  Recording loaded = SaveAndLoad(recording, path);
  EXPECT_EQ(loaded.options.fusion.max_operands_and_outputs, 8);
  EXPECT_FALSE(loaded.options.fusion.allow_duplication);
  EXPECT_EQ(loaded.options.gpu_device.peak_tflops, 19.5);
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
    ASSERT_TRUE(db.ok()) << db.message();
    ASSERT_TRUE((*db)
                    ->Execute("UPDATE pipeline_options SET key = "
                              "'fusion.max_operands_and_outputs', value = '12' WHERE key = "
                              "'fusion.max_operands'; UPDATE pipeline_options SET value = '1' "
                              "WHERE key = 'fusion.allow_duplication';")
                    .ok());
  }
  StatusOr<Recording> old = LoadRecording(path);
  ASSERT_TRUE(old.ok()) << old.message();
  EXPECT_EQ(old->options.fusion.max_operands_and_outputs, 12);
  EXPECT_TRUE(old->options.fusion.allow_duplication);
}

// Sharing between snapshots is kept on disk and restored on load.
TEST(RecordingStoreTest, SharingSurvivesTheFile) {
  TemporaryDirectory dir;
  Recording recording = MakeRichRecording();
  Recording loaded = SaveAndLoad(recording, dir.File("run.fsdb"));
  ASSERT_EQ(loaded.snapshots.size(), recording.snapshots.size());
  for (size_t i = 1; i < recording.snapshots.size(); ++i) {
    SnapshotSharing before = recording.snapshots[i].SharingWith(recording.snapshots[i - 1]);
    SnapshotSharing after = loaded.snapshots[i].SharingWith(loaded.snapshots[i - 1]);
    EXPECT_EQ(before.shared_instructions, after.shared_instructions) << "snapshot " << i;
    EXPECT_EQ(before.shared_computations, after.shared_computations) << "snapshot " << i;
  }
  EXPECT_EQ(recording.Footprint().unique_instruction_records,
            loaded.Footprint().unique_instruction_records);
}

// Provenance sets shared between records are stored once and shared again after loading.
TEST(RecordingStoreTest, SharedProvenanceSurvivesTheFile) {
  TemporaryDirectory dir;
  auto module = ParseOrDie(kSmallModule);
  const ir::ProvenanceSet merged = {1, 2, 3, 4, 5, 6, 7, 8};
  module->FindInstruction("p0")->set_provenance(merged);
  module->FindInstruction("p1")->set_provenance(merged);
  Recording recording;
  recording.snapshots.push_back(Snapshot::Capture(*module, nullptr));
  Recording loaded = SaveAndLoad(recording, dir.File("run.fsdb"));
  ASSERT_EQ(loaded.snapshots.size(), 1u);
  const InstructionRecord* p0 = loaded.snapshots[0].FindInstruction("p0");
  const InstructionRecord* p1 = loaded.snapshots[0].FindInstruction("p1");
  ASSERT_TRUE(p0 && p1);
  EXPECT_EQ(p0->provenance(), merged);
  EXPECT_EQ(p0->provenance_set, p1->provenance_set);
  auto db = SqliteDatabase::Open(dir.File("run.fsdb"), SqliteDatabase::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  // Nine instructions, seven of them with their own singleton set.
  EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM provenance_sets"), 8);
}

// A loaded snapshot still rebuilds the module it recorded.
TEST(RecordingStoreTest, LoadedSnapshotRebuildsModule) {
  TemporaryDirectory dir;
  auto module = ParseOrDie(kSmallModule);
  passes::Pipeline pipeline("test");
  pipeline.Add<AddToMultiplyPass>();
  Recorder recorder(pipeline);
  pipeline.AddInstrumentation(&recorder);
  ASSERT_TRUE(pipeline.Run(*module).ok());
  Recording loaded = SaveAndLoad(recorder.TakeRecording(), dir.File("run.fsdb"));
  ASSERT_EQ(loaded.snapshots.size(), 2u);
  StatusOr<std::unique_ptr<ir::Module>> rebuilt = loaded.snapshots[1].ToModule();
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.message();
  EXPECT_EQ(ir::Fingerprint(**rebuilt), ir::Fingerprint(*module));
  const ir::Instruction* multiply = (*rebuilt)->FindInstruction("multiply");
  ASSERT_NE(multiply, nullptr);
  EXPECT_EQ(multiply->id(), module->FindInstruction("multiply")->id());
  EXPECT_EQ(multiply->provenance(), module->FindInstruction("multiply")->provenance());
}

// Saving over an existing recording replaces it whole and leaves no temporary files.
TEST(RecordingStoreTest, SaveReplacesExistingFile) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  Recording first = MakeRichRecording();
  ASSERT_TRUE(SaveRecording(first, path).ok());
  Recording second = first;
  second.model_name = "second";
  second.decisions.clear();
  Recording loaded = SaveAndLoad(second, path);
  EXPECT_EQ(loaded.model_name, "second");
  EXPECT_TRUE(loaded.decisions.empty());
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    files.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(files, std::vector<std::string>{"run.fsdb"});
}

// A save that cannot complete reports the file and leaves what was there untouched.
TEST(RecordingStoreTest, FailedSaveKeepsWhatWasThere) {
  TemporaryDirectory dir;
  const std::string path = dir.File("taken");
  std::filesystem::create_directory(path);
  WriteFile(path + "/keep.txt", "precious");
  Status saved = SaveRecording(MakeRichRecording(), path);
  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.message().rfind(path + ": cannot save recording (", 0), 0u) << saved.message();
  EXPECT_EQ(ReadFile(path + "/keep.txt"), "precious");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);

  Status no_folder = SaveRecording(MakeRichRecording(), dir.File("missing/run.fsdb"));
  EXPECT_FALSE(no_folder.ok());
}

// A recording with nothing in it yet is still a recording.
TEST(RecordingStoreTest, EmptyRecordingRoundTrips) {
  TemporaryDirectory dir;
  Recording empty;
  empty.model_name = "nothing yet";
  Recording loaded = SaveAndLoad(empty, dir.File("empty.fsdb"));
  EXPECT_EQ(loaded.model_name, "nothing yet");
  EXPECT_TRUE(loaded.snapshots.empty());
  EXPECT_TRUE(loaded.passes.empty());
}

TEST(RecordingStoreTest, MissingFile) {
  TemporaryDirectory dir;
  StatusOr<Recording> loaded = LoadRecording(dir.File("absent.fsdb"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), dir.File("absent.fsdb") + ": no such file");
}

TEST(RecordingStoreTest, NotSqlite) {
  TemporaryDirectory dir;
  const std::string path = dir.File("notes.fsdb");
  WriteFile(path, std::string(4096, 'x') + "this is not a database at all\n");
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message().rfind(path + ": not a Fusescope recording (", 0), 0u)
      << loaded.message();
  EXPECT_EQ(loaded.message().find('\n'), std::string::npos);
}

TEST(RecordingStoreTest, EmptyFile) {
  TemporaryDirectory dir;
  const std::string path = dir.File("empty.fsdb");
  WriteFile(path, "");
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message().rfind(path + ": not a Fusescope recording (", 0), 0u)
      << loaded.message();
}

// Some other program's SQLite database is not mistaken for a recording.
TEST(RecordingStoreTest, ForeignSqliteDatabase) {
  TemporaryDirectory dir;
  const std::string path = dir.File("other.db");
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);").ok());
  }
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), path + ": not a Fusescope recording (no Fusescope schema version)");

  SetUserVersion(path, kRecordingSchemaVersion);
  loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), path + ": not a Fusescope recording (no Fusescope metadata)");
}

TEST(RecordingStoreTest, NewerSchemaIsRefused) {
  TemporaryDirectory dir;
  const std::string path = dir.File("future.fsdb");
  ASSERT_TRUE(SaveRecording(MakeRichRecording(), path).ok());
  SetUserVersion(path, kRecordingSchemaVersion + 1);
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), path + ": recording schema version " +
                                  std::to_string(kRecordingSchemaVersion + 1) +
                                  " is newer than this Fusescope reads (" +
                                  std::to_string(kRecordingSchemaVersion) + ")");
}

// Cut anywhere, a recording is refused with one clear line rather than read with holes.
TEST(RecordingStoreTest, TruncatedFile) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(MakeRichRecording(), path).ok());
  const std::string whole = ReadFile(path);
  ASSERT_GT(whole.size(), 8192u);
  for (size_t size : {size_t{50}, size_t{4096}, whole.size() / 2, whole.size() - 1024}) {
    const std::string cut = dir.File("cut" + std::to_string(size) + ".fsdb");
    WriteFile(cut, std::string_view(whole).substr(0, size));
    StatusOr<Recording> loaded = LoadRecording(cut);
    ASSERT_FALSE(loaded.ok()) << "cut at " << size;
    EXPECT_EQ(loaded.message().rfind(cut + ": not a Fusescope recording (", 0), 0u)
        << loaded.message();
  }
}

// A reference to a row that is not there is damage, not a snapshot with a hole.
TEST(RecordingStoreTest, DanglingReferenceIsDamage) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(MakeRichRecording(), path).ok());
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Execute("DELETE FROM records WHERE record_id = 3").ok());
  }
  StatusOr<Recording> loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), path +
                                  ": not a Fusescope recording (computation member refers "
                                  "to a missing row)");
}

// The file states what it is to any SQLite tool: versions in the header and meta table.
TEST(RecordingStoreTest, FileCarriesItsVersion) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(MakeRichRecording(), path).ok());
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(*(*db)->QueryInt("PRAGMA user_version"), kRecordingSchemaVersion);
  EXPECT_EQ(*(*db)->QueryInt("SELECT value FROM meta WHERE key = 'schema_version'"),
            kRecordingSchemaVersion);
  EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM meta WHERE key = 'format' AND "
                             "value = 'fusescope-recording'"),
            1);
  // Written in write-ahead-log mode.
  StatusOr<SqliteStatement> mode = (*db)->Prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.ok());
  ASSERT_TRUE(*mode->Step());
  EXPECT_EQ(mode->Text(0), "wal");
}

// Records shared by several snapshots are stored once.
TEST(RecordingStoreTest, SharedRecordsAreStoredOnce) {
  TemporaryDirectory dir;
  const std::string path = dir.File("run.fsdb");
  Recording recording = MakeRichRecording();
  ASSERT_TRUE(SaveRecording(recording, path).ok());
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  RecordingFootprint footprint = recording.Footprint();
  EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM records"), footprint.unique_instruction_records);
  EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM computations"), footprint.unique_computations);
  EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM snapshot_members"),
            footprint.computation_references);
}

}  // namespace
}  // namespace fusescope::recording
