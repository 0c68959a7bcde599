#include "recording/number_list.h"

#include <cstdio>
#include <cstdlib>

namespace fusescope::recording {

std::string JoinNumberList(const std::vector<double>& values) {
  std::string text;
  char buffer[32];
  for (double value : values) {
    std::snprintf(buffer, sizeof(buffer), "%.9g", value);
    if (!text.empty()) text += ',';
    text += buffer;
  }
  return text;
}

StatusOr<std::vector<double>> SplitNumberList(std::string_view text) {
  std::vector<double> values;
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string item(text.substr(start, comma - start));
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0') return Status::Error("not a number list: " + item);
    values.push_back(value);
    start = comma + 1;
  }
  return values;
}

}  // namespace fusescope::recording
