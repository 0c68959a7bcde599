// Generated modules (fuzz/module_generator: every op family the verifier knows, small
// shapes) through the interpreter: each either runs or stops with an error naming an
// instruction, never crashes, and runs the same way twice.

#include <gtest/gtest.h>

#include "fuzz/module_generator.h"
#include "ir/hlo_printer.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

TEST(InterpreterGeneratedModulesTest, RunsOrRefusesDeterministically) {
  int ran = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const std::vector<uint8_t> bytes = fuzz::SeedBytes(seed, 512);
    auto module = fuzz::GenerateModule(bytes.data(), bytes.size());
    ASSERT_TRUE(module.ok()) << module.message();
    auto inputs = SeededInputs(*(*module)->entry(), seed);
    if (!inputs.ok()) continue;  // tuple or token parameters
    InterpreterOptions options;
    options.max_live_bytes = int64_t{64} << 20;
    options.max_while_iterations = 1000;
    Interpreter interpreter(options);
    StatusOr<Literal> first = interpreter.Run(**module, *inputs);
    StatusOr<Literal> second = interpreter.Run(**module, *inputs);
    ASSERT_EQ(first.ok(), second.ok()) << "seed " << seed;
    if (!first.ok()) {
      EXPECT_EQ(first.message(), second.message()) << "seed " << seed;
      EXPECT_FALSE(first.message().empty()) << "seed " << seed;
      continue;
    }
    ++ran;
    EXPECT_TRUE(first->BitwiseEqual(*second)) << "seed " << seed << "\n"
                                              << ir::PrintModule(**module);
  }
  // Most generated modules are within what the interpreter runs (the rest hold rng,
  // custom-calls and the like).
  EXPECT_GT(ran, 100);
}

}  // namespace
}  // namespace fusescope::runtime
