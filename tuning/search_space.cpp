#include "tuning/search_space.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include "runtime/cpu/cpu_executable.h"

namespace fusescope::tuning {
namespace {

const std::vector<std::string>& KnobNames() {
  static const std::vector<std::string> names = {"tile", "vector", "unroll", "gemm", "threads"};
  return names;
}

Status CheckValue(const std::string& knob, const std::string& value) {
  if (knob == "gemm") {
    const auto& names = runtime::GemmLibraryNames();
    if (std::find(names.begin(), names.end(), value) == names.end())
      return Status::Error("search space: gemm=" + value +
                           " is no library this build knows (openblas, onednn, blis, mlir)");
    return Status::Ok();
  }
  int number = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  const int limit = knob == "unroll" ? 64 : knob == "threads" ? 1024 : 4096;
  if (error != std::errc() || end != value.data() + value.size() || number < 0 || number > limit)
    return Status::Error("search space: " + knob + " takes numbers from 0 to " +
                         std::to_string(limit) + ", got '" + value + "'");
  return Status::Ok();
}

bool Matters(const std::string& knob, KernelKind kind) {
  switch (kind) {
    case KernelKind::kLoops:
      return knob != "gemm" && knob != "threads";
    case KernelKind::kGemm:
    case KernelKind::kGemmEpilogue:
    case KernelKind::kConvolutionLoops:
      return true;
    case KernelKind::kFixed:
      return false;
  }
  return false;
}

}  // namespace

const char* KernelKindName(KernelKind kind) {
  switch (kind) {
    case KernelKind::kLoops:
      return "loops";
    case KernelKind::kGemm:
      return "gemm";
    case KernelKind::kGemmEpilogue:
      return "gemm+epilogue";
    case KernelKind::kConvolutionLoops:
      return "convolution loops";
    case KernelKind::kFixed:
      return "fixed";
  }
  return "fixed";
}

KernelKind KindOf(const recording::KernelRecord& record) {
  if (record.backend == "mlir-cpu")
    return record.note.find(runtime::kSmallConvolutionNote) != std::string::npos
               ? KernelKind::kConvolutionLoops
               : KernelKind::kLoops;
  const auto& libraries = runtime::GemmLibraryNames();
  if (std::find(libraries.begin(), libraries.end(), record.backend) != libraries.end())
    // A library call alone has its library for options ("gemm=onednn threads=1"; none in
    // recordings from before they did); one with a compiled epilogue has the epilogue's
    // lowering.
    return record.options.empty() || record.options.rfind("gemm=", 0) == 0
               ? KernelKind::kGemm
               : KernelKind::kGemmEpilogue;
  return KernelKind::kFixed;
}

StatusOr<SearchSpace> SearchSpace::Parse(std::string_view text) {
  SearchSpace space;
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos || equals == 0)
      return Status::Error("search space: '" + word + "' is not KNOB=V1,V2,...");
    Knob knob{word.substr(0, equals), {}};
    if (std::find(KnobNames().begin(), KnobNames().end(), knob.name) == KnobNames().end())
      return Status::Error("search space: unknown knob '" + knob.name +
                           "' (tile, vector, unroll, gemm, threads)");
    if (space.Find(knob.name)) return Status::Error("search space: " + knob.name + " given twice");
    std::string list = word.substr(equals + 1);
    std::set<std::string> seen;
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::string value = list.substr(start, comma - start);
      if (value.empty()) return Status::Error("search space: " + knob.name + " has an empty value");
      FS_RETURN_IF_ERROR(CheckValue(knob.name, value));
      if (seen.insert(value).second) knob.values.push_back(value);
      start = comma + 1;
    }
    space.knobs_.push_back(std::move(knob));
  }
  if (space.knobs_.empty()) return Status::Error("search space: no knobs given");
  return space;
}

SearchSpace SearchSpace::Default(const std::vector<std::string>& available_gemm_libraries) {
  SearchSpace space;
  space.knobs_ = {{"tile", {"0", "8", "16", "32", "64"}},
                  {"vector", {"0", "4", "8", "16"}},
                  {"unroll", {"1", "2", "4"}}};
  std::vector<std::string> gemm = available_gemm_libraries;
  if (gemm.empty()) gemm = {"openblas"};
  space.knobs_.push_back({"gemm", gemm});
  // The library's own count, or one thread: on a small or shared machine a library's team can
  // cost far more than it brings (measured, not assumed).
  space.knobs_.push_back({"threads", {"0", "1"}});
  return space;
}

const Knob* SearchSpace::Find(std::string_view name) const {
  for (const Knob& knob : knobs_)
    if (knob.name == name) return &knob;
  return nullptr;
}

std::string SearchSpace::ToString() const {
  std::string text;
  for (const Knob& knob : knobs_) {
    text += (text.empty() ? "" : " ") + knob.name + "=";
    for (size_t i = 0; i < knob.values.size(); ++i) text += (i ? "," : "") + knob.values[i];
  }
  return text;
}

std::vector<Candidate> CandidatesFor(const SearchSpace& space, KernelKind kind) {
  std::vector<Candidate> candidates;
  if (kind == KernelKind::kFixed) return candidates;
  if (kind == KernelKind::kConvolutionLoops) {
    // Our loop nest's configurations, then each library's, as for a library convolution.
    candidates = CandidatesFor(space, KernelKind::kLoops);
    for (Candidate& library : CandidatesFor(space, KernelKind::kGemm))
      candidates.push_back(std::move(library));
    return candidates;
  }
  const std::vector<Knob>& knobs = space.knobs();
  std::vector<int> point(knobs.size(), -1);
  std::vector<size_t> relevant;
  for (size_t k = 0; k < knobs.size(); ++k) {
    if (Matters(knobs[k].name, kind)) {
      relevant.push_back(k);
      point[k] = 0;
    }
  }
  std::set<std::string> seen;
  for (;;) {
    // The configuration this point makes.
    runtime::KernelConfig config;
    std::string gemm;
    int threads = 0;
    runtime::LoweringOptions lowering;
    bool lowering_set = false;
    for (size_t k : relevant) {
      const std::string& value = knobs[k].values[static_cast<size_t>(point[k])];
      if (knobs[k].name == "gemm") {
        gemm = value;
        continue;
      }
      if (knobs[k].name == "threads") {
        threads = std::stoi(value);
        continue;
      }
      const int number = std::stoi(value);
      if (knobs[k].name == "tile") lowering.tile = number;
      if (knobs[k].name == "vector") lowering.vector = number;
      if (knobs[k].name == "unroll") lowering.unroll = number > 1 ? number : 0;
      lowering_set = true;
    }
    const bool gemm_kernel = kind != KernelKind::kLoops;
    // The knob's values were checked when the space was parsed.
    if (gemm_kernel) {
      StatusOr<runtime::GemmLibrary> library =
          runtime::ParseGemmLibrary(gemm.empty() ? "openblas" : gemm);
      config.gemm = library.ok() ? *library : runtime::GemmLibrary::kOpenBlas;
    }
    const bool mlir_matmul = config.gemm == runtime::GemmLibrary::kMlir;
    // Our MLIR matmul runs on the calling thread: a library's thread count is not its knob.
    if (gemm_kernel && !mlir_matmul) config.threads = threads;
    // A library GEMM without an epilogue has no loops of ours: the lowering is not its knob.
    const bool uses_lowering = kind != KernelKind::kGemm || mlir_matmul;
    if (uses_lowering && lowering_set) config.lowering = lowering;
    if (uses_lowering && !lowering_set) config.lowering = runtime::LoweringOptions{};
    Candidate candidate{point, config};
    for (size_t k : relevant) {
      const bool lowering_knob = knobs[k].name != "gemm" && knobs[k].name != "threads";
      if ((lowering_knob && !uses_lowering) ||
          (knobs[k].name == "threads" && gemm_kernel && mlir_matmul))
        candidate.point[k] = -1;
    }
    if (seen.insert(config.ToString()).second) candidates.push_back(std::move(candidate));
    // Next point, the last relevant knob fastest.
    size_t r = relevant.size();
    while (r > 0) {
      const size_t k = relevant[r - 1];
      if (++point[k] < static_cast<int>(knobs[k].values.size())) break;
      point[k] = 0;
      --r;
    }
    if (r == 0) break;
  }
  return candidates;
}

}  // namespace fusescope::tuning
