#include "compare/process_memory.h"

#include <fstream>
#include <string>

namespace fusescope::compare {

int64_t PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    try {
      return std::stoll(line.substr(6)) * 1024;
    } catch (...) {
      return -1;
    }
  }
  return -1;
}

bool ResetPeakResident() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  return static_cast<bool>(clear);
}

}  // namespace fusescope::compare
