#include "ir/hlo_printer.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fusescope::ir {
namespace {

// XLA annotates every fifth element of long operand lists and tuple shapes.
constexpr int kIndexInterval = 5;
// Fingerprints elide constants with more elements than this.
constexpr int64_t kLargeConstantElements = 10;

bool IsComputationListKey(std::string_view key) {
  return key == "branch_computations" || key == "called_computations";
}

// Callees before callers, starting from `root` (which comes last).
std::vector<const Computation*> ReachablePostOrder(const Computation& root) {
  std::vector<const Computation*> order;
  std::unordered_set<const Computation*> visited{&root};
  std::vector<std::pair<const Computation*, std::vector<const Computation*>>> stack;
  auto callees_of = [](const Computation* computation) {
    std::vector<const Computation*> callees;
    for (const auto& instruction : computation->instructions()) {
      for (const Computation* callee : instruction->called_computations()) {
        callees.push_back(callee);
      }
    }
    // Visited from the back: reverse so that callees are named in the order they are called.
    return std::vector<const Computation*>(callees.rbegin(), callees.rend());
  };
  stack.emplace_back(&root, callees_of(&root));
  while (!stack.empty()) {
    auto& [computation, pending] = stack.back();
    if (pending.empty()) {
      order.push_back(computation);
      stack.pop_back();
      continue;
    }
    const Computation* next = pending.back();
    pending.pop_back();
    if (visited.insert(next).second) stack.emplace_back(next, callees_of(next));
  }
  return order;
}

std::string CollapseWhitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_space = false;
  for (char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && !in_space) out += ' ';
    if (!space) out += c;
    in_space = space;
  }
  return out;
}

class HloPrinter {
 public:
  HloPrinter(const PrintOptions& options, const TextStyle& style)
      : options_(options), style_(options.style.value_or(style)) {}

  // Canonical names: computations numbered in `order`, the module's entry called "main".
  void NameComputations(const std::vector<const Computation*>& order, const Computation* entry);
  void NameInstructions(const Computation& computation);
  // With TextStyle::inline_callees: the computations written at their only call site.
  void FindInlineBodies(const Module& module);

  void AppendModule(const Module& module);
  void AppendComputation(const Computation& computation);
  void AppendInstruction(const Instruction& instruction);
  std::string Take() { return std::move(out_); }

 private:
  void AppendName(std::string_view name) {
    if (style_.sigils) out_ += '%';
    out_ += name;
  }
  void AppendInstructionName(const Instruction& instruction);
  void AppendComputationName(const Computation& computation);
  void AppendShape(const Shape& shape, bool with_layout) {
    out_ += shape.ToString(with_layout, style_.index_comments ? kIndexInterval : 0);
  }
  void AppendListSeparator(size_t index);
  void AppendStackFrames(const StackFrameTables& tables);
  void AppendSignature(const Computation& computation);
  void AppendBody(const Computation& computation);
  void AppendOperands(const Instruction& instruction);
  void AppendLiteral(const Instruction& instruction);
  void AppendAttributes(const Instruction& instruction);
  void AppendCallees(const Instruction& instruction, const std::string& key);
  void AppendMetadata(const OpMetadata& metadata);

  const PrintOptions& options_;
  TextStyle style_;
  std::string out_;
  std::string indent_ = "  ";
  std::unordered_map<const Computation*, std::string> computation_names_;
  std::unordered_map<const Instruction*, size_t> instruction_numbers_;
  std::unordered_set<const Computation*> inline_bodies_;
};

void HloPrinter::NameComputations(const std::vector<const Computation*>& order,
                                  const Computation* entry) {
  for (size_t i = 0; i < order.size(); ++i) {
    computation_names_[order[i]] =
        order[i] == entry ? std::string("main") : "computation." + std::to_string(i);
  }
}

void HloPrinter::NameInstructions(const Computation& computation) {
  const std::vector<Instruction*> order = computation.MakePostOrder();
  for (size_t i = 0; i < order.size(); ++i) instruction_numbers_[order[i]] = i;
}

void HloPrinter::FindInlineBodies(const Module& module) {
  if (!style_.inline_callees) return;
  std::unordered_map<const Computation*, int> call_sites;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      for (const Computation* callee : instruction->called_computations()) ++call_sites[callee];
    }
  }
  for (const auto& [callee, count] : call_sites) {
    if (count == 1 && callee != module.entry()) inline_bodies_.insert(callee);
  }
}

void HloPrinter::AppendInstructionName(const Instruction& instruction) {
  if (style_.sigils) out_ += '%';
  if (!options_.canonical_names) {
    out_ += instruction.name();
    return;
  }
  out_ += instruction.opcode_name();
  out_ += '.';
  const auto it = instruction_numbers_.find(&instruction);
  out_ += it == instruction_numbers_.end() ? std::string("x") : std::to_string(it->second);
}

void HloPrinter::AppendComputationName(const Computation& computation) {
  if (!options_.canonical_names) return AppendName(computation.name());
  const auto it = computation_names_.find(&computation);
  AppendName(it == computation_names_.end() ? computation.name() : it->second);
}

void HloPrinter::AppendListSeparator(size_t index) {
  if (index == 0) return;
  out_ += ", ";
  if (style_.operand_index_comments && index % kIndexInterval == 0) {
    out_ += "/*index=" + std::to_string(index) + "*/";
  }
}

void HloPrinter::AppendModule(const Module& module) {
  out_ += "HloModule ";
  out_ += options_.canonical_names ? std::string("module") : module.name();
  for (const auto& [key, value] : module.header_attributes()) {
    out_ += ", " + key + "=" + value;
  }
  out_ += "\n\n";
  if (options_.print_stack_frames && !module.stack_frames().empty()) {
    AppendStackFrames(module.stack_frames());
    out_ += "\n\n\n";
  }
  // Callees before their callers and ENTRY last, as XLA prints and as its parser requires
  // (a computation must be defined before a `calls=`/`to_apply=` names it). The order is
  // the stored one wherever that already is callee-first, so XLA's own text prints back as
  // it came; computations that passes appended (fused computations) move before their users.
  // A stored order that is callee-first throughout prints as stored, even with computations
  // nothing calls after ENTRY (jax writes a composite's unused decomposition there).
  std::vector<const Computation*> order;
  std::unordered_set<const Computation*> defined;
  bool stored_is_callee_first = true;
  for (const auto& computation : module.computations()) {
    for (const auto& instruction : computation->instructions()) {
      for (const Computation* callee : instruction->called_computations()) {
        if (!defined.count(callee)) stored_is_callee_first = false;
      }
    }
    if (!stored_is_callee_first) break;
    defined.insert(computation.get());
    order.push_back(computation.get());
  }
  if (!stored_is_callee_first) {
    order.clear();
    for (const Computation* computation : module.MakeComputationPostOrder()) {
      order.push_back(computation);
    }
  }
  if (options_.canonical_names) NameComputations(order, module.entry());
  FindInlineBodies(module);
  for (const Computation* computation : order) {
    if (inline_bodies_.count(computation)) continue;
    AppendComputation(*computation);
    out_ += "\n\n";
  }
}

// Tables read from text print back verbatim; tables built in memory print as XLA writes them.
void HloPrinter::AppendStackFrames(const StackFrameTables& tables) {
  if (!tables.raw_text.empty()) {
    out_ += tables.raw_text;
    return;
  }
  auto quoted_list = [&](std::string_view title, const std::vector<std::string>& names) {
    out_ += title;
    out_ += '\n';
    for (size_t i = 0; i < names.size(); ++i) {
      out_ += std::to_string(i + 1) + " \"";
      for (char c : names[i]) {
        if (c == '"' || c == '\\') out_ += '\\';
        out_ += c;
      }
      out_ += "\"\n";
    }
    out_ += '\n';
  };
  quoted_list("FileNames", tables.file_names);
  quoted_list("FunctionNames", tables.function_names);
  out_ += "FileLocations\n";
  for (size_t i = 0; i < tables.file_locations.size(); ++i) {
    const auto& l = tables.file_locations[i];
    out_ += std::to_string(i + 1) + " {file_name_id=" + std::to_string(l.file_name_id) +
            " function_name_id=" + std::to_string(l.function_name_id) +
            " line=" + std::to_string(l.line) + " end_line=" + std::to_string(l.end_line) +
            " column=" + std::to_string(l.column) + " end_column=" + std::to_string(l.end_column) +
            "}\n";
  }
  out_ += "\nStackFrames\n";
  for (size_t i = 0; i < tables.frames.size(); ++i) {
    out_ += std::to_string(i + 1) +
            " {file_location_id=" + std::to_string(tables.frames[i].file_location_id) +
            " parent_frame_id=" + std::to_string(tables.frames[i].parent_frame_id) + "}\n";
  }
}

void HloPrinter::AppendComputation(const Computation& computation) {
  if (options_.canonical_names) NameInstructions(computation);
  if (computation.IsEntry()) out_ += "ENTRY ";
  AppendComputationName(computation);
  // Canonical text always carries the signature: it must not depend on how the source was
  // written.
  if (computation.print_signature() || options_.canonical_names) AppendSignature(computation);
  out_ += ' ';
  AppendBody(computation);
  out_ += computation.trailing_attributes();
}

void HloPrinter::AppendBody(const Computation& computation) {
  out_ += "{\n";
  for (const Instruction* instruction : computation.MakePostOrder()) {
    out_ += indent_;
    if (instruction == computation.root()) out_ += "ROOT ";
    AppendInstruction(*instruction);
    out_ += '\n';
  }
  out_.append(indent_.size() - 2, ' ');
  out_ += '}';
}

// XLA's program shape: parameter names without sigils, shapes without layouts, no index
// comments between parameters.
void HloPrinter::AppendSignature(const Computation& computation) {
  out_ += " (";
  bool first = true;
  for (const Instruction* parameter : computation.parameters()) {
    if (!parameter) continue;
    if (!first) out_ += ", ";
    first = false;
    const size_t name_start = out_.size();
    AppendInstructionName(*parameter);
    if (style_.sigils) out_.erase(name_start, 1);
    out_ += ": ";
    AppendShape(parameter->shape(), false);
  }
  out_ += ") -> ";
  if (computation.root())
    AppendShape(computation.root()->shape(), false);
  else
    out_ += "()";
}

void HloPrinter::AppendInstruction(const Instruction& instruction) {
  AppendInstructionName(instruction);
  if (options_.print_ids) out_ += " /*id=" + std::to_string(instruction.id()) + "*/";
  out_ += " = ";
  AppendShape(instruction.shape(), true);
  out_ += ' ';
  out_ += instruction.opcode_name();
  out_ += '(';
  if (instruction.opcode() == Opcode::kConstant) {
    AppendLiteral(instruction);
  } else if (instruction.opcode() == Opcode::kParameter) {
    out_ += std::to_string(instruction.parameter_number());
  } else {
    AppendOperands(instruction);
  }
  out_ += ')';
  AppendAttributes(instruction);
}

void HloPrinter::AppendOperands(const Instruction& instruction) {
  const std::vector<Instruction*>& operands = instruction.operands();
  for (size_t i = 0; i < operands.size(); ++i) {
    AppendListSeparator(i);
    if (style_.operand_shapes) {
      AppendShape(operands[i]->shape(), true);
      out_ += ' ';
    }
    AppendInstructionName(*operands[i]);
  }
}

void HloPrinter::AppendLiteral(const Instruction& instruction) {
  if (!options_.print_large_constants &&
      instruction.shape().ElementCount() > kLargeConstantElements) {
    out_ += "{...}";
  } else if (options_.canonical_names) {
    out_ += CollapseWhitespace(instruction.literal());
  } else {
    out_ += instruction.literal();
  }
}

// Attributes in stored order. Metadata goes where XLA puts it: after everything else but
// before backend_config.
void HloPrinter::AppendAttributes(const Instruction& instruction) {
  bool metadata_done = !options_.print_metadata || instruction.metadata().empty();
  for (const Attribute& attribute : instruction.attributes()) {
    if (attribute.key == "backend_config") {
      if (!metadata_done) AppendMetadata(instruction.metadata());
      metadata_done = true;
      if (!options_.print_backend_config) continue;
    }
    if (attribute.names_computations) {
      AppendCallees(instruction, attribute.key);
      continue;
    }
    out_ += ", " + attribute.key + "=" + attribute.value;
  }
  if (!metadata_done) AppendMetadata(instruction.metadata());
}

void HloPrinter::AppendCallees(const Instruction& instruction, const std::string& key) {
  const std::vector<Computation*> callees = instruction.CalledComputations(key);
  const bool braced = IsComputationListKey(key) || callees.size() != 1;
  out_ += ", " + key + "=";
  if (braced) out_ += '{';
  for (size_t i = 0; i < callees.size(); ++i) {
    if (i) out_ += ", ";
    if (!inline_bodies_.count(callees[i])) {
      AppendComputationName(*callees[i]);
      continue;
    }
    if (options_.canonical_names) NameInstructions(*callees[i]);
    indent_ += "  ";
    AppendBody(*callees[i]);
    indent_.resize(indent_.size() - 2);
  }
  if (braced) out_ += '}';
}

void HloPrinter::AppendMetadata(const OpMetadata& metadata) {
  out_ += ", metadata={";
  for (size_t i = 0; i < metadata.fields.size(); ++i) {
    if (i) out_ += ' ';
    out_ += metadata.fields[i].first + "=" + metadata.fields[i].second;
  }
  out_ += '}';
}

TextStyle StyleOf(const Computation& computation) {
  return computation.parent() ? computation.parent()->text_style() : TextStyle{};
}

// FNV-1a, 64 bit.
uint64_t Hash(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

PrintOptions PrintOptions::Canonical() {
  PrintOptions options;
  options.canonical_names = true;
  options.print_metadata = false;
  options.print_stack_frames = false;
  options.style = TextStyle{
      .sigils = true, .operand_shapes = false, .index_comments = false,
      .operand_index_comments = false, .inline_callees = false};
  return options;
}

PrintOptions PrintOptions::Fingerprint() {
  PrintOptions options = Canonical();
  options.print_large_constants = false;
  return options;
}

std::string PrintModule(const Module& module, const PrintOptions& options) {
  HloPrinter printer(options, module.text_style());
  printer.AppendModule(module);
  return printer.Take();
}

// Canonical names of a lone computation number it and what it calls, in post order from it.
std::string PrintComputation(const Computation& computation, const PrintOptions& options) {
  HloPrinter printer(options, StyleOf(computation));
  if (computation.parent()) printer.FindInlineBodies(*computation.parent());
  if (options.canonical_names) {
    const Module* module = computation.parent();
    printer.NameComputations(ReachablePostOrder(computation), module ? module->entry() : nullptr);
  }
  printer.AppendComputation(computation);
  return printer.Take();
}

std::string PrintInstruction(const Instruction& instruction, const PrintOptions& options) {
  const Computation* parent = instruction.parent();
  HloPrinter printer(options, parent ? StyleOf(*parent) : TextStyle{});
  if (parent && parent->parent()) printer.FindInlineBodies(*parent->parent());
  if (options.canonical_names && parent) {
    const Module* module = parent->parent();
    printer.NameComputations(ReachablePostOrder(*parent), module ? module->entry() : nullptr);
    printer.NameInstructions(*parent);
  }
  printer.AppendInstruction(instruction);
  return printer.Take();
}

uint64_t Fingerprint(const Module& module) {
  return Hash(PrintModule(module, PrintOptions::Fingerprint()));
}

// Covers the computations it calls too: a reduce with another reducer is another computation.
uint64_t Fingerprint(const Computation& computation) {
  const PrintOptions options = PrintOptions::Fingerprint();
  HloPrinter printer(options, StyleOf(computation));
  const std::vector<const Computation*> order = ReachablePostOrder(computation);
  const Module* module = computation.parent();
  printer.NameComputations(order, module ? module->entry() : nullptr);
  for (const Computation* reached : order) printer.AppendComputation(*reached);
  return Hash(printer.Take());
}

}  // namespace fusescope::ir
