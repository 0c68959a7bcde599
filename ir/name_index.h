#ifndef FUSESCOPE_IR_NAME_INDEX_H_
#define FUSESCOPE_IR_NAME_INDEX_H_

// Names mapped to small numbers: the HLO parser looks up every operand and defines every
// instruction by name, and a module keeps every name it ever handed out. The index keeps
// views, not copies: the characters they point into must outlive it (or the next Clear()).
//
// Open addressing over slots of 8 bytes (a hash and the position of the entry), so that a
// table of a hundred thousand names stays in cache and defining a name allocates nothing
// beyond amortized growth.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace fusescope::ir {

class NameIndex {
 public:
  // The number stored for `name`, or nullptr. Valid until the next Insert or Clear.
  const uint32_t* Find(std::string_view name) const;
  // Stores `value` for `name` unless the name is already there. Returns the stored number (the
  // old one when the name was there) and whether it was inserted.
  std::pair<const uint32_t*, bool> Insert(std::string_view name, uint32_t value);
  // Asks the cache for the slot of `name` ahead of a Find or Insert of it: a loop over
  // thousands of names can then overlap their cache misses.
  void Prefetch(std::string_view name) const;
  // Makes room for `count` names in all without growing.
  void Reserve(size_t count);
  // Forgets every name; keeps a small table for reuse, releases a big one.
  void Clear();
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string_view name;
    uint32_t value;
  };
  // The slot holding `name`, or the empty slot where it would go.
  size_t Probe(std::string_view name, uint32_t hash) const;
  void Rehash(size_t capacity);

  // Zero for an empty slot, else the name's hash in the high half and its position in
  // entries_ plus one in the low half. Size zero or a power of two, at most half full.
  std::vector<uint64_t> slots_;
  std::vector<Entry> entries_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_NAME_INDEX_H_
