#include "ir/instruction_index.h"

#include <algorithm>
#include <utility>

namespace fusescope::ir {
namespace {

constexpr size_t kInitialCapacity = 16;

// Instructions are heap objects a few hundred bytes apart: the low bits say little, so the
// address is mixed before its bits pick a slot.
size_t Mix(const Instruction* instruction) {
  uint64_t bits = reinterpret_cast<uintptr_t>(instruction);
  bits ^= bits >> 33;
  bits *= 0xff51afd7ed558ccdULL;
  bits ^= bits >> 33;
  return static_cast<size_t>(bits);
}

}  // namespace

size_t InstructionIndex::SlotOf(const Instruction* instruction) const {
  const size_t mask = slots_.size() - 1;
  size_t at = Mix(instruction) & mask;
  while (slots_[at].instruction != nullptr && slots_[at].instruction != instruction) {
    at = (at + 1) & mask;
  }
  return at;
}

void InstructionIndex::Reserve(size_t count) {
  size_t capacity = kInitialCapacity;
  while (capacity < 2 * count) capacity *= 2;
  if (capacity > slots_.size()) Rehash(capacity);
}

bool InstructionIndex::Insert(const Instruction* instruction, size_t position) {
  if (2 * (size_ + 1) > slots_.size()) Rehash(std::max(kInitialCapacity, 2 * slots_.size()));
  Slot& slot = slots_[SlotOf(instruction)];
  if (slot.instruction != nullptr) return false;
  slot = {instruction, position};
  ++size_;
  return true;
}

size_t InstructionIndex::Find(const Instruction* instruction) const {
  if (size_ == 0 || instruction == nullptr) return kAbsent;
  const Slot& slot = slots_[SlotOf(instruction)];
  return slot.instruction == nullptr ? kAbsent : slot.position;
}

void InstructionIndex::Rehash(size_t capacity) {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
  for (const Slot& slot : old) {
    if (slot.instruction != nullptr) slots_[SlotOf(slot.instruction)] = slot;
  }
}

}  // namespace fusescope::ir
