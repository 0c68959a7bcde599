#include "ir/provenance.h"

#include <algorithm>
#include <iterator>

namespace fusescope::ir {

ProvenanceSet::ProvenanceSet(std::initializer_list<int64_t> ids) : ids_(ids) {
  std::sort(ids_.begin(), ids_.end());
  ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
}

void ProvenanceSet::Insert(int64_t id) {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) ids_.insert(it, id);
}

void ProvenanceSet::Union(const ProvenanceSet& other) {
  if (other.ids_.empty()) return;
  std::vector<int64_t> merged;
  merged.reserve(ids_.size() + other.ids_.size());
  std::set_union(ids_.begin(), ids_.end(), other.ids_.begin(), other.ids_.end(),
                 std::back_inserter(merged));
  ids_ = std::move(merged);
}

bool ProvenanceSet::Contains(int64_t id) const {
  return std::binary_search(ids_.begin(), ids_.end(), id);
}

}  // namespace fusescope::ir
