// Constants held as bytes survive a recording: every snapshot of a compile refers to one
// stored copy, large ones are split into chunks, compressible ones deflated, damage is found,
// and a version-1 recording (no constant tables) still reads.

#include "recording/constant_store.h"

#include <cstring>

#include "gtest/gtest.h"
#include "ir/hlo_parser.h"
#include "passes/literal_value.h"
#include "recording/compile_and_record.h"
#include "recording/recording_store.h"
#include "recording/sqlite_database.h"
#include "recording_test_util.h"

namespace fusescope::recording {
namespace {

using namespace testutil;  // NOLINT: the temporary folder helpers

// y = x @ w + b with w and b held as bytes only, as an ONNX initializer is imported.
std::unique_ptr<ir::Module> ModelWithWeights(int64_t n) {
  auto module = ir::ParseHloModule(
      "HloModule m\nENTRY e {\n  x = f32[2," + std::to_string(n) + "] parameter(0)\n  w = f32[" +
          std::to_string(n) + "," + std::to_string(n) + "] constant({...})\n  d = f32[2," +
          std::to_string(n) +
          "] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  b = f32[" +
          std::to_string(n) + "] constant({...})\n  bb = f32[2," + std::to_string(n) +
          "] broadcast(b), dimensions={1}\n  ROOT y = f32[2," + std::to_string(n) +
          "] add(d, bb)\n}\n",
      "m.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  for (const char* name : {"w", "b"}) {
    ir::Instruction* constant = (*module)->FindInstruction(name);
    std::vector<uint8_t> bytes(static_cast<size_t>(constant->shape().ElementCount()) * 4);
    for (size_t i = 0; i < bytes.size() / 4; ++i) {
      const float value = static_cast<float>(i % 1000) * 0.001f - 0.5f;
      std::memcpy(bytes.data() + 4 * i, &value, 4);
    }
    constant->set_constant_bytes(ir::MakeConstantBytes(std::move(bytes)));
  }
  return std::move(module).value();
}

TEST(ConstantStoreTest, EverySnapshotSharesOneStoredCopy) {
  TemporaryDirectory dir;
  auto module = ModelWithWeights(64);
  passes::PipelineOptions options;
  auto compiled = CompileAndRecord(*module, options);
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  ASSERT_GT(compiled->snapshots.size(), 3u);
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(*compiled, path).ok());
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM constants"), 2);
  }
  auto loaded = LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  auto first = loaded->snapshots.front().ToModule();
  auto last = loaded->snapshots.back().ToModule();
  ASSERT_TRUE(first.ok() && last.ok());
  const ir::Instruction* w_first = (*first)->FindInstruction("w");
  ASSERT_NE(w_first, nullptr);
  ASSERT_NE(w_first->constant_bytes(), nullptr);
  EXPECT_EQ(w_first->constant_bytes()->bytes(),
            module->FindInstruction("w")->constant_bytes()->bytes());
  // Read once, shared by every snapshot that holds it.
  const ir::Instruction* w_last = (*last)->FindInstruction("w");
  ASSERT_NE(w_last, nullptr);
  EXPECT_EQ(w_last->constant_bytes().get(), w_first->constant_bytes().get());
}

// Bigger than one chunk: split and put back together; the repeating values deflate.
TEST(ConstantStoreTest, LargeConstantsAreChunkedAndCompressed) {
  TemporaryDirectory dir;
  const int64_t n = 2100;  // 17.6 MB of weights: two chunks
  auto module = ModelWithWeights(n);
  auto compiled = CompileAndRecord(*module, passes::PipelineOptions());
  ASSERT_TRUE(compiled.ok()) << compiled.message();
  const std::string path = dir.File("big.fsdb");
  ASSERT_TRUE(SaveRecording(*compiled, path).ok());
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(*(*db)->QueryInt("SELECT count(*) FROM constant_chunks WHERE constant_id IN "
                               "(SELECT constant_id FROM constants WHERE byte_size > 16000000)"),
              2);
    EXPECT_GT(*(*db)->QueryInt("SELECT count(*) FROM constant_chunks WHERE codec != 'raw'"), 0);
    EXPECT_LT(*(*db)->QueryInt("SELECT sum(length(data)) FROM constant_chunks"), n * n * 4 / 2);
  }
  auto loaded = LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  auto rebuilt = loaded->snapshots.front().ToModule();
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ((*rebuilt)->FindInstruction("w")->constant_bytes()->bytes(),
            module->FindInstruction("w")->constant_bytes()->bytes());
}

TEST(ConstantStoreTest, DamagedBytesAreReported) {
  TemporaryDirectory dir;
  auto module = ModelWithWeights(8);
  auto compiled = CompileAndRecord(*module, passes::PipelineOptions());
  ASSERT_TRUE(compiled.ok());
  const std::string path = dir.File("run.fsdb");
  ASSERT_TRUE(SaveRecording(*compiled, path).ok());
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(
        (*db)
            ->Execute(
                "UPDATE constant_chunks SET data = zeroblob(length(data)) WHERE codec = 'raw'")
            .ok());
  }
  auto loaded = LoadRecording(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find("does not match its fingerprint"), std::string::npos)
      << loaded.message();
}

// A recording written before constants had bytes: no constant tables, version 1.
TEST(ConstantStoreTest, AVersionOneRecordingStillReads) {
  TemporaryDirectory dir;
  auto compiled = CompileAndRecord(*ModelWithWeights(8), passes::PipelineOptions());
  ASSERT_TRUE(compiled.ok());
  const std::string path = dir.File("old.fsdb");
  ASSERT_TRUE(SaveRecording(*compiled, path).ok());
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)
                    ->Execute("DROP TABLE constants; DROP TABLE constant_chunks; DROP TABLE "
                              "record_constants; PRAGMA user_version=1; UPDATE meta SET "
                              "value='1' WHERE key='schema_version'")
                    .ok());
  }
  auto loaded = LoadRecording(path);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  auto rebuilt = loaded->snapshots.front().ToModule();
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ((*rebuilt)->FindInstruction("w")->constant_bytes(), nullptr);
  EXPECT_EQ((*rebuilt)->FindInstruction("w")->literal(), "{...}");
}

TEST(ConstantStoreTest, SpelledOutConstantsCarryTheirValues) {
  auto module = ModelWithWeights(4);
  auto spelled = passes::SpellOutConstants(*module);
  ASSERT_TRUE(spelled.ok()) << spelled.message();
  EXPECT_EQ(*spelled, 2);
  EXPECT_EQ(module->FindInstruction("b")->literal(), "{-0.5, -0.499, -0.498, -0.497}");
}

}  // namespace
}  // namespace fusescope::recording
