#include "recording/compressed_text.h"

#include <zlib.h>

namespace fusescope::recording {

StatusOr<std::string> Deflate(std::string_view data, int level) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()),
                level) != Z_OK) {
    return Status::Error("zlib could not compress " + std::to_string(data.size()) + " bytes");
  }
  out.resize(size);
  return out;
}

StatusOr<std::string> Inflate(std::string_view data, int64_t bytes) {
  // Deflate expands at most about 1032:1.
  if (bytes < 0 || static_cast<uint64_t>(bytes) > 1032 * static_cast<uint64_t>(data.size()) + 64) {
    return Status::Error("compressed data cannot inflate to " + std::to_string(bytes) + " bytes");
  }
  std::string out(static_cast<size_t>(bytes), '\0');
  uLongf size = static_cast<uLongf>(bytes);
  const int result =
      uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                 reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()));
  if (result != Z_OK || size != static_cast<uLongf>(bytes)) {
    return Status::Error("compressed data does not inflate to its " + std::to_string(bytes) +
                         " bytes");
  }
  return out;
}

}  // namespace fusescope::recording
