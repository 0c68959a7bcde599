#include "runtime/output_judgement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fusescope::runtime {
namespace {

using ir::PrimitiveType;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Units of a narrow type's precision at 1.0 that rtol' allows.
constexpr double kNarrowUlps = 4;

// |a - x| with NaN matching NaN and equal infinities matching.
double ElementDistance(double a, double x) {
  if (std::isnan(a) && std::isnan(x)) return 0;
  if (a == x) return 0;
  const double d = std::fabs(a - x);
  return std::isnan(d) ? kInfinity : d;
}

double MaxDistance(const Literal& a, const Literal& x) {
  double worst = 0;
  for (int64_t i = 0; i < a.element_count(); ++i)
    worst = std::max(worst, ElementDistance(a.GetDouble(i), x.GetDouble(i)));
  return worst;
}

int64_t IntegerDifferences(const Literal& a, const Literal& x) {
  int64_t count = 0;
  for (int64_t i = 0; i < a.element_count(); ++i) count += a.GetInt(i) != x.GetInt(i);
  return count;
}

double MaxMagnitude(const Literal& x) {
  double scale = 0;
  for (int64_t i = 0; i < x.element_count(); ++i) {
    const double v = std::fabs(x.GetDouble(i));
    if (std::isfinite(v)) scale = std::max(scale, v);
  }
  return scale;
}

int Rank(OutputVerdict verdict) { return static_cast<int>(verdict); }

OutputVerdict Worse(OutputVerdict a, OutputVerdict b) { return Rank(a) >= Rank(b) ? a : b; }

void MergeDifference(const LiteralDifference& leaf, LiteralDifference& into) {
  into.same_shape = into.same_shape && leaf.same_shape;
  into.max_abs_error = std::max(into.max_abs_error, leaf.max_abs_error);
  into.max_rel_error = std::max(into.max_rel_error, leaf.max_rel_error);
  into.mismatches += leaf.mismatches;
}

// Whether `exact` can stand for `reference`: same tree, same dimensions, floats where the
// reference has floats (the widened run makes them f64) and the same type elsewhere.
bool ExactMatchesShape(const Literal& exact, const Literal& reference) {
  if (exact.is_tuple() != reference.is_tuple()) return false;
  if (exact.is_tuple()) {
    if (exact.elements().size() != reference.elements().size()) return false;
    for (size_t i = 0; i < exact.elements().size(); ++i) {
      if (!ExactMatchesShape(exact.elements()[i], reference.elements()[i])) return false;
    }
    return true;
  }
  if (exact.shape().dimensions() != reference.shape().dimensions()) return false;
  return reference.is_floating() ? exact.is_floating() : exact.type() == reference.type();
}

OutputVerdict JudgeFloatLeaf(const Literal& candidate, const Literal& reference,
                             const Literal* exact, double rtol, double atol,
                             OutputJudgement& judgement) {
  if (exact != nullptr) {
    const double to_exact = MaxDistance(candidate, *exact);
    const double reference_to_exact = MaxDistance(reference, *exact);
    judgement.candidate_to_exact = std::max(judgement.candidate_to_exact, to_exact);
    judgement.reference_to_exact = std::max(judgement.reference_to_exact, reference_to_exact);
    judgement.exact_scale = std::max(judgement.exact_scale, MaxMagnitude(*exact));
  }
  const LiteralDifference difference = CompareLiterals(candidate, reference, rtol, atol);
  MergeDifference(difference, judgement.to_reference);
  if (difference.ok()) return OutputVerdict::kMatch;
  if (exact == nullptr) return OutputVerdict::kMismatch;
  const double tolerance = atol + rtol * MaxMagnitude(*exact);
  const double to_exact = MaxDistance(candidate, *exact);
  const double reference_to_exact = MaxDistance(reference, *exact);
  // The reference's own rounding carried it beyond tolerance: no rounded run can be judged.
  if (reference_to_exact > tolerance) return OutputVerdict::kIllConditioned;
  if (to_exact <= reference_to_exact + tolerance) return OutputVerdict::kMatchByExactAnswer;
  return OutputVerdict::kMismatch;
}

OutputVerdict JudgeIntegerLeaf(const Literal& candidate, const Literal& reference,
                               const Literal* exact, OutputJudgement& judgement) {
  MergeDifference(CompareLiterals(candidate, reference, 0, 0), judgement.to_reference);
  const int64_t candidate_off = exact ? IntegerDifferences(candidate, *exact) : 0;
  const int64_t reference_off = exact ? IntegerDifferences(reference, *exact) : 0;
  if (exact != nullptr) {
    judgement.candidate_to_exact += static_cast<double>(candidate_off);
    judgement.reference_to_exact += static_cast<double>(reference_off);
  }
  if (IntegerDifferences(candidate, reference) == 0) return OutputVerdict::kMatch;
  if (exact == nullptr) return OutputVerdict::kMismatch;
  if (candidate_off == 0) return OutputVerdict::kMatchByExactAnswer;
  return reference_off > 0 ? OutputVerdict::kIllConditioned : OutputVerdict::kMismatch;
}

OutputVerdict JudgeTree(const Literal& candidate, const Literal& reference, const Literal* exact,
                        double rtol, double atol, OutputJudgement& judgement) {
  if (candidate.is_tuple() != reference.is_tuple() ||
      candidate.elements().size() != reference.elements().size()) {
    judgement.to_reference.same_shape = false;
    return OutputVerdict::kMismatch;
  }
  if (candidate.is_tuple()) {
    OutputVerdict worst = OutputVerdict::kMatch;
    for (size_t i = 0; i < candidate.elements().size(); ++i) {
      const Literal* leaf_exact = exact ? &exact->elements()[i] : nullptr;
      worst = Worse(worst, JudgeTree(candidate.elements()[i], reference.elements()[i], leaf_exact,
                                     rtol, atol, judgement));
    }
    return worst;
  }
  if (!candidate.shape().Compatible(reference.shape())) {
    judgement.to_reference.same_shape = false;
    return OutputVerdict::kMismatch;
  }
  if (!reference.is_floating()) return JudgeIntegerLeaf(candidate, reference, exact, judgement);
  const double leaf_rtol = EffectiveRtol(reference.type(), rtol);
  judgement.rtol = std::max(judgement.rtol, leaf_rtol);
  return JudgeFloatLeaf(candidate, reference, exact, leaf_rtol, atol, judgement);
}

std::string Format(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

}  // namespace

const char* OutputVerdictName(OutputVerdict verdict) {
  switch (verdict) {
    case OutputVerdict::kMatch:
      return "ok";
    case OutputVerdict::kMatchByExactAnswer:
      return "ok (exact)";
    case OutputVerdict::kIllConditioned:
      return "ill-conditioned";
    case OutputVerdict::kMismatch:
      return "MISMATCH";
  }
  return "?";
}

double EffectiveRtol(PrimitiveType type, double rtol) {
  switch (type) {
    case PrimitiveType::kF16:
      return std::max(rtol, kNarrowUlps * std::ldexp(1.0, -10));
    case PrimitiveType::kBF16:
      return std::max(rtol, kNarrowUlps * std::ldexp(1.0, -7));
    default:
      return rtol;
  }
}

OutputJudgement JudgeOutput(const Literal& candidate, const Literal& reference,
                            const Literal* exact, double rtol, double atol) {
  OutputJudgement judgement;
  judgement.rtol = rtol;
  if (exact != nullptr && !ExactMatchesShape(*exact, reference)) exact = nullptr;
  judgement.has_exact = exact != nullptr;
  judgement.verdict = JudgeTree(candidate, reference, exact, rtol, atol, judgement);
  return judgement;
}

std::vector<OutputJudgement> JudgeOutputs(const std::vector<Literal>& candidates,
                                          const std::vector<Literal>& references,
                                          const std::vector<Literal>& exacts, double rtol,
                                          double atol) {
  std::vector<OutputJudgement> judgements;
  for (size_t i = 0; i < references.size(); ++i) {
    if (i >= candidates.size()) {
      OutputJudgement missing;
      missing.verdict = OutputVerdict::kMismatch;
      missing.to_reference.same_shape = false;
      judgements.push_back(missing);
      continue;
    }
    const Literal* exact = i < exacts.size() ? &exacts[i] : nullptr;
    judgements.push_back(JudgeOutput(candidates[i], references[i], exact, rtol, atol));
  }
  return judgements;
}

OutputVerdict WorstVerdict(const std::vector<OutputJudgement>& judgements) {
  OutputVerdict worst = OutputVerdict::kMatch;
  for (const OutputJudgement& judgement : judgements) worst = Worse(worst, judgement.verdict);
  return worst;
}

std::string OutputJudgement::Explanation() const {
  if (!to_reference.same_shape) return "the output's shape differs from the reference's";
  const std::string distances = has_exact ? "off the exact (f64) answer by " +
                                                Format(candidate_to_exact) + ", the reference by " +
                                                Format(reference_to_exact)
                                          : "";
  switch (verdict) {
    case OutputVerdict::kMatch:
      return "within tolerance of the reference" + (has_exact ? "; " + distances : "");
    case OutputVerdict::kMatchByExactAnswer:
      return "differs from the reference by " + Format(to_reference.max_abs_error) +
             " but is no further from the exact answer than the reference: " + distances;
    case OutputVerdict::kIllConditioned:
      return "ill-conditioned on these inputs: rounding alone moves the reference " +
             Format(reference_to_exact) + " from the exact answer (tolerance " + Format(rtol) +
             " relative); the candidate is off it by " + Format(candidate_to_exact);
    case OutputVerdict::kMismatch:
      return "differs from the reference by " + Format(to_reference.max_abs_error) +
             (has_exact
                  ? " and is further from the exact answer than rounding explains: " + distances
                  : " (no exact answer to judge by)");
  }
  return "";
}

}  // namespace fusescope::runtime
