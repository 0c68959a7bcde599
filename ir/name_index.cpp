#include "ir/name_index.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fusescope::ir {
namespace {

constexpr size_t kInitialCapacity = 16;
// Clear() keeps a table only this many times larger than its initial size: clearing a table
// that once held the entry computation for every small computation after it would cost more
// than the lookups it serves.
constexpr size_t kKeptCapacity = 4 * kInitialCapacity;
// An empty slot has no data, so an empty name needs some non-null pointer.
constexpr char kEmptyName[] = "";

uint64_t Load(const char* data, size_t count) {
  uint64_t word = 0;
  std::memcpy(&word, data, count);
  return word;
}

}  // namespace

uint32_t NameIndex::Hash(std::string_view name) {
  // Word-at-a-time multiply and fold, then a final mix; names differing only in a trailing
  // number (`add.12`, `add.13`) must land far apart.
  uint64_t hash = 0x9e3779b97f4a7c15ULL ^ name.size();
  size_t at = 0;
  for (; at + 8 <= name.size(); at += 8) {
    hash = (hash ^ Load(name.data() + at, 8)) * 0xbf58476d1ce4e5b9ULL;
    hash ^= hash >> 29;
  }
  if (at < name.size()) {
    hash = (hash ^ Load(name.data() + at, name.size() - at)) * 0xbf58476d1ce4e5b9ULL;
  }
  hash ^= hash >> 31;
  hash *= 0x94d049bb133111ebULL;
  hash ^= hash >> 32;
  return static_cast<uint32_t>(hash);
}

size_t NameIndex::Probe(std::string_view name, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.data == nullptr) return at;
    if (slot.hash == hash && slot.length == name.size() &&
        std::memcmp(slot.data, name.data(), name.size()) == 0) {
      return at;
    }
  }
}

const uint32_t* NameIndex::Find(std::string_view name) const {
  if (size_ == 0) return nullptr;
  const Slot& slot = slots_[Probe(name, Hash(name))];
  return slot.data == nullptr ? nullptr : &slot.value;
}

std::pair<const uint32_t*, bool> NameIndex::Insert(std::string_view name, uint32_t value) {
  if (2 * (size_ + 1) > slots_.size()) Rehash(std::max(kInitialCapacity, 2 * slots_.size()));
  const uint32_t hash = Hash(name);
  Slot& slot = slots_[Probe(name, hash)];
  if (slot.data != nullptr) return {&slot.value, false};
  slot = {name.empty() ? kEmptyName : name.data(), static_cast<uint32_t>(name.size()), hash, value};
  ++size_;
  return {&slot.value, true};
}

void NameIndex::Reserve(size_t count) {
  size_t capacity = kInitialCapacity;
  while (capacity < 2 * count) capacity *= 2;
  if (capacity > slots_.size()) Rehash(capacity);
}

void NameIndex::Clear() {
  if (slots_.size() > kKeptCapacity) {
    slots_ = {};
  } else {
    std::fill(slots_.begin(), slots_.end(), Slot{});
  }
  size_ = 0;
}

void NameIndex::Rehash(size_t capacity) {
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
  for (const Slot& slot : old) {
    if (slot.data != nullptr) slots_[Probe({slot.data, slot.length}, slot.hash)] = slot;
  }
}

}  // namespace fusescope::ir
