#include "recording/provenance_interner.h"

#include <functional>

namespace fusescope::recording {

size_t ProvenanceInterner::Hash(const ir::ProvenanceSet& set) {
  size_t hash = set.size();
  for (int64_t id : set.ids()) {
    hash ^= std::hash<int64_t>()(id) + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  }
  return hash;
}

void ProvenanceInterner::Add(const ProvenancePtr& set) {
  if (known_.insert(set.get()).second) by_hash_.emplace(Hash(*set), set);
}

ProvenancePtr ProvenanceInterner::Intern(const ir::ProvenanceSet& set) {
  const size_t hash = Hash(set);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (*it->second == set) return it->second;
  }
  auto shared = std::make_shared<const ir::ProvenanceSet>(set);
  known_.insert(shared.get());
  by_hash_.emplace(hash, shared);
  return shared;
}

}  // namespace fusescope::recording
