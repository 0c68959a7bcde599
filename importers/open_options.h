#ifndef FUSESCOPE_IMPORTERS_OPEN_OPTIONS_H_
#define FUSESCOPE_IMPORTERS_OPEN_OPTIONS_H_

// How importers/open_any.h opens a model, on its own so that a front's headers can name it
// without the importers' (app/cli/model_loader.h).

#include <cstdint>
#include <map>
#include <string>

namespace fusescope::importers {

struct OpenOptions {
  // ONNX symbolic dimensions by name (`--dim NAME=N`); others get the importer's default size.
  std::map<std::string, int64_t> dimension_sizes;
};

}  // namespace fusescope::importers

#endif  // FUSESCOPE_IMPORTERS_OPEN_OPTIONS_H_
