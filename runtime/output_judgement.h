#ifndef FUSESCOPE_RUNTIME_OUTPUT_JUDGEMENT_H_
#define FUSESCOPE_RUNTIME_OUTPUT_JUDGEMENT_H_

// Whether a candidate's output (a compiled module, a pass's snapshot, another compiler) is
// right, judged against an exact answer and not only against another rounded one.
//
// Three runs take part: the candidate; the reference, the input module interpreted in its
// own types (rounded as the model says); and, where it could run, the exact answer, the input
// module interpreted with every float widened to f64 (InterpreterOptions::
// widen_floats_to_f64). Per output:
//   - ok: the candidate is within tolerance of the reference, element by element
//     (|c - r| <= atol + rtol' |r|);
//   - ill-conditioned: it is not, and the reference itself is further than the tolerance from
//     the exact answer (max|r - x| > atol + rtol' max|x|): on these inputs rounding alone moves
//     the numbers that far (a chaotic recurrence, a softmax on huge logits), so no rounded run
//     can be called wrong. Never a mismatch;
//   - ok (exact): the reference is within the tolerance of the exact answer and the candidate
//     is no further from it than the reference is, plus the tolerance: max|c - x| <= max|r - x|
//     + atol + rtol' max|x|. Elements that cancel to almost nothing fail a relative test
//     against another rounding while the output as a whole is as right as the reference;
//   - MISMATCH: none of these.
// rtol' is rtol, raised for narrow outputs to four units of the type's precision at 1.0
// (f16 3.9e-3, bf16 3.1e-2): their own rounding is that coarse, and CPUs that compute in
// f16 natively (AVX-512 FP16) round differently from those that go through f32.
// Integer and pred outputs must equal the reference's, or the exact answer's (ok (exact));
// when the reference's own integers differ from the exact ones (an argmax or top-k index
// among near-ties) the output is ill-conditioned.

#include <optional>
#include <string>
#include <vector>

#include "runtime/literal.h"

namespace fusescope::runtime {

enum class OutputVerdict { kMatch, kMatchByExactAnswer, kIllConditioned, kMismatch };

// "ok", "ok (exact)", "ill-conditioned", "MISMATCH".
const char* OutputVerdictName(OutputVerdict verdict);

struct OutputJudgement {
  OutputVerdict verdict = OutputVerdict::kMatch;
  // The candidate against the reference, with rtol' (as CompareLiterals counts).
  LiteralDifference to_reference;
  // Max abs distances to the exact answer, when it ran; for integer outputs, the count of
  // elements that differ from it.
  bool has_exact = false;
  double candidate_to_exact = 0;
  double reference_to_exact = 0;
  double exact_scale = 0;  // max |x| over finite elements
  double rtol = 0;         // rtol' of the worst leaf
  bool ok() const { return verdict != OutputVerdict::kMismatch; }
  // One sentence: why this verdict.
  std::string Explanation() const;
};

// `exact` may be null (the exact answer could not run): the verdict is then ok or MISMATCH
// against the reference alone.
OutputJudgement JudgeOutput(const Literal& candidate, const Literal& reference,
                            const Literal* exact, double rtol, double atol);
// One judgement per output of `references`; a candidate output that is missing, or of
// another shape, is a MISMATCH. `exacts` is empty when the exact answer did not run.
std::vector<OutputJudgement> JudgeOutputs(const std::vector<Literal>& candidates,
                                          const std::vector<Literal>& references,
                                          const std::vector<Literal>& exacts, double rtol,
                                          double atol);
// The worst verdict of several (MISMATCH over ill-conditioned over ok (exact) over ok).
OutputVerdict WorstVerdict(const std::vector<OutputJudgement>& judgements);

// rtol' for outputs of `type`.
double EffectiveRtol(ir::PrimitiveType type, double rtol);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_OUTPUT_JUDGEMENT_H_
