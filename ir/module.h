#ifndef FUSESCOPE_IR_MODULE_H_
#define FUSESCOPE_IR_MODULE_H_

// An HLO module: computations (the module owns them), one entry computation, the header's
// attributes and JAX's stack-frame tables, and the text style it was read in so that
// printing reproduces it.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/computation.h"

namespace fusescope::ir {

// Newer JAX writes FileNames / FunctionNames / FileLocations / StackFrames tables between the
// header and the first computation; metadata then carries stack_frame_id=N.
struct StackFrameTables {
  struct FileLocation {
    int64_t file_name_id = 0;      // 1-based into file_names
    int64_t function_name_id = 0;  // 1-based into function_names
    int64_t line = 0;
    int64_t end_line = 0;
    int64_t column = 0;
    int64_t end_column = 0;
  };
  struct StackFrame {
    int64_t file_location_id = 0;  // 1-based into file_locations
    int64_t parent_frame_id = 0;   // 1-based into frames, 0 = none
  };
  std::vector<std::string> file_names;
  std::vector<std::string> function_names;
  std::vector<FileLocation> file_locations;
  std::vector<StackFrame> frames;
  std::string raw_text;  // the tables exactly as read, printed back verbatim

  bool empty() const { return raw_text.empty() && frames.empty(); }
};

// A source position resolved from metadata (source_file/source_line or stack_frame_id).
struct SourceLocation {
  std::string file;
  std::string function;
  int64_t line = 0;
  int64_t column = 0;
};

// How the text was written; the printer's parsable preset follows it.
struct TextStyle {
  bool sigils = true;          // `%name`
  bool operand_shapes = true;  // `add(f32[] %a, f32[] %b)`
  bool index_comments = true;          // `/*index=5*/` in long tuple shapes
  bool operand_index_comments = true;  // and in long operand lists (jax's HLO text has none)
  // XLA's canonical form writes called computations in full at the call site
  // (`to_apply={ ... }`); the top level then holds only computations nobody calls.
  bool inline_callees = false;
};

class Module {
 public:
  explicit Module(std::string name);
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  ~Module();

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  // Takes ownership; returns the computation. Its instructions get ids if they have none.
  Computation* AddComputation(std::unique_ptr<Computation> computation, bool is_entry = false);
  // Precondition: no instruction outside it calls it. The fused computations of the fusions
  // it holds are removed with it.
  void RemoveComputation(Computation* computation);
  // Removes all of `computations` (and the fused computations of fusions they hold) in one
  // sweep; removing them one at a time costs a scan of the module each. Precondition: no
  // instruction outside them calls any of them.
  void RemoveComputations(const std::vector<Computation*>& computations);
  // Removes computations no instruction calls (the entry excepted). Returns how many.
  int64_t RemoveUnreachableComputations();
  // In stored order.
  const std::vector<std::unique_ptr<Computation>>& computations() const { return computations_; }
  // Callees before callers, the entry last; unreachable computations included.
  std::vector<Computation*> MakeComputationPostOrder() const;
  Computation* entry() const { return entry_; }
  void set_entry(Computation* entry) { entry_ = entry; }
  Computation* FindComputation(std::string_view name) const;
  Instruction* FindInstruction(std::string_view name) const;
  Instruction* FindInstructionById(int64_t id) const;
  int64_t instruction_count() const;  // across all computations

  // Header attributes after the module name, verbatim values, in written order.
  std::vector<std::pair<std::string, std::string>>& header_attributes() { return header_; }
  const std::vector<std::pair<std::string, std::string>>& header_attributes() const {
    return header_;
  }
  StackFrameTables& stack_frames() { return stack_frames_; }
  const StackFrameTables& stack_frames() const { return stack_frames_; }
  // From source_file/source_line, else by walking stack_frame_id; nullopt when neither.
  std::optional<SourceLocation> ResolveSource(const OpMetadata& metadata) const;

  TextStyle& text_style() { return style_; }
  const TextStyle& text_style() const { return style_; }

  // Ids: every instruction has one, unique in the module, never reused.
  int64_t NextInstructionId() { return next_id_++; }
  void NoteUsedId(int64_t id);
  // A module-unique instruction or computation name derived from `base` ("fusion" ->
  // "fusion.3"). The returned name is reserved.
  std::string UniqueName(std::string_view base);
  void ReserveName(std::string_view name);

  // Deep copy: same ids, names, provenance, style.
  std::unique_ptr<Module> Clone() const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Computation>> computations_;
  Computation* entry_ = nullptr;
  std::vector<std::pair<std::string, std::string>> header_;
  StackFrameTables stack_frames_;
  TextStyle style_;
  int64_t next_id_ = 1;
  std::unordered_set<std::string> names_;
  std::unordered_map<std::string, int64_t> next_suffix_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IR_MODULE_H_
