#ifndef FUSESCOPE_COMPARE_COMPARISON_STORE_H_
#define FUSESCOPE_COMPARE_COMPARISON_STORE_H_

// Comparisons inside a recording file: a table of their own (comparisons), made when the first
// is added, one row per comparison holding its JSON (Comparison::ToJson) and, per compiler,
// the recording its own passes were imported into. Adding one is a single transaction on the
// existing file: a failure leaves the recording as it was.

#include <map>
#include <string>
#include <vector>

#include "compare/comparison.h"
#include "ir/status.h"

namespace fusescope::compare {

struct StoredComparison {
  int64_t id = 0;
  std::string created_at;
  Comparison comparison;
  // compiler -> the recording of its passes (a path beside the file), where one was made.
  std::map<std::string, std::string> peer_recordings;
};

StatusOr<int64_t> AddComparison(const std::string& path, const Comparison& comparison,
                                const std::map<std::string, std::string>& peer_recordings);
// Every comparison of the recording, oldest first; none for a file that has no table.
StatusOr<std::vector<StoredComparison>> LoadComparisons(const std::string& path);

}  // namespace fusescope::compare

#endif  // FUSESCOPE_COMPARE_COMPARISON_STORE_H_
