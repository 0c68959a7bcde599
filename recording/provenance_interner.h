#ifndef FUSESCOPE_RECORDING_PROVENANCE_INTERNER_H_
#define FUSESCOPE_RECORDING_PROVENANCE_INTERNER_H_

// Hands out one shared object per distinct provenance set, so that records with equal sets
// hold one copy between them.

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "ir/provenance.h"
#include "recording/compact_provenance.h"

namespace fusescope::recording {

using ProvenancePtr = std::shared_ptr<const CompactProvenance>;

class ProvenanceInterner {
 public:
  // Makes `set` available to later Intern calls.
  void Add(const ProvenancePtr& set);
  // An existing equal set, or a new shared copy of `set`.
  ProvenancePtr Intern(const ir::ProvenanceSet& set);

 private:
  static size_t Hash(const CompactProvenance& set);

  std::unordered_multimap<size_t, ProvenancePtr> by_hash_;
  std::unordered_set<const CompactProvenance*> known_;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_PROVENANCE_INTERNER_H_
