// The compiled-kernel cache on disk (runtime/cpu/kernel_disk_cache.h): what it stores and
// finds, its size limit, a damaged file, and kernels compiled once and then loaded from it
// by a later compile, running with the same results.

#include "runtime/cpu/kernel_disk_cache.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ir/hlo_parser.h"
#include "runtime/cpu/kernel_compiler.h"
#include "runtime/kernel_emitter.h"
#include "runtime/literal.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

namespace fs = std::filesystem;

class KernelDiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() /
              ("fusescope-kernel-cache-test-" + std::to_string(getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string Path() const { return (folder_ / "cache" / "kernels.sqlite").string(); }

  fs::path folder_;
};

CachedKernel Kernel(const std::string& object, std::vector<recording::KernelStage> stages = {}) {
  CachedKernel kernel;
  kernel.object = object;
  kernel.stages = std::move(stages);
  kernel.compile_seconds = 0.25;
  return kernel;
}

TEST_F(KernelDiskCacheTest, FindsWhatWasStoredUnderItsWholeKey) {
  KernelDiskCache cache(Path());
  EXPECT_FALSE(cache.Find("a", false).has_value());
  cache.Store("a", Kernel(std::string("\x7f"
                                      "ELF\0object",
                                      10)));
  EXPECT_TRUE(cache.problem().empty()) << cache.problem();
  EXPECT_TRUE(fs::exists(Path()));
  auto found = cache.Find("a", false);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->object, std::string("\x7f"
                                       "ELF\0object",
                                       10));
  EXPECT_EQ(found->compile_seconds, 0.25);
  EXPECT_FALSE(cache.Find("b", false).has_value());
  // Stored without stages: not what a compile that keeps them wants.
  EXPECT_FALSE(cache.Find("a", true).has_value());
  cache.Store("a", Kernel("object 2", {{"input", "module {}"}, {"asm", "ret"}}));
  auto with_stages = cache.Find("a", true);
  ASSERT_TRUE(with_stages.has_value());
  EXPECT_EQ(with_stages->object, "object 2");
  ASSERT_EQ(with_stages->stages.size(), 2u);
  EXPECT_EQ(with_stages->stages[1].name, "asm");
  EXPECT_EQ(with_stages->stages[1].text, "ret");
  EXPECT_EQ(cache.kernel_count(), 1);
  // Another cache on the same file (another process) reads the same rows.
  KernelDiskCache other(Path());
  EXPECT_TRUE(other.Find("a", true).has_value());
}

TEST_F(KernelDiskCacheTest, ADamagedObjectIsNotFound) {
  {
    KernelDiskCache cache(Path());
    cache.Store("a", Kernel("object bytes"));
    ASSERT_TRUE(cache.Find("a", false).has_value());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(Path().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE kernels SET object = CAST('object bytez' AS BLOB)", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  KernelDiskCache cache(Path());
  EXPECT_FALSE(cache.Find("a", false).has_value());
  EXPECT_TRUE(cache.problem().empty()) << cache.problem();
}

TEST_F(KernelDiskCacheTest, DropsTheLeastRecentlyUsedPastItsLimit) {
  const std::string object(1000, 'x');
  KernelDiskCache cache(Path(), 2500);
  cache.Store("first", Kernel(object));
  cache.Store("second", Kernel(object));
  ASSERT_TRUE(cache.Find("first", false).has_value());  // now used after "second"
  cache.Store("third", Kernel(object));
  EXPECT_EQ(cache.kernel_count(), 2);
  EXPECT_LE(cache.total_bytes(), 2500);
  EXPECT_TRUE(cache.Find("first", false).has_value());
  EXPECT_FALSE(cache.Find("second", false).has_value());
  EXPECT_TRUE(cache.Find("third", false).has_value());
  // A kernel larger than the whole cache is not kept, and evicts nothing.
  cache.Store("huge", Kernel(std::string(5000, 'y')));
  EXPECT_FALSE(cache.Find("huge", false).has_value());
  EXPECT_EQ(cache.kernel_count(), 2);
}

// The kernels of one compile are stored in one transaction: each is found under its own key,
// one larger than the whole cache is left out without failing the others, and the least
// recently used kernels go once the batch is in.
TEST_F(KernelDiskCacheTest, KernelsStoredTogetherAreEachFound) {
  KernelDiskCache cache(Path(), 3500);
  cache.Store("old", Kernel(std::string(1000, 'o')));
  const CachedKernel first = Kernel(std::string(1000, 'a'));
  const CachedKernel huge = Kernel(std::string(5000, 'h'));
  const CachedKernel second = Kernel(std::string(1000, 'b'), {{"asm", "ret"}});
  cache.Store({{"first", &first}, {"huge", &huge}, {"second", &second}});
  EXPECT_TRUE(cache.problem().empty()) << cache.problem();
  EXPECT_FALSE(cache.Find("huge", false).has_value());
  auto found = cache.Find("first", false);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->object, first.object);
  found = cache.Find("second", true);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->object, second.object);
  ASSERT_EQ(found->stages.size(), 1u);
  EXPECT_EQ(found->stages[0].text, "ret");
  EXPECT_TRUE(cache.Find("old", false).has_value());
  const CachedKernel third = Kernel(std::string(1000, 'c'));
  cache.Store({{"third", &third}});
  EXPECT_EQ(cache.kernel_count(), 3);
  EXPECT_FALSE(cache.Find("first", false).has_value()) << "the least recently used stays";
  EXPECT_TRUE(cache.Find("third", false).has_value());
  cache.Store({});  // nothing to store: no transaction, no error
  EXPECT_TRUE(cache.problem().empty()) << cache.problem();
}

TEST_F(KernelDiskCacheTest, ADamagedFileIsLeftAloneAndSaysWhy) {
  fs::create_directories(fs::path(Path()).parent_path());
  {
    std::ofstream out(Path(), std::ios::binary);
    out << std::string(8192, 'z');
  }
  KernelDiskCache cache(Path());
  EXPECT_FALSE(cache.Find("a", false).has_value());
  EXPECT_NE(cache.problem().find("not a database"), std::string::npos) << cache.problem();
  cache.Store("a", Kernel("object"));
  EXPECT_FALSE(cache.Find("a", false).has_value());
  EXPECT_EQ(cache.kernel_count(), -1);
  std::ifstream in(Path(), std::ios::binary);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, std::string(8192, 'z')) << "the file was written to";
}

// The bytes a kernel of `module`'s root writes for seeded inputs.
std::vector<uint8_t> RunKernel(const CompiledKernel& kernel, const ir::Module& module) {
  auto inputs = SeededInputs(*module.entry(), 5);
  EXPECT_TRUE(inputs.ok());
  auto output = Literal::Create(module.entry()->root()->shape());
  EXPECT_TRUE(output.ok());
  std::vector<void*> buffers;
  for (Literal& input : *inputs) buffers.push_back(input.data());
  buffers.push_back(output->data());
  EXPECT_TRUE(kernel.Run(buffers).ok());
  return std::vector<uint8_t>(output->data(), output->data() + output->byte_size());
}

TEST_F(KernelDiskCacheTest, AKernelCompiledOnceIsLoadedByTheNextCompile) {
  if (!KernelCompilerAvailable()) GTEST_SKIP() << "this build has no MLIR";
  // tanh through libm (no approximation) and a transpose: the loaded object must find libm's
  // tanhf in the process, as the compiling JIT did.
  auto module = ir::ParseHloModule(R"(HloModule m
fused {
  p = f32[6,10] parameter(0)
  t = f32[10,6] transpose(p), dimensions={1,0}
  ROOT h = f32[10,6] tanh(t)
}
ENTRY e {
  x = f32[6,10] parameter(0)
  ROOT f = f32[10,6] fusion(x), kind=kLoop, calls=fused
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto emitted = EmitFusionKernel(*(*module)->entry()->root());
  ASSERT_TRUE(emitted.ok()) << emitted.message();
  const LoweringOptions options = LoweringOptions::Parse("tile=0 vector=8 approx=0").value();
  KernelDiskCache cache(Path());

  KernelCompilation first =
      CompileKernelText(emitted->text, emitted->function_name, options, true, &cache);
  ASSERT_NE(first.kernel, nullptr) << first.record.failed_stage << ": " << first.record.error;
  EXPECT_EQ(first.record.note.find("kernel cache"), std::string::npos) << first.record.note;
  EXPECT_EQ(cache.kernel_count(), 1) << cache.problem();
  bool calls_libm = false;
  for (const recording::KernelStage& stage : first.record.stages)
    calls_libm =
        calls_libm || (stage.name == "asm" && stage.text.find("tanhf") != std::string::npos);
  EXPECT_TRUE(calls_libm) << "the kernel no longer calls tanhf: the test checks nothing";

  KernelCompilation loaded =
      CompileKernelText(emitted->text, emitted->function_name, options, true, &cache);
  ASSERT_NE(loaded.kernel, nullptr) << loaded.record.failed_stage << ": " << loaded.record.error;
  EXPECT_NE(loaded.record.note.find("loaded from the kernel cache"), std::string::npos)
      << loaded.record.note;
  ASSERT_EQ(loaded.record.stages.size(), first.record.stages.size());
  for (size_t i = 0; i < first.record.stages.size(); ++i) {
    EXPECT_EQ(loaded.record.stages[i].name, first.record.stages[i].name);
    EXPECT_EQ(loaded.record.stages[i].text, first.record.stages[i].text);
  }
  EXPECT_EQ(RunKernel(*loaded.kernel, **module), RunKernel(*first.kernel, **module));

  // Without stages wanted, the same row serves; another option or text is another kernel.
  KernelCompilation quiet =
      CompileKernelText(emitted->text, emitted->function_name, options, false, &cache);
  EXPECT_NE(quiet.record.note.find("loaded from the kernel cache"), std::string::npos);
  EXPECT_TRUE(quiet.record.stages.empty());
  KernelCompilation other =
      CompileKernelText(emitted->text, emitted->function_name,
                        LoweringOptions::Parse("tile=0 vector=4").value(), false, &cache);
  EXPECT_EQ(other.record.note.find("kernel cache"), std::string::npos);
  EXPECT_EQ(cache.kernel_count(), 2);
  // Stored without stages, then wanted with them: compiled again, and stored with them.
  KernelCompilation staged =
      CompileKernelText(emitted->text, emitted->function_name,
                        LoweringOptions::Parse("tile=0 vector=4").value(), true, &cache);
  EXPECT_EQ(staged.record.note.find("kernel cache"), std::string::npos);
  EXPECT_FALSE(staged.record.stages.empty());
}

// Kernels compiled in one LLVM module are each stored under their own key with the module's
// object; compiled again, every one is loaded from it, together or alone, and runs the same.
TEST_F(KernelDiskCacheTest, KernelsOfOneModuleAreEachLoadedFromItsObject) {
  auto module = ir::ParseHloModule(R"(HloModule m
ENTRY e {
  x = f32[6,10] parameter(0)
  ROOT n = f32[6,10] negate(x)
})");
  ASSERT_TRUE(module.ok()) << module.message();
  auto emitted = EmitInstructionKernel(*(*module)->entry()->root());
  ASSERT_TRUE(emitted.ok()) << emitted.message();
  const std::string& name = emitted->function_name;
  const size_t at = emitted->text.find("@" + name + "(");
  ASSERT_NE(at, std::string::npos);
  // One kernel under three names: each is its own text, key and symbol.
  std::vector<std::string> texts, functions;
  for (const char* suffix : {"_x", "_y", "_z"}) {
    functions.push_back(name + suffix);
    texts.push_back(emitted->text);
    texts.back().replace(at, name.size() + 2, "@" + functions.back() + "(");
  }
  std::vector<KernelJob> jobs;
  for (size_t i = 0; i < texts.size(); ++i) jobs.push_back({&texts[i], &functions[i], {}});
  KernelDiskCache cache(Path());

  std::vector<KernelCompilation> first = CompileKernelTexts(jobs, false, 1, &cache);
  std::vector<std::vector<uint8_t>> outputs;
  for (const KernelCompilation& compiled : first) {
    ASSERT_NE(compiled.kernel, nullptr)
        << compiled.record.failed_stage << ": " << compiled.record.error;
    EXPECT_NE(compiled.record.note.find("one LLVM module with 2 other kernels"), std::string::npos)
        << compiled.record.note;
    outputs.push_back(RunKernel(*compiled.kernel, **module));
  }
  EXPECT_EQ(cache.kernel_count(), 3) << cache.problem();

  std::vector<KernelCompilation> again = CompileKernelTexts(jobs, false, 2, &cache);
  for (size_t i = 0; i < again.size(); ++i) {
    ASSERT_NE(again[i].kernel, nullptr) << again[i].record.error;
    EXPECT_NE(again[i].record.note.find("loaded from the kernel cache"), std::string::npos)
        << again[i].record.note;
    EXPECT_EQ(RunKernel(*again[i].kernel, **module), outputs[i]);
  }
  KernelCompilation alone = CompileKernelText(texts[1], functions[1], {}, false, &cache);
  ASSERT_NE(alone.kernel, nullptr) << alone.record.error;
  EXPECT_NE(alone.record.note.find("loaded from the kernel cache"), std::string::npos);
  EXPECT_EQ(RunKernel(*alone.kernel, **module), outputs[1]);
  EXPECT_EQ(cache.kernel_count(), 3);
}

}  // namespace
}  // namespace fusescope::runtime
