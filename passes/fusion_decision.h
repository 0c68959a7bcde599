#ifndef FUSESCOPE_PASSES_FUSION_DECISION_H_
#define FUSESCOPE_PASSES_FUSION_DECISION_H_

// A fusion decision is a value with an explanation: allowed, or refused with a reason code
// and a sentence a person understands. Never an unexplained `false`. Decisions combine:
// And keeps the first refusal; Or keeps both refusals' sentences when both refuse.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::passes {

enum class FusionReason : uint8_t {
  kFused,                       // accepted
  kFusedWithDuplication,        // accepted, producer duplicated into this consumer
  kWouldCreateCycle,
  kExpensiveDuplication,        // expensive producer with other users would be duplicated
  kTooManyOperands,             // operands + outputs over the fusion budget
  kProducerIsReduction,         // reduce epilogue / reduction output fusion refused
  kIncompatibleIterationSpace,  // transposes/reshapes/different loop shapes
  kOpaqueCustomCall,
  kSideEffect,
  kProducerNotFusible,
  kConsumerNotFusible,
  kSizeLimit,                   // code duplication, instruction count, shared memory
  kNonScalarConstant,
  kNotProfitable,               // the cost model says slower
  kBothReductions,
  kTooManyReductions,
  kOutputFusionShape,           // dot/conv epilogue not of a fusable form
  kNoUsers,
  kMultiOutputNotPossible,
};

std::string_view FusionReasonCode(FusionReason reason);  // "would_create_cycle"
bool IsAccepted(FusionReason reason);

class FusionDecision {
 public:
  static FusionDecision Allow() { return FusionDecision(FusionReason::kFused, ""); }
  static FusionDecision Refuse(FusionReason reason, std::string explanation) {
    return FusionDecision(reason, std::move(explanation));
  }

  bool allowed() const { return IsAccepted(reason_); }
  explicit operator bool() const { return allowed(); }
  FusionReason reason() const { return reason_; }
  const std::string& explanation() const { return explanation_; }

  // First refusal wins.
  FusionDecision And(const FusionDecision& other) const { return allowed() ? other : *this; }
  // Allowed if either is; when both refuse, the explanations are joined.
  FusionDecision Or(const FusionDecision& other) const;

 private:
  FusionDecision(FusionReason reason, std::string explanation)
      : reason_(reason), explanation_(std::move(explanation)) {}
  FusionReason reason_;
  std::string explanation_;
};

// One considered producer -> consumer pair, as recorded.
struct FusionDecisionRecord {
  std::string pass;           // pass name, e.g. "fusion", "priority-fusion"
  int64_t pass_index = -1;    // position in the pipeline (filled by the pipeline)
  int64_t producer_id = -1;
  std::string producer_name;
  std::string producer_opcode;
  int64_t consumer_id = -1;
  std::string consumer_name;
  std::string consumer_opcode;
  std::string computation;    // where the pair lives
  FusionReason reason = FusionReason::kFused;
  std::string explanation;    // the human sentence ("" for a plain accept is not allowed:
                              // accepts say what fusion they formed)
  std::string fusion_name;    // the fusion formed or grown, when accepted
  bool accepted() const { return IsAccepted(reason); }
};

// Where passes report decisions. The pipeline forwards them to its instrumentations.
class FusionDecisionSink {
 public:
  virtual ~FusionDecisionSink() = default;
  virtual void Record(FusionDecisionRecord record) = 0;
};

// A sink that keeps everything; handy for tests and the CLI.
class FusionDecisionLog : public FusionDecisionSink {
 public:
  void Record(FusionDecisionRecord record) override { records_.push_back(std::move(record)); }
  const std::vector<FusionDecisionRecord>& records() const { return records_; }

 private:
  std::vector<FusionDecisionRecord> records_;
};

}  // namespace fusescope::passes

#endif  // FUSESCOPE_PASSES_FUSION_DECISION_H_
