// The three printer presets: parsable text follows the module's style, canonical text
// ignores names, fingerprints ignore names, ids and large constants.

#include "ir/hlo_printer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "ir/hlo_parser.h"

namespace fusescope::ir {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::unique_ptr<Module> Parse(std::string_view text) {
  auto module = ParseHloModule(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

std::string Reprint(std::string_view text, const PrintOptions& options = {}) {
  auto module = Parse(text);
  return module ? PrintModule(*module, options) : "<no module>";
}

constexpr std::string_view kSigilsTyped =
    R"(HloModule typed, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%add_f32 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (a: f32[8]) -> f32[8] {
  %a = f32[8]{0} parameter(0), metadata={op_name="a"}
  %zero = f32[] constant(0)
  %r = f32[] reduce(f32[8]{0} %a, f32[] %zero), dimensions={0}, to_apply=%add_f32, metadata={op_type="Sum" op_name="r"}
  ROOT %out = f32[8]{0} broadcast(f32[] %r), dimensions={}, metadata={op_name="out"}, backend_config={"k":1}
}

)";

TEST(HloPrinterParsable, ReproducesTypedOperandsWithSigils) {
  EXPECT_EQ(Reprint(kSigilsTyped), kSigilsTyped);
}

TEST(HloPrinterParsable, ReproducesTheBareStyle) {
  constexpr std::string_view kBare = R"(HloModule bare

region_0.1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

ENTRY main.4 {
  p = f32[4,8]{1,0} parameter(0)
  c = f32[] constant(-inf)
  ROOT r = f32[4]{0} reduce(p, c), dimensions={1}, to_apply=region_0.1
}

)";
  EXPECT_EQ(Reprint(kBare), kBare);
}

TEST(HloPrinterParsable, AnnotatesEveryFifthElementLikeXla) {
  const std::string printed = Reprint(R"(HloModule m
ENTRY %e (a: f32[]) -> (f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[]) {
  %a = f32[] parameter(0)
  ROOT %t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[], f32[], f32[], f32[], /*index=10*/f32[]) tuple(%a, %a, %a, %a, %a, /*index=5*/%a, %a, %a, %a, %a, /*index=10*/%a)
})");
  EXPECT_THAT(printed, HasSubstr("tuple(%a, %a, %a, %a, %a, /*index=5*/%a, %a, %a, %a, %a, "
                                 "/*index=10*/%a)"));
  EXPECT_THAT(printed, HasSubstr("ROOT %t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]"));
  // The signature is a program shape: XLA writes no annotations between parameters there.
  EXPECT_THAT(printed, HasSubstr("ENTRY %e (a: f32[]) -> (f32[], f32[], f32[], f32[], f32[], "
                                 "/*index=5*/f32[]"));
}

TEST(HloPrinterParsable, LeavesOutIndexCommentsWhenTheTextHadNone) {
  const std::string printed = Reprint(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT t = (f32[], f32[], f32[], f32[], f32[], f32[]) tuple(a, a, a, a, a, a)
})");
  EXPECT_THAT(printed, HasSubstr("tuple(a, a, a, a, a, a)"));
  EXPECT_THAT(printed, Not(HasSubstr("index=")));
}

TEST(HloPrinterParsable, WritesMetadataBeforeBackendConfigAsXlaDoes) {
  const std::string printed = Reprint(R"(HloModule m
ENTRY e {
  ROOT c = f32[] constant(0), backend_config="x", sharding={replicated}, metadata={op_name="c"}
})");
  EXPECT_THAT(printed, HasSubstr("constant(0), metadata={op_name=\"c\"}, backend_config=\"x\", "
                                 "sharding={replicated}"));
}

TEST(HloPrinterParsable, PrintsStackFrameTablesBack) {
  constexpr std::string_view kText = R"(HloModule jit_f

FileNames
1 "f.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=5 end_line=5 column=4 end_column=7}

StackFrames
1 {file_location_id=1 parent_frame_id=1}


ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %tanh = f32[4]{0} tanh(%p), metadata={op_name="jit(f)/tanh" stack_frame_id=1}
}

)";
  EXPECT_EQ(Reprint(kText), kText);
}

TEST(HloPrinterParsable, WritesTablesBuiltInMemoryInXlaForm) {
  auto module = Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(0)\n}\n");
  ASSERT_NE(module, nullptr);
  StackFrameTables& tables = module->stack_frames();
  tables.file_names = {"a.py"};
  tables.function_names = {"g"};
  tables.file_locations = {{1, 1, 3, 4, 5, 6}};
  tables.frames = {{1, 0}};
  const std::string printed = PrintModule(*module);
  EXPECT_THAT(printed, HasSubstr("FileLocations\n1 {file_name_id=1 function_name_id=1 line=3 "
                                 "end_line=4 column=5 end_column=6}\n"));
  auto reparsed = Parse(printed);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_EQ(reparsed->stack_frames().file_names, tables.file_names);
  EXPECT_EQ(reparsed->stack_frames().frames[0].file_location_id, 1);
}

TEST(HloPrinterParsable, PrintsDefinitionsBeforeUsesAfterEdits) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  p = f32[4]{0} parameter(0)
  ROOT n = f32[4]{0} negate(p)
})");
  ASSERT_NE(module, nullptr);
  Computation* entry = module->entry();
  Instruction* p = entry->parameter(0);
  // Added last in stored order, used by an earlier instruction.
  Instruction* exp = entry->AddInstruction(
      Instruction::Create(Opcode::kExp, p->shape(), {p}, module->UniqueName("exponential")));
  entry->root()->ReplaceOperand(0, exp);
  const std::string printed = PrintModule(*module);
  EXPECT_LT(printed.find("exponential("), printed.find("negate("));
  auto reparsed = Parse(printed);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_EQ(reparsed->entry()->root()->operand(0)->opcode(), Opcode::kExp);
}

TEST(HloPrinterParsable, WritesCalleesInlineWhenTheTextDid) {
  constexpr std::string_view kText = R"(HloModule m
ENTRY main.5 {
  tmp_0 = f32[4,8]{1,0} parameter(0)
  tmp_1 = f32[] constant(0)
  ROOT tmp_2 = f32[4]{0} reduce(f32[4,8]{1,0} tmp_0, f32[] tmp_1), dimensions={1}, to_apply=
  {
    tmp_0 = f32[] parameter(0)
    tmp_1 = f32[] parameter(1)
    ROOT tmp_2 = f32[] add(f32[] tmp_0, f32[] tmp_1)
  }
})";
  const std::string printed = Reprint(kText);
  EXPECT_THAT(printed, HasSubstr("to_apply={\n    tmp_0 = f32[] parameter(0)\n"));
  EXPECT_THAT(printed, Not(HasSubstr("tmp_2.to_apply")));
  EXPECT_EQ(Reprint(printed), printed);
}

TEST(HloPrinterParsable, PrintInstructionIsOneLineWithoutRoot) {
  auto module = Parse(kSigilsTyped);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(PrintInstruction(*module->entry()->root()),
            "%out = f32[8]{0} broadcast(f32[] %r), dimensions={}, metadata={op_name=\"out\"}, "
            "backend_config={\"k\":1}");
}

TEST(HloPrinterParsable, PrintComputationWritesOneComputation) {
  auto module = Parse(kSigilsTyped);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(PrintComputation(*module->FindComputation("add_f32")),
            "%add_f32 (x: f32[], y: f32[]) -> f32[] {\n"
            "  %x = f32[] parameter(0)\n"
            "  %y = f32[] parameter(1)\n"
            "  ROOT %add = f32[] add(f32[] %x, f32[] %y)\n"
            "}");
}

TEST(HloPrinterIds, WritesIdsThatTheParserRestores) {
  auto module = Parse(kSigilsTyped);
  ASSERT_NE(module, nullptr);
  PrintOptions options;
  options.print_ids = true;
  const Instruction* out = module->entry()->root();
  EXPECT_THAT(PrintInstruction(*out, options),
              HasSubstr("%out /*id=" + std::to_string(out->id()) + "*/ = f32[8]{0}"));
  // Make the ids differ from what a fresh parse would assign.
  for (const auto& computation : module->computations()) {
    for (const auto& instruction : computation->instructions()) {
      instruction->set_id(instruction->id() * 10 + 3);
    }
  }
  auto reparsed = Parse(PrintModule(*module, options));
  ASSERT_NE(reparsed, nullptr);
  EXPECT_EQ(reparsed->FindInstruction("out")->id(), out->id());
  EXPECT_EQ(reparsed->FindInstruction("x")->id(), module->FindInstruction("x")->id());
}

// ---------------------------------------------------------------------------------------
// Canonical and fingerprint.

constexpr std::string_view kRenamedA =
    R"(HloModule first, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%sum.7 (lhs: f32[], rhs: f32[]) -> f32[] {
  %lhs = f32[] parameter(0)
  %rhs = f32[] parameter(1)
  ROOT %s = f32[] add(%lhs, %rhs)
}

ENTRY %main.9 (arg: f32[8]) -> f32[8] {
  %arg = f32[8]{0} parameter(0), metadata={op_name="x"}
  %zero = f32[] constant(0)
  %total = f32[] reduce(%arg, %zero), dimensions={0}, to_apply=%sum.7
  ROOT %b = f32[8]{0} broadcast(%total), dimensions={}
}
)";

// The same module written by someone else: other names, no sigils, typed operands, other
// computation order, no metadata.
constexpr std::string_view kRenamedB =
    R"(HloModule second, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

ENTRY entry {
  input = f32[8]{0} parameter(0)
  c = f32[] constant(0)
  red = f32[] reduce(f32[8]{0} input, f32[] c), dimensions={0}, to_apply=adder
  ROOT bc = f32[8]{0} broadcast(f32[] red), dimensions={}
}

adder {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT r = f32[] add(p0, p1)
}
)";

TEST(HloPrinterCanonical, RenamesStablyInPostOrder) {
  EXPECT_EQ(Reprint(kRenamedA, PrintOptions::Canonical()),
            R"(HloModule module, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

%computation.0 (parameter.0: f32[], parameter.1: f32[]) -> f32[] {
  %parameter.0 = f32[] parameter(0)
  %parameter.1 = f32[] parameter(1)
  ROOT %add.2 = f32[] add(%parameter.0, %parameter.1)
}

ENTRY %main (parameter.0: f32[8]) -> f32[8] {
  %parameter.0 = f32[8]{0} parameter(0)
  %constant.1 = f32[] constant(0)
  %reduce.2 = f32[] reduce(%parameter.0, %constant.1), dimensions={0}, to_apply=%computation.0
  ROOT %broadcast.3 = f32[8]{0} broadcast(%reduce.2), dimensions={}
}

)");
}

TEST(HloPrinterCanonical, IgnoresNamesStyleAndOrder) {
  EXPECT_EQ(Reprint(kRenamedA, PrintOptions::Canonical()),
            Reprint(kRenamedB, PrintOptions::Canonical()));
}

TEST(HloPrinterFingerprint, EqualForRenamedModules) {
  auto a = Parse(kRenamedA);
  auto b = Parse(kRenamedB);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(Fingerprint(*a), Fingerprint(*b));
  EXPECT_EQ(Fingerprint(*a->FindComputation("sum.7")), Fingerprint(*b->FindComputation("adder")));
  EXPECT_EQ(Fingerprint(*a->entry()), Fingerprint(*b->entry()));
}

TEST(HloPrinterFingerprint, ChangesWithStructure) {
  auto a = Parse(kRenamedA);
  std::string changed(kRenamedA);
  changed.replace(changed.find("add(%lhs"), 3, "multiply");
  auto b = Parse(changed);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(Fingerprint(*a), Fingerprint(*b));
  EXPECT_NE(Fingerprint(*a->FindComputation("sum.7")), Fingerprint(*b->FindComputation("sum.7")));
  // The entry calls the changed computation.
  EXPECT_NE(Fingerprint(*a->entry()), Fingerprint(*b->entry()));
}

TEST(HloPrinterFingerprint, IgnoresIdsAndLargeConstantsButNotSmallOnes) {
  auto constant_module = [](std::string_view big, std::string_view small) {
    return Parse("HloModule m\nENTRY e {\n  big = f32[11]{0} constant(" + std::string(big) +
                 ")\n  small = f32[2]{0} constant(" + std::string(small) +
                 ")\n  ROOT t = (f32[11]{0}, f32[2]{0}) tuple(big, small)\n}\n");
  };
  auto base = constant_module("{0,0,0,0,0,0,0,0,0,0,0}", "{1, 2}");
  auto other_big = constant_module("{9,9,9,9,9,9,9,9,9,9,9}", "{1, 2}");
  auto other_small = constant_module("{0,0,0,0,0,0,0,0,0,0,0}", "{1, 3}");
  ASSERT_TRUE(base && other_big && other_small);
  EXPECT_EQ(Fingerprint(*base), Fingerprint(*other_big));
  EXPECT_NE(Fingerprint(*base), Fingerprint(*other_small));
  EXPECT_THAT(PrintModule(*base, PrintOptions::Fingerprint()), HasSubstr("constant({...})"));
  for (const auto& instruction : other_big->entry()->instructions()) {
    instruction->set_id(instruction->id() + 100);
  }
  EXPECT_EQ(Fingerprint(*base), Fingerprint(*other_big));
}

TEST(HloPrinterFingerprint, IgnoresMetadataAndStackFrames) {
  auto a =
      Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(0), metadata={op_name=\"a\"}\n}\n");
  auto b =
      Parse("HloModule m\n\nFileNames\n1 \"x.py\"\n\nENTRY e {\n  ROOT c = f32[] constant(0)\n}\n");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(Fingerprint(*a), Fingerprint(*b));
}

}  // namespace
}  // namespace fusescope::ir
