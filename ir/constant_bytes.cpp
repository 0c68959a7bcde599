#include "ir/constant_bytes.h"

#include <cstring>

namespace fusescope::ir {
namespace {

constexpr uint64_t kPrime1 = 0x9e3779b185ebca87ULL;
constexpr uint64_t kPrime2 = 0xc2b2ae3d27d4eb4fULL;
constexpr uint64_t kPrime3 = 0x165667b19e3779f9ULL;

uint64_t RotateLeft(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

}  // namespace

// Eight bytes a step, four independent lanes so that the multiplies overlap: a 400 MB weight
// hashes in a fraction of a second, which importing and recording it costs anyway.
uint64_t HashBytes(const uint8_t* data, size_t size) {
  uint64_t lanes[4] = {kPrime1 + kPrime2, kPrime2, 0, kPrime3};
  size_t at = 0;
  for (; at + 32 <= size; at += 32) {
    for (int lane = 0; lane < 4; ++lane) {
      uint64_t word;
      std::memcpy(&word, data + at + 8 * lane, 8);
      lanes[lane] = RotateLeft(lanes[lane] + word * kPrime2, 31) * kPrime1;
    }
  }
  uint64_t h = RotateLeft(lanes[0], 1) + RotateLeft(lanes[1], 7) + RotateLeft(lanes[2], 12) +
               RotateLeft(lanes[3], 18) + static_cast<uint64_t>(size) * kPrime3;
  for (; at + 8 <= size; at += 8) {
    uint64_t word;
    std::memcpy(&word, data + at, 8);
    h = RotateLeft(h ^ (RotateLeft(word * kPrime2, 31) * kPrime1), 27) * kPrime1 + kPrime3;
  }
  for (; at < size; ++at) h = RotateLeft(h ^ (data[at] * kPrime3), 11) * kPrime1;
  return Avalanche(h);
}

ConstantBytes::ConstantBytes(std::vector<uint8_t> bytes)
    : bytes_(std::move(bytes)), fingerprint_(HashBytes(bytes_.data(), bytes_.size())) {}

}  // namespace fusescope::ir
