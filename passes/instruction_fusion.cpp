#include "passes/instruction_fusion.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "passes/fusion_builder.h"
#include "passes/fusion_decision_recorder.h"
#include "passes/reachability_map.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;
using ir::Opcode;

// XLA:CPU's fusion emitter recomputes an instruction once per distinct way it is indexed.
constexpr int64_t kAllowedCodeDuplication = 15;
// Matrix-vector dots are emitted inline when the vector fits in L1.
constexpr int64_t kInlineDotVectorBytes = 16 * 1024;
// Concatenating along the minor dimension at least this wide defeats vectorization.
constexpr int64_t kMinorConcatenateWidth = 128;

struct Verdict {
  FusionDecision decision = FusionDecision::Allow();
  FusionKind kind = FusionKind::kLoop;
};

Verdict Refused(FusionDecision decision) { return {std::move(decision), FusionKind::kLoop}; }

std::string Users(int64_t count) {
  return std::to_string(count) + (count == 1 ? " other user" : " other users");
}

// How often the fused computation would emit the value of parameter `number` (XLA's
// FusionNodeIndexingEvaluation): elementwise users share their user's indexing, any other
// user indexes anew.
int64_t EmissionCount(const Instruction& fusion, int64_t number) {
  const Computation& body = *fusion.fused_computation();
  const std::vector<Instruction*> order = body.MakePostOrder();
  std::unordered_map<const Instruction*, std::set<const Instruction*>> indexing_users;
  std::unordered_map<const Instruction*, int64_t> count{{nullptr, 1}};
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Instruction* instruction = *it;
    std::set<const Instruction*>& users = indexing_users[instruction];
    if (instruction == body.root()) users.insert(nullptr);
    for (const Instruction* user : instruction->users()) {
      if (IsElementwise(*user)) {
        users.insert(indexing_users[user].begin(), indexing_users[user].end());
      } else {
        users.insert(user);
      }
    }
    int64_t total = 0;
    for (const Instruction* user : users) total = std::min<int64_t>(total + count[user], 1 << 30);
    count[instruction] = total;
  }
  const Instruction* param = body.parameter(number);
  return param ? count[param] : 0;
}

bool IsMinorDimensionConcatenate(const Instruction& concatenate) {
  const ir::Shape& shape = concatenate.shape();
  if (!shape.IsArray() || shape.rank() <= 1) return false;
  const auto dims = concatenate.dimensions();
  if (!dims || dims->size() != 1) return false;
  const int64_t dim = dims->front();
  const int64_t minor = shape.layout() && !shape.layout()->minor_to_major.empty()
                            ? shape.layout()->minor_to_major[0]
                            : shape.rank() - 1;
  return dim == minor && shape.dimension(dim) >= kMinorConcatenateWidth;
}

// The decisions of XLA:CPU's CpuInstructionFusion::ShouldFuse plus the base class checks, in
// XLA's order except that a consumer that cannot fuse at all is named first.
class CpuFusionPolicy {
 public:
  CpuFusionPolicy(const FusionLimits& limits, OutputFusion output,
                  const std::unordered_set<const Instruction*>& do_not_duplicate)
      : limits_(limits), output_(output), do_not_duplicate_(do_not_duplicate) {}

  Verdict ShouldFuse(const Instruction& consumer, int64_t index) const {
    const Instruction& producer = *consumer.operand(index);
    if (FusionDecision d = CheckOpaqueOrSideEffecting(producer, consumer); !d) return Refused(d);
    if (FusionDecision d = CheckTupleShapedMember(producer); !d) return Refused(d);
    if (FusionDecision d = CheckTupleShapedMember(consumer); !d) return Refused(d);
    if (producer.IsRoot()) {
      return Refused(
          FusionDecision::Refuse(FusionReason::kProducerNotFusible,
                                 Ref(producer) + " is the root of " + producer.parent()->name() +
                                     "; not fusing into the output of the root instruction"));
    }
    if (producer.opcode() == Opcode::kConstant && !IsEffectiveScalar(producer.shape())) {
      return Refused(FusionDecision::Refuse(
          FusionReason::kNonScalarConstant,
          Ref(producer) + " is a non-scalar constant (" + producer.shape().ToString(false) +
              "); it stays in memory instead of being copied into every kernel that reads it"));
    }
    if (limits_.output_fusion && OutputFusion::IsPrimaryCandidate(producer)) {
      return CheckOutputFusion(producer, consumer);
    }
    if (limits_.output_fusion && output_.scope() == OutputFusion::Scope::kMatrixVector &&
        output_.CanAbsorbAnOperand(producer)) {
      return Refused(FusionDecision::Refuse(
          FusionReason::kOutputFusionShape,
          Ref(producer) + " can still absorb its dot as an output fusion; fusing it into " +
              Ref(consumer) + " first would prevent that"));
    }
    Verdict verdict = CheckConsumer(producer, consumer, index);
    if (!verdict.decision) return verdict;
    if (FusionDecision d = CheckProducer(producer); !d) return Refused(d);
    if (FusionDecision d = CheckInPlaceUpdate(producer, consumer); !d) return Refused(d);
    if (FusionDecision d = CheckConcatenates(producer, consumer); !d) return Refused(d);
    if (FusionDecision d = CheckReuse(producer, consumer, index); !d) return Refused(d);
    if (FusionDecision d = CheckDuplication(producer, consumer); !d) return Refused(d);
    if (FusionDecision d = CheckConstant(producer, consumer); !d) return Refused(d);
    if (FusionDecision d = CheckBudgets(producer, consumer, index); !d) return Refused(d);
    if (producer.user_count() > 1) {
      verdict.decision = FusionDecision::Refuse(FusionReason::kFusedWithDuplication, "");
    }
    return verdict;
  }

 private:
  Verdict CheckOutputFusion(const Instruction& producer, const Instruction& consumer) const {
    FusionDecision d = output_.CanFuse(producer, consumer);
    if (!d) return Refused(d);
    d = CheckBudgets(producer, consumer, -1);
    if (!d) return Refused(d);
    return {FusionDecision::Allow(), FusionKind::kOutput};
  }

  Verdict CheckConsumer(const Instruction& producer, const Instruction& consumer,
                        int64_t index) const {
    if (IsFusion(consumer)) return CheckConsumerFusion(producer, consumer, index);
    if (consumer.opcode() == Opcode::kDot) {
      if (IsInlineMatrixVectorDot(consumer, index)) return {};
      return Refused(FusionDecision::Refuse(
          FusionReason::kConsumerNotFusible,
          Ref(consumer) + " is a dot that calls a GEMM routine; only matrix-vector dots with a "
                          "vector under 16 KiB are emitted inline"));
    }
    if (!IsCpuLoopFusible(consumer)) {
      return Refused(FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                            Ref(consumer) + " (" +
                                                std::string(consumer.opcode_name()) +
                                                ") is not loop-fusible; it is emitted on its own"));
    }
    return {};
  }

  Verdict CheckConsumerFusion(const Instruction& producer, const Instruction& consumer,
                              int64_t index) const {
    const std::optional<FusionKind> kind = FusionKindOf(consumer);
    if (kind == FusionKind::kLoop) return {};
    if (kind == FusionKind::kOutput) {
      const Instruction* primary = OutputFusion::FindPrimary(consumer);
      const Instruction* param = consumer.fused_computation()->parameter(index);
      const bool feeds_primary = primary && param &&
                                 std::find(primary->operands().begin(), primary->operands().end(),
                                           param) != primary->operands().end();
      if (!feeds_primary) return {FusionDecision::Allow(), FusionKind::kOutput};
      return Refused(FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                            Ref(consumer) + " is an output fusion around " +
                                                Ref(*primary) + ", which reads " + Ref(producer) +
                                                " from memory; its operands cannot be fused"));
    }
    return Refused(
        FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                               Ref(consumer) + " is a " + consumer.fusion_kind() +
                                   " fusion; only loop fusions grow by fusing producers here"));
  }

  static bool IsInlineMatrixVectorDot(const Instruction& dot, int64_t index) {
    if (dot.shape().rank() > 1 || dot.operand_count() != 2) return false;
    const ir::Shape& lhs = dot.operand(0)->shape();
    const ir::Shape& rhs = dot.operand(1)->shape();
    if (lhs.rank() == 1 && index == 1) return lhs.ByteSize() < kInlineDotVectorBytes;
    if (rhs.rank() == 1 && index == 0) return rhs.ByteSize() < kInlineDotVectorBytes;
    return false;
  }

  static FusionDecision CheckProducer(const Instruction& producer) {
    if (producer.opcode() == Opcode::kFusion) {
      return FusionDecision::Refuse(
          FusionReason::kProducerNotFusible,
          Ref(producer) + " is already a fusion; CPU fusion does not fuse fusions into users");
    }
    if (!IsCpuLoopFusible(producer)) {
      return FusionDecision::Refuse(FusionReason::kProducerNotFusible,
                                    Ref(producer) + " (" + std::string(producer.opcode_name()) +
                                        ") is not loop-fusible; it is emitted on its own");
    }
    return FusionDecision::Allow();
  }

  FusionDecision CheckConcatenates(const Instruction& producer, const Instruction& consumer) const {
    for (const Instruction* concatenate : {&producer, &consumer}) {
      if (concatenate->opcode() != Opcode::kConcatenate) continue;
      std::string why;
      if (concatenate->operand_count() > limits_.max_concat_operands) {
        why = " joins " + std::to_string(concatenate->operand_count()) + " operands (limit " +
              std::to_string(limits_.max_concat_operands) + ")";
      } else if (IsMinorDimensionConcatenate(*concatenate)) {
        why = " joins along its minor dimension";
      } else {
        continue;
      }
      return FusionDecision::Refuse(
          FusionReason::kNotProfitable,
          Ref(*concatenate) + why +
              "; concatenate fusion is inefficient (branches in the inner loop), so it is "
              "materialized instead");
    }
    return FusionDecision::Allow();
  }

  static FusionDecision CheckReuse(const Instruction& producer, const Instruction& consumer,
                                   int64_t index) {
    if (producer.opcode() == Opcode::kFusion || !IsExpensive(producer) ||
        !ReusesOperandElements(consumer, index)) {
      return FusionDecision::Allow();
    }
    return FusionDecision::Refuse(
        FusionReason::kNotProfitable,
        Ref(producer) + " is " + CostClassPhrase(producer) + " and " + Ref(consumer) +
            " reads its elements more than once; fusing would recompute it for every read");
  }

  FusionDecision CheckDuplication(const Instruction& producer, const Instruction& consumer) const {
    const int64_t others = producer.user_count() - 1;
    if (others <= 0) return FusionDecision::Allow();
    if (do_not_duplicate_.count(&producer)) {
      return FusionDecision::Refuse(
          FusionReason::kExpensiveDuplication,
          Ref(producer) +
              " reads more than it writes and cannot be fused into every user on "
              "every path; duplicating it into " +
              Ref(consumer) + " would read its inputs again");
    }
    if (IsAlwaysDuplicable(producer)) return FusionDecision::Allow();
    if (!limits_.allow_duplication) {
      return FusionDecision::Refuse(FusionReason::kExpensiveDuplication,
                                    "duplication is disabled and " + Ref(producer) + " has " +
                                        Users(others) + "; fusing it into " + Ref(consumer) +
                                        " would duplicate it");
    }
    if (!IsExpensive(producer)) return FusionDecision::Allow();
    return FusionDecision::Refuse(FusionReason::kExpensiveDuplication,
                                  Ref(producer) + " is " + CostClassPhrase(producer) + " with " +
                                      Users(others) + "; fusing it into " + Ref(consumer) +
                                      " would compute it " + std::to_string(others + 1) + " times");
  }

  static FusionDecision CheckConstant(const Instruction& producer, const Instruction& consumer) {
    if (producer.opcode() != Opcode::kConstant || consumer.opcode() == Opcode::kFusion) {
      return FusionDecision::Allow();
    }
    return FusionDecision::Refuse(
        FusionReason::kNotProfitable,
        Ref(producer) + " is a constant and " + Ref(consumer) +
            " is not a fusion yet; a fusion of one instruction and a constant gains nothing");
  }

  FusionDecision CheckBudgets(const Instruction& producer, const Instruction& consumer,
                              int64_t index) const {
    const FusionFootprint fused = MeasureFusion({&producer, &consumer}, {&consumer});
    const int64_t current = MeasureInstruction(consumer).operands;
    for (FusionDecision d :
         {CheckInstructionBudget(fused, limits_.max_instructions),
          CheckReductionBudget(fused, limits_.max_reductions, false),
          CheckOperandBudget(fused, current, limits_.max_operands_and_outputs)}) {
      if (!d) return d;
    }
    if (index >= 0 && IsFusion(consumer) && producer.opcode() != Opcode::kBroadcast) {
      const int64_t emitted = EmissionCount(consumer, index);
      if (emitted > kAllowedCodeDuplication) {
        return FusionDecision::Refuse(FusionReason::kSizeLimit,
                                      "fusing " + Ref(producer) + " into " + Ref(consumer) +
                                          " would emit its code " + std::to_string(emitted) +
                                          " times (once per distinct indexing), limit is " +
                                          std::to_string(kAllowedCodeDuplication));
      }
    }
    return FusionDecision::Allow();
  }

  FusionLimits limits_;
  OutputFusion output_;
  const std::unordered_set<const Instruction*>& do_not_duplicate_;
};

// XLA's ComputeGloballyUnfusible: producers that read more than they write may only be
// duplicated when they can be fused into every user on every path.
class DuplicationAnalysis {
 public:
  DuplicationAnalysis(const Computation& computation, const CpuFusionPolicy& policy,
                      std::unordered_set<const Instruction*>& do_not_duplicate)
      : reachability_(computation), policy_(policy), do_not_duplicate_(do_not_duplicate) {}

  void Run(const std::vector<Instruction*>& post_order) {
    for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
      const Instruction* producer = *it;
      if (EffectivelyAtMostUnary(*producer) || !ReadsMoreThanWrites(*producer)) continue;
      const bool everywhere =
          IsCpuLoopFusible(*producer) &&
          std::all_of(producer->users().begin(), producer->users().end(),
                      [&](const Instruction* user) { return CanFuseOnAllPaths(producer, user); });
      if (!everywhere) do_not_duplicate_.insert(producer);
    }
  }

 private:
  static bool ReadsMoreThanWrites(const Instruction& producer) {
    std::unordered_set<const Instruction*> operands(producer.operands().begin(),
                                                    producer.operands().end());
    int64_t read = 0;
    for (const Instruction* operand : operands) read += operand->shape().ElementCount();
    return read > std::max<int64_t>(producer.shape().ElementCount(), 1);
  }

  bool CanFuseOnAllPaths(const Instruction* producer, const Instruction* consumer) {
    if (consumer == producer) return true;
    const auto key = std::make_pair(producer, consumer);
    if (auto found = cache_.find(key); found != cache_.end()) return found->second;
    bool result = consumer->opcode() != Opcode::kParameter;
    for (int64_t i = 0; result && i < consumer->operand_count(); ++i) {
      const Instruction* operand = consumer->operand(i);
      if (!reachability_.IsReachable(producer, operand)) continue;
      result = !do_not_duplicate_.count(operand) && policy_.ShouldFuse(*consumer, i).decision &&
               CanFuseOnAllPaths(producer, operand);
    }
    cache_[key] = result;
    return result;
  }

  ReachabilityMap reachability_;
  const CpuFusionPolicy& policy_;
  std::unordered_set<const Instruction*>& do_not_duplicate_;
  std::map<std::pair<const Instruction*, const Instruction*>, bool> cache_;
};

// Reverse post order with removal and re-queueing, as XLA's ReversePostOrderFusionQueue.
class FusionQueue {
 public:
  explicit FusionQueue(std::vector<Instruction*> post_order) : order_(std::move(post_order)) {
    for (size_t i = 0; i < order_.size(); ++i) index_[order_[i]] = i;
  }

  Instruction* Pop() {
    while (!order_.empty() && order_.back() == nullptr) order_.pop_back();
    if (order_.empty()) return nullptr;
    Instruction* next = order_.back();
    order_.pop_back();
    index_.erase(next);
    return next;
  }

  // Operand numbers of `consumer` still queued, latest in post order first.
  std::vector<int64_t> OperandsToTry(const Instruction& consumer) const {
    std::vector<int64_t> numbers;
    for (int64_t i = 0; i < consumer.operand_count(); ++i) {
      if (index_.count(consumer.operand(i))) numbers.push_back(i);
    }
    std::stable_sort(numbers.begin(), numbers.end(), [&](int64_t a, int64_t b) {
      return index_.at(consumer.operand(a)) > index_.at(consumer.operand(b));
    });
    return numbers;
  }

  void Push(Instruction* instruction) {
    index_[instruction] = order_.size();
    order_.push_back(instruction);
  }

  void Remove(Instruction* instruction) {
    auto found = index_.find(instruction);
    if (found == index_.end()) return;
    order_[found->second] = nullptr;
    index_.erase(found);
  }

 private:
  std::vector<Instruction*> order_;
  std::unordered_map<const Instruction*, size_t> index_;
};

std::string AcceptSentence(const FusionDecisionRecord& before, bool consumer_was_fusion,
                           int64_t other_users, const Instruction& fusion) {
  std::string sentence = FusedSentence(before, consumer_was_fusion, other_users > 0, fusion);
  if (FusionKindOf(fusion) == FusionKind::kOutput &&
      (before.producer_opcode == "dot" || before.producer_opcode == "convolution")) {
    sentence += "; the " + before.producer_opcode + " writes its result through the epilogue";
  }
  if (other_users > 0) {
    sentence += "; %" + before.producer_name + " stays for its " + Users(other_users);
  }
  return sentence;
}

class ComputationFusion {
 public:
  ComputationFusion(Computation& computation, const FusionLimits& limits, OutputFusion output,
                    FusionDecisionRecorder& recorder)
      : computation_(computation),
        allow_duplication_(limits.allow_duplication),
        policy_(limits, output, do_not_duplicate_),
        recorder_(recorder),
        builder_(computation) {}

  StatusOr<int64_t> Run() {
    std::vector<Instruction*> post_order = computation_.MakePostOrder();
    if (allow_duplication_) {
      DuplicationAnalysis(computation_, policy_, do_not_duplicate_).Run(post_order);
    }
    FusionQueue queue(std::move(post_order));
    int64_t fused = 0;
    while (Instruction* consumer = queue.Pop()) {
      StatusOr<Instruction*> fusion = VisitConsumer(*consumer, queue);
      if (!fusion.ok()) return fusion.status();
      if (*fusion != nullptr) {
        queue.Push(*fusion);
        ++fused;
      }
    }
    return fused;
  }

 private:
  // Tries the operands in order; fuses the first one allowed. Returns the fusion or null.
  StatusOr<Instruction*> VisitConsumer(Instruction& consumer, FusionQueue& queue) {
    for (int64_t index : queue.OperandsToTry(consumer)) {
      Instruction* producer = consumer.operand(index);
      if (producer->opcode() == Opcode::kParameter) continue;
      const Verdict verdict = policy_.ShouldFuse(consumer, index);
      FusionDecisionRecord record = MakeDecisionRecord(*producer, consumer, verdict.decision);
      if (!verdict.decision) {
        recorder_.Record(std::move(record));
        continue;
      }
      const int64_t others = producer->user_count() - 1;
      const bool consumer_was_fusion = IsFusion(consumer);
      do_not_duplicate_.erase(&consumer);
      if (others == 0) {
        queue.Remove(producer);
        do_not_duplicate_.erase(producer);
      }
      StatusOr<Instruction*> fusion = builder_.Fuse(producer, &consumer, verdict.kind);
      if (!fusion.ok()) return fusion.status();
      record.fusion_name = (*fusion)->name();
      record.explanation = AcceptSentence(record, consumer_was_fusion, others, **fusion);
      recorder_.Record(std::move(record));
      return *fusion;
    }
    return static_cast<Instruction*>(nullptr);
  }

  Computation& computation_;
  bool allow_duplication_;
  std::unordered_set<const Instruction*> do_not_duplicate_;
  CpuFusionPolicy policy_;
  FusionDecisionRecorder& recorder_;
  FusionBuilder builder_;
};

}  // namespace

StatusOr<bool> InstructionFusion::Run(ir::Module& module, PassContext& context) {
  const FusionLimits limits = ResolveFusionLimits(context.opts().fusion, FusionTarget::kCpu);
  FusionDecisionRecorder recorder(context);
  int64_t fused = 0;
  for (Computation* computation : FusibleComputations(module)) {
    ComputationFusion fusion(*computation, limits, OutputFusion(output_scope_), recorder);
    StatusOr<int64_t> count = fusion.Run();
    if (!count.ok()) return count.status();
    fused += *count;
  }
  context.AddStat("fused_pairs", std::to_string(fused));
  context.AddStat("fusions", std::to_string(CountFusions(module)));
  return fused > 0;
}

}  // namespace fusescope::passes
