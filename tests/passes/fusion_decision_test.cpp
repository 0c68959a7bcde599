// Fusion decisions combine with explanations kept, and reason codes are stable strings.

#include "passes/fusion_decision.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace fusescope::passes {
namespace {

TEST(FusionDecisionTest, OrKeepsBothRefusalSentences) {
  FusionDecision a =
      FusionDecision::Refuse(FusionReason::kWouldCreateCycle, "would create a cycle");
  FusionDecision b = FusionDecision::Refuse(FusionReason::kTooManyOperands, "over 64 operands");
  FusionDecision both = a.Or(b);
  EXPECT_FALSE(both.allowed());
  EXPECT_EQ(both.reason(), FusionReason::kWouldCreateCycle);
  EXPECT_EQ(both.explanation(), "would create a cycle; over 64 operands");
}

TEST(FusionDecisionTest, OrAllowsWhenEitherAllows) {
  FusionDecision refuse = FusionDecision::Refuse(FusionReason::kSideEffect, "side effect");
  EXPECT_TRUE(refuse.Or(FusionDecision::Allow()).allowed());
  EXPECT_TRUE(FusionDecision::Allow().Or(refuse).allowed());
}

TEST(FusionDecisionTest, AndKeepsFirstRefusal) {
  FusionDecision first = FusionDecision::Refuse(FusionReason::kNoUsers, "no users");
  FusionDecision second = FusionDecision::Refuse(FusionReason::kSizeLimit, "too big");
  EXPECT_EQ(first.And(second).explanation(), "no users");
  EXPECT_EQ(FusionDecision::Allow().And(second).reason(), FusionReason::kSizeLimit);
}

TEST(FusionDecisionTest, ReasonCodesAreDistinctSnakeCase) {
  std::set<std::string> codes;
  for (int i = 0; i <= static_cast<int>(FusionReason::kMultiOutputNotPossible); ++i) {
    const std::string code(FusionReasonCode(static_cast<FusionReason>(i)));
    EXPECT_TRUE(codes.insert(code).second) << code;
    EXPECT_EQ(code.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos) << code;
  }
  EXPECT_EQ(FusionReasonCode(FusionReason::kWouldCreateCycle), "would_create_cycle");
  EXPECT_TRUE(IsAccepted(FusionReason::kFusedWithDuplication));
  EXPECT_FALSE(IsAccepted(FusionReason::kNotProfitable));
}

}  // namespace
}  // namespace fusescope::passes
