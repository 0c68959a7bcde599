#ifndef FUSESCOPE_IR_INSTRUCTION_INDEX_H_
#define FUSESCOPE_IR_INSTRUCTION_INDEX_H_

// Instructions mapped to positions in some list of them, for code that looks instructions up
// by pointer many times per instruction (the graph diff). Open addressing in one array: no
// allocation per entry, and a lookup touches one cache line.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fusescope::ir {

class Instruction;

class InstructionIndex {
 public:
  static constexpr size_t kAbsent = SIZE_MAX;

  // Makes room for `count` instructions in all without growing.
  void Reserve(size_t count);
  // Maps `instruction` to `position` unless it is mapped already; returns whether it was not.
  bool Insert(const Instruction* instruction, size_t position);
  // The position of `instruction`, or kAbsent.
  size_t Find(const Instruction* instruction) const;
  size_t size() const { return size_; }

 private:
  struct Slot {
    const Instruction* instruction = nullptr;  // nullptr: empty
    size_t position = 0;
  };
  size_t SlotOf(const Instruction* instruction) const;
  void Rehash(size_t capacity);

  std::vector<Slot> slots_;  // size zero or a power of two, at most half full
  size_t size_ = 0;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_INSTRUCTION_INDEX_H_
