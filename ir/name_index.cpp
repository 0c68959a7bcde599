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

uint64_t Load8(const char* data) {
  uint64_t word = 0;
  std::memcpy(&word, data, sizeof(word));
  return word;
}

uint64_t Load4(const char* data) {
  uint32_t word = 0;
  std::memcpy(&word, data, sizeof(word));
  return word;
}

// The last 1 to 7 bytes of a name as one word, in fixed-size loads (a memcpy of a variable
// count is a library call). Overlapping loads may read some bytes twice; the hash only needs
// the word to depend on every byte.
uint64_t LoadTail(const char* data, size_t count) {
  if (count >= 4) return Load4(data) << 32 | Load4(data + count - 4);
  const auto byte = [&](size_t at) {
    return static_cast<uint64_t>(static_cast<uint8_t>(data[at]));
  };
  return byte(0) << 16 | byte(count / 2) << 8 | byte(count - 1);
}

uint32_t Hash(std::string_view name) {
  // Word-at-a-time multiply and fold, then a final mix; names differing only in a trailing
  // number (`add.12`, `add.13`) must land far apart.
  uint64_t hash = 0x9e3779b97f4a7c15ULL ^ name.size();
  size_t at = 0;
  for (; at + 8 <= name.size(); at += 8) {
    hash = (hash ^ Load8(name.data() + at)) * 0xbf58476d1ce4e5b9ULL;
    hash ^= hash >> 29;
  }
  if (at < name.size()) {
    hash = (hash ^ LoadTail(name.data() + at, name.size() - at)) * 0xbf58476d1ce4e5b9ULL;
  }
  hash ^= hash >> 31;
  hash *= 0x94d049bb133111ebULL;
  hash ^= hash >> 32;
  return static_cast<uint32_t>(hash);
}

}  // namespace

size_t NameIndex::Probe(std::string_view name, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t at = hash & mask;; at = (at + 1) & mask) {
    const uint64_t slot = slots_[at];
    if (slot == 0) return at;
    if (slot >> 32 == hash && entries_[(slot & 0xffffffff) - 1].name == name) return at;
  }
}

void NameIndex::Prefetch(std::string_view name) const {
  if (!slots_.empty()) __builtin_prefetch(&slots_[Hash(name) & (slots_.size() - 1)]);
}

const uint32_t* NameIndex::Find(std::string_view name) const {
  if (entries_.empty()) return nullptr;
  const uint64_t slot = slots_[Probe(name, Hash(name))];
  return slot == 0 ? nullptr : &entries_[(slot & 0xffffffff) - 1].value;
}

std::pair<const uint32_t*, bool> NameIndex::Insert(std::string_view name, uint32_t value) {
  if (2 * (entries_.size() + 1) > slots_.size()) {
    Rehash(std::max(kInitialCapacity, 2 * slots_.size()));
  }
  const uint32_t hash = Hash(name);
  uint64_t& slot = slots_[Probe(name, hash)];
  if (slot != 0) return {&entries_[(slot & 0xffffffff) - 1].value, false};
  entries_.push_back({name, value});
  slot = uint64_t{hash} << 32 | entries_.size();
  return {&entries_.back().value, true};
}

void NameIndex::Reserve(size_t count) {
  size_t capacity = kInitialCapacity;
  while (capacity < 2 * count) capacity *= 2;
  if (capacity > slots_.size()) Rehash(capacity);
  entries_.reserve(count);
}

void NameIndex::Clear() {
  if (slots_.size() > kKeptCapacity) {
    slots_ = {};
    entries_ = {};
  } else {
    std::fill(slots_.begin(), slots_.end(), 0);
    entries_.clear();
  }
}

void NameIndex::Rehash(size_t capacity) {
  std::vector<uint64_t> old = std::exchange(slots_, std::vector<uint64_t>(capacity));
  const size_t mask = capacity - 1;
  for (uint64_t slot : old) {
    if (slot == 0) continue;
    size_t at = (slot >> 32) & mask;
    while (slots_[at] != 0) at = (at + 1) & mask;
    slots_[at] = slot;
  }
}

}  // namespace fusescope::ir
