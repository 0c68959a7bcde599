#ifndef FUSESCOPE_IR_CONSTANT_BYTES_H_
#define FUSESCOPE_IR_CONSTANT_BYTES_H_

// The elements of a constant as bytes: logical row-major order, little-endian in the element
// type (pred one byte per element), exactly what a .npy file of the array holds. Importers
// give a constant its bytes (an ONNX initializer, an MLIR dense attribute) instead of text, so
// a model's weights are never dropped or turned into decimal text: the instruction's literal
// text may then be `{...}` and only the bytes hold the values.
//
// Immutable once made and shared by pointer: a module's clones, every snapshot of a recording
// and the interpreter's constant values hold one copy of a weight however many of them refer
// to it.

#include <cstdint>
#include <memory>
#include <vector>

namespace fusescope::ir {

class ConstantBytes {
 public:
  explicit ConstantBytes(std::vector<uint8_t> bytes);
  ConstantBytes(const ConstantBytes&) = delete;
  ConstantBytes& operator=(const ConstantBytes&) = delete;

  const std::vector<uint8_t>& bytes() const { return bytes_; }
  const uint8_t* data() const { return bytes_.data(); }
  int64_t size() const { return static_cast<int64_t>(bytes_.size()); }
  // A 64-bit hash of the bytes, computed once: equal bytes give equal fingerprints, so CSE,
  // graph diffs and recordings can tell two large constants apart without comparing them.
  uint64_t fingerprint() const { return fingerprint_; }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t fingerprint_ = 0;
};

using ConstantBytesPtr = std::shared_ptr<const ConstantBytes>;

inline ConstantBytesPtr MakeConstantBytes(std::vector<uint8_t> bytes) {
  return std::make_shared<const ConstantBytes>(std::move(bytes));
}

// The hash ConstantBytes uses, for callers that hash bytes they do not hold in one.
uint64_t HashBytes(const uint8_t* data, size_t size);

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_CONSTANT_BYTES_H_
