#include "recording/provenance_interner.h"

#include <functional>
#include <string_view>
#include <utility>

namespace fusescope::recording {

size_t ProvenanceInterner::Hash(const CompactProvenance& set) {
  return std::hash<std::string_view>()(set.bytes());
}

void ProvenanceInterner::Add(const ProvenancePtr& set) {
  if (known_.insert(set.get()).second) by_hash_.emplace(Hash(*set), set);
}

ProvenancePtr ProvenanceInterner::Intern(const ir::ProvenanceSet& set) {
  CompactProvenance compact(set);
  const size_t hash = Hash(compact);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (*it->second == compact) return it->second;
  }
  auto shared = std::make_shared<const CompactProvenance>(std::move(compact));
  known_.insert(shared.get());
  by_hash_.emplace(hash, shared);
  return shared;
}

}  // namespace fusescope::recording
