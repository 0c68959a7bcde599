#ifndef FUSESCOPE_IR_NAME_INDEX_H_
#define FUSESCOPE_IR_NAME_INDEX_H_

// Names mapped to small numbers, for the HLO parser, which looks up every operand and
// defines every instruction by name. The index keeps views, not copies: the text the names
// point into must outlive it. Open addressing in one array, so that defining a name costs no
// allocation and a lookup touches one or two cache lines.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fusescope::ir {

class NameIndex {
 public:
  // The number stored for `name`, or nullptr.
  const uint32_t* Find(std::string_view name) const;
  // Stores `value` for `name` unless the name is already there. Returns the stored number (the
  // old one when the name was there) and whether it was inserted.
  std::pair<const uint32_t*, bool> Insert(std::string_view name, uint32_t value);
  // Makes room for `count` names without rehashing.
  void Reserve(size_t count);
  // Forgets every name; keeps a small table for reuse, releases a big one.
  void Clear();
  size_t size() const { return size_; }

 private:
  struct Slot {
    const char* data = nullptr;  // nullptr: empty slot
    uint32_t length = 0;
    uint32_t hash = 0;
    uint32_t value = 0;
  };

  static uint32_t Hash(std::string_view name);
  // The slot holding `name`, or the empty slot where it would go.
  size_t Probe(std::string_view name, uint32_t hash) const;
  void Rehash(size_t capacity);

  std::vector<Slot> slots_;  // size is zero or a power of two, at most half full
  size_t size_ = 0;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_NAME_INDEX_H_
