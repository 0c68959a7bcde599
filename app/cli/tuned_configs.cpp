#include "app/cli/tuned_configs.h"

#include <set>

#include "app/cli/model_loader.h"
#include "tuning/tuning_store.h"

namespace fusescope::app {

StatusOr<std::string> ApplyTunedConfigs(const std::string& path, int64_t snapshot,
                                        runtime::CpuExecutableOptions& options) {
  if (!LooksLikeRecording(path))
    return Status::Error("--tuned reads tuning runs from a recording; " + path + " is none");
  auto best = tuning::BestConfigs(path, snapshot);
  if (!best.ok()) return best.status();
  if (best->empty())
    return Status::Error(path + ": no tuning run of snapshot " + std::to_string(snapshot) +
                         ": `fusescope tune " + path + "` makes one");
  std::set<int64_t> runs;
  int64_t applied = 0, kept = 0;
  for (const auto& [kernel, tuned] : *best) {
    runs.insert(tuned.run_id);
    if (tuned.config_text == "default") {
      ++kept;
      continue;
    }
    options.kernel_configs[kernel] = tuned.config;
    ++applied;
  }
  std::string run_list;
  for (int64_t run : runs) run_list += (run_list.empty() ? "" : ", ") + std::to_string(run);
  return "tuned: " + std::to_string(applied) + " kernel" + (applied == 1 ? "" : "s") +
         " from tuning run" + (runs.size() == 1 ? " " : "s ") + run_list + " (" +
         std::to_string(kept) + (kept == 1 ? " keeps its" : " keep their") + " default)";
}

}  // namespace fusescope::app
