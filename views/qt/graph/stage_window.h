#ifndef FUSESCOPE_VIEWS_QT_STAGE_WINDOW_H_
#define FUSESCOPE_VIEWS_QT_STAGE_WINDOW_H_

// Which stages a strip of graph panes shows. A stage is the module after one pass of a
// recording, or its input. The candidates are every stage of the first recording, or only the
// passes that pass a filter (changed ones, names containing a text), or a list the user typed;
// with a second recording they can be interleaved with its matching passes. The window is N
// consecutive candidates; moving it one step scrubs through them. Plain C++: the strip panel
// adapts it to widgets, tests drive it directly.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recording/recording.h"

namespace fusescope::views {

struct Stage {
  // 0: the first recording (the workbench's), 1: the second one.
  int recording = 0;
  // The module after this pass; -1: the input, before pass 0.
  int64_t pass = -1;

  bool operator==(const Stage& other) const = default;
};

// How the stages of two recordings are lined up.
enum class StageArrangement {
  kFirst,        // the first recording's stages alone
  kInterleaved,  // each stage of the first followed by the matching stage of the second
  kSecond,       // the second recording's stages alone
};

struct StageFilter {
  bool changed_only = false;
  // Case-insensitive part of the pass name; empty: any name.
  std::string name;

  bool active() const { return changed_only || !name.empty(); }
  bool operator==(const StageFilter& other) const = default;
};

// The result of reading a typed list of stages: the stages, or why the text is wrong.
struct StageList {
  std::vector<Stage> stages;
  std::string error;
};

// Reads "0, 3, 7-9, input, last, B:5, B:last": the first recording's passes by number (ranges
// inclusive), `input` for the module before pass 0, `last` for the final module; a `B:` prefix
// (or `A:` for the first) picks the recording. Separators are commas or spaces. `second` may
// be null; then `B:` is an error.
StageList ParseStageList(std::string_view text, const recording::Recording& first,
                         const recording::Recording* second);
// One stage as ParseStageList reads it back: "7", "input", "B:12".
std::string FormatStage(const Stage& stage);

class StageWindow {
 public:
  static constexpr int kMinPanes = 2;
  static constexpr int kMaxPanes = 8;

  // `first` null empties the window. Both must outlive their use here; the window keeps the
  // first visible stage where it still is a candidate.
  void SetRecordings(const recording::Recording* first, const recording::Recording* second);
  void SetFilter(StageFilter filter);
  // kInterleaved and kSecond need a second recording; without one they act as kFirst.
  void SetArrangement(StageArrangement arrangement);
  // Non-empty: the window moves over exactly these stages, in this order; filter and
  // arrangement aside. Stages out of range are dropped.
  void SetExplicit(std::vector<Stage> stages);
  // Clamped to [kMinPanes, kMaxPanes].
  void SetPaneCount(int panes);
  // Clamped to [0, last_position()].
  void SetPosition(int position);

  int pane_count() const { return panes_; }
  int position() const { return position_; }
  // The last position at which the window is still full (0 when all candidates fit).
  int last_position() const;
  const StageFilter& filter() const { return filter_; }
  StageArrangement arrangement() const { return arrangement_; }
  // The arrangement in effect (kFirst without a second recording).
  StageArrangement effective_arrangement() const;
  const std::vector<Stage>& explicit_stages() const { return explicit_; }

  // A step of the window: one candidate stage, or with kInterleaved a stage of the first
  // recording and the matching one of the second (alone where the second has none).
  const std::vector<std::vector<Stage>>& steps() const { return steps_; }
  // What the panes show, left to right: at most pane_count() stages.
  std::vector<Stage> Visible() const;
  // Moves the window so that `stage` is in it, after `before` steps where there are that
  // many (the stage it was made from, say); nothing when it is visible already. False when
  // no step holds it.
  bool Reveal(const Stage& stage, int before = 0);
  // The second recording's pass that stands for `pass` of the first: the same name at the
  // same occurrence (the 2nd `cse` for the 2nd `cse`); nullopt when it has none. The input
  // (-1) stands for the input.
  std::optional<int64_t> MatchingPass(int64_t pass) const;

 private:
  void Rebuild();
  bool Accepts(const recording::PassRecord& pass) const;
  std::vector<Stage> Filtered(int recording) const;
  const recording::Recording* RecordingOf(int index) const;

  const recording::Recording* first_ = nullptr;
  const recording::Recording* second_ = nullptr;
  StageFilter filter_;
  StageArrangement arrangement_ = StageArrangement::kFirst;
  std::vector<Stage> explicit_;
  std::vector<std::vector<Stage>> steps_;
  int panes_ = 4;
  int position_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_STAGE_WINDOW_H_
