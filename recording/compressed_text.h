#ifndef FUSESCOPE_RECORDING_COMPRESSED_TEXT_H_
#define FUSESCOPE_RECORDING_COMPRESSED_TEXT_H_

// zlib for what a recording stores compressed: kernel stage texts, the verbatim IR of
// imported passes, constants' bytes.

#include <cstdint>
#include <string>
#include <string_view>

#include "ir/status.h"

namespace fusescope::recording {

// `level` as zlib's (1 fastest, 9 smallest, -1 its default).
StatusOr<std::string> Deflate(std::string_view data, int level = -1);
// The `bytes` bytes `data` inflates to; an error when it inflates to anything else, or when
// `bytes` is more than deflate can expand `data` to (damage, not a reason to allocate).
StatusOr<std::string> Inflate(std::string_view data, int64_t bytes);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_COMPRESSED_TEXT_H_
