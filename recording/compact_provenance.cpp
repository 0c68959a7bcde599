#include "recording/compact_provenance.h"

#include <optional>

namespace fusescope::recording {

namespace {

void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Reads one varint at `at`, advancing it; nullopt when the bytes end inside it or it is too
// long for 64 bits.
std::optional<uint64_t> ReadVarint(std::string_view bytes, size_t& at) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64 && at < bytes.size(); shift += 7) {
    const auto byte = static_cast<uint8_t>(bytes[at++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return std::nullopt;
}

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

}  // namespace

CompactProvenance::CompactProvenance(const ir::ProvenanceSet& set) : size_(set.size()) {
  bytes_.reserve(set.size() + 8);
  int64_t previous = 0;
  for (size_t i = 0; i < set.ids().size(); ++i) {
    const int64_t id = set.ids()[i];
    if (i == 0) {
      AppendVarint(bytes_, ZigZag(id));
    } else {
      AppendVarint(bytes_, static_cast<uint64_t>(id) - static_cast<uint64_t>(previous));
    }
    previous = id;
  }
  bytes_.shrink_to_fit();
}

StatusOr<CompactProvenance> CompactProvenance::FromBytes(std::string_view bytes) {
  CompactProvenance provenance;
  size_t at = 0;
  while (at < bytes.size()) {
    std::optional<uint64_t> value = ReadVarint(bytes, at);
    if (!value || (provenance.size_ > 0 && *value == 0)) {
      return Status::Error("malformed provenance set");
    }
    ++provenance.size_;
  }
  provenance.bytes_ = std::string(bytes);
  return provenance;
}

template <typename Visit>
void CompactProvenance::ForEach(Visit visit) const {
  size_t at = 0;
  int64_t id = 0;
  for (size_t i = 0; i < size_; ++i) {
    // The bytes were checked when made, so every read succeeds.
    const uint64_t value = ReadVarint(bytes_, at).value_or(0);
    id = i == 0 ? UnZigZag(value) : static_cast<int64_t>(static_cast<uint64_t>(id) + value);
    if (!visit(id)) return;
  }
}

ir::ProvenanceSet CompactProvenance::Decode() const {
  ir::ProvenanceSet set;
  ForEach([&](int64_t id) {
    set.Insert(id);  // ascending, so each insert appends
    return true;
  });
  return set;
}

bool CompactProvenance::Contains(int64_t id) const {
  bool found = false;
  ForEach([&](int64_t member) {
    found = member == id;
    return member < id;
  });
  return found;
}

bool CompactProvenance::Equals(const ir::ProvenanceSet& set) const {
  if (set.size() != size_) return false;
  size_t i = 0;
  bool equal = true;
  ForEach([&](int64_t id) {
    equal = set.ids()[i++] == id;
    return equal;
  });
  return equal;
}

}  // namespace fusescope::recording
