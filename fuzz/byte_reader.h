#ifndef FUSESCOPE_FUZZ_BYTE_READER_H_
#define FUSESCOPE_FUZZ_BYTE_READER_H_

// Hands out the fuzzer's bytes as small decisions. Once the bytes run out every decision is
// 0 (the first option), so any input, even an empty one, describes exactly one module and
// the generator always terminates.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fusescope::fuzz {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return position_ >= size_; }

  uint8_t Byte() { return exhausted() ? 0 : data_[position_++]; }

  // A value in [low, high]; one byte for ranges up to 256 values, two beyond.
  int64_t Range(int64_t low, int64_t high) {
    if (high <= low) return low;
    const auto span = static_cast<uint64_t>(high - low) + 1;
    uint64_t raw = Byte();
    if (span > 256) raw = raw << 8 | Byte();
    return low + static_cast<int64_t>(raw % span);
  }

  // True with roughly `percent` in 100; exhausted input says false.
  bool Chance(int percent) {
    if (exhausted()) return false;
    return Byte() % 100 < static_cast<unsigned>(percent);
  }

  template <typename T>
  const T& Pick(const std::vector<T>& options) {
    return options[static_cast<size_t>(Range(0, static_cast<int64_t>(options.size()) - 1))];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

}  // namespace fusescope::fuzz

#endif  // FUSESCOPE_FUZZ_BYTE_READER_H_
