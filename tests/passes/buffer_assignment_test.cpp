// Buffer assignment's result: live ranges, allocations and reuse, per buffer.

#include "passes/buffer_assignment.h"

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"

namespace fusescope::passes {
namespace {

const BufferAssignmentResult::Buffer* Find(const BufferAssignmentResult& result,
                                           std::string_view name) {
  for (const auto& buffer : result.buffers) {
    if (buffer.instruction == name) return &buffer;
  }
  return nullptr;
}

TEST(BufferAssignmentTest, ChainReusesTheFirstDeadBuffer) {
  auto parsed = ir::ParseHloModule(R"(
HloModule m
ENTRY main {
  p = f32[256] parameter(0)
  e1 = f32[256] exponential(p)
  e2 = f32[256] negate(e1)
  e3 = f32[256] abs(e2)
  ROOT e4 = f32[256] sqrt(e3)
})");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  const BufferAssignmentResult result = BufferAssignment::Analyze(*(*parsed)->entry());
  ASSERT_EQ(result.buffers.size(), 5u);
  const auto* p = Find(result, "p");
  const auto* e1 = Find(result, "e1");
  const auto* e2 = Find(result, "e2");
  const auto* e3 = Find(result, "e3");
  const auto* e4 = Find(result, "e4");
  ASSERT_TRUE(p && e1 && e2 && e3 && e4);
  EXPECT_EQ(e1->live.start, 1);
  EXPECT_EQ(e1->live.end, 2);
  EXPECT_EQ(p->live.end, 4);  // parameters live throughout
  EXPECT_EQ(e3->allocation, e1->allocation);
  EXPECT_EQ(e4->allocation, e2->allocation);
  EXPECT_TRUE(e3->reused && e4->reused);
  EXPECT_NE(p->allocation, e1->allocation);
  EXPECT_EQ(result.reused_buffers, 2);
  EXPECT_EQ(result.allocation_bytes.size(), 3u);
  EXPECT_EQ(result.peak_bytes, 3 * 1024);
  EXPECT_EQ(result.peak_instruction, "e2");  // p, e1 and e2 live at once for the first time
  EXPECT_EQ(result.total_bytes_no_reuse, 5 * 1024);
  EXPECT_EQ(result.allocated_bytes, 3 * 1024);
}

TEST(BufferAssignmentTest, RunReportsAndKeepsResult) {
  auto parsed = ir::ParseHloModule(R"(
HloModule m
ENTRY main {
  p = f32[8] parameter(0)
  ROOT n = f32[8] negate(p)
})");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  BufferAssignment pass;
  PassContext context;
  StatusOr<bool> changed = pass.Run(**parsed, context);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(pass.result().peak_bytes, 64);
  EXPECT_EQ(context.stats.front(), (std::pair<std::string, std::string>{"peak_bytes", "64"}));
}

}  // namespace
}  // namespace fusescope::passes
