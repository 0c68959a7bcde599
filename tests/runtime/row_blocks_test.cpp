#include "runtime/row_blocks.h"

#include <gtest/gtest.h>

#include "ir/computation.h"
#include "ir/hlo_parser.h"

namespace fusescope::runtime {
namespace {

std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = ir::ParseHloModule(text);
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(*module) : nullptr;
}

const ir::Computation& Fused(const ir::Module& module) {
  return *module.entry()->root()->fused_computation();
}

// A softmax over rows with a bias: every row of the output needs its own row of x and all of
// the bias.
constexpr const char* kSoftmax = R"(HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
f {
  x = f32[64,128] parameter(0)
  bias = f32[128] parameter(1)
  wide = f32[64,128] broadcast(bias), dimensions={1}
  y = f32[64,128] add(x, wide)
  low = f32[] constant(-inf)
  top = f32[64] reduce(y, low), dimensions={1}, to_apply=max
  tops = f32[64,128] broadcast(top), dimensions={0}
  shifted = f32[64,128] subtract(y, tops)
  ROOT e = f32[64,128] exponential(shifted)
}
ENTRY e {
  p = f32[64,128] parameter(0)
  q = f32[128] parameter(1)
  ROOT r = f32[64,128] fusion(p, q), kind=kLoop, calls=f
})";

TEST(RowBlocksTest, ASoftmaxSplitsIntoRowsAndReadsItsBiasWhole) {
  auto module = Parse(kSoftmax);
  ASSERT_NE(module, nullptr);
  const ir::Computation& fused = Fused(*module);
  StatusOr<RowSplit> split = FindRowSplit(fused);
  ASSERT_TRUE(split.ok()) << split.message();
  EXPECT_EQ(split->rows, 64);
  auto find = [&fused](const char* name) {
    for (const auto& instruction : fused.instructions()) {
      if (instruction->name() == name) return instruction.get();
    }
    return static_cast<ir::Instruction*>(nullptr);
  };
  for (const char* name : {"x", "wide", "y", "top", "tops", "shifted", "e"}) {
    EXPECT_EQ(split->row_dimension.count(find(name)->id()), 1u) << name;
  }
  for (const char* name : {"bias", "low"}) {
    EXPECT_EQ(split->row_dimension.count(find(name)->id()), 0u) << name;
  }
  EXPECT_EQ(BlockBytes(*find("x"), *split, 16), 16 * 128 * 4);
  EXPECT_EQ(BlockBytes(*find("bias"), *split, 16), 0);
  auto copy = module->Clone();
  ShrinkToBlock(*copy->entry()->root()->fused_computation(), *split, 16);
  for (const auto& instruction : copy->entry()->root()->fused_computation()->instructions()) {
    const std::vector<int64_t>& dims = instruction->shape().dimensions();
    if (instruction->name() == "x" || instruction->name() == "e") {
      EXPECT_EQ(dims, (std::vector<int64_t>{16, 128}));
    } else if (instruction->name() == "top") {
      EXPECT_EQ(dims, (std::vector<int64_t>{16}));
    } else if (instruction->name() == "bias") {
      EXPECT_EQ(dims, (std::vector<int64_t>{128}));
    }
  }
}

// Leading dimensions of one element come before the rows (a batch of one), through a reshape
// and a transpose that keep the rows outermost.
TEST(RowBlocksTest, RowsAfterDimensionsOfOneSplitThroughReshapesAndTransposes) {
  auto module = Parse(R"(HloModule m
f {
  x = f32[1,32,4,8] parameter(0)
  t = f32[1,32,8,4] transpose(x), dimensions={0,1,3,2}
  ROOT r = f32[32,32] reshape(t)
}
ENTRY e {
  p = f32[1,32,4,8] parameter(0)
  ROOT r = f32[32,32] fusion(p), kind=kLoop, calls=f
})");
  ASSERT_NE(module, nullptr);
  StatusOr<RowSplit> split = FindRowSplit(Fused(*module));
  ASSERT_TRUE(split.ok()) << split.message();
  EXPECT_EQ(split->rows, 32);
  EXPECT_EQ(BlockBytes(*Fused(*module).parameter(0), *split, 8), 8 * 4 * 8 * 4);
}

TEST(RowBlocksTest, WhatMixesRowsLeavesTheKernelWhole) {
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"a transpose that moves the rows inward", R"(HloModule m
f {
  x = f32[16,32] parameter(0)
  ROOT t = f32[32,16] transpose(x), dimensions={1,0}
}
ENTRY e {
  p = f32[16,32] parameter(0)
  ROOT r = f32[32,16] fusion(p), kind=kLoop, calls=f
})"},
      {"a reduction over the rows", R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
f {
  x = f32[16,32] parameter(0)
  zero = f32[] constant(0)
  ROOT s = f32[32] reduce(x, zero), dimensions={0}, to_apply=add
}
ENTRY e {
  p = f32[16,32] parameter(0)
  ROOT r = f32[32] fusion(p), kind=kLoop, calls=f
})"},
      {"an iota counting rows", R"(HloModule m
f {
  x = f32[16,32] parameter(0)
  i = f32[16,32] iota(), iota_dimension=0
  ROOT s = f32[16,32] add(x, i)
}
ENTRY e {
  p = f32[16,32] parameter(0)
  ROOT r = f32[16,32] fusion(p), kind=kLoop, calls=f
})"},
      {"a reshape merging the rows with columns", R"(HloModule m
f {
  x = f32[16,32] parameter(0)
  ROOT s = f32[512] reshape(x)
}
ENTRY e {
  p = f32[16,32] parameter(0)
  ROOT r = f32[512] fusion(p), kind=kLoop, calls=f
})"},
      {"a slice", R"(HloModule m
f {
  x = f32[16,32] parameter(0)
  ROOT s = f32[16,16] slice(x), slice={[0:16], [0:16]}
}
ENTRY e {
  p = f32[16,32] parameter(0)
  ROOT r = f32[16,16] fusion(p), kind=kLoop, calls=f
})"},
  };
  for (const auto& [what, text] : cases) {
    SCOPED_TRACE(what);
    auto module = Parse(text);
    ASSERT_NE(module, nullptr);
    EXPECT_FALSE(FindRowSplit(Fused(*module)).ok());
  }
}

TEST(RowBlocksTest, BlocksDivideTheRowsEvenly) {
  EXPECT_EQ(BlockCount(128, 2), 2);
  EXPECT_EQ(BlockCount(12, 8), 6);
  EXPECT_EQ(BlockCount(7, 2), 1);
  EXPECT_EQ(BlockCount(1, 16), 1);
  EXPECT_EQ(BlockCount(64, 1), 1);
}

}  // namespace
}  // namespace fusescope::runtime
