#include "ir/computation.h"

#include <algorithm>
#include <cassert>
#include <unordered_map>
#include <unordered_set>

#include "ir/module.h"

namespace fusescope::ir {

Computation::Computation(std::string name) : name_(std::move(name)) {}

bool Computation::IsEntry() const { return parent_ && parent_->entry() == this; }

Instruction* Computation::AddInstruction(std::unique_ptr<Instruction> instruction) {
  Instruction* added = instruction.get();
  added->parent_ = this;
  if (parent_) {
    if (added->id() < 0) {
      added->set_id(parent_->NextInstructionId());
    } else {
      parent_->NoteUsedId(added->id());
    }
    if (added->provenance().empty()) added->mutable_provenance().Insert(added->id());
    parent_->ReserveName(added->name());
  }
  for (Instruction* operand : added->operands()) operand->AddUser(added);
  if (added->opcode() == Opcode::kParameter && added->parameter_number() >= 0) {
    const auto number = static_cast<size_t>(added->parameter_number());
    if (parameters_.size() <= number) parameters_.resize(number + 1, nullptr);
    parameters_[number] = added;
  }
  instructions_.push_back(std::move(instruction));
  return added;
}

void Computation::RemoveFusedBodiesOf(const std::vector<Instruction*>& removed) {
  if (parent_ == nullptr) return;
  std::vector<Computation*> bodies;
  for (const Instruction* instruction : removed) {
    if (instruction->opcode() != Opcode::kFusion) continue;
    for (Computation* callee : instruction->called_computations()) {
      if (callee->fusion_instruction() == instruction) bodies.push_back(callee);
    }
  }
  parent_->RemoveComputations(bodies);
}

void Computation::RemoveInstruction(Instruction* instruction) {
  assert(instruction->users().empty() && instruction != root_);
  RemoveFusedBodiesOf({instruction});
  instruction->DropAllOperands();
  if (instruction->opcode() == Opcode::kParameter) {
    for (Instruction*& parameter : parameters_) {
      if (parameter == instruction) parameter = nullptr;
    }
    while (!parameters_.empty() && parameters_.back() == nullptr) parameters_.pop_back();
  }
  auto it = std::find_if(instructions_.begin(), instructions_.end(),
                         [&](const auto& owned) { return owned.get() == instruction; });
  if (it != instructions_.end()) instructions_.erase(it);
}

void Computation::RemoveInstructions(const std::vector<Instruction*>& instructions) {
  if (instructions.empty()) return;
  const std::unordered_set<const Instruction*> doomed(instructions.begin(), instructions.end());
  RemoveFusedBodiesOf(instructions);
  for (Instruction* instruction : instructions) {
    assert(instruction != root_);
    instruction->DropAllOperands();
  }
  for (Instruction*& parameter : parameters_) {
    if (doomed.count(parameter)) parameter = nullptr;
  }
  while (!parameters_.empty() && parameters_.back() == nullptr) parameters_.pop_back();
  std::erase_if(instructions_, [&](const auto& owned) { return doomed.count(owned.get()) > 0; });
}

void Computation::ReplaceInstruction(Instruction* old_instruction, Instruction* replacement) {
  replacement->mutable_provenance().Union(old_instruction->provenance());
  old_instruction->ReplaceAllUsesWith(replacement);
  if (old_instruction->users().empty() && old_instruction != root_) {
    RemoveInstruction(old_instruction);
  }
}

int64_t Computation::RemoveDeadInstructions() {
  auto removable = [&](const Instruction* instruction) {
    return instruction->users().empty() && instruction != root_ &&
           instruction->opcode() != Opcode::kParameter && !instruction->HasSideEffect();
  };
  std::unordered_set<const Instruction*> dead;
  std::vector<Instruction*> dead_list;
  // Walk users before operands so one sweep finds whole dead chains.
  const std::vector<Instruction*> order = MakePostOrder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Instruction* instruction = *it;
    if (!removable(instruction)) continue;
    dead.insert(instruction);
    dead_list.push_back(instruction);
    instruction->DropAllOperands();
  }
  if (dead.empty()) return 0;
  RemoveFusedBodiesOf(dead_list);
  std::erase_if(instructions_, [&](const auto& owned) { return dead.count(owned.get()) > 0; });
  return static_cast<int64_t>(dead.size());
}

std::vector<Instruction*> Computation::MakePostOrder() const {
  std::vector<Instruction*> order;
  order.reserve(instructions_.size());
  std::unordered_set<const Instruction*> visited;
  visited.reserve(instructions_.size());
  // Iterative DFS: an explicit stack of (instruction, next operand index) keeps deep chains
  // (100k instructions) off the call stack.
  std::vector<std::pair<Instruction*, size_t>> stack;
  for (const auto& owned : instructions_) {
    if (visited.count(owned.get())) continue;
    stack.emplace_back(owned.get(), 0);
    visited.insert(owned.get());
    while (!stack.empty()) {
      auto& [instruction, next] = stack.back();
      if (next < instruction->operands().size()) {
        Instruction* operand = instruction->operands()[next++];
        if (operand->parent() == this && visited.insert(operand).second) {
          stack.emplace_back(operand, 0);
        }
        continue;
      }
      order.push_back(instruction);
      stack.pop_back();
    }
  }
  return order;
}

bool Computation::SetInstructionOrder(const std::vector<Instruction*>& order) {
  if (order.size() != instructions_.size()) return false;
  std::unordered_map<const Instruction*, size_t> position;
  position.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const bool foreign = order[i] == nullptr || order[i]->parent() != this;
    if (foreign || !position.emplace(order[i], i).second) return false;
  }
  std::vector<std::unique_ptr<Instruction>> reordered(instructions_.size());
  for (auto& owned : instructions_) reordered[position.at(owned.get())] = std::move(owned);
  instructions_ = std::move(reordered);
  return true;
}

Instruction* Computation::parameter(int64_t number) const {
  if (number < 0 || number >= parameter_count()) return nullptr;
  return parameters_[static_cast<size_t>(number)];
}

Instruction* Computation::FindInstruction(std::string_view name) const {
  for (const auto& owned : instructions_) {
    if (owned->name() == name) return owned.get();
  }
  return nullptr;
}

}  // namespace fusescope::ir
