#include "passes/multi_output_fusion.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "passes/fusion_builder.h"
#include "passes/fusion_decision_recorder.h"
#include "passes/fusion_utils.h"
#include "passes/gpu_performance_model.h"
#include "passes/reachability_map.h"

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

// The instruction that decides how the fusion iterates (XLA's
// GetRealHeroForMultiOutputFusion).
const Instruction& MultiOutputHero(const Instruction& instruction) {
  if (!IsFusion(instruction)) return instruction;
  const Instruction& root = FusedRoot(instruction);
  if (root.opcode() != Opcode::kTuple) {
    const Instruction* hero = FindHero(root);
    return hero ? *hero : root;
  }
  for (const Instruction* element : root.operands()) {
    if (const Instruction* hero = FindHero(*element)) return *hero;
  }
  return *root.operand(0);
}

const ir::Shape& LoopShape(const Instruction& hero) {
  if (IsReductionFromOrToContiguousDimensions(hero) || IsTiledTranspose(hero)) {
    return hero.operand(0)->shape();
  }
  return hero.shape();
}

bool SameLoop(const ir::Shape& a, const ir::Shape& b) {
  if (a.IsTuple() || b.IsTuple()) return a.Compatible(b);
  if (a.dimensions() == b.dimensions()) return true;
  // Trivially reshapable: same elements in the same row-major order.
  const auto row_major = [](const ir::Shape& shape) {
    if (!shape.layout()) return true;
    const std::vector<int64_t>& order = shape.layout()->minor_to_major;
    return std::is_sorted(order.rbegin(), order.rend());
  };
  return a.ElementCount() == b.ElementCount() && row_major(a) && row_major(b);
}

FusionDecision Incompatible(const std::string& explanation) {
  return FusionDecision::Refuse(FusionReason::kIncompatibleIterationSpace, explanation);
}

// XLA's ShapesCompatibleForMultiOutputFusion: one kernel iterates one loop shape.
FusionDecision ShapesCompatible(const Instruction& a, const Instruction& b) {
  const Instruction& hero_a = MultiOutputHero(a);
  const Instruction& hero_b = MultiOutputHero(b);
  const bool reduce_a = IsReductionFromOrToContiguousDimensions(hero_a);
  const bool reduce_b = IsReductionFromOrToContiguousDimensions(hero_b);
  const bool transpose_a = IsTiledTranspose(hero_a);
  const bool transpose_b = IsTiledTranspose(hero_b);
  if ((reduce_a && transpose_b) || (transpose_a && reduce_b)) {
    return Incompatible("one of " + Ref(a) + " and " + Ref(b) +
                        " is a tiled transpose and the other a reduction; a multi-output "
                        "fusion cannot emit both");
  }
  if (reduce_a && reduce_b &&
      (hero_a.shape().dimensions() != hero_b.shape().dimensions() ||
       hero_a.operand(0)->shape().dimensions() != hero_b.operand(0)->shape().dimensions() ||
       hero_a.dimensions() != hero_b.dimensions())) {
    return Incompatible(Ref(a) + " and " + Ref(b) +
                        " are tiled reductions with different shapes; they cannot share a kernel");
  }
  if (transpose_a && transpose_b &&
      (hero_a.shape().dimensions() != hero_b.shape().dimensions() ||
       hero_a.dimensions() != hero_b.dimensions())) {
    return Incompatible(Ref(a) + " and " + Ref(b) + " are tiled transposes with different shapes");
  }
  const ir::Shape& loop_a = LoopShape(hero_a);
  const ir::Shape& loop_b = LoopShape(hero_b);
  if (!SameLoop(loop_a, loop_b)) {
    return Incompatible(Ref(a) + " iterates over " + loop_a.ToString(false) + " and " + Ref(b) +
                        " over " + loop_b.ToString(false) +
                        "; a multi-output fusion needs one loop shape");
  }
  return FusionDecision::Allow();
}

bool IsFusibleAsMultiOutputRoot(const Instruction& instruction) {
  if (!IsGpuFusible(instruction)) return false;
  if (IsFusion(instruction)) {
    return FusionKindOf(instruction) == FusionKind::kLoop || IsReduceInputFusion(instruction) ||
           FusionKindOf(instruction) == FusionKind::kInput;
  }
  return IsReductionFromOrToContiguousDimensions(instruction) || IsTiledTranspose(instruction) ||
         (ir::IsElementwiseOpcode(instruction.opcode()) && instruction.operand_count() > 0);
}

bool IsSiblingCandidate(const Instruction& instruction) {
  if (instruction.users().empty() || !IsFusibleAsMultiOutputRoot(instruction)) return false;
  if (instruction.opcode() == Opcode::kReduce && instruction.shape().IsTuple()) return false;
  if (!IsMultiOutputFusion(instruction)) return true;
  return std::all_of(
      instruction.users().begin(), instruction.users().end(),
      [](const Instruction* user) { return user->opcode() == Opcode::kGetTupleElement; });
}

// Reading a shared scalar (or a broadcast of one) costs nothing; sharing it saves nothing.
bool IsProfitableOperand(const Instruction& operand) {
  if (IsEffectiveScalar(operand.shape())) return false;
  if (operand.opcode() == Opcode::kBroadcast && IsEffectiveScalar(operand.operand(0)->shape())) {
    return false;
  }
  return true;
}

int SiblingRank(const Instruction& instruction) {
  if (IsReduceInputFusion(instruction) || IsReductionFromOrToContiguousDimensions(instruction)) {
    return 2;
  }
  return IsFusion(instruction) ? 1 : 0;
}

FusionDecision ProducerMultiOutputFusible(const Instruction& producer) {
  if (IsMultiOutputFusion(producer)) {
    return FusionDecision::Refuse(FusionReason::kMultiOutputNotPossible,
                                  Ref(producer) + " is already a multi-output fusion");
  }
  for (const Instruction* inner : FusedInstructions(producer)) {
    if (inner->opcode() == Opcode::kDynamicUpdateSlice || inner->opcode() == Opcode::kScatter) {
      return FusionDecision::Refuse(
          FusionReason::kMultiOutputNotPossible,
          Ref(producer) + " updates a buffer in place; its outputs cannot be iterated together");
    }
  }
  if (!IsGpuLoopFusibleAsProducer(producer)) {
    return FusionDecision::Refuse(FusionReason::kProducerNotFusible,
                                  Ref(producer) + " is not loop-fusible");
  }
  if (IsPhysicallyTransposing(producer)) {
    return FusionDecision::Refuse(
        FusionReason::kIncompatibleIterationSpace,
        Ref(producer) + " transposes physically; its loop does not match its consumer's");
  }
  return FusionDecision::Allow();
}

// Each sibling is paired with the next few only. XLA pairs all of them, which is quadratic
// in the users of an operand; a bias or weight read by every layer of a deep model has
// thousands, and siblings that far apart are nearly always connected anyway.
constexpr size_t kSiblingWindow = 16;

class ComputationMultiOutputFusion {
 public:
  ComputationMultiOutputFusion(Computation& computation, const FusionLimits& limits,
                               const GpuPerformanceModel& model, FusionDecisionRecorder& recorder)
      : computation_(computation),
        limits_(limits),
        model_(model),
        recorder_(recorder),
        reachability_(computation),
        builder_(computation) {
    for (const auto& instruction : computation.instructions()) alive_.insert(instruction.get());
  }

  StatusOr<int64_t> Run() {
    const std::vector<Instruction*> order = computation_.MakePostOrder();
    int64_t fused = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Instruction* instruction = *it;
      if (!alive_.count(instruction)) continue;
      StatusOr<int64_t> siblings = FuseSiblings(*instruction);
      if (!siblings.ok()) return siblings.status();
      fused += *siblings;
      if (!alive_.count(instruction)) continue;
      StatusOr<bool> producer = FuseProducerIntoConsumer(instruction);
      if (!producer.ok()) return producer.status();
      fused += *producer ? 1 : 0;
    }
    return fused;
  }

 private:
  void Refuse(const Instruction& producer, const Instruction& consumer, FusionDecision d) {
    recorder_.Record(MakeDecisionRecord(producer, consumer, d));
  }

  // `after_a`: what depends on `a` up to the window's last sibling (see Descendants).
  FusionDecision CanFuseSiblings(const Instruction& a, const Instruction& b,
                                 const Instruction& parent,
                                 const std::unordered_set<const Instruction*>& after_a) const {
    if (FusionDecision d = CheckTupleShapedMember(a); !d) return d;
    if (FusionDecision d = CheckTupleShapedMember(b); !d) return d;
    const bool b_after_a = reachability_.Position(&b) > reachability_.Position(&a);
    const bool connected = b_after_a ? after_a.count(&b) > 0 : reachability_.IsReachable(&b, &a);
    if (connected) {
      return FusionDecision::Refuse(FusionReason::kWouldCreateCycle,
                                    Ref(a) + " and " + Ref(b) +
                                        " are connected (one reads the other); fusing them as "
                                        "siblings of " +
                                        Ref(parent) + " would create a cycle");
    }
    if (FusionDecision d = ShapesCompatible(a, b); !d) return d;
    return GpuFusionFitsInBudget(b, a, limits_, /*multi_output=*/true);
  }

  // Marks what a fusion of `members` consumes as gone and notes where the fusion can sit in
  // the reachability order: at the last member's position, when every outside user of the
  // members comes after it; otherwise (-1) the order must be rebuilt.
  int64_t Forget(const std::vector<Instruction*>& members) {
    int64_t anchor = -1;
    for (const Instruction* member : members) {
      anchor = std::max(anchor, reachability_.Position(member));
    }
    bool in_order = anchor >= 0;
    for (Instruction* member : members) {
      std::vector<Instruction*> outside = member->users();
      if (IsMultiOutputFusion(*member)) {
        outside.clear();
        for (Instruction* element : member->users()) {
          alive_.erase(element);
          outside.insert(outside.end(), element->users().begin(), element->users().end());
        }
      }
      for (const Instruction* user : outside) {
        const bool member_user = std::find(members.begin(), members.end(), user) != members.end();
        if (!member_user && reachability_.Position(user) <= anchor) in_order = false;
      }
      alive_.erase(member);
      reachability_.Erase(member);
    }
    return in_order ? anchor : -1;
  }
  void Adopt(Instruction* fusion, int64_t anchor) {
    alive_.insert(fusion);
    for (Instruction* user : fusion->users()) alive_.insert(user);
    fusion->SetAttribute("kind", std::string(FusionKindName(ChooseGpuFusionKind(*fusion))));
    if (anchor < 0) {
      reachability_.Rebuild();
      return;
    }
    reachability_.Place(fusion, anchor);
    for (const Instruction* element : fusion->users()) {
      if (element->opcode() == Opcode::kGetTupleElement) reachability_.Place(element, anchor);
    }
  }

  // One forward search from sibling `i` answers "does a later sibling of its window depend
  // on it?" for the whole window, instead of one backward search per pair.
  std::unordered_set<const Instruction*> WindowDescendants(
      const std::vector<Instruction*>& siblings, size_t i) const {
    int64_t limit = reachability_.Position(siblings[i]);
    for (size_t j = i + 1; j < siblings.size() && j <= i + kSiblingWindow; ++j) {
      limit = std::max(limit, reachability_.Position(siblings[j]));
    }
    return reachability_.Descendants(siblings[i], limit);
  }

  StatusOr<int64_t> FuseSiblings(Instruction& parent) {
    if (!IsProfitableOperand(parent)) return 0;
    std::vector<Instruction*> siblings;
    for (Instruction* user : parent.users()) {
      if (IsSiblingCandidate(*user)) siblings.push_back(user);
    }
    std::stable_sort(siblings.begin(), siblings.end(), [](Instruction* a, Instruction* b) {
      return SiblingRank(*a) > SiblingRank(*b);
    });
    int64_t fused = 0;
    for (size_t i = 0; i < siblings.size(); ++i) {
      std::unordered_set<const Instruction*> after_a = WindowDescendants(siblings, i);
      for (size_t j = i + 1; j < siblings.size() && j <= i + kSiblingWindow;) {
        Instruction* a = siblings[i];
        Instruction* b = siblings[j];
        FusionDecision d = CanFuseSiblings(*a, *b, parent, after_a);
        if (!d) {
          Refuse(*b, *a, d);
          ++j;
          continue;
        }
        FusionDecisionRecord record = MakeDecisionRecord(*b, *a, FusionDecision::Allow());
        const bool a_was_fusion = IsFusion(*a);
        const int64_t anchor = Forget({a, b});
        StatusOr<Instruction*> fusion = builder_.FuseSiblings(a, b, FusionKind::kLoop);
        if (!fusion.ok()) return fusion.status();
        Adopt(*fusion, anchor);
        record.fusion_name = (**fusion).name();
        record.explanation =
            "fused sibling %" + record.producer_name + " into %" +
            (a_was_fusion ? (**fusion).name()
                          : record.consumer_name + ", forming %" + (**fusion).name()) +
            " (multi-output " + std::string((**fusion).attribute("kind").value_or("")) +
            "); both read " + Ref(parent) + ", now once";
        recorder_.Record(std::move(record));
        siblings[i] = *fusion;
        siblings.erase(siblings.begin() + static_cast<std::ptrdiff_t>(j));
        after_a = WindowDescendants(siblings, i);
        ++fused;
      }
    }
    return fused;
  }

  FusionDecision CanFuseProducer(const Instruction& producer, const Instruction& consumer) const {
    if (FusionDecision d = GpuProducerConsumerFusible(producer, consumer); !d) return d;
    if (CreatesHeavyComputation(producer, consumer)) {
      return FusionDecision::Refuse(FusionReason::kNotProfitable,
                                    Ref(producer) + " reads many inputs per output and " +
                                        Ref(consumer) + " reads its elements more than once");
    }
    for (const Instruction* operand : consumer.operands()) {
      if (operand != &producer && reachability_.IsReachable(&producer, operand)) {
        return FusionDecision::Refuse(
            FusionReason::kWouldCreateCycle,
            Ref(consumer) + " also reads " + Ref(producer) + " through " + Ref(*operand) +
                "; a multi-output fusion of the two would create a cycle");
      }
    }
    if (FusionDecision d = ShapesCompatible(producer, consumer); !d) return d;
    if (FusionDecision d = GpuFusionFitsInBudget(producer, consumer, limits_, true); !d) return d;
    const double unfused = model_.KernelSeconds(producer) + model_.KernelSeconds(consumer);
    const double fused = model_.FusedKernelSeconds(producer, consumer, true);
    if (fused > unfused) {
      return FusionDecision::Refuse(FusionReason::kNotProfitable,
                                    "fusing " + Ref(producer) + " into " + Ref(consumer) +
                                        " as an extra output would take " + Microseconds(fused) +
                                        " against " + Microseconds(unfused) +
                                        " unfused, by the cost model");
    }
    return FusionDecision::Allow();
  }

  StatusOr<bool> FuseProducerIntoConsumer(Instruction* producer) {
    if (producer->user_count() < 2 || producer->IsRoot() ||
        !ProducerMultiOutputFusible(*producer)) {
      return false;
    }
    for (Instruction* consumer : producer->users()) {
      if (!IsFusibleAsMultiOutputRoot(*consumer)) continue;
      FusionDecision d = CanFuseProducer(*producer, *consumer);
      if (!d) {
        Refuse(*producer, *consumer, d);
        continue;
      }
      FusionDecisionRecord record = MakeDecisionRecord(*producer, *consumer, d);
      const bool consumer_was_fusion = IsFusion(*consumer);
      const int64_t others = producer->user_count() - 1;
      const int64_t anchor = Forget({producer, consumer});
      StatusOr<Instruction*> fusion =
          builder_.FuseMultiOutput(producer, consumer, FusionKind::kLoop);
      if (!fusion.ok()) return fusion.status();
      Adopt(*fusion, anchor);
      record.fusion_name = (**fusion).name();
      record.explanation = FusedSentence(record, consumer_was_fusion, false, **fusion) +
                           " as an extra output; its " + std::to_string(others) +
                           (others == 1 ? " other user reads" : " other users read") +
                           " it from the fusion";
      recorder_.Record(std::move(record));
      return true;
    }
    return false;
  }

  Computation& computation_;
  FusionLimits limits_;
  const GpuPerformanceModel& model_;
  FusionDecisionRecorder& recorder_;
  ReachabilityMap reachability_;
  FusionBuilder builder_;
  std::unordered_set<Instruction*> alive_;
};

}  // namespace

StatusOr<bool> MultiOutputFusion::Run(ir::Module& module, PassContext& context) {
  const FusionLimits limits = ResolveFusionLimits(context.opts().fusion, FusionTarget::kGpu);
  const GpuPerformanceModel model(context.opts().gpu_device);
  if (!limits.multi_output) {
    context.AddStat("multi_output", "disabled");
    return false;
  }
  return RunOnFusibleComputations(
      module, context, "fused_pairs",
      [&](Computation& computation, FusionDecisionRecorder& recorder) {
        return ComputationMultiOutputFusion(computation, limits, model, recorder).Run();
      });
}

}  // namespace fusescope::passes
