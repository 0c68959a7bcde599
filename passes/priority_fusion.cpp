#include "passes/priority_fusion.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "passes/fusion_builder.h"
#include "passes/fusion_decision_recorder.h"
#include "passes/fusion_utils.h"
#include "passes/gpu_performance_model.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;
using ir::Opcode;

std::string Microseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", seconds * 1e6);
  return std::string(text) + " us";
}

std::vector<Instruction*> NonBitcastUsers(const Instruction& producer) {
  std::vector<Instruction*> users;
  for (Instruction* user : producer.users()) {
    if (user->opcode() != Opcode::kBitcast) users.push_back(user);
  }
  return users;
}

bool IsQueueCandidate(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kParameter:
    case Opcode::kConstant:
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
      return false;
    default:
      return !instruction.users().empty();
  }
}

bool IsSmallConstant(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kConstant && instruction.shape().IsArray() &&
         instruction.shape().ElementCount() <= 1;
}

class ComputationPriorityFusion {
 public:
  ComputationPriorityFusion(Computation& computation, const FusionLimits& limits,
                            const GpuPerformanceModel& model, FusionDecisionRecorder& recorder)
      : computation_(computation),
        limits_(limits),
        model_(model),
        recorder_(recorder),
        builder_(computation) {}

  StatusOr<int64_t> Run() {
    for (Instruction* instruction : computation_.MakePostOrder()) Update(instruction);
    int64_t fused = 0;
    while (!queue_.empty()) {
      auto next = std::prev(queue_.end());
      Instruction* producer = next->second;
      const double priority = next->first.first;
      queue_.erase(next);
      where_.erase(producer);
      StatusOr<int64_t> count = FuseIntoConsumers(producer, priority);
      if (!count.ok()) return count.status();
      fused += *count;
      std::vector<Instruction*> pending(to_update_.begin(), to_update_.end());
      to_update_.clear();
      for (Instruction* instruction : pending) Update(instruction);
    }
    StatusOr<int64_t> constants = FuseConstants();
    if (!constants.ok()) return constants.status();
    return fused + *constants;
  }

 private:
  using Key = std::pair<double, int64_t>;

  FusionDecision CanFuse(const Instruction& producer, const Instruction& consumer) const {
    if (FusionDecision d = GpuProducerConsumerFusible(producer, consumer); !d) return d;
    if (ContainsSignificantReduce(producer) && ContainsSignificantReduce(consumer)) {
      return FusionDecision::Refuse(
          FusionReason::kBothReductions,
          "both " + Ref(producer) + " and " + Ref(consumer) +
              " contain a reduce; the cost model cannot tile a reduction fused into another");
    }
    if (FusionDecision d = GpuFusionFitsInBudget(producer, consumer, limits_, false); !d) {
      return d;
    }
    if (producer.IsRoot()) {
      return FusionDecision::Refuse(FusionReason::kProducerNotFusible,
                                    Ref(producer) + " is the root of " + computation_.name() +
                                        "; not fusing into the output of the root instruction");
    }
    if (CreatesHeavyComputation(producer, consumer)) {
      return FusionDecision::Refuse(
          FusionReason::kNotProfitable,
          Ref(producer) + " reads many inputs per output and " + Ref(consumer) +
              " reads its elements more than once; fused, it would be recomputed for each read");
    }
    return FusionDecision::Allow();
  }

  void Refuse(const Instruction& producer, const Instruction& consumer,
              const FusionDecision& decision) {
    recorder_.Record(MakeDecisionRecord(producer, consumer, decision));
  }

  // The priority, or nullopt when the producer should not be queued (refusals recorded).
  std::optional<double> Priority(const Instruction& producer) {
    if (producer.opcode() == Opcode::kBitcast) return std::numeric_limits<double>::infinity();
    const std::vector<Instruction*> consumers = NonBitcastUsers(producer);
    if (consumers.empty()) {
      for (const Instruction* user : producer.users()) {
        Refuse(producer, *user,
               FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                      Ref(producer) + " has only bitcast users such as " +
                                          Ref(*user) + "; not fusing into bitcasts"));
      }
      return std::nullopt;
    }
    for (const Instruction* consumer : consumers) {
      if (FusionDecision d = CanFuse(producer, *consumer); !d) {
        Refuse(producer, *consumer, d);
        return std::nullopt;
      }
    }
    const std::vector<const Instruction*> view(consumers.begin(), consumers.end());
    const GpuPerformanceModel::RunTimes times = model_.EstimateRunTimes(producer, view);
    if (times.saved_seconds() < 0) {
      for (const Instruction* consumer : consumers) {
        Refuse(producer, *consumer,
               FusionDecision::Refuse(
                   FusionReason::kNotProfitable,
                   "fusing " + Ref(producer) + " into its " + std::to_string(consumers.size()) +
                       (consumers.size() == 1 ? " user" : " users") + " would take " +
                       Microseconds(times.fused_seconds) + " against " +
                       Microseconds(times.unfused_seconds) + " unfused, by the cost model"));
      }
      return std::nullopt;
    }
    return times.saved_seconds();
  }

  void Remove(const Instruction* instruction) {
    auto found = where_.find(instruction);
    if (found != where_.end()) {
      queue_.erase(found->second);
      where_.erase(found);
    }
    to_update_.erase(const_cast<Instruction*>(instruction));
  }

  void Update(Instruction* instruction) {
    Remove(instruction);
    if (!IsQueueCandidate(*instruction)) return;
    const std::optional<double> priority = Priority(*instruction);
    if (!priority) return;
    auto inserted = queue_.emplace(Key{*priority, instruction->id()}, instruction);
    where_[instruction] = inserted.first;
  }

  // Fuses `producer` into every consumer, or records why not and fuses nothing.
  StatusOr<int64_t> FuseIntoConsumers(Instruction* producer, double priority) {
    std::vector<Instruction*> consumers = NonBitcastUsers(*producer);
    if (producer->opcode() == Opcode::kBitcast) consumers = producer->users();
    std::vector<Instruction*> accepted;
    for (Instruction* consumer : consumers) {
      FusionDecision d = CanFuse(*producer, *consumer);
      if (d) {
        accepted.push_back(consumer);
      } else if (producer->opcode() == Opcode::kBitcast) {
        Refuse(*producer, *consumer, d);
      } else {
        Refuse(*producer, *consumer, d);
        return 0;
      }
    }
    const size_t total = accepted.size();
    int64_t fused = 0;
    for (Instruction* consumer : accepted) {
      FusionDecisionRecord record = MakeDecisionRecord(
          *producer, *consumer,
          FusionDecision::Refuse(producer->user_count() > 1 ? FusionReason::kFusedWithDuplication
                                                            : FusionReason::kFused,
                                 ""));
      const bool copy = producer->user_count() > 1;
      const bool consumer_was_fusion = IsFusion(*consumer);
      Remove(consumer);
      if (!copy) Remove(producer);
      StatusOr<Instruction*> fusion = FuseAndSetKind(producer, consumer);
      if (!fusion.ok()) return fusion.status();
      record.fusion_name = (**fusion).name();
      record.explanation = FusedSentence(record, consumer_was_fusion, copy, **fusion);
      if (total > 1) {
        record.explanation += "; a copy goes into each of its " + std::to_string(total) + " users";
      }
      if (std::isfinite(priority)) {
        record.explanation += "; the cost model expects it to save " + Microseconds(priority);
      }
      recorder_.Record(std::move(record));
      NoteFusion(*fusion);
      ++fused;
    }
    return fused;
  }

  StatusOr<Instruction*> FuseAndSetKind(Instruction* producer, Instruction* consumer) {
    StatusOr<Instruction*> fusion = builder_.Fuse(producer, consumer, FusionKind::kLoop);
    if (!fusion.ok()) return fusion;
    (*fusion)->SetAttribute("kind", std::string(FusionKindName(ChooseGpuFusionKind(**fusion))));
    return fusion;
  }

  // The new fusion and the operands whose consumer changed need new priorities.
  void NoteFusion(Instruction* fusion) {
    to_update_.insert(fusion);
    for (Instruction* operand : fusion->operands()) {
      if (operand->opcode() != Opcode::kConstant && operand->opcode() != Opcode::kGetTupleElement) {
        to_update_.insert(operand);
      }
    }
  }

  // Small constants are fused last, into every fusible user: the cost model does not handle
  // them and they cost nothing to duplicate.
  StatusOr<int64_t> FuseConstants() {
    std::vector<Instruction*> constants;
    for (const auto& instruction : computation_.instructions()) {
      if (instruction->opcode() == Opcode::kConstant) constants.push_back(instruction.get());
    }
    int64_t fused = 0;
    for (Instruction* constant : constants) {
      const std::vector<Instruction*> users = constant->users();
      for (Instruction* user : users) {
        StatusOr<bool> done = FuseConstant(constant, user);
        if (!done.ok()) return done.status();
        fused += *done ? 1 : 0;
      }
    }
    return fused;
  }

  StatusOr<bool> FuseConstant(Instruction* constant, Instruction* user) {
    if (!IsSmallConstant(*constant)) {
      if (IsGpuFusible(*user)) {
        Refuse(
            *constant, *user,
            FusionDecision::Refuse(
                FusionReason::kNonScalarConstant,
                Ref(*constant) + " is a non-scalar constant (" + constant->shape().ToString(false) +
                    "); it stays in memory instead of being emitted into the kernel"));
      }
      return false;
    }
    if (!IsGpuFusible(*user) || user->opcode() == Opcode::kBitcast) {
      FusionDecision d = CheckOpaqueOrSideEffecting(*constant, *user);
      Refuse(*constant, *user,
             d ? FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                        Ref(*user) + " (" + std::string(user->opcode_name()) +
                                            ") is not fusible on the GPU")
               : d);
      return false;
    }
    if (FusionDecision d = CheckTupleShapedMember(*user); !d) {
      Refuse(*constant, *user, d);
      return false;
    }
    const FusionFootprint fused = MeasureFusion({constant, user}, {user});
    if (FusionDecision d = CheckInstructionBudget(fused, limits_.max_instructions); !d) {
      Refuse(*constant, *user, d);
      return false;
    }
    const bool copy = constant->user_count() > 1;
    FusionDecisionRecord record = MakeDecisionRecord(
        *constant, *user,
        FusionDecision::Refuse(copy ? FusionReason::kFusedWithDuplication : FusionReason::kFused,
                               ""));
    const bool user_was_fusion = IsFusion(*user);
    StatusOr<Instruction*> fusion = FuseAndSetKind(constant, user);
    if (!fusion.ok()) return fusion.status();
    record.fusion_name = (**fusion).name();
    record.explanation = FusedSentence(record, user_was_fusion, copy, **fusion) +
                         "; small constants are fused last, into every fusible user";
    recorder_.Record(std::move(record));
    return true;
  }

  Computation& computation_;
  FusionLimits limits_;
  const GpuPerformanceModel& model_;
  FusionDecisionRecorder& recorder_;
  FusionBuilder builder_;
  std::map<Key, Instruction*> queue_;
  std::unordered_map<const Instruction*, std::map<Key, Instruction*>::iterator> where_;
  std::unordered_set<Instruction*> to_update_;
};

}  // namespace

StatusOr<bool> PriorityFusion::Run(ir::Module& module, PassContext& context) {
  const FusionLimits limits = ResolveFusionLimits(context.opts().fusion, FusionTarget::kGpu);
  const GpuPerformanceModel model(context.opts().gpu_device);
  return RunOnFusibleComputations(
      module, context, "fused_pairs",
      [&](Computation& computation, FusionDecisionRecorder& recorder) {
        return ComputationPriorityFusion(computation, limits, model, recorder).Run();
      });
}

}  // namespace fusescope::passes
