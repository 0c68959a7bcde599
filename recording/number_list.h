#ifndef FUSESCOPE_RECORDING_NUMBER_LIST_H_
#define FUSESCOPE_RECORDING_NUMBER_LIST_H_

// A list of doubles kept in one TEXT column ("12.5,13.1,12.9"): each timed run's sample of a
// profile or a tuning trial. Nine significant digits, enough for a microsecond time to read
// back as written.

#include <string>
#include <string_view>
#include <vector>

#include "ir/status.h"

namespace fusescope::recording {

std::string JoinNumberList(const std::vector<double>& values);
// The numbers of a list JoinNumberList wrote; "" is the empty list. Anything else that is not
// a comma-separated list of numbers is an error naming the item.
StatusOr<std::vector<double>> SplitNumberList(std::string_view text);

}  // namespace fusescope::recording

#endif  // FUSESCOPE_RECORDING_NUMBER_LIST_H_
