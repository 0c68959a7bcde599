#ifndef FUSESCOPE_RECORDING_COMPACT_PROVENANCE_H_
#define FUSESCOPE_RECORDING_COMPACT_PROVENANCE_H_

// A provenance set frozen for a recording: the sorted ids as variable-length deltas, a byte
// or two per id where ir::ProvenanceSet spends eight. After CSE and fusion a module carries
// millions of provenance ids (a constant merged from 500 copies and then duplicated into
// every fusion that uses it carries all 500 each time), so this is what keeps a recording's
// memory near that of the module it records.
//
// Encoding (also the on-disk form): the first id zigzag-encoded, then each difference to
// the previous id, all as LEB128 varints.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/provenance.h"
#include "ir/status.h"

namespace fusescope::recording {

class CompactProvenance {
 public:
  explicit CompactProvenance(const ir::ProvenanceSet& set);
  // Checks the bytes (as read from a file) before taking them.
  static StatusOr<CompactProvenance> FromBytes(std::string_view bytes);

  ir::ProvenanceSet Decode() const;
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool Contains(int64_t id) const;
  // Compares without decoding into memory.
  bool Equals(const ir::ProvenanceSet& set) const;
  const std::string& bytes() const { return bytes_; }

  bool operator==(const CompactProvenance& other) const {
    return size_ == other.size_ && bytes_ == other.bytes_;
  }

 private:
  CompactProvenance() = default;
  // Calls visit(id) for each id in order until it returns false.
  template <typename Visit>
  void ForEach(Visit visit) const;

  std::string bytes_;
  size_t size_ = 0;
};

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_COMPACT_PROVENANCE_H_
