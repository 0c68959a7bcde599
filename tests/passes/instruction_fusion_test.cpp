#include "passes/instruction_fusion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/passes/fusion_test_support.h"

namespace fusescope::passes {
namespace {

using testing::FindDecision;
using testing::FusedOpcodes;
using testing::Fusions;
using testing::RunPass;

PipelineOptions WithLimits(void (*edit)(FusionLimits&)) {
  PipelineOptions options;
  edit(options.fusion);
  return options;
}

// An elementwise chain becomes one kLoop fusion that takes the chain's place.
TEST(InstructionFusionTest, ElementwiseChainBecomesOneLoopFusion) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[8,16] parameter(0)
  p1 = f32[8,16] parameter(1)
  add.1 = f32[8,16] add(p0, p1)
  mul.2 = f32[8,16] multiply(add.1, p1)
  ROOT neg.3 = f32[8,16] negate(mul.2), metadata={op_name="model/neg"}
})");
  ASSERT_TRUE(run->changed);
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.name(), "multiply_negate_fusion");  // XLA names it after its first pair
  EXPECT_EQ(fusion.fusion_kind(), "Loop");
  EXPECT_EQ(entry.root(), &fusion);
  EXPECT_EQ(fusion.fused_computation()->name(), "fused_computation");
  EXPECT_EQ(fusion.fused_computation()->fusion_instruction(), &fusion);
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"add", "multiply", "negate"}));
  // p1 feeds two fused instructions but is one operand.
  EXPECT_EQ(fusion.operand_count(), 2);
  EXPECT_THAT(fusion.fused_computation()->parameter(0)->name(), ::testing::StartsWith("param_0"));
  EXPECT_THAT(fusion.fused_computation()->parameter(1)->name(), ::testing::StartsWith("param_1"));
  EXPECT_EQ(fusion.metadata().String("op_name"), "model/neg");
  EXPECT_EQ(entry.instruction_count(), 3);  // two parameters and the fusion
}

// Moved instructions keep their ids inside the fusion; the fusion's provenance is the union.
TEST(InstructionFusionTest, ProvenanceIsTheUnionOfEverythingFused) {
  InstructionFusion pass;
  const char* text = R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  exp.1 = f32[4] exponential(p0)
  ROOT neg.2 = f32[4] negate(exp.1)
})";
  auto original = testing::ParseOrDie(text);
  auto run = RunPass(pass, text);
  const ir::Instruction& fusion = *Fusions(*run->module->entry()).front();
  const int64_t exp_id = original->FindInstruction("exp.1")->id();
  const int64_t neg_id = original->FindInstruction("neg.2")->id();
  EXPECT_TRUE(fusion.provenance().Contains(exp_id));
  EXPECT_TRUE(fusion.provenance().Contains(neg_id));
  const ir::Instruction* inner_exp = fusion.fused_computation()->FindInstruction("exp.1");
  ASSERT_NE(inner_exp, nullptr);
  EXPECT_EQ(inner_exp->id(), exp_id);
  EXPECT_EQ(inner_exp->provenance(), ir::ProvenanceSet({exp_id}));
  testing::ExpectProvenanceComplete(*original, *run->module);
}

// A fusion grows one producer per visit and records what it formed each time.
TEST(InstructionFusionTest, AcceptsSayWhatTheyFormed) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  exp.1 = f32[4] exponential(p0)
  add.2 = f32[4] add(exp.1, p0)
  ROOT neg.3 = f32[4] negate(add.2)
})");
  const FusionDecisionRecord* first = FindDecision(run->log, "add.2", "neg.3");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->reason, FusionReason::kFused);
  EXPECT_EQ(first->explanation, "fused %add.2 into %neg.3, forming %add_negate_fusion (kLoop)");
  EXPECT_EQ(first->fusion_name, "add_negate_fusion");
  const FusionDecisionRecord* second = FindDecision(run->log, "exp.1", "add_negate_fusion");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->explanation, "fused %exp.1 into %add_negate_fusion (kLoop)");
  EXPECT_EQ(second->pass, "fusion");
  EXPECT_EQ(second->computation, "main");
}

// An expensive producer with other users is not duplicated; the sentence counts the cost.
TEST(InstructionFusionTest, RefusesToDuplicateExpensiveProducer) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  exp.3 = f32[4] exponential(p0)
  add.7 = f32[4] add(exp.3, p0)
  mul.8 = f32[4] multiply(exp.3, p0)
  sub.9 = f32[4] subtract(exp.3, p0)
  ROOT t = (f32[4], f32[4], f32[4]) tuple(add.7, mul.8, sub.9)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "exp.3", "add.7");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kExpensiveDuplication);
  EXPECT_EQ(record->explanation,
            "%exp.3 is a transcendental with 2 other users; fusing it into %add.7 would compute "
            "it 3 times");
  EXPECT_NE(run->module->FindInstruction("exp.3"), nullptr);
}

// A cheap producer (a broadcast) is duplicated into each user; the original goes with the
// last one.
TEST(InstructionFusionTest, DuplicatesCheapProducerIntoEveryUser) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[] parameter(0)
  p1 = f32[4] parameter(1)
  b.1 = f32[4] broadcast(p0), dimensions={}
  add.2 = f32[4] add(b.1, p1)
  mul.3 = f32[4] multiply(b.1, p1)
  ROOT t = (f32[4], f32[4]) tuple(add.2, mul.3)
})");
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 2u);
  for (const ir::Instruction* fusion : Fusions(entry)) {
    EXPECT_EQ(FusedOpcodes(*fusion).count("broadcast"), 1u) << testing::Dump(*run->module);
  }
  EXPECT_EQ(entry.FindInstruction("b.1"), nullptr);
  int duplicated = 0;
  for (const FusionDecisionRecord& record : run->log.records()) {
    if (record.reason == FusionReason::kFusedWithDuplication) {
      ++duplicated;
      EXPECT_EQ(record.producer_name, "b.1");
      EXPECT_NE(record.explanation.find("stays for its 1 other user"), std::string::npos)
          << record.explanation;
    }
  }
  EXPECT_EQ(duplicated, 1);
}

// A duplicated copy of an instruction that answers for many originals (a CSE-merged
// broadcast) answers for one of them; the instruction moved last keeps answering for all.
TEST(InstructionFusionTest, CopiesOfWidelyMergedInstructionsAnswerForOne) {
  auto module = testing::ParseOrDie(R"(
HloModule m
ENTRY main {
  p0 = f32[] parameter(0)
  p1 = f32[4] parameter(1)
  b.1 = f32[4] broadcast(p0), dimensions={}
  add.2 = f32[4] add(b.1, p1)
  mul.3 = f32[4] multiply(b.1, p1)
  ROOT t = (f32[4], f32[4]) tuple(add.2, mul.3)
})");
  ir::Instruction* broadcast = module->FindInstruction("b.1");
  ir::ProvenanceSet merged;
  for (int64_t id = 1000; id < 1040; ++id) merged.Insert(id);
  broadcast->set_provenance(merged);
  InstructionFusion pass;
  PassContext context;
  ASSERT_TRUE(pass.Run(*module, context).ok());
  int64_t copies_with_one = 0;
  int64_t copies_with_all = 0;
  for (const ir::Instruction* fusion : Fusions(*module->entry())) {
    for (const auto& inner : fusion->fused_computation()->instructions()) {
      if (inner->opcode() != ir::Opcode::kBroadcast) continue;
      copies_with_one += inner->provenance().size() == 1 ? 1 : 0;
      copies_with_all += inner->provenance() == merged ? 1 : 0;
    }
  }
  EXPECT_EQ(copies_with_one, 1);
  EXPECT_EQ(copies_with_all, 1);
}

// Growing a fusion that already exists merges operands and keeps one parameter per operand;
// a parameter that moves to another number is renamed after it but keeps its id.
TEST(InstructionFusionTest, GrowingAFusionDedupesParameters) {
  InstructionFusion pass;
  const char* text = R"(
HloModule m
fused_computation.7 {
  param_0.7 = f32[4] parameter(0)
  param_1.7 = f32[4] parameter(1)
  ROOT m.1 = f32[4] multiply(param_0.7, param_1.7)
}
ENTRY main {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  add.2 = f32[4] add(p0, p1)
  ROOT fusion.7 = f32[4] fusion(add.2, p1), kind=kLoop, calls=fused_computation.7
})";
  auto original = testing::ParseOrDie(text);
  auto run = RunPass(pass, text);
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.name(), "fusion.7");
  EXPECT_EQ(fusion.id(), original->FindInstruction("fusion.7")->id());
  EXPECT_EQ(fusion.fused_computation()->name(), "fused_computation.7");
  EXPECT_EQ(fusion.operand_count(), 2);  // p1 was already an operand; p0 is new
  EXPECT_EQ(fusion.operand(0)->name(), "p1");
  const ir::Instruction* moved = fusion.fused_computation()->parameter(0);
  EXPECT_EQ(moved->name(), "param_0");
  EXPECT_EQ(moved->id(), original->FindInstruction("param_1.7")->id());
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"add", "multiply"}));
}

// Constants larger than a scalar are not copied into kernels.
TEST(InstructionFusionTest, RefusesNonScalarConstant) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  c.1 = f32[4] constant({1, 2, 3, 4})
  add.2 = f32[4] add(p0, c.1)
  ROOT neg.3 = f32[4] negate(add.2)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "c.1", "add_negate_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNonScalarConstant);
  EXPECT_EQ(record->explanation,
            "%c.1 is a non-scalar constant (f32[4]); it stays in memory instead of being copied "
            "into every kernel that reads it");
}

// A scalar constant alone with one instruction is not worth a fusion.
TEST(InstructionFusionTest, RefusesConstantIntoUnfusedConsumer) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[] parameter(0)
  c.1 = f32[] constant(2)
  ROOT add.2 = f32[] add(p0, c.1)
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "c.1", "add.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNotProfitable);
  EXPECT_EQ(record->explanation,
            "%c.1 is a constant and %add.2 is not a fusion yet; a fusion of one instruction and "
            "a constant gains nothing");
}

// A dot is not loop-fusible when output fusion is off.
TEST(InstructionFusionTest, RefusesProducerThatIsNotLoopFusible) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[8,16] parameter(0)
  p1 = f32[16,4] parameter(1)
  dot.1 = f32[8,4] dot(p0, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT neg.2 = f32[8,4] negate(dot.1)
})",
                     WithLimits([](FusionLimits& l) { l.output_fusion = false; }));
  const FusionDecisionRecord* record = FindDecision(run->log, "dot.1", "neg.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kProducerNotFusible);
  EXPECT_EQ(record->explanation, "%dot.1 (dot) is not loop-fusible; it is emitted on its own");
}

// Instructions that are not loop-fusible do not take producers.
TEST(InstructionFusionTest, RefusesConsumerThatIsNotLoopFusible) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[8,16] parameter(0)
  p1 = f32[16,4] parameter(1)
  neg.1 = f32[8,16] negate(p0)
  ROOT dot.2 = f32[8,4] dot(neg.1, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "neg.1", "dot.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kConsumerNotFusible);
  EXPECT_EQ(record->explanation,
            "%dot.2 is a dot that calls a GEMM routine; only matrix-vector dots with a vector "
            "under 16 KiB are emitted inline");
}

// A custom-call is opaque to fusion.
TEST(InstructionFusionTest, RefusesOpaqueCustomCall) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  cc.1 = f32[4] custom-call(p0), custom_call_target="my_kernel"
  ROOT neg.2 = f32[4] negate(cc.1)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "cc.1", "neg.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kOpaqueCustomCall);
  EXPECT_EQ(record->explanation,
            "%cc.1 is a custom-call to \"my_kernel\", opaque code that fusion cannot see into or "
            "emit inside a kernel");
}

// Side-effecting producers stay where they are.
TEST(InstructionFusionTest, RefusesSideEffects) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  lo = f32[] parameter(0)
  hi = f32[] parameter(1)
  rng.1 = f32[4] rng(lo, hi), distribution=rng_uniform
  ROOT neg.2 = f32[4] negate(rng.1)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "rng.1", "neg.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kSideEffect);
  EXPECT_EQ(record->explanation,
            "%rng.1 (rng) has side effects; fusing it could change when or how often they happen");
}

// The operand budget counts distinct operands plus outputs, and names both numbers.
TEST(InstructionFusionTest, RefusesTooManyOperands) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  p2 = f32[4] parameter(2)
  p3 = f32[4] parameter(3)
  p4 = f32[4] parameter(4)
  a0 = f32[4] add(p0, p1)
  a1 = f32[4] add(a0, p2)
  a2 = f32[4] add(a1, p3)
  ROOT a3 = f32[4] add(a2, p4)
})",
                     WithLimits([](FusionLimits& l) { l.max_operands_and_outputs = 4; }));
  const FusionDecisionRecord* record = FindDecision(run->log, "a1", "add_add_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kTooManyOperands);
  EXPECT_EQ(record->explanation, "fusion would have 5 operands+outputs, limit is 4");
}

// CPU fusions hold at most max_reductions reductions.
TEST(InstructionFusionTest, RefusesTooManyReductions) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  p0 = f32[8,16] parameter(0)
  c = f32[] constant(0)
  r.1 = f32[8] reduce(p0, c), dimensions={1}, to_apply=add
  e.2 = f32[8] exponential(r.1)
  r.3 = f32[] reduce(e.2, c), dimensions={0}, to_apply=add
  ROOT n.4 = f32[] negate(r.3)
})",
                     WithLimits([](FusionLimits& l) { l.max_reductions = 1; }));
  const FusionDecisionRecord* record = FindDecision(run->log, "r.1", "reduce_negate_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kTooManyReductions);
  EXPECT_EQ(record->explanation, "fusion would contain 2 reductions, limit is 1");
  // The reducer is a called computation, not a place to fuse in.
  EXPECT_TRUE(Fusions(*run->module->FindComputation("add")).empty());
}

// max_instructions bounds the size of a fused computation.
TEST(InstructionFusionTest, RefusesOverInstructionLimit) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  a = f32[4] negate(p0)
  b = f32[4] abs(a)
  c = f32[4] floor(b)
  ROOT d = f32[4] ceil(c)
})",
                     WithLimits([](FusionLimits& l) { l.max_instructions = 3; }));
  const FusionDecisionRecord* record = FindDecision(run->log, "a", "floor_ceil_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kSizeLimit);
  EXPECT_EQ(record->explanation, "fusion would hold 4 instructions, limit is 3");
}

// A producer that reads more than it writes is not duplicated when one of its users cannot
// take it.
TEST(InstructionFusionTest, RefusesDuplicationThatWouldReadInputsAgain) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[8,16] parameter(0)
  p1 = f32[8,16] parameter(1)
  w = f32[16,4] parameter(2)
  add.1 = f32[8,16] add(p0, p1)
  neg.2 = f32[8,16] negate(add.1)
  dot.3 = f32[8,4] dot(add.1, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[8,16], f32[8,4]) tuple(neg.2, dot.3)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "add.1", "neg.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kExpensiveDuplication);
  EXPECT_EQ(record->explanation,
            "%add.1 reads more than it writes and cannot be fused into every user on every "
            "path; duplicating it into %neg.2 would read its inputs again");
}

// An expensive producer is not fused into a consumer that reads its elements repeatedly.
TEST(InstructionFusionTest, RefusesExpensiveProducerIntoReusingConsumer) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[8] parameter(0)
  exp.1 = f32[8] exponential(p0)
  b.2 = f32[8,32] broadcast(exp.1), dimensions={0}
  ROOT neg.3 = f32[8,32] negate(b.2)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "exp.1", "broadcast_negate_fusion");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kNotProfitable);
  EXPECT_EQ(record->explanation,
            "%exp.1 is a transcendental and %broadcast_negate_fusion reads its elements more than once; fusing "
            "would recompute it for every read");
}

// A producer reading the buffer its consumer updates in place would see overwritten elements.
TEST(InstructionFusionTest, RefusesReadingABufferUpdatedInPlace) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[16] parameter(0)
  i = s32[] parameter(1)
  s.1 = f32[4] slice(p0), slice={[0:4]}
  ROOT dus.2 = f32[16] dynamic-update-slice(p0, s.1, i)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "s.1", "dus.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kSideEffect);
  EXPECT_EQ(record->explanation,
            "%dus.2 updates %p0 in place and %s.1 reads it too; fused, it could read elements "
            "already overwritten");
}

// A dot, its bias add and its activation become one kOutput fusion.
TEST(InstructionFusionTest, OutputFusionTakesDotBiasAndActivation) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  x = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  bias = f32[32] parameter(2)
  dot.1 = f32[8,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb.2 = f32[8,32] broadcast(bias), dimensions={1}
  add.3 = f32[8,32] add(dot.1, bb.2)
  zero = f32[] constant(0)
  zb.4 = f32[8,32] broadcast(zero), dimensions={}
  ROOT relu.5 = f32[8,32] maximum(add.3, zb.4)
})");
  const ir::Computation& entry = *run->module->entry();
  ASSERT_EQ(Fusions(entry).size(), 1u) << testing::Dump(*run->module);
  const ir::Instruction& fusion = *Fusions(entry).front();
  EXPECT_EQ(fusion.fusion_kind(), "Output");
  EXPECT_EQ(FusedOpcodes(fusion), (std::multiset<std::string>{"add", "broadcast", "broadcast",
                                                              "constant", "dot", "maximum"}));
  const FusionDecisionRecord* record = FindDecision(run->log, "dot.1", "broadcast_maximum_fusion");
  ASSERT_NE(record, nullptr) << testing::DescribeDecisions(run->log);
  EXPECT_EQ(record->explanation,
            "fused %dot.1 into %broadcast_maximum_fusion (kOutput); the dot writes its result through the "
            "epilogue");
}

// XLA's own CPU rule: only matrix-vector dots are output-fused, into an add.
TEST(InstructionFusionTest, MatrixVectorScopeRefusesMatrixMatrixDot) {
  InstructionFusion pass(OutputFusion::Scope::kMatrixVector);
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  x = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  b = f32[8,32] parameter(2)
  dot.1 = f32[8,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT add.2 = f32[8,32] add(dot.1, b)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "dot.1", "add.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kOutputFusionShape);
  EXPECT_EQ(record->explanation,
            "%dot.1 produces f32[8,32]; output fusion here takes only matrix-vector products "
            "(rank <= 1)");
}

// A dot with another user keeps its result in memory.
TEST(InstructionFusionTest, OutputFusionNeedsASingleUse) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  x = f32[8,64] parameter(0)
  w = f32[64,32] parameter(1)
  b = f32[8,32] parameter(2)
  dot.1 = f32[8,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  add.2 = f32[8,32] add(dot.1, b)
  ROOT t = (f32[8,32], f32[8,32]) tuple(add.2, dot.1)
})");
  const FusionDecisionRecord* record = FindDecision(run->log, "dot.1", "add.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kOutputFusionShape);
  EXPECT_EQ(record->explanation,
            "%dot.1 is used 2 times; its epilogue can absorb it only when it is the single use");
}

// Without duplication nothing with other users is fused.
TEST(InstructionFusionTest, HonoursDisabledDuplication) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  neg.1 = f32[4] negate(p0)
  a.2 = f32[4] abs(neg.1)
  f.3 = f32[4] floor(neg.1)
  ROOT t = (f32[4], f32[4]) tuple(a.2, f.3)
})",
                     WithLimits([](FusionLimits& l) { l.allow_duplication = false; }));
  const FusionDecisionRecord* record = FindDecision(run->log, "neg.1", "a.2");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kExpensiveDuplication);
  EXPECT_EQ(record->explanation,
            "duplication is disabled and %neg.1 has 1 other user; fusing it into %a.2 would "
            "duplicate it");
}

// Fusion works inside control flow bodies, not inside reducers.
TEST(InstructionFusionTest, FusesInsideWhileBodiesButNotReducers) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  e = f32[4] exponential(v)
  n = f32[4] negate(e)
  ROOT r = (s32[], f32[4]) tuple(i2, n)
}
cond {
  cs = (s32[], f32[4]) parameter(0)
  ci = s32[] get-tuple-element(cs), index=0
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(ci, ten), direction=LT
}
ENTRY main {
  p0 = f32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4]) tuple(z, p0)
  ROOT w = (s32[], f32[4]) while(init), condition=cond, body=body
})");
  EXPECT_EQ(Fusions(*run->module->FindComputation("body")).size(), 1u)
      << testing::Dump(*run->module);
}

// A multi-output fusion that is the computation's result cannot take a producer: its tuple
// is returned as it is. Refused with a reason, not a failed pass.
TEST(InstructionFusionTest, RefusesToGrowARootMultiOutputFusion) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
fused {
  fp = s32[3] parameter(0)
  fr = s32[3] reverse(fp), dimensions={0}
  fs = s32[3,1] reshape(fr)
  ROOT ft = (s32[3], s32[3,1]) tuple(fr, fs)
}
ENTRY main {
  p0 = s32[3] parameter(0)
  a = s32[3] negate(p0)
  ROOT f = (s32[3], s32[3,1]) fusion(a), kind=kLoop, calls=fused
  g = s32[3] get-tuple-element(f), index=0
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "a", "f");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kMultiOutputNotPossible);
  EXPECT_EQ(record->explanation,
            "%f is a multi-output fusion whose tuple is the result of main; the tuple itself "
            "would have to stay");
}

// A multi-output fusion whose tuple is also read whole (here by a tuple) cannot grow either.
TEST(InstructionFusionTest, RefusesToGrowAMultiOutputFusionReadWhole) {
  InstructionFusion pass;
  auto run = RunPass(pass, R"(
HloModule m
fused {
  fp = f32[8] parameter(0)
  fn = f32[8] negate(fp)
  ROOT ft = (f32[8], f32[8]) tuple(fp, fn)
}
ENTRY main {
  p0 = f32[8] parameter(0)
  a = f32[8] abs(p0)
  f = (f32[8], f32[8]) fusion(a), kind=kLoop, calls=fused
  g = f32[8] get-tuple-element(f), index=1
  ROOT t = ((f32[8], f32[8]), f32[8]) tuple(f, g)
})");
  EXPECT_FALSE(run->changed);
  const FusionDecisionRecord* record = FindDecision(run->log, "a", "f");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->reason, FusionReason::kMultiOutputNotPossible);
  EXPECT_EQ(record->explanation,
            "%f is a multi-output fusion whose tuple is read whole by %t; the tuple itself "
            "would have to stay");
}

}  // namespace
}  // namespace fusescope::passes
