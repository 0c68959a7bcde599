// `fusescope_kernel_fixture OUT.fsdb`: sample:mlp compiled with the cpu pipeline and saved,
// with kernels of its final snapshot made of real MLIR stages (kernel_fixture.h). What the
// CLI tests and screenshots of the Kernel view run on; not part of the fusescope CLI.

#include <cstdio>
#include <string>

#include "passes/pipeline_options.h"
#include "recording/compile_and_record.h"
#include "recording/kernel_store.h"
#include "recording/recording_store.h"
#include "resources/samples.h"
#include "tests/kernel_fixture/kernel_fixture.h"

int main(int argc, char** argv) {
  using namespace fusescope;
  if (argc != 2) {
    std::fprintf(stderr, "usage: fusescope_kernel_fixture OUT.fsdb\n");
    return 2;
  }
  const std::string path = argv[1];
  passes::PipelineOptions options;
  options.target = "cpu";
  auto recording =
      recording::CompileAndRecord(resources::FindSample("mlp").text, options, "sample:mlp");
  if (!recording.ok()) {
    std::fprintf(stderr, "%s\n", recording.message().c_str());
    return 1;
  }
  if (Status saved = recording::SaveRecording(*recording, path); !saved.ok()) {
    std::fprintf(stderr, "%s\n", saved.message().c_str());
    return 1;
  }
  const int last = static_cast<int>(recording->snapshots.size()) - 1;
  const Status added = recording::AddKernels(
      path, last, "tile=32 vector=8", testing::FixtureKernels(recording->snapshots.back(), last));
  if (!added.ok()) {
    std::fprintf(stderr, "%s\n", added.message().c_str());
    return 1;
  }
  return 0;
}
