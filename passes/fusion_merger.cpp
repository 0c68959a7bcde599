#include "passes/fusion_merger.h"

#include <cstdio>
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

bool IsMergeCandidate(const Instruction& instruction) {
  return FusionKindOf(instruction) == FusionKind::kLoop && IsFusion(instruction) &&
         !IsMultiOutputFusion(instruction) && !instruction.users().empty() && !instruction.IsRoot();
}

class ComputationFusionMerger {
 public:
  ComputationFusionMerger(Computation& computation, const FusionLimits& limits,
                          const GpuPerformanceModel& model, FusionDecisionRecorder& recorder)
      : limits_(limits), model_(model), recorder_(recorder), builder_(computation) {
    for (const auto& instruction : computation.instructions()) alive_.insert(instruction.get());
    order_ = computation.MakePostOrder();
  }

  StatusOr<int64_t> Run() {
    int64_t merged = 0;
    for (Instruction* producer : order_) {
      if (!alive_.count(producer) || !IsMergeCandidate(*producer)) continue;
      StatusOr<int64_t> count = MergeIntoUsers(producer);
      if (!count.ok()) return count.status();
      merged += *count;
    }
    return merged;
  }

 private:
  // The first user that cannot take the producer, with the reason; Allow when all can.
  FusionDecision CheckUser(const Instruction& producer, const Instruction& user) const {
    if (user.opcode() == Opcode::kBitcast) {
      return FusionDecision::Refuse(FusionReason::kConsumerNotFusible,
                                    Ref(user) + " is a bitcast; not merging into bitcasts");
    }
    if (FusionDecision d = GpuProducerConsumerFusible(producer, user); !d) return d;
    if (IsReduceInputFusion(user) || IsReductionFromOrToContiguousDimensions(user)) {
      if (IsPhysicallyTransposing(producer)) {
        return FusionDecision::Refuse(
            FusionReason::kIncompatibleIterationSpace,
            "merging " + Ref(producer) + " into the reduction " + Ref(user) +
                " would read mostly uncoalesced data: it transposes, and the reduction "
                "iterates in the untransposed order");
      }
    }
    if (FusionDecision d = GpuFusionFitsInBudget(producer, user, limits_, false); !d) return d;
    if (CreatesHeavyComputation(producer, user)) {
      return FusionDecision::Refuse(
          FusionReason::kNotProfitable,
          Ref(producer) + " reads many inputs per output and " + Ref(user) +
              " reads its elements more than once; merged, it would be recomputed per read");
    }
    return FusionDecision::Allow();
  }

  void RefuseAll(const Instruction& producer, const std::vector<Instruction*>& users,
                 const Instruction& culprit, const FusionDecision& d) {
    for (const Instruction* user : users) {
      FusionDecision reported =
          user == &culprit ? d
                           : FusionDecision::Refuse(d.reason(), Ref(producer) +
                                                                    " merges into all users or "
                                                                    "none, and " +
                                                                    Ref(culprit) +
                                                                    " refuses: " + d.explanation());
      recorder_.Record(MakeDecisionRecord(producer, *user, reported));
    }
  }

  StatusOr<int64_t> MergeIntoUsers(Instruction* producer) {
    const std::vector<Instruction*> users = producer->users();
    for (const Instruction* user : users) {
      if (FusionDecision d = CheckUser(*producer, *user); !d) {
        RefuseAll(*producer, users, *user, d);
        return 0;
      }
    }
    const std::vector<const Instruction*> view(users.begin(), users.end());
    const GpuPerformanceModel::RunTimes times = model_.EstimateRunTimes(*producer, view);
    if (times.saved_seconds() < 0) {
      RefuseAll(*producer, users, *users.front(),
                FusionDecision::Refuse(FusionReason::kNotProfitable,
                                       "merging " + Ref(*producer) + " into its " +
                                           std::to_string(users.size()) + " users would take " +
                                           Microseconds(times.fused_seconds) + " against " +
                                           Microseconds(times.unfused_seconds) +
                                           " unfused; it will execute slower if merged"));
      return 0;
    }
    int64_t merged = 0;
    for (Instruction* user : users) {
      const bool copy = producer->user_count() > 1;
      FusionDecisionRecord record = MakeDecisionRecord(
          *producer, *user,
          FusionDecision::Refuse(copy ? FusionReason::kFusedWithDuplication : FusionReason::kFused,
                                 ""));
      const bool user_was_fusion = IsFusion(*user);
      alive_.erase(user);
      if (!copy) alive_.erase(producer);
      StatusOr<Instruction*> fusion = builder_.Fuse(producer, user, FusionKind::kLoop);
      if (!fusion.ok()) return fusion.status();
      (*fusion)->SetAttribute("kind", std::string(FusionKindName(ChooseGpuFusionKind(**fusion))));
      alive_.insert(*fusion);
      record.fusion_name = (**fusion).name();
      std::string sentence = FusedSentence(record, user_was_fusion, copy, **fusion);
      sentence.replace(0, 5, "merged");
      if (users.size() > 1) {
        sentence += "; a copy goes into each of its " + std::to_string(users.size()) + " users";
      }
      record.explanation =
          sentence + "; the cost model expects it to save " + Microseconds(times.saved_seconds());
      recorder_.Record(std::move(record));
      ++merged;
    }
    return merged;
  }

  FusionLimits limits_;
  const GpuPerformanceModel& model_;
  FusionDecisionRecorder& recorder_;
  FusionBuilder builder_;
  std::vector<Instruction*> order_;
  std::unordered_set<Instruction*> alive_;
};

}  // namespace

StatusOr<bool> FusionMerger::Run(ir::Module& module, PassContext& context) {
  const FusionLimits limits = ResolveFusionLimits(context.opts().fusion, FusionTarget::kGpu);
  const GpuPerformanceModel model(context.opts().gpu_device);
  return RunOnFusibleComputations(
      module, context, "merged_pairs",
      [&](Computation& computation, FusionDecisionRecorder& recorder) {
        return ComputationFusionMerger(computation, limits, model, recorder).Run();
      });
}

}  // namespace fusescope::passes
