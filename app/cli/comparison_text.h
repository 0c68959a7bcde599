#ifndef FUSESCOPE_APP_CLI_COMPARISON_TEXT_H_
#define FUSESCOPE_APP_CLI_COMPARISON_TEXT_H_

// Two recordings' final fusions as text (`fusescope diff A B`, a lesson's what-if step): a
// count line, then every fusion of A whose members B fuses otherwise with the fusions of B
// that hold them, each with the refusals that kept the members apart.

#include <vector>

#include "recording/recording_comparison.h"

namespace fusescope::app {

void PrintFinalFusions(const std::vector<recording::FusionMatch>& same,
                       const std::vector<recording::FusionMatch>& different,
                       const std::vector<recording::FusionMatch>& only_a,
                       const std::vector<recording::FusionMatch>& only_b);

}  // namespace fusescope::app

#endif  // FUSESCOPE_APP_CLI_COMPARISON_TEXT_H_
