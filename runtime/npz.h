#ifndef FUSESCOPE_RUNTIME_NPZ_H_
#define FUSESCOPE_RUNTIME_NPZ_H_

// NumPy's .npz archives (np.savez, np.savez_compressed): a zip file of .npy members, stored
// or deflated, with zip64 records as numpy writes them. Read through the central directory,
// so sizes written after the data (data descriptors) are known before it is read. Errors name
// the archive and the member.

#include <string>
#include <utility>
#include <vector>

#include "ir/status.h"
#include "runtime/literal.h"

namespace fusescope::runtime {

struct NpzMember {
  std::string name;  // without ".npy": "arr_0", "x"
  Literal value;
};

// Members in archive order. Refuses archives over `max_bytes` of members, uncompressed.
StatusOr<std::vector<NpzMember>> ReadNpzFile(const std::string& path,
                                             int64_t max_bytes = int64_t{16} << 30);
StatusOr<std::vector<NpzMember>> DecodeNpz(std::string_view bytes, const std::string& name,
                                           int64_t max_bytes = int64_t{16} << 30);

// An archive as np.savez writes it (members stored, not deflated, named NAME.npy), so that
// numpy and every reader of .npz read it. Refuses members or archives of 4 GiB or more
// (they would need zip64 records).
StatusOr<std::string> EncodeNpz(const std::vector<NpzMember>& members);
Status WriteNpzFile(const std::string& path, const std::vector<NpzMember>& members);

}  // namespace fusescope::runtime

#endif  // FUSESCOPE_RUNTIME_NPZ_H_
