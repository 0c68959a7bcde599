#include "passes/fusion_builder.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "passes/instruction_clone.h"

namespace fusescope::passes {
namespace {

using ir::Computation;
using ir::Instruction;
using ir::Opcode;

// Members in def-before-use order (only edges inside the group count).
std::vector<Instruction*> OrderMembers(const std::unordered_set<Instruction*>& members,
                                       const std::vector<Instruction*>& seed_order) {
  std::vector<Instruction*> order;
  std::unordered_set<Instruction*> done;
  std::vector<std::pair<Instruction*, size_t>> stack;
  for (Instruction* start : seed_order) {
    if (done.count(start)) continue;
    stack.emplace_back(start, 0);
    done.insert(start);
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->operands().size()) {
        Instruction* operand = node->operands()[next++];
        if (members.count(operand) && done.insert(operand).second) stack.emplace_back(operand, 0);
        continue;
      }
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

// What a copy that lives next to its original (or a parameter standing for an operand)
// answers for. The original keeps answering for everything, so a copy may answer for less:
// a constant CSE merged from thousands answers for all of them, and copying that set into
// every fusion that duplicates it would grow provenance quadratically with the model.
constexpr size_t kCopiedProvenanceLimit = 16;

ir::ProvenanceSet CopiedProvenance(const ir::ProvenanceSet& original) {
  if (original.size() <= kCopiedProvenanceLimit) return original;
  return ir::ProvenanceSet({original.ids().front()});
}

// One Build call: all state of assembling the fused computation.
class FusionAssembly {
 public:
  FusionAssembly(Computation& computation, const FusionPlan& plan,
                 std::vector<Instruction*>& consumed)
      : computation_(computation), module_(*computation.parent()), plan_(plan), consumed_(consumed) {}

  StatusOr<Instruction*> Run() {
    FS_RETURN_IF_ERROR(CollectMembers());
    FS_RETURN_IF_ERROR(ChooseOutputs());
    FS_RETURN_IF_ERROR(BuildBody());
    Instruction* fusion = CreateFusionInstruction();
    RewireUsers(fusion);
    RemoveFusedMembers();
    return fusion;
  }

 private:
  Status CollectMembers() {
    if (plan_.members.empty() || plan_.primary == nullptr) {
      return Status::Error("fusion plan without members or primary");
    }
    std::vector<Instruction*> seeds = plan_.members;
    if (std::find(seeds.begin(), seeds.end(), plan_.primary) == seeds.end()) {
      seeds.push_back(plan_.primary);
    }
    for (Instruction* member : seeds) {
      if (member->parent() != &computation_) {
        return Status::Error("fusion member " + Ref(*member) + " is not in computation " +
                             computation_.name());
      }
      members_.insert(member);
    }
    // A multi-output fusion's values are its get-tuple-elements; they come along.
    const size_t seed_count = seeds.size();
    for (size_t i = 0; i < seed_count; ++i) {
      Instruction* member = seeds[i];
      if (!IsMultiOutputFusion(*member)) continue;
      for (Instruction* user : member->users()) {
        if (user->opcode() != Opcode::kGetTupleElement) {
          return Status::Error("multi-output fusion " + Ref(*member) + " has non-tuple user " +
                               Ref(*user));
        }
        members_.insert(user);
        seeds.push_back(user);
      }
    }
    order_ = OrderMembers(members_, seeds);
    for (size_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
    for (Instruction* member : plan_.duplicated) {
      if (members_.count(member) && HasOutsideUsers(*member)) stays_.insert(member);
    }
    // What a staying member reads must stay too.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const bool feeds_staying = std::any_of((*it)->users().begin(), (*it)->users().end(),
                                             [&](Instruction* user) { return stays_.count(user); });
      if (feeds_staying && *it != plan_.primary) stays_.insert(*it);
    }
    if (stays_.count(plan_.primary)) {
      return Status::Error("the consumer " + Ref(*plan_.primary) +
                           " cannot stay outside its fusion");
    }
    return Status::Ok();
  }

  bool HasOutsideUsers(const Instruction& member) const {
    if (computation_.root() == &member) return true;
    return std::any_of(member.users().begin(), member.users().end(),
                       [&](Instruction* user) { return !members_.count(user); });
  }

  // The multi-output fusion a get-tuple-element member reads, or null.
  Instruction* TupleSource(const Instruction& member) const {
    if (member.opcode() != Opcode::kGetTupleElement) return nullptr;
    Instruction* source = member.operand(0);
    return members_.count(source) && IsMultiOutputFusion(*source) ? source : nullptr;
  }

  Status ChooseOutputs() {
    std::vector<Instruction*> exported;
    for (Instruction* member : order_) {
      if (stays_.count(member) || IsMultiOutputFusion(*member)) continue;
      if (member == plan_.primary || HasOutsideUsers(*member)) exported.push_back(member);
    }
    // The primary's value (or its tuple elements in order) first, then the rest in order.
    auto key = [&](Instruction* member) {
      Instruction* group = TupleSource(*member);
      const bool primary = member == plan_.primary || (group && group == plan_.primary);
      const size_t position = position_.at(group ? group : member);
      const int64_t index = group ? member->tuple_index().value_or(0) : 0;
      return std::make_tuple(primary ? 0 : 1, position, index);
    };
    std::stable_sort(exported.begin(), exported.end(),
                     [&](Instruction* a, Instruction* b) { return key(a) < key(b); });
    if (exported.empty())
      return Status::Error("fusion of " + Ref(*plan_.primary) + " has no output");
    if (exported.size() > 1) {
      for (Instruction* output : exported) {
        if (output->shape().IsTuple()) {
          return Status::Error("tuple-shaped " + Ref(*output) +
                               " cannot be one output of a multi-output fusion");
        }
      }
    }
    outputs_ = std::move(exported);
    return Status::Ok();
  }

  // Fresh names for copies that live next to their original; moved ones keep theirs.
  std::string CloneName(const Instruction& original, bool moved) {
    return moved ? original.name() : module_.UniqueName(original.name() + ".0");
  }

  Instruction* AddClone(const Instruction& original, std::vector<Instruction*> operands,
                        bool moved) {
    std::unique_ptr<Instruction> clone =
        CloneWithOperands(original, std::move(operands), CloneName(original, moved));
    if (moved) {
      clone->set_id(original.id());
    } else {
      clone->set_provenance(CopiedProvenance(original.provenance()));
    }
    return body_->AddInstruction(std::move(clone));
  }

  // The body value standing for `operand` of a member: a fused clone or a parameter.
  Instruction* ValueOf(Instruction* operand) const { return values_.at(operand); }

  std::vector<Instruction*> MappedOperands(const Instruction& instruction) {
    std::vector<Instruction*> operands;
    for (Instruction* operand : instruction.operands()) operands.push_back(ValueOf(operand));
    return operands;
  }

  void InlineFusion(Instruction& fusion, bool moved) {
    Computation* fused = fusion.fused_computation();
    std::unordered_map<const Instruction*, Instruction*> inner;
    for (Instruction* instruction : fused->MakePostOrder()) {
      if (instruction->opcode() == Opcode::kParameter) {
        inner[instruction] = ValueOf(fusion.operand(instruction->parameter_number()));
        continue;
      }
      if (instruction == fused->root() && instruction->opcode() == Opcode::kTuple) {
        for (Instruction* user : fusion.users()) {
          const int64_t index = user->tuple_index().value_or(0);
          values_[user] = inner.at(instruction->operand(index));
        }
        continue;
      }
      std::vector<Instruction*> operands;
      for (Instruction* operand : instruction->operands()) operands.push_back(inner.at(operand));
      inner[instruction] = AddClone(*instruction, std::move(operands), moved);
    }
    if (fused->root()->opcode() != Opcode::kTuple) values_[&fusion] = inner.at(fused->root());
  }

  Status BuildBody() {
    const bool grows = IsFusion(*plan_.primary);
    body_name_ = grows ? plan_.primary->fused_computation()->name()
                       : module_.UniqueName(order_.size() == 1
                                                ? NewFusionName() + "_computation"
                                                : std::string("fused_computation"));
    body_ = std::make_unique<Computation>(body_name_);
    // Parameters first: fused computations print parameters first, as XLA's do.
    CreateParameters(ExternalOperands());
    for (Instruction* member : order_) {
      const bool moved = !stays_.count(member);
      if (TupleSource(*member) != nullptr) continue;  // mapped while inlining its source
      if (IsFusion(*member)) {
        InlineFusion(*member, moved);
      } else {
        values_[member] = AddClone(*member, MappedOperands(*member), moved);
      }
    }
    Instruction* root = outputs_.size() == 1 ? values_.at(outputs_.front()) : AddTupleRoot();
    if (root->opcode() == Opcode::kParameter) {
      return Status::Error("fusion of " + Ref(*plan_.primary) + " would only forward an operand");
    }
    body_->set_root(root);
    body_->RemoveDeadInstructions();
    const bool all_used = std::all_of(params_.begin(), params_.end(),
                                      [](const Instruction* p) { return !p->users().empty(); });
    if (!all_used) DropUnusedParameters();
    return Status::Ok();
  }

  Instruction* AddTupleRoot() {
    std::vector<Instruction*> elements;
    std::vector<ir::Shape> shapes;
    ir::ProvenanceSet provenance;
    for (Instruction* output : outputs_) {
      elements.push_back(values_.at(output));
      shapes.push_back(output->shape());
      provenance.Union(output->provenance());
    }
    auto tuple = Instruction::Create(Opcode::kTuple, ir::Shape::Tuple(std::move(shapes)),
                                     std::move(elements), module_.UniqueName("tuple"));
    tuple->set_provenance(std::move(provenance));
    return body_->AddInstruction(std::move(tuple));
  }

  // Operands from outside in parameter order: those the grown fusion already had keep their
  // order, new ones follow in order of first use.
  std::vector<Instruction*> ExternalOperands() const {
    std::vector<Instruction*> operands;
    std::unordered_set<const Instruction*> seen;
    for (Instruction* member : order_) {
      if (TupleSource(*member) != nullptr) continue;
      for (Instruction* operand : member->operands()) {
        if (!members_.count(operand) && seen.insert(operand).second) operands.push_back(operand);
      }
    }
    std::unordered_map<const Instruction*, int64_t> old_rank;
    if (IsFusion(*plan_.primary)) {
      for (int64_t i = 0; i < plan_.primary->operand_count(); ++i) {
        old_rank.emplace(plan_.primary->operand(i), i);
      }
    }
    auto rank = [&](const Instruction* operand) {
      auto found = old_rank.find(operand);
      return found == old_rank.end() ? std::numeric_limits<int64_t>::max() : found->second;
    };
    std::stable_sort(operands.begin(), operands.end(),
                     [&](const Instruction* a, const Instruction* b) { return rank(a) < rank(b); });
    return operands;
  }

  // A parameter that stands for an operand the grown fusion already read keeps its id, and
  // its name when that still fits its number (param_1 is parameter 1).
  void CreateParameters(const std::vector<Instruction*>& operands) {
    std::unordered_map<const Instruction*, const Instruction*> old_param;
    if (IsFusion(*plan_.primary)) {
      for (int64_t i = 0; i < plan_.primary->operand_count(); ++i) {
        old_param.emplace(plan_.primary->operand(i),
                          plan_.primary->fused_computation()->parameter(i));
      }
    }
    for (size_t number = 0; number < operands.size(); ++number) {
      Instruction* operand = operands[number];
      auto found = old_param.find(operand);
      const Instruction* previous = found == old_param.end() ? nullptr : found->second;
      const std::string base = "param_" + std::to_string(number);
      const bool keeps_name =
          previous && (previous->name() == base || previous->name().rfind(base + ".", 0) == 0);
      std::string name = keeps_name ? previous->name() : module_.UniqueName(base);
      auto param = Instruction::Create(Opcode::kParameter, operand->shape(), {}, std::move(name));
      param->set_parameter_number(static_cast<int64_t>(number));
      param->set_provenance(CopiedProvenance(operand->provenance()));
      if (previous) param->set_id(previous->id());
      Instruction* added = body_->AddInstruction(std::move(param));
      values_[operand] = added;
      params_.push_back(added);
      fusion_operands_.push_back(operand);
    }
  }

  // Rare: a multi-output member's unused output was the only reader of an operand. The body
  // is copied without those parameters, renumbering the rest.
  void DropUnusedParameters() {
    auto compact = std::make_unique<Computation>(body_->name());
    std::unordered_map<const Instruction*, Instruction*> copies;
    std::vector<Instruction*> operands;
    auto copy = [&](const Instruction& original, int64_t number) {
      std::vector<Instruction*> mapped;
      for (const Instruction* operand : original.operands()) mapped.push_back(copies.at(operand));
      std::unique_ptr<Instruction> clone =
          CloneWithOperands(original, std::move(mapped), original.name());
      clone->set_id(original.id());
      if (number >= 0) clone->set_parameter_number(number);
      copies[&original] = compact->AddInstruction(std::move(clone));
    };
    for (size_t i = 0; i < params_.size(); ++i) {
      if (params_[i]->users().empty()) continue;
      copy(*params_[i], static_cast<int64_t>(operands.size()));
      operands.push_back(fusion_operands_[i]);
    }
    for (const Instruction* instruction : body_->MakePostOrder()) {
      if (instruction->opcode() != Opcode::kParameter) copy(*instruction, -1);
    }
    compact->set_root(copies.at(body_->root()));
    body_ = std::move(compact);
    fusion_operands_ = std::move(operands);
  }

  // As XLA's instruction fusion names a fusion it creates: after the first producer and the
  // consumer it fused (`subtract_exponential_fusion`, `dynamic-slice_bitcast_fusion`); a
  // fusion of one instruction is `wrapped_<opcode>`.
  std::string NewFusionName() const {
    const std::string consumer(ir::OpcodeName(plan_.primary->opcode()));
    for (const Instruction* member : plan_.members) {
      if (member != plan_.primary) {
        return std::string(ir::OpcodeName(member->opcode())) + "_" + consumer + "_fusion";
      }
    }
    return "wrapped_" + consumer;
  }

  Instruction* CreateFusionInstruction() {
    const bool grows = IsFusion(*plan_.primary);
    std::string name = grows ? plan_.primary->name() : module_.UniqueName(NewFusionName());
    auto fusion = Instruction::Create(Opcode::kFusion, body_->root()->shape(), fusion_operands_,
                                      std::move(name));
    fusion->SetAttribute("kind", std::string(FusionKindName(plan_.kind)));
    if (grows) fusion->set_id(plan_.primary->id());
    const Instruction* metadata_source =
        outputs_.size() == 1 ? body_->root() : body_->root()->operand(0);
    fusion->set_metadata(metadata_source->metadata());
    ir::ProvenanceSet provenance;
    for (Instruction* member : order_) {
      provenance.Union(stays_.count(member) ? CopiedProvenance(member->provenance())
                                            : member->provenance());
    }
    fusion->set_provenance(std::move(provenance));
    Computation* body = module_.AddComputation(std::move(body_));
    fusion->AddCalledComputation("calls", body);
    Instruction* added = computation_.AddInstruction(std::move(fusion));
    body->set_fusion_instruction(added);
    return added;
  }

  void Redirect(Instruction* from, Instruction* to) {
    const std::vector<Instruction*> users = from->users();
    for (Instruction* user : users) {
      if (!members_.count(user)) user->ReplaceOperandWith(from, to);
    }
    if (computation_.root() == from) computation_.set_root(to);
  }

  void RewireUsers(Instruction* fusion) {
    if (outputs_.size() == 1) {
      Redirect(outputs_.front(), fusion);
      return;
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      Instruction* output = outputs_[i];
      const bool was_element = TupleSource(*output) != nullptr;
      std::string name = was_element ? output->name() : module_.UniqueName("get-tuple-element");
      auto element =
          Instruction::Create(Opcode::kGetTupleElement, output->shape(), {fusion}, std::move(name));
      element->SetAttribute("index", std::to_string(i));
      element->set_provenance(output->provenance());
      element->set_metadata(output->metadata());
      if (was_element) element->set_id(output->id());
      Redirect(output, computation_.AddInstruction(std::move(element)));
    }
  }

  void RemoveFusedMembers() {
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      Instruction* member = *it;
      if (stays_.count(member)) continue;
      member->DropAllOperands();
      consumed_.push_back(member);
    }
  }

  Computation& computation_;
  ir::Module& module_;
  const FusionPlan& plan_;
  std::vector<Instruction*>& consumed_;
  std::unordered_set<Instruction*> members_;
  std::vector<Instruction*> order_;
  std::unordered_map<const Instruction*, size_t> position_;
  std::unordered_set<Instruction*> stays_;
  std::vector<Instruction*> outputs_;
  std::unique_ptr<Computation> body_;
  std::string body_name_;
  std::unordered_map<const Instruction*, Instruction*> values_;
  std::vector<Instruction*> params_;
  std::vector<Instruction*> fusion_operands_;
};

}  // namespace

FusionBuilder::FusionBuilder(ir::Computation& computation) : computation_(computation) {}

FusionBuilder::~FusionBuilder() { Finish(); }

void FusionBuilder::Finish() {
  // Consumed fusions take their fused computations with them.
  if (!consumed_.empty()) computation_.RemoveInstructions(consumed_);
  consumed_.clear();
}

StatusOr<ir::Instruction*> FusionBuilder::Build(const FusionPlan& plan) {
  if (computation_.parent() == nullptr) {
    return Status::Error("computation " + computation_.name() + " is not in a module");
  }
  FusionAssembly assembly(computation_, plan, consumed_);
  return assembly.Run();
}

StatusOr<ir::Instruction*> FusionBuilder::Fuse(ir::Instruction* producer, ir::Instruction* consumer,
                                               FusionKind kind) {
  return Build({.members = {producer, consumer},
                .duplicated = {producer},
                .primary = consumer,
                .kind = kind});
}

StatusOr<ir::Instruction*> FusionBuilder::FuseMultiOutput(ir::Instruction* producer,
                                                          ir::Instruction* consumer,
                                                          FusionKind kind) {
  return Build(
      {.members = {producer, consumer}, .duplicated = {}, .primary = consumer, .kind = kind});
}

StatusOr<ir::Instruction*> FusionBuilder::FuseSiblings(ir::Instruction* primary,
                                                       ir::Instruction* sibling, FusionKind kind) {
  return Build({.members = {primary, sibling}, .duplicated = {}, .primary = primary, .kind = kind});
}

}  // namespace fusescope::passes
