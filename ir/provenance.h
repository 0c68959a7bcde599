#ifndef FUSESCOPE_IR_PROVENANCE_H_
#define FUSESCOPE_IR_PROVENANCE_H_

// The set of original instruction ids an instruction came from. The original module's
// instructions each start as {own id}; passes keep the sets up to date (a fusion is the
// union of what it fused, a CSE survivor the union of the merged pair, a simplified
// replacement inherits from what it replaced).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace fusescope::ir {

class ProvenanceSet {
 public:
  ProvenanceSet() = default;
  ProvenanceSet(std::initializer_list<int64_t> ids);

  void Insert(int64_t id);
  void Union(const ProvenanceSet& other);
  bool Contains(int64_t id) const;
  bool empty() const { return ids_.empty(); }
  size_t size() const { return ids_.size(); }
  // Sorted ascending, no duplicates.
  const std::vector<int64_t>& ids() const { return ids_; }
  bool operator==(const ProvenanceSet& other) const = default;

 private:
  std::vector<int64_t> ids_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_PROVENANCE_H_
