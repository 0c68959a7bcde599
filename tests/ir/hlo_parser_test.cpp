// The HLO text forms real compilers write (see the shared FORMATS notes), one test each, and
// the exact one-line errors for malformed text.

#include "ir/hlo_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "ir/hlo_printer.h"

namespace fusescope::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

std::unique_ptr<Module> Parse(std::string_view text) {
  auto module = ParseHloModule(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// The error message, or "<parsed>".
std::string ParseError(std::string_view text) {
  auto module = ParseHloModule(text, "bad.hlo");
  return module.ok() ? "<parsed>" : module.message();
}

Shape ShapeOf(std::string_view text) {
  auto shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.message();
  return shape.ok() ? *shape : Shape();
}

std::string Attr(const Instruction* instruction, std::string_view key) {
  auto value = instruction->attribute(key);
  return value ? std::string(*value) : "<none>";
}

// ---------------------------------------------------------------------------------------
// Module header and stack-frame tables.

TEST(HloParserHeader, KeepsModuleAttributesVerbatimInOrder) {
  auto module = Parse(
      "HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[8,16]{1,0}, "
      "/*index=1*/f32[])->f32[8]{0}}, alias_passthrough_params=true, "
      "allow_spmd_sharding_propagation_to_output={true}, num_partitions=16, "
      "input_output_alias={ {1}: (5, {}, must-alias) }, cross_program_prefetch_index=0, "
      "frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<[\"data\"=2]>}}\n"
      "ENTRY e {\n  ROOT c = f32[] constant(0)\n}\n");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->name(), "jit_f");
  EXPECT_THAT(
      module->header_attributes(),
      ElementsAre(
          Pair("is_scheduled", "true"),
          Pair("entry_computation_layout", "{(f32[8,16]{1,0}, /*index=1*/f32[])->f32[8]{0}}"),
          Pair("alias_passthrough_params", "true"),
          Pair("allow_spmd_sharding_propagation_to_output", "{true}"), Pair("num_partitions", "16"),
          Pair("input_output_alias", "{ {1}: (5, {}, must-alias) }"),
          Pair("cross_program_prefetch_index", "0"),
          Pair("frontend_attributes", "{xla.sdy.meshes={mesh = #sdy.mesh<[\"data\"=2]>}}")));
}

constexpr std::string_view kStackFrames = R"(HloModule jit_f, is_scheduled=true

FileNames
1 "scripts/model.py"
2 "lib/\"quoted\".py"

FunctionNames
1 "<module>"
2 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=5 end_line=5 column=4 end_column=72}
2 {file_name_id=2 function_name_id=2 line=12 end_line=13 column=17 end_column=23}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=1}


ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %tanh = f32[4]{0} tanh(%p), metadata={op_name="jit(f)/tanh" stack_frame_id=2}
}
)";

TEST(HloParserStackFrames, ParsesTheFourTables) {
  auto module = Parse(kStackFrames);
  ASSERT_NE(module, nullptr);
  const StackFrameTables& tables = module->stack_frames();
  EXPECT_THAT(tables.file_names, ElementsAre("scripts/model.py", "lib/\"quoted\".py"));
  EXPECT_THAT(tables.function_names, ElementsAre("<module>", "f"));
  ASSERT_EQ(tables.file_locations.size(), 2u);
  EXPECT_EQ(tables.file_locations[1].file_name_id, 2);
  EXPECT_EQ(tables.file_locations[1].function_name_id, 2);
  EXPECT_EQ(tables.file_locations[1].line, 12);
  EXPECT_EQ(tables.file_locations[1].end_line, 13);
  EXPECT_EQ(tables.file_locations[1].column, 17);
  EXPECT_EQ(tables.file_locations[1].end_column, 23);
  ASSERT_EQ(tables.frames.size(), 2u);
  EXPECT_EQ(tables.frames[1].file_location_id, 2);
  EXPECT_EQ(tables.frames[1].parent_frame_id, 1);
  EXPECT_TRUE(tables.raw_text.starts_with("FileNames\n1 \"scripts/model.py\""));
  EXPECT_TRUE(tables.raw_text.ends_with("2 {file_location_id=2 parent_frame_id=1}"));
}

TEST(HloParserStackFrames, MetadataPointsIntoTheTables) {
  auto module = Parse(kStackFrames);
  ASSERT_NE(module, nullptr);
  const Instruction* tanh = module->FindInstruction("tanh");
  ASSERT_NE(tanh, nullptr);
  EXPECT_EQ(tanh->metadata().Int("stack_frame_id"), 2);
  auto source = module->ResolveSource(tanh->metadata());
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(source->file, "lib/\"quoted\".py");
  EXPECT_EQ(source->function, "f");
  EXPECT_EQ(source->line, 12);
}

TEST(HloParserMetadata, ReadsTheOlderSourceFileForm) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  p = f32[8]{0} parameter(0)
  ROOT mean = f32[] reduce(p, p), dimensions={0}, metadata={op_type="Mean" op_name="a/Mean" source_file="f.py" source_line=10}
})");
  ASSERT_NE(module, nullptr);
  const OpMetadata& metadata = module->FindInstruction("mean")->metadata();
  EXPECT_THAT(metadata.fields,
              ElementsAre(Pair("op_type", "\"Mean\""), Pair("op_name", "\"a/Mean\""),
                          Pair("source_file", "\"f.py\""), Pair("source_line", "10")));
  EXPECT_EQ(metadata.String("op_name"), "a/Mean");
  auto source = module->ResolveSource(metadata);
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(source->file, "f.py");
  EXPECT_EQ(source->line, 10);
}

TEST(HloParserMetadata, KeepsBracketedValuesWhole) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  ROOT c = f32[] constant(1), metadata={op_name="c" profile={a b} source_line=3}
})");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(
      module->entry()->root()->metadata().fields,
      ElementsAre(Pair("op_name", "\"c\""), Pair("profile", "{a b}"), Pair("source_line", "3")));
}

TEST(HloParserMetadata, AcceptsCommasBetweenFields) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  ROOT c = f32[] constant(1), metadata={op_name="copy", stack_frame_id=2}
})");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(module->entry()->root()->metadata().fields,
              ElementsAre(Pair("op_name", "\"copy\""), Pair("stack_frame_id", "2")));
}

// ---------------------------------------------------------------------------------------
// Text style: sigils, signatures, typed operands, index comments.

TEST(HloParserStyle, ReadsTheBareFormJaxLowersTo) {
  auto module = Parse(R"(HloModule jit_f, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

ENTRY main.4 {
  Arg_0.1 = f32[8]{0} parameter(0)
  constant.2 = f32[] constant(1)
  broadcast.3 = f32[8]{0} broadcast(constant.2), dimensions={}
  ROOT add.3 = f32[8]{0} add(Arg_0.1, broadcast.3)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(module->text_style().sigils);
  EXPECT_FALSE(module->text_style().operand_shapes);
  EXPECT_FALSE(module->entry()->print_signature());
  EXPECT_EQ(module->entry()->name(), "main.4");
  EXPECT_EQ(module->entry()->root()->name(), "add.3");
  EXPECT_EQ(module->entry()->root()->operand(1)->name(), "broadcast.3");
}

TEST(HloParserStyle, ReadsSigilsSignaturesAndTypedOperands) {
  auto module = Parse(R"(HloModule m

ENTRY %main.35_spmd (p: f32[6283,1,4], q: f32[6283,1,4]) -> (f32[6283,1,4]) {
  %p = f32[6283,1,4]{2,1,0} parameter(0)
  %q = f32[6283,1,4]{2,1,0} parameter(1)
  %reshape.215 = f32[6283,1,4]{2,1,0} add(f32[6283,1,4]{2,1,0} %p, f32[6283,1,4]{2,1,0} %q)
  ROOT %t = (f32[6283,1,4]{2,1,0}) tuple(f32[6283,1,4]{2,1,0} %reshape.215)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->text_style().sigils);
  EXPECT_TRUE(module->text_style().operand_shapes);
  EXPECT_TRUE(module->entry()->print_signature());
  EXPECT_EQ(module->entry()->name(), "main.35_spmd");
  EXPECT_EQ(module->entry()->root()->operand(0)->name(), "reshape.215");
}

TEST(HloParserStyle, SkipsIndexCommentsAnywhere) {
  auto module = Parse(R"(HloModule m
ENTRY %e (a: f32[], b: f32[], c: f32[], d: f32[], e: f32[], /*index=5*/f: f32[]) -> (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %c = f32[] parameter(2)
  %d = f32[] parameter(3)
  %e = f32[] parameter(4)
  %f = f32[] parameter(5)
  ROOT %t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) tuple(%a, %b, %c, /* any comment */ %d, %e, /*index=5*/%f)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->text_style().index_comments);
  EXPECT_TRUE(module->text_style().operand_index_comments);
  EXPECT_EQ(module->entry()->root()->operand_count(), 6);
  EXPECT_EQ(module->entry()->root()->shape().tuple_shapes().size(), 6u);
}

TEST(HloParserStyle, NotesLongListsWithoutIndexComments) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT t = (f32[], f32[], f32[], f32[], f32[], f32[]) tuple(a, a, a, a, a, a)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(module->text_style().index_comments);
  EXPECT_FALSE(module->text_style().operand_index_comments);
}

// jax writes `/*index=N*/` inside long tuple shapes but not between operands; each list kind
// keeps its own habit when printed back.
TEST(HloParserStyle, IndexCommentsInShapesAndOperandsApart) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  ROOT t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) tuple(a, a, a, a, a, a)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->text_style().index_comments);
  EXPECT_FALSE(module->text_style().operand_index_comments);
}

// ---------------------------------------------------------------------------------------
// Computations, ENTRY, ROOT, calls.

TEST(HloParserComputations, ResolvesCalleesWrittenAfterTheirCallers) {
  auto module = Parse(R"(HloModule m
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  ROOT %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused_computation.5.clone.clone
}

%fused_computation.5.clone.clone (param_0: f32[8]) -> f32[8] {
  %param_0 = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%param_0)
})");
  ASSERT_NE(module, nullptr);
  const Instruction* fusion = module->entry()->root();
  Computation* fused = module->FindComputation("fused_computation.5.clone.clone");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fusion->fused_computation(), fused);
  EXPECT_EQ(fused->fusion_instruction(), fusion);
  EXPECT_EQ(fusion->fusion_kind(), "Loop");
  EXPECT_EQ(module->entry()->name(), "main");
}

TEST(HloParserComputations, TheLastComputationIsTheEntryWithoutEntryKeyword) {
  auto module = Parse(R"(HloModule m
first {
  ROOT a = f32[] constant(1)
}
second {
  ROOT b = f32[] constant(2)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->name(), "second");
}

TEST(HloParserComputations, RootIsTheMarkedInstructionElseTheLast) {
  auto module = Parse(R"(HloModule m
c {
  ROOT a = f32[] constant(1)
  b = f32[] constant(2)
}
ENTRY e {
  x = f32[] constant(1)
  y = f32[] negate(x)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->FindComputation("c")->root()->name(), "a");
  EXPECT_EQ(module->entry()->root()->name(), "y");
}

TEST(HloParserComputations, StructuresEveryComputationNamingAttribute) {
  auto module = Parse(R"(HloModule m
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
%ge (a.1: f32[], b.1: f32[]) -> pred[] {
  %a.1 = f32[] parameter(0)
  %b.1 = f32[] parameter(1)
  ROOT %c = pred[] compare(%a.1, %b.1), direction=GE
}
%cond (s: s32[]) -> pred[] {
  %s = s32[] parameter(0)
  ROOT %t = pred[] constant(true)
}
%body (s.1: s32[]) -> s32[] {
  ROOT %s.1 = s32[] parameter(0)
}
%neg (z: f32[4]) -> f32[4] {
  %z = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%z)
}
ENTRY %e (p: f32[4], i: s32[], k: pred[]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %i = s32[] parameter(1)
  %k = pred[] parameter(2)
  %zero = f32[] constant(0)
  %r = f32[] reduce(%p, %zero), dimensions={0}, to_apply=%add
  %w = s32[] while(%i), condition=%cond, body=%body
  %b2 = f32[4]{0} conditional(%i, %p, %p), branch_computations={%neg, %neg}
  %tf = f32[4]{0} conditional(%k, %p, %p), true_computation=%neg, false_computation=%neg
  %sas = f32[4]{0} select-and-scatter(%p, %p, %zero), window={size=1}, select=%ge, scatter=%add
  %cl = f32[4]{0} call(%p), to_apply=%neg
  ROOT %cc = f32[4]{0} custom-call(%cl), custom_call_target="TopK", called_computations={%neg}
})");
  ASSERT_NE(module, nullptr);
  auto callee_names = [&](std::string_view instruction, std::string_view key) {
    std::vector<std::string> names;
    for (Computation* c : module->FindInstruction(instruction)->CalledComputations(key)) {
      names.push_back(c->name());
    }
    return names;
  };
  EXPECT_THAT(callee_names("r", "to_apply"), ElementsAre("add"));
  EXPECT_THAT(callee_names("w", "condition"), ElementsAre("cond"));
  EXPECT_THAT(callee_names("w", "body"), ElementsAre("body"));
  EXPECT_THAT(callee_names("b2", "branch_computations"), ElementsAre("neg", "neg"));
  EXPECT_THAT(callee_names("tf", "true_computation"), ElementsAre("neg"));
  EXPECT_THAT(callee_names("tf", "false_computation"), ElementsAre("neg"));
  EXPECT_THAT(callee_names("sas", "select"), ElementsAre("ge"));
  EXPECT_THAT(callee_names("sas", "scatter"), ElementsAre("add"));
  EXPECT_THAT(callee_names("cc", "called_computations"), ElementsAre("neg"));
  const Instruction* w = module->FindInstruction("w");
  ASSERT_EQ(w->attributes().size(), 2u);
  EXPECT_EQ(w->attributes()[0], (Attribute{"condition", "", true}));
  EXPECT_EQ(w->attributes()[1], (Attribute{"body", "", true}));
  // Attribute order is kept around the structured ones.
  const Instruction* sas = module->FindInstruction("sas");
  ASSERT_EQ(sas->attributes().size(), 3u);
  EXPECT_EQ(sas->attributes()[0].key, "window");
  EXPECT_EQ(sas->attributes()[2].key, "scatter");
}

TEST(HloParserComputations, ReadsBodiesWrittenAtTheCallSite) {
  // XLA's canonical printer writes callees in full: `to_apply=\n{ ... }`.
  auto module = Parse(R"(HloModule m
ENTRY main.5 {
  tmp_0 = f32[4,8]{1,0} parameter(0)
  tmp_1 = f32[] constant(0)
  ROOT tmp_2 = f32[4]{0} reduce(f32[4,8]{1,0} tmp_0, f32[] tmp_1), dimensions={1}, to_apply=
  {
    tmp_0 = f32[] parameter(0)
    tmp_1 = f32[] parameter(1)
    ROOT tmp_2 = f32[] add(f32[] tmp_0, f32[] tmp_1)
  }
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->text_style().inline_callees);
  ASSERT_EQ(module->computations().size(), 2u);
  const Computation* reducer = module->entry()->root()->CalledComputations("to_apply").at(0);
  EXPECT_EQ(reducer->name(), "tmp_2.to_apply");
  EXPECT_EQ(reducer->root()->opcode(), Opcode::kAdd);
  EXPECT_EQ(reducer->parameter_count(), 2);
  EXPECT_EQ(module->entry()->root()->attribute("dimensions"), "{1}");
}

TEST(HloParserComputations, KeepsTextAfterTheClosingBrace) {
  auto module = Parse(R"(HloModule m
%side {
  ROOT %c = f32[] constant(0)
}, execution_thread="sparsecore"
ENTRY %e {
  ROOT %d = f32[] constant(1)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->FindComputation("side")->trailing_attributes(),
            ", execution_thread=\"sparsecore\"");
}

// ---------------------------------------------------------------------------------------
// Shapes and layouts.

TEST(HloParserShapes, NestedTuples) {
  Shape shape = ShapeOf("((c64[2,3]{1,0}), c64[4]{0}, u32[]{:S(2)})");
  ASSERT_TRUE(shape.IsTuple());
  ASSERT_EQ(shape.tuple_shapes().size(), 3u);
  EXPECT_TRUE(shape.tuple_shapes()[0].IsTuple());
  EXPECT_EQ(shape.tuple_shapes()[0].tuple_shapes()[0].element_type(), PrimitiveType::kC64);
  EXPECT_EQ(shape.tuple_shapes()[2].layout()->memory_space, 2);
  EXPECT_EQ(shape.ToString(), "((c64[2,3]{1,0}), c64[4]{0}, u32[]{:S(2)})");
  EXPECT_TRUE(ShapeOf("()").IsTuple());
}

TEST(HloParserShapes, TiledLayoutWithMemorySpace) {
  Shape shape = ShapeOf("bf16[128,256]{0,1:T(8,128)(4,1)S(1)}");
  ASSERT_TRUE(shape.layout().has_value());
  EXPECT_THAT(shape.layout()->minor_to_major, ElementsAre(0, 1));
  EXPECT_THAT(shape.layout()->tiles, ElementsAre(ElementsAre(8, 128), ElementsAre(4, 1)));
  EXPECT_EQ(shape.layout()->memory_space, 1);
  EXPECT_EQ(shape.ToString(), "bf16[128,256]{0,1:T(8,128)(4,1)S(1)}");
}

TEST(HloParserShapes, ScalarLayouts) {
  Shape tiled = ShapeOf("f32[]{:T(128)}");
  EXPECT_TRUE(tiled.layout()->minor_to_major.empty());
  EXPECT_THAT(tiled.layout()->tiles, ElementsAre(ElementsAre(128)));
  EXPECT_EQ(ShapeOf("u32[]{:S(2)}").layout()->memory_space, 2);
  EXPECT_FALSE(ShapeOf("f32[]").layout().has_value());
  EXPECT_TRUE(ShapeOf("f32[]{}").layout().has_value());
}

TEST(HloParserShapes, KeepsLayoutFieldsItDoesNotInterpret) {
  Shape shape = ShapeOf("s4[64]{0:T(1024)(128)(2,1)E(4)L(s32)}");
  EXPECT_EQ(shape.layout()->extra, "E(4)L(s32)");
  EXPECT_EQ(shape.ToString(), "s4[64]{0:T(1024)(128)(2,1)E(4)L(s32)}");
  EXPECT_THAT(ShapeOf("f32[8,8]{1,0:T(*,128)}").layout()->tiles,
              ElementsAre(ElementsAre(kCombineTileDimension, 128)));
}

TEST(HloParserShapes, DynamicDimensions) {
  Shape shape = ShapeOf("f32[<=16,?,3]{2,1,0}");
  EXPECT_THAT(shape.dimensions(), ElementsAre(16, Shape::kUnboundedSize, 3));
  EXPECT_TRUE(shape.is_dynamic_dimension(0));
  EXPECT_TRUE(shape.is_dynamic_dimension(1));
  EXPECT_FALSE(shape.is_dynamic_dimension(2));
  EXPECT_EQ(shape.ToString(), "f32[<=16,?,3]{2,1,0}");
}

TEST(HloParserShapes, TokensAndEveryElementType) {
  EXPECT_TRUE(ShapeOf("token[]").IsToken());
  for (std::string_view type :
       {"pred", "s4", "u8", "s64", "f8e4m3fn", "f8e5m2", "bf16", "f16", "f64", "c128"}) {
    EXPECT_EQ(ShapeOf(std::string(type) + "[2]").ToString(), std::string(type) + "[2]");
  }
}

TEST(HloParserShapes, ShapeErrorsNameTheColumn) {
  EXPECT_EQ(ParseShape("f33[8]").message(), "<shape>:1:1: unknown element type 'f33'");
  EXPECT_EQ(ParseShape("f32[8,x]").message(),
            "<shape>:1:7: expected an integer as a dimension size");
  EXPECT_EQ(ParseShape("(f32[8], s32[]").message(),
            "<shape>:1:15: unexpected end of file, expected ',' or ')' in the tuple shape");
  EXPECT_EQ(ParseShape("f32[8] x").message(), "<shape>:1:8: unexpected text after the shape");
}

// ---------------------------------------------------------------------------------------
// Attributes, constants, parameters, opcodes.

TEST(HloParserAttributes, KeepsTheAttributeZooVerbatim) {
  auto module = Parse(R"(HloModule m
ENTRY %e (x: f32[1,4,4,2], w: f32[2,2,2,2]) -> f32[1,2,2,2] {
  %x = f32[1,4,4,2]{3,2,1,0} parameter(0), sharding={devices=[1,16,1]<=[16]}
  %w = f32[2,2,2,2]{3,2,1,0} parameter(1), sharding={devices=[2,1]0,1}
  %conv = f32[1,2,2,2]{3,2,1,0} convolution(%x, %w), window={size=2x4 stride=2x4 pad=1_1x3_3 lhs_dilate=1x3 rhs_reversal=1x1}, dim_labels=01fb_01oi->01fb, frontend_attributes={grad_x="false"}
  %s = f32[1,2,2,2]{3,2,1,0} slice(%conv), slice={[3:200:3], [10:50:1]}
  %pd = f32[1,2,2,2]{3,2,1,0} pad(%s, %s), padding=1_2x0_3
  %cc = f32[1,2,2,2]{3,2,1,0} custom-call(%pd), custom_call_target="f\'y\'\"z", api_version=API_VERSION_UNSPECIFIED, backend_config="3"
  %ar = f32[1,2,2,2]{3,2,1,0} all-reduce(%cc), channel_id=1, replica_groups=mesh['axis_0'=2,'axis_1'=2] {'axis_1'}, use_global_device_ids=true
  %ag = f32[1,2,2,2]{3,2,1,0} all-gather(%ar), replica_groups={{0}}, dimensions={0}, sharding={replicated}
  %tk = (f32[1,2,2,2]{3,2,1,0}, s32[5]{0}) topk(%ag), k=5, largest=true
  ROOT %gpu = f32[1,2,2,2]{3,2,1,0} fusion(%ag), kind=kCustom, calls=%f, backend_config={"operation_queue_id":"0","fusion_backend_config":{"kind":"__triton","x":[1,{"y":"}"}]}}
}
%f (p: f32[1,2,2,2]) -> f32[1,2,2,2] {
  ROOT %p = f32[1,2,2,2]{3,2,1,0} parameter(0)
})");
  ASSERT_NE(module, nullptr);
  auto find = [&](std::string_view name) { return module->FindInstruction(name); };
  EXPECT_EQ(Attr(find("x"), "sharding"), "{devices=[1,16,1]<=[16]}");
  EXPECT_EQ(Attr(find("w"), "sharding"), "{devices=[2,1]0,1}");
  EXPECT_EQ(Attr(find("conv"), "window"),
            "{size=2x4 stride=2x4 pad=1_1x3_3 lhs_dilate=1x3 rhs_reversal=1x1}");
  EXPECT_EQ(Attr(find("conv"), "dim_labels"), "01fb_01oi->01fb");
  EXPECT_EQ(Attr(find("conv"), "frontend_attributes"), "{grad_x=\"false\"}");
  EXPECT_EQ(Attr(find("s"), "slice"), "{[3:200:3], [10:50:1]}");
  EXPECT_EQ(Attr(find("pd"), "padding"), "1_2x0_3");
  EXPECT_EQ(Attr(find("cc"), "custom_call_target"), "\"f\\'y\\'\\\"z\"");
  EXPECT_EQ(Attr(find("cc"), "api_version"), "API_VERSION_UNSPECIFIED");
  EXPECT_EQ(Attr(find("cc"), "backend_config"), "\"3\"");
  EXPECT_EQ(Attr(find("ar"), "replica_groups"), "mesh['axis_0'=2,'axis_1'=2] {'axis_1'}");
  EXPECT_EQ(Attr(find("ar"), "use_global_device_ids"), "true");
  EXPECT_EQ(Attr(find("ag"), "replica_groups"), "{{0}}");
  EXPECT_EQ(Attr(find("tk"), "k"), "5");
  EXPECT_EQ(Attr(find("tk"), "largest"), "true");
  EXPECT_EQ(
      Attr(find("gpu"), "backend_config"),
      R"({"operation_queue_id":"0","fusion_backend_config":{"kind":"__triton","x":[1,{"y":"}"}]}})");
  EXPECT_EQ(find("ag")->dimensions(), std::vector<int64_t>{0});
}

TEST(HloParserConstants, KeepsLiteralsVerbatim) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })
  b = f32[] constant(nan)
  c = f32[] constant(-inf)
  d = f32[] constant(1.002e-12)
  e = s32[1]{0} constant({0})
  f = f32[1000]{0} constant({...})
  ROOT t = (f32[2,2]{1,0}, f32[], f32[], f32[], s32[1]{0}, f32[1000]{0}) tuple(a, b, c, d, e, f)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->FindInstruction("a")->literal(), "{ { 1, 2 }, { 3, 4 } }");
  EXPECT_EQ(module->FindInstruction("b")->literal(), "nan");
  EXPECT_EQ(module->FindInstruction("c")->literal(), "-inf");
  EXPECT_EQ(module->FindInstruction("d")->literal(), "1.002e-12");
  EXPECT_EQ(module->FindInstruction("e")->literal(), "{0}");
  EXPECT_EQ(module->FindInstruction("f")->literal(), "{...}");
}

TEST(HloParserParameters, NumbersNeedNotBeInOrder) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  b = s32[8]{0} parameter(1)
  a = f32[8]{0} parameter(0)
  ROOT t = (f32[8]{0}, s32[8]{0}) tuple(a, b)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->parameter(0)->name(), "a");
  EXPECT_EQ(module->entry()->parameter(1)->name(), "b");
  EXPECT_EQ(module->entry()->parameter(1)->parameter_number(), 1);
}

TEST(HloParserOpcodes, UnknownOpcodesLoadAsOpaqueInstructions) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  p = f32[8]{0} parameter(0)
  q = f32[8]{0} frobnicate-v2(p, p), flavour=strange
  ROOT r = f32[8]{0} negate(q)
})");
  ASSERT_NE(module, nullptr);
  const Instruction* q = module->FindInstruction("q");
  EXPECT_EQ(q->opcode(), Opcode::kUnknown);
  EXPECT_EQ(q->opcode_name(), "frobnicate-v2");
  EXPECT_EQ(q->operand_count(), 2);
  EXPECT_EQ(Attr(q, "flavour"), "strange");
  EXPECT_EQ(module->entry()->root()->operand(0), q);
}

TEST(HloParserOpcodes, AsyncPairsAndTokens) {
  auto module = Parse(R"(HloModule m
ENTRY %e (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  %tok = token[] after-all()
  %cs = (f32[8]{0}, f32[8]{0}, u32[]) copy-start(%p)
  %cd = f32[8]{0} copy-done(%cs)
  %ags = (f32[8]{0}, f32[8]{0}) all-gather-start(%cd), dimensions={0}, replica_groups={}
  ROOT %agd = f32[8]{0} all-gather-done(%ags)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->FindInstruction("tok")->shape().IsToken());
  EXPECT_EQ(module->FindInstruction("cs")->opcode(), Opcode::kCopyStart);
  EXPECT_EQ(module->FindInstruction("agd")->opcode(), Opcode::kAllGatherDone);
  EXPECT_EQ(Attr(module->FindInstruction("ags"), "replica_groups"), "{}");
}

TEST(HloParserNames, MakesNamesRepeatedAcrossComputationsUnique) {
  auto module = Parse(R"(HloModule m
c {
  tmp_0 = f32[] parameter(0)
  ROOT tmp_1 = f32[] negate(tmp_0)
}
ENTRY e {
  tmp_0 = f32[] constant(1)
  tmp_0.1 = f32[] negate(tmp_0)
  ROOT tmp_1 = f32[] call(tmp_0.1), to_apply=c
})");
  ASSERT_NE(module, nullptr);
  const Instruction* root = module->entry()->root();
  EXPECT_EQ(root->name(), "tmp_1.1");
  EXPECT_EQ(root->operand(0)->name(), "tmp_0.1");
  EXPECT_EQ(root->operand(0)->operand(0)->name(), "tmp_0.2");
  EXPECT_EQ(module->FindComputation("c")->root()->name(), "tmp_1");
}

TEST(HloParserNames, AcceptsOddCharacters) {
  auto module = Parse(R"(HloModule m
ENTRY %e {
  %constant.11..sunk = f32[] constant(1)
  %Reshape_2-0-CastToFp32-0-AutoMixedPrecision.1 = f32[] negate(%constant.11..sunk)
  ROOT %ROOT = f32[] negate(%Reshape_2-0-CastToFp32-0-AutoMixedPrecision.1)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->root()->name(), "ROOT");
  EXPECT_EQ(module->entry()->root()->operand(0)->operand(0)->name(), "constant.11..sunk");
}

TEST(HloParserLayout, ReadsInstructionsSplitOverLines) {
  auto module = Parse(R"(HloModule m
ENTRY %main.1 (x.1: f32[]) -> f32[] {
  %x.1 = f32[] parameter(0),
    metadata={op_name="x"}
  ROOT %mul.10 = f32[] multiply(%x.1,%x.1),
    frontend_attributes={xla_log_for_comparison="true"},
    metadata={op_name="jit(diverge)/mul" stack_frame_id=10}
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->root()->metadata().Int("stack_frame_id"), 10);
  EXPECT_EQ(Attr(module->entry()->root(), "frontend_attributes"),
            "{xla_log_for_comparison=\"true\"}");
}

TEST(HloParserLayout, ReadsLinesOfTwelveThousandCharacters) {
  std::string text = "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT t = (";
  std::string operands;
  for (int i = 0; i < 1500; ++i) {
    text += i ? ", f32[]" : "f32[]";
    operands += i ? ", p" : "p";
  }
  text += ") tuple(" + operands + ")\n}\n";
  ASSERT_GT(text.size(), 12000u);
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->root()->operand_count(), 1500);
}

// ---------------------------------------------------------------------------------------
// Ids and provenance.

TEST(HloParserIds, EveryInstructionGetsAFreshIdAndItselfAsProvenance) {
  auto module = Parse(R"(HloModule m
c {
  ROOT x = f32[] parameter(0)
}
ENTRY e {
  a = f32[] constant(1)
  ROOT b = f32[] call(a), to_apply=c
})");
  ASSERT_NE(module, nullptr);
  std::set<int64_t> ids;
  for (const auto& computation : module->computations()) {
    for (const auto& instruction : computation->instructions()) {
      EXPECT_GE(instruction->id(), 0);
      EXPECT_EQ(instruction->provenance(), ProvenanceSet{instruction->id()});
      ids.insert(instruction->id());
    }
  }
  EXPECT_EQ(ids.size(), 3u);
}

TEST(HloParserIds, RestoresWrittenIdsAndAvoidsThemForTheRest) {
  auto module = Parse(R"(HloModule m
ENTRY e {
  p /*id=7*/ = f32[] parameter(0)
  q = f32[] negate(p)
  ROOT r /*id=2*/ = f32[] add(p, q)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->FindInstruction("p")->id(), 7);
  EXPECT_EQ(module->FindInstruction("r")->id(), 2);
  EXPECT_GT(module->FindInstruction("q")->id(), 7);
  EXPECT_EQ(module->FindInstruction("p")->provenance(), ProvenanceSet{7});
}

// ---------------------------------------------------------------------------------------
// Errors: exactly one "FILE:LINE:COL: cause" line, and no module.

TEST(HloParserErrors, Garbage) {
  EXPECT_EQ(ParseError("\x7f"
                       "ELF garbage"),
            "bad.hlo:1:1: expected 'HloModule' at the start of the module");
  EXPECT_EQ(ParseError(""), "bad.hlo:1:1: expected 'HloModule' at the start of the module");
  EXPECT_EQ(ParseError("HloModule m\n\n$$$"), "bad.hlo:3:1: expected a computation");
}

TEST(HloParserErrors, TruncatedFile) {
  EXPECT_EQ(ParseError("HloModule m\n\nENTRY e {\n  p = f32[] parameter(0)\n"),
            "bad.hlo:5:1: unexpected end of file, expected '}' to close computation 'e'");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  p = f32[8]{0} parameter(0)\n  ROOT q = f32["),
            "bad.hlo:4:16: unexpected end of file, expected an integer as a dimension size");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[] add("),
            "bad.hlo:3:22: unexpected end of file, expected an operand");
  EXPECT_EQ(ParseError("HloModule m"), "bad.hlo:1:12: module 'm' has no computations");
}

TEST(HloParserErrors, BadShape) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[8,-2] parameter(0)\n}"),
            "bad.hlo:3:18: negative dimension size");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32 parameter(0)\n}"),
            "bad.hlo:3:15: expected '[' after element type 'f32'");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[8]{0:Q} parameter(0)\n}"),
            "bad.hlo:3:22: expected a layout field such as T(8,128) or S(1)");
}

TEST(HloParserErrors, UnknownType) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f33[8] parameter(0)\n}"),
            "bad.hlo:3:12: unknown element type 'f33'");
}

TEST(HloParserErrors, UnbalancedBrace) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  p = f32[8]{0} parameter(0)\n"
                       "  ROOT r = f32[8]{0} reverse(p), dimensions={0"),
            "bad.hlo:4:45: unbalanced '{' (no matching '}')");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[8]{0} parameter(0), x={[0}]\n}"),
            "bad.hlo:3:41: mismatched '}', expected ']'");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[8]{0} parameter(0), x=\"abc\n}"),
            "bad.hlo:3:38: unterminated string");
}

TEST(HloParserErrors, UndefinedOperand) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT r = f32[] negate(%q)\n}"),
            "bad.hlo:3:25: undefined operand 'q'");
  EXPECT_EQ(
      ParseError("HloModule m\nENTRY e {\n  r = f32[] negate(q)\n  ROOT q = f32[] constant(1)\n}"),
      "bad.hlo:3:20: operand 'q' is used before its definition at 4:8");
}

TEST(HloParserErrors, DuplicateNames) {
  EXPECT_EQ(ParseError(
                "HloModule m\nENTRY e {\n  a = f32[] constant(1)\n  ROOT a = f32[] constant(2)\n}"),
            "bad.hlo:4:8: duplicate instruction name 'a' (first defined at 3:3)");
  EXPECT_EQ(ParseError("HloModule m\nc {\n  ROOT a = f32[] constant(1)\n}\nc {\n  ROOT a = f32[] "
                       "constant(1)\n}"),
            "bad.hlo:5:1: duplicate computation name 'c' (first defined at 2:1)");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  a /*id=1*/ = f32[] constant(1)\n  ROOT b "
                       "/*id=1*/ = f32[] constant(2)\n}"),
            "bad.hlo:4:10: duplicate instruction id 1 (first at 3:5)");
}

TEST(HloParserErrors, StructuralMistakes) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT r = f32[] call(), to_apply=%nowhere\n}"),
            "bad.hlo:3:35: unknown computation 'nowhere'");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n}"),
            "bad.hlo:2:7: computation 'e' has no instructions");
  EXPECT_EQ(
      ParseError(
          "HloModule m\nENTRY e {\n  ROOT a = f32[] constant(1)\n  ROOT b = f32[] constant(1)\n}"),
      "bad.hlo:4:3: second ROOT in this computation");
  EXPECT_EQ(ParseError("HloModule m\nENTRY a {\n  ROOT x = f32[] constant(1)\n}\nENTRY b {\n  ROOT "
                       "x = f32[] constant(1)\n}"),
            "bad.hlo:5:1: second ENTRY computation (the first is at 2:7)");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(3)\n}"),
            "bad.hlo:3:18: parameter number 3 is out of range: computation 'e' has 1 parameters");
  // A number no computation could have is refused like any other, not made room for.
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT q = f32[] "
                       "parameter(4611686018427387904)\n}"),
            "bad.hlo:4:18: parameter number 4611686018427387904 is out of range: computation 'e' "
            "has 2 parameters");
  EXPECT_EQ(
      ParseError(
          "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT q = f32[] parameter(0)\n}"),
      "bad.hlo:4:18: duplicate parameter number 0 (first at 3:13)");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] constant(1), k=1, k=2\n}"),
            "bad.hlo:3:36: duplicate attribute 'k'");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] constant(1) /* never closed\n}"),
            "bad.hlo:3:30: unterminated comment");
  EXPECT_EQ(
      ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(99999999999999999999)\n}"),
      "bad.hlo:3:28: integer out of range in parameter number");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p = f32[4194304,4194304,4194304] "
                       "parameter(0)\n}"),
            "bad.hlo:3:12: shape has more than 2^40 elements");
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT p /*id=9223372036854775807*/ = f32[] "
                       "parameter(0)\n}"),
            "bad.hlo:3:10: instruction id out of range");
}

TEST(HloParserErrors, CallCycles) {
  EXPECT_EQ(ParseError("HloModule m\na {\n  ROOT x = f32[] call(), to_apply=b\n}\n"
                       "b {\n  ROOT y = f32[] call(), to_apply=a\n}\nENTRY e {\n  ROOT z = f32[] "
                       "call(), to_apply=a\n}"),
            "bad.hlo:2:1: computation 'a' calls itself through a cycle of calls");
}

TEST(HloParserErrors, MessagesAreOneLineAndKeepTheFileName) {
  auto module =
      ParseHloModule("HloModule m\nENTRY e {\n  ROOT a = f32[] constant(1\n", "dir/x.hlo");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.message().find('\n'), std::string::npos);
  EXPECT_TRUE(module.message().starts_with("dir/x.hlo:3:")) << module.message();
}

TEST(HloParserErrors, MissingFileSaysWhich) {
  auto module = ParseHloFile("/nonexistent/dir/model.hlo");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.message(),
            "/nonexistent/dir/model.hlo: cannot open file: No such file or directory");
}

}  // namespace
}  // namespace fusescope::ir

namespace fusescope::ir {
namespace {

// Found by the parser fuzzer: a NUL in the module name printed back as text whose next word
// became the name. Control characters in the name are refused where they stand.
TEST(HloParserErrors, ControlCharacterInModuleName) {
  const std::string text("HloModule\x00\nFileNames\td{%s=()e()}b{.=()r()}", 42);
  StatusOr<std::unique_ptr<Module>> module = ParseHloModule(text, "fuzz.hlo");
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.message(), "fuzz.hlo:1:10: module name contains control character 0x00");
}

}  // namespace
}  // namespace fusescope::ir
