// Judging outputs by the exact answer: the verdicts on hand-made values, and on a real
// recurrence that is chaotic on unscaled inputs and tame on the inputs the graph asks for.

#include "runtime/output_judgement.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "ir/hlo_parser.h"
#include "runtime/interpreter/interpreter.h"
#include "runtime/seeded_inputs.h"

namespace fusescope::runtime {
namespace {

Literal Array(ir::PrimitiveType type, const std::vector<double>& values) {
  Literal literal = Literal::Create(ir::Shape(type, {static_cast<int64_t>(values.size())})).value();
  for (size_t i = 0; i < values.size(); ++i) literal.SetDouble(static_cast<int64_t>(i), values[i]);
  return literal;
}

Literal F32(const std::vector<double>& values) { return Array(ir::PrimitiveType::kF32, values); }
Literal F64(const std::vector<double>& values) { return Array(ir::PrimitiveType::kF64, values); }

TEST(OutputJudgementTest, WithinToleranceOfTheReferenceIsOk) {
  const Literal exact = F64({1.0, 2.0});
  const Literal reference = F32({1.0, 2.0000005});
  const OutputJudgement j = JudgeOutput(F32({1.0, 2.0}), reference, &exact, 1e-5, 0);
  EXPECT_EQ(j.verdict, OutputVerdict::kMatch);
  EXPECT_TRUE(j.has_exact);
  EXPECT_EQ(j.reference_to_exact, reference.GetDouble(1) - 2.0);
  EXPECT_GT(j.reference_to_exact, 0);
}

// A sum that cancels to almost nothing: the candidate is off the reference by more than the
// relative tolerance of that small element, but no further from the exact answer than the
// tolerance of the output allows.
TEST(OutputJudgementTest, NoFurtherFromTheExactAnswerThanTheToleranceIsOk) {
  const Literal exact = F64({100.0, 1e-4});
  const OutputJudgement j =
      JudgeOutput(F32({100.0, 1.5e-4}), F32({100.0, 1e-4}), &exact, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kMatchByExactAnswer) << j.Explanation();
  EXPECT_TRUE(j.ok());
  EXPECT_NEAR(j.candidate_to_exact, 5e-5, 1e-9);
  EXPECT_LT(j.reference_to_exact, 1e-9);
}

TEST(OutputJudgementTest, AReferenceFarFromTheExactAnswerIsIllConditionedNeverAMismatch) {
  const Literal exact = F64({0.5, -0.25});
  const OutputJudgement j = JudgeOutput(F32({-1.0, 1.0}), F32({1.0, -1.0}), &exact, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kIllConditioned);
  EXPECT_TRUE(j.ok());
  EXPECT_NE(j.Explanation().find("ill-conditioned"), std::string::npos) << j.Explanation();
}

TEST(OutputJudgementTest, FurtherFromTheExactAnswerThanRoundingIsAMismatch) {
  const Literal exact = F64({1.0, 2.0});
  const OutputJudgement j = JudgeOutput(F32({1.0, 2.5}), F32({1.0, 2.0}), &exact, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kMismatch);
  EXPECT_FALSE(j.ok());
  EXPECT_NEAR(j.candidate_to_exact, 0.5, 1e-9);
}

TEST(OutputJudgementTest, WithoutAnExactAnswerOnlyTheReferenceJudges) {
  const OutputJudgement j = JudgeOutput(F32({1.0, 2.5}), F32({1.0, 2.0}), nullptr, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kMismatch);
  EXPECT_FALSE(j.has_exact);
}

// f16 results are held to four units of f16 precision, not f32's rtol: a one-ulp difference
// of a CPU that rounds f16 natively is no mismatch.
TEST(OutputJudgementTest, NarrowFloatsAreJudgedAtTheirOwnPrecision) {
  const double ulp = std::ldexp(1.0, -10);
  const Literal exact = F64({1.0});
  const OutputJudgement j = JudgeOutput(Array(ir::PrimitiveType::kF16, {1.0 + ulp}),
                                        Array(ir::PrimitiveType::kF16, {1.0}), &exact, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kMatch) << j.Explanation();
  EXPECT_DOUBLE_EQ(j.rtol, 4 * ulp);
  const OutputJudgement far =
      JudgeOutput(Array(ir::PrimitiveType::kF16, {1.0 + 16 * ulp}),
                  Array(ir::PrimitiveType::kF16, {1.0}), &exact, 1e-5, 1e-6);
  EXPECT_EQ(far.verdict, OutputVerdict::kMismatch);
  EXPECT_DOUBLE_EQ(EffectiveRtol(ir::PrimitiveType::kF32, 1e-5), 1e-5);
  EXPECT_DOUBLE_EQ(EffectiveRtol(ir::PrimitiveType::kBF16, 1e-5), 4 * std::ldexp(1.0, -7));
}

// An argmax among near-ties: the reference's own index differs from the exact run's.
TEST(OutputJudgementTest, IntegersOfAReferenceThatDiffersFromTheExactRunAreIllConditioned) {
  const Literal reference = Array(ir::PrimitiveType::kS32, {3, 1});
  const Literal candidate = Array(ir::PrimitiveType::kS32, {3, 2});
  const Literal exact_same_as_candidate = Array(ir::PrimitiveType::kS32, {3, 2});
  const Literal exact_other = Array(ir::PrimitiveType::kS32, {3, 0});
  const Literal exact_same_as_reference = Array(ir::PrimitiveType::kS32, {3, 1});
  EXPECT_EQ(JudgeOutput(candidate, reference, &exact_same_as_candidate, 0, 0).verdict,
            OutputVerdict::kMatchByExactAnswer);
  EXPECT_EQ(JudgeOutput(candidate, reference, &exact_other, 0, 0).verdict,
            OutputVerdict::kIllConditioned);
  EXPECT_EQ(JudgeOutput(candidate, reference, &exact_same_as_reference, 0, 0).verdict,
            OutputVerdict::kMismatch);
}

TEST(OutputJudgementTest, AMissingOrMisshapenOutputIsAMismatch) {
  std::vector<Literal> references;
  references.push_back(F32({1.0, 2.0}));
  references.push_back(F32({1.0}));
  std::vector<Literal> candidates;
  candidates.push_back(F32({1.0}));
  const std::vector<OutputJudgement> judgements = JudgeOutputs(candidates, references, {}, 0, 0);
  ASSERT_EQ(judgements.size(), 2u);
  EXPECT_FALSE(judgements[0].to_reference.same_shape);
  EXPECT_EQ(judgements[1].verdict, OutputVerdict::kMismatch);
  EXPECT_EQ(WorstVerdict(judgements), OutputVerdict::kMismatch);
}

// h <- tanh(h @ W), 50 steps, 128 wide: the scan of a recurrent layer. tanh is written either
// as the opcode or as (e^2z - 1) / (e^2z + 1): the same function, rounded differently, as two
// compilers would.
std::string Recurrence(bool tanh_opcode) {
  const std::string body = tanh_opcode ? "  nh = f32[1,128] tanh(z)\n"
                                       : "  two = f32[] constant(2)\n"
                                         "  twos = f32[1,128] broadcast(two), dimensions={}\n"
                                         "  z2 = f32[1,128] multiply(z, twos)\n"
                                         "  e = f32[1,128] exponential(z2)\n"
                                         "  one = f32[] constant(1)\n"
                                         "  ones = f32[1,128] broadcast(one), dimensions={}\n"
                                         "  num = f32[1,128] subtract(e, ones)\n"
                                         "  den = f32[1,128] add(e, ones)\n"
                                         "  nh = f32[1,128] divide(num, den)\n";
  return "HloModule rnn\n"
         "body {\n"
         "  state = (s32[], f32[1,128], f32[128,128]) parameter(0)\n"
         "  i = s32[] get-tuple-element(state), index=0\n"
         "  h = f32[1,128] get-tuple-element(state), index=1\n"
         "  w = f32[128,128] get-tuple-element(state), index=2\n"
         "  step = s32[] constant(1)\n"
         "  next = s32[] add(i, step)\n"
         "  z = f32[1,128] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n" +
         body +
         "  ROOT out = (s32[], f32[1,128], f32[128,128]) tuple(next, nh, w)\n"
         "}\n"
         "cond {\n"
         "  state = (s32[], f32[1,128], f32[128,128]) parameter(0)\n"
         "  i = s32[] get-tuple-element(state), index=0\n"
         "  n = s32[] constant(50)\n"
         "  ROOT lt = pred[] compare(i, n), direction=LT\n"
         "}\n"
         "ENTRY e {\n"
         "  h0 = f32[1,128] parameter(0)\n"
         "  w = f32[128,128] parameter(1)\n"
         "  zero = s32[] constant(0)\n"
         "  init = (s32[], f32[1,128], f32[128,128]) tuple(zero, h0, w)\n"
         "  loop = (s32[], f32[1,128], f32[128,128]) while(init), condition=cond, body=body\n"
         "  ROOT h = f32[1,128] get-tuple-element(loop), index=1\n"
         "}\n";
}

struct RecurrenceRuns {
  Literal reference, candidate, exact;
};

RecurrenceRuns RunRecurrence(const std::vector<Literal>& inputs) {
  auto reference_module = ir::ParseHloModule(Recurrence(true), "rnn.hlo");
  auto candidate_module = ir::ParseHloModule(Recurrence(false), "rnn2.hlo");
  EXPECT_TRUE(reference_module.ok()) << reference_module.message();
  EXPECT_TRUE(candidate_module.ok()) << candidate_module.message();
  InterpreterOptions wide;
  wide.widen_floats_to_f64 = true;
  RecurrenceRuns runs;
  runs.reference = Interpreter().Run(**reference_module, inputs).value();
  runs.candidate = Interpreter().Run(**candidate_module, inputs).value();
  runs.exact = Interpreter(wide).Run(**reference_module, inputs).value();
  return runs;
}

TEST(OutputJudgementTest, AChaoticRecurrenceIsIllConditionedNotAMismatch) {
  auto module = ir::ParseHloModule(Recurrence(true), "rnn.hlo");
  ASSERT_TRUE(module.ok()) << module.message();
  // Weights uniform in [-1, 1), as seeded inputs were before the graph chose their range.
  std::vector<Literal> inputs;
  inputs.push_back(SeededArray((*module)->entry()->parameter(0)->shape(), 1).value());
  inputs.push_back(SeededArray((*module)->entry()->parameter(1)->shape(), 2).value());
  const RecurrenceRuns runs = RunRecurrence(inputs);
  const LiteralDifference plain = CompareLiterals(runs.candidate, runs.reference, 1e-5, 1e-5);
  ASSERT_FALSE(plain.ok()) << "the recurrence did not amplify rounding; the test proves nothing";
  EXPECT_GT(plain.max_abs_error, 0.1);
  const OutputJudgement j = JudgeOutput(runs.candidate, runs.reference, &runs.exact, 1e-5, 1e-5);
  EXPECT_EQ(j.verdict, OutputVerdict::kIllConditioned) << j.Explanation();
  EXPECT_GT(j.reference_to_exact, 1e-3);
}

TEST(OutputJudgementTest, TheSameRecurrenceOnTheInputsTheGraphAsksForMatches) {
  auto module = ir::ParseHloModule(Recurrence(true), "rnn.hlo");
  ASSERT_TRUE(module.ok()) << module.message();
  auto inputs = SeededInputs(*(*module)->entry(), 1);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  const RecurrenceRuns runs = RunRecurrence(*inputs);
  const OutputJudgement j = JudgeOutput(runs.candidate, runs.reference, &runs.exact, 1e-5, 1e-5);
  EXPECT_TRUE(j.verdict == OutputVerdict::kMatch || j.verdict == OutputVerdict::kMatchByExactAnswer)
      << j.Explanation();
  EXPECT_LT(j.reference_to_exact, 1e-5);
}

// tests/runtime/xla_cases/narrow_floats.hlo's f16 a*b + h, as a CPU with AVX-512 FP16 runs it
// (one rounding of the fused multiply-add) and as one that rounds the f16 product first: some
// elements that cancel differ by about five units of f16 precision, yet neither is further
// from the exact answer than the other by more than f16's own rounding.
TEST(OutputJudgementTest, FusedAndUnfusedHalfMultiplyAddsAgreeByTheExactAnswer) {
  const std::string params =
      "  a = f32[8,16] parameter(0)\n  b = f32[8,16] parameter(1)\n  h = f16[8,16] "
      "parameter(2)\n  ah = f16[8,16] convert(a)\n  bh = f16[8,16] convert(b)\n";
  auto rounded = ir::ParseHloModule("HloModule r\nENTRY e {\n" + params +
                                        "  p = f16[8,16] multiply(ah, bh)\n"
                                        "  ROOT s = f16[8,16] add(p, h)\n}\n",
                                    "r.hlo");
  // The product of two f16 values is exact in f32: only the sum rounds, to f32 and then f16.
  auto fused =
      ir::ParseHloModule("HloModule f\nENTRY e {\n" + params +
                             "  aw = f32[8,16] convert(ah)\n  bw = f32[8,16] convert(bh)\n"
                             "  hw = f32[8,16] convert(h)\n  p = f32[8,16] multiply(aw, bw)\n"
                             "  s = f32[8,16] add(p, hw)\n  ROOT r = f16[8,16] convert(s)\n}\n",
                         "f.hlo");
  ASSERT_TRUE(rounded.ok()) << rounded.message();
  ASSERT_TRUE(fused.ok()) << fused.message();
  auto inputs = SeededInputs(*(*rounded)->entry(), 0);
  ASSERT_TRUE(inputs.ok());
  InterpreterOptions wide;
  wide.widen_floats_to_f64 = true;
  const Literal reference = Interpreter().Run(**rounded, *inputs).value();
  const Literal candidate = Interpreter().Run(**fused, *inputs).value();
  const Literal exact = Interpreter(wide).Run(**rounded, *inputs).value();
  const double rtol = EffectiveRtol(ir::PrimitiveType::kF16, 1e-5);
  ASSERT_FALSE(CompareLiterals(candidate, reference, rtol, 1e-6).ok())
      << "no element cancels on these inputs; the test proves nothing";
  const OutputJudgement j = JudgeOutput(candidate, reference, &exact, 1e-5, 1e-6);
  EXPECT_EQ(j.verdict, OutputVerdict::kMatchByExactAnswer) << j.Explanation();
  const OutputJudgement back = JudgeOutput(reference, candidate, &exact, 1e-5, 1e-6);
  EXPECT_EQ(back.verdict, OutputVerdict::kMatchByExactAnswer) << back.Explanation();
}

}  // namespace
}  // namespace fusescope::runtime
