#include "ir/hlo_parser.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/hlo_lexer.h"
#include "ir/name_index.h"

namespace fusescope::ir {
namespace {

// Deeper nesting than this is not HLO anyone wrote; refusing it keeps the recursive readers
// of tuple shapes and inline computation bodies off the end of the stack.
constexpr int kMaxShapeDepth = 200;
constexpr int kMaxInlineDepth = 50;
// Far above any real tensor (2^40 f32 elements are 4 TiB), far below where element counts,
// byte sizes and their sums overflow int64.
constexpr int64_t kMaxElements = int64_t{1} << 40;
// Ids beyond this leave no room for the fresh ids assigned after them.
constexpr int64_t kMaxInstructionId = int64_t{1} << 62;

// XLA prints these attributes as lists of computations in braces.
bool IsComputationListKey(std::string_view key) {
  return key == "branch_computations" || key == "called_computations";
}

bool NamesComputations(std::string_view key) {
  return key == "calls" || key == "to_apply" || key == "body" || key == "condition" ||
         key == "true_computation" || key == "false_computation" || key == "select" ||
         key == "scatter" || IsComputationListKey(key);
}

// A computation named by an attribute, or written in full at the call site (XLA's canonical
// form: `to_apply={ ... }`), in which case `inline_index` points into the parsed computations.
struct CalleeRef {
  std::string_view name;
  size_t offset;
  size_t inline_index = SIZE_MAX;
};

// Attributes are applied once every computation is known, so that `calls=` may name a
// computation written further down and the attributes still keep their written order.
struct PendingAttribute {
  std::string_view key;
  std::string_view value;
  std::vector<CalleeRef> callees;
  bool names_computations = false;
};

struct PendingInstruction {
  Instruction* instruction;
  std::vector<PendingAttribute> attributes;
};

struct ParsedComputation {
  std::unique_ptr<Computation> computation;
  size_t offset;
  bool is_entry = false;
  std::string inline_name_base;  // set for bodies written at their call site
};

struct NameDefinition {
  Instruction* instruction;
  size_t offset;
};

struct ParameterDefinition {
  int64_t number;
  size_t offset;
};

// What is known about one computation while it is being read.
struct NameScope {
  NameIndex index;  // instruction name -> position in `definitions`
  std::vector<NameDefinition> definitions;
  std::vector<ParameterDefinition> parameters;
  // Instructions join it as they are read, while they are still in cache.
  std::unique_ptr<Computation> computation;
  // Except from the first parameter whose number exceeds the count of instructions before it:
  // a computation sizes its parameter list by the numbers it is given, and they are checked
  // only at the end. These join once they are.
  std::vector<std::unique_ptr<Instruction>> held;
  Instruction* root = nullptr;
  // The attributes of the instruction being read.
  std::vector<PendingAttribute> attributes;

  void Start(std::string_view name) {
    index.Clear();
    definitions.clear();
    parameters.clear();
    computation = std::make_unique<Computation>(std::string(name));
    held.clear();
    root = nullptr;
  }
  void Add(std::unique_ptr<Instruction> instruction) {
    const bool unchecked_number =
        instruction->opcode() == Opcode::kParameter &&
        instruction->parameter_number() > static_cast<int64_t>(definitions.size());
    if (held.empty() && !unchecked_number) {
      computation->AddInstruction(std::move(instruction));
    } else {
      held.push_back(std::move(instruction));
    }
  }
};

// C-style unescaping of a quoted table entry ("a\"b" -> a"b, octal \303 -> byte 0xC3).
std::string Unquote(std::string_view quoted) {
  std::string_view text = quoted.substr(1, quoted.size() - 2);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char next = text[++i];
    if (next >= '0' && next <= '7') {
      int value = 0;
      size_t digits = 0;
      for (; digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++digits) {
        value = value * 8 + (text[i++] - '0');
      }
      --i;
      out += static_cast<char>(value);
      continue;
    }
    out += next == 'n' ? '\n' : next == 't' ? '\t' : next == 'r' ? '\r' : next;
  }
  return out;
}

// One pass over the text with short lookahead (one name at most), so parsing is linear. Each
// Parse* step returns false after Fail() has recorded the first error with its offset; the
// offset becomes "LINE:COL" only then. Computations are built as they are read but join a
// Module only in Assemble(), once everything resolved, so a failure leaves nothing behind.
class HloParser {
 public:
  HloParser(std::string_view text, std::string_view file_name)
      : lexer_(text), file_name_(file_name) {}

  StatusOr<std::unique_ptr<Module>> ParseModule();
  StatusOr<Shape> ParseShapeOnly();

 private:
  bool Fail(size_t offset, std::string cause);
  Status ErrorStatus() const;
  std::string Position(size_t offset) const;
  // Inline: called between almost every two tokens.
  bool SkipTrivia() { return lexer_.SkipTrivia() || FailUnterminatedComment(); }
  bool FailUnterminatedComment();
  bool Expect(char c, std::string_view what);
  // Expects `c` after the name or key `after`: "expected '=' after 'x'".
  bool ExpectAfter(char c, std::string_view after);

  bool ParseHeader();
  bool ParseAttributeValue(std::string_view key, std::string_view* value);
  bool ParseStackFrameTables();
  bool ParseTableEntries(std::string_view table);
  bool ParseTableRecord(std::vector<std::pair<std::string_view, int64_t>>* fields);
  bool ParseComputation();
  bool ParseComputationBody(std::string_view name, size_t offset,
                            std::unique_ptr<Computation>* computation);
  bool ParseInstructions(std::string_view name, size_t offset, NameScope& scope);
  bool ParseSignature();
  bool ParseTrailingAttributes(Computation* computation);
  bool ParseInstruction(NameScope& scope);
  bool ParseInstructionId(int64_t* id);
  bool ParseInstructionBody(std::string_view opcode_text, size_t opcode_offset, Shape shape,
                            std::string_view name, std::unique_ptr<Instruction>* out);
  bool ParseOperands(std::vector<Instruction*>* operands);
  bool ParseOperand(Instruction** operand);
  bool ParseAttributes(Instruction* instruction, std::string_view name);
  bool ParseAttribute(Instruction* instruction, std::string_view name,
                      std::vector<PendingAttribute>& attributes);
  bool ParseMetadata(OpMetadata* metadata);
  bool ParseCallees(std::string_view key, std::string_view caller, PendingAttribute* attribute);
  bool ParseCallee(std::string_view key, std::string_view caller, PendingAttribute* attribute);
  bool StartsInlineBody();
  bool FailUndefinedOperand(std::string_view name, size_t offset);
  bool CheckParameters(std::string_view computation_name, const NameScope& scope);
  bool ParseShape(Shape* shape, int depth);
  bool ParseArrayShape(Shape* shape);
  bool ParseDimensions(std::vector<int64_t>* dims);
  bool LooksLikeLayout() const;
  bool ParseLayout(Layout* layout);
  bool ParseLayoutField(Layout* layout);
  bool ParseTiles(Layout* layout);
  bool ParseInt(int64_t* value, std::string_view what);

  void NameInlineComputations();
  static void MakeInstructionNamesUnique(Module& module);
  bool ResolveCalls();
  bool CheckCallCycles();
  std::vector<std::vector<size_t>> CallGraph() const;
  std::unique_ptr<Module> Assemble();

  HloLexer lexer_;
  std::string_view file_name_;
  std::optional<std::pair<size_t, std::string>> error_;

  std::string module_name_;
  std::vector<std::pair<std::string, std::string>> header_;
  StackFrameTables tables_;
  std::vector<ParsedComputation> computations_;
  NameIndex computation_index_;  // name -> position in computations_
  std::optional<size_t> entry_index_;

  // One scope per computation being read, the innermost last: an inline body is read in the
  // middle of its caller's instruction. Scopes outlive their computations so that the next
  // one reuses their storage.
  std::vector<std::unique_ptr<NameScope>> scopes_;
  size_t depth_ = 0;
  NameScope& scope() { return *scopes_[depth_ - 1]; }

  std::vector<PendingInstruction> pending_;
  std::unordered_map<int64_t, size_t> explicit_ids_;

  std::optional<bool> sigils_;
  std::optional<bool> operand_shapes_;
  // Long lists with and without `/*index=N*/`, apart for shapes and operand lists: jax
  // writes them in tuple shapes but not between operands.
  bool long_shape_seen_ = false;
  bool shape_index_comment_seen_ = false;
  bool long_operand_list_seen_ = false;
  bool operand_index_comment_seen_ = false;
  int inline_depth_ = 0;
  // Scratch space, so that lists are read without growing the vectors that keep them.
  std::vector<int64_t> dimensions_;  // of ParseArrayShape and ParseLayout
  std::vector<int64_t> dynamic_dimensions_;
  std::vector<Instruction*> operands_;
  std::vector<std::pair<std::string_view, std::string_view>> metadata_fields_;
};

bool HloParser::Fail(size_t offset, std::string cause) {
  if (!error_) error_.emplace(offset, std::move(cause));
  return false;
}

bool HloParser::FailUnterminatedComment() { return Fail(lexer_.offset(), "unterminated comment"); }

std::string HloParser::Position(size_t offset) const {
  const auto [line, column] = lexer_.LineColumn(offset);
  return std::to_string(line) + ":" + std::to_string(column);
}

Status HloParser::ErrorStatus() const {
  return Status::Error(std::string(file_name_) + ":" + Position(error_->first) + ": " +
                       error_->second);
}

bool HloParser::Expect(char c, std::string_view what) {
  if (!SkipTrivia()) return false;
  if (lexer_.Consume(c)) return true;
  if (lexer_.AtEnd()) {
    return Fail(lexer_.offset(), "unexpected end of file, expected " + std::string(what));
  }
  return Fail(lexer_.offset(), "expected " + std::string(what));
}

bool HloParser::ExpectAfter(char c, std::string_view after) {
  if (!SkipTrivia()) return false;
  if (lexer_.Consume(c)) return true;
  return Expect(c, std::string("'") + c + "' after '" + std::string(after) + "'");
}

bool HloParser::ParseInt(int64_t* value, std::string_view what) {
  if (!SkipTrivia()) return false;
  switch (lexer_.ScanInt(value)) {
    case HloLexer::IntStatus::kOk:
      return true;
    case HloLexer::IntStatus::kOutOfRange:
      return Fail(lexer_.offset(), "integer out of range in " + std::string(what));
    case HloLexer::IntStatus::kNone:
      break;
  }
  const std::string_view prefix = lexer_.AtEnd() ? "unexpected end of file, expected" : "expected";
  return Fail(lexer_.offset(), std::string(prefix) + " an integer " + std::string(what));
}

StatusOr<std::unique_ptr<Module>> HloParser::ParseModule() {
  if (lexer_.StartsWith("\xEF\xBB\xBF")) lexer_.Advance(3);
  bool ok = ParseHeader() && ParseStackFrameTables();
  while (ok) {
    if (!SkipTrivia()) break;
    if (lexer_.AtEnd()) break;
    ok = ParseComputation();
  }
  if (ok && computations_.empty()) {
    Fail(lexer_.offset(), "module '" + module_name_ + "' has no computations");
  }
  if (ok && !error_) {
    NameInlineComputations();
    ok = ResolveCalls() && CheckCallCycles();
  }
  if (error_) return ErrorStatus();
  return Assemble();
}

StatusOr<Shape> HloParser::ParseShapeOnly() {
  Shape shape;
  if (ParseShape(&shape, 0) && SkipTrivia() && !lexer_.AtEnd()) {
    Fail(lexer_.offset(), "unexpected text after the shape");
  }
  if (error_) return ErrorStatus();
  return shape;
}

// `HloModule name, key=value, ...`: values kept verbatim.
bool HloParser::ParseHeader() {
  if (!SkipTrivia()) return false;
  if (!lexer_.ConsumeWord("HloModule")) {
    return Fail(lexer_.offset(), "expected 'HloModule' at the start of the module");
  }
  if (!SkipTrivia()) return false;
  module_name_ = std::string(lexer_.ScanUntil(","));
  if (module_name_.empty()) return Fail(lexer_.offset(), "expected a module name");
  // A control character would print back as something else (a NUL, and the next line's
  // word became the name when read again).
  for (size_t i = 0; i < module_name_.size(); ++i) {
    const auto c = static_cast<unsigned char>(module_name_[i]);
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", c);
      return Fail(lexer_.offset() - module_name_.size() + i,
                  std::string("module name contains control character ") + code);
    }
  }
  while (true) {
    if (!SkipTrivia()) return false;
    if (!lexer_.Consume(',')) return true;
    if (!SkipTrivia()) return false;
    const size_t key_offset = lexer_.offset();
    const std::string_view key = lexer_.ScanName();
    if (key.empty()) return Fail(key_offset, "expected a module attribute name");
    std::string_view value;
    if (!ExpectAfter('=', key) || !ParseAttributeValue(key, &value)) {
      return false;
    }
    header_.emplace_back(std::string(key), std::string(value));
  }
}

bool HloParser::ParseAttributeValue(std::string_view key, std::string_view* value) {
  if (!SkipTrivia()) return false;
  const size_t start = lexer_.offset();
  if (auto error = lexer_.ScanBalanced(HloLexer::SpanMode::kAttributeValue, value)) {
    return Fail(error->offset, std::move(error->message));
  }
  if (value->empty()) return Fail(start, "expected a value for '" + std::string(key) + "'");
  return true;
}

// FileNames / FunctionNames / FileLocations / StackFrames, in any order, each optional.
bool HloParser::ParseStackFrameTables() {
  static constexpr std::string_view kTables[] = {"FileNames", "FunctionNames", "FileLocations",
                                                 "StackFrames"};
  std::optional<size_t> start;
  while (true) {
    if (!SkipTrivia()) return false;
    const size_t at = lexer_.offset();
    std::string_view table;
    for (std::string_view candidate : kTables) {
      if (lexer_.ConsumeWord(candidate)) table = candidate;
    }
    if (table.empty()) break;
    if (!SkipTrivia()) return false;
    // A computation may be called FileNames too; a table is followed by an entry number.
    if (!HloLexer::IsDigit(lexer_.Peek()) && !lexer_.AtEnd() &&
        !HloLexer::IsNameChar(lexer_.Peek())) {
      lexer_.set_offset(at);
      break;
    }
    if (!start) start = at;
    if (!ParseTableEntries(table)) return false;
  }
  if (start) {
    size_t end = lexer_.offset();
    const std::string_view text = lexer_.text();
    while (end > *start && HloLexer::IsSpace(text[end - 1])) --end;
    tables_.raw_text = std::string(text.substr(*start, end - *start));
  }
  return true;
}

bool HloParser::ParseTableEntries(std::string_view table) {
  while (true) {
    if (!SkipTrivia()) return false;
    if (!HloLexer::IsDigit(lexer_.Peek())) return true;
    const size_t at = lexer_.offset();
    int64_t number = 0;
    if (!ParseInt(&number, "entry number")) return false;
    if (!SkipTrivia()) return false;
    if (table == "FileNames" || table == "FunctionNames") {
      std::vector<std::string>& names =
          table == "FileNames" ? tables_.file_names : tables_.function_names;
      if (number != static_cast<int64_t>(names.size()) + 1) {
        return Fail(
            at, "expected entry " + std::to_string(names.size() + 1) + " of " + std::string(table));
      }
      std::string_view quoted;
      if (lexer_.Peek() != '"') return Fail(lexer_.offset(), "expected a quoted name");
      if (!lexer_.ScanQuoted(&quoted)) return Fail(lexer_.offset(), "unterminated string");
      names.push_back(Unquote(quoted));
      continue;
    }
    const bool locations = table == "FileLocations";
    const size_t size = locations ? tables_.file_locations.size() : tables_.frames.size();
    if (number != static_cast<int64_t>(size) + 1) {
      return Fail(at, "expected entry " + std::to_string(size + 1) + " of " + std::string(table));
    }
    std::vector<std::pair<std::string_view, int64_t>> fields;
    if (!ParseTableRecord(&fields)) return false;
    if (locations) {
      StackFrameTables::FileLocation& location = tables_.file_locations.emplace_back();
      for (const auto& [key, value] : fields) {
        if (key == "file_name_id") location.file_name_id = value;
        if (key == "function_name_id") location.function_name_id = value;
        if (key == "line") location.line = value;
        if (key == "end_line") location.end_line = value;
        if (key == "column") location.column = value;
        if (key == "end_column") location.end_column = value;
      }
    } else {
      StackFrameTables::StackFrame& frame = tables_.frames.emplace_back();
      for (const auto& [key, value] : fields) {
        if (key == "file_location_id") frame.file_location_id = value;
        if (key == "parent_frame_id") frame.parent_frame_id = value;
      }
    }
  }
}

// `{file_name_id=1 function_name_id=2 line=3}`: integer fields, blank or comma separated.
bool HloParser::ParseTableRecord(std::vector<std::pair<std::string_view, int64_t>>* fields) {
  if (!Expect('{', "'{'")) return false;
  while (true) {
    if (!SkipTrivia()) return false;
    if (lexer_.Consume('}')) return true;
    if (lexer_.Consume(',')) continue;
    const size_t at = lexer_.offset();
    const std::string_view key = lexer_.ScanName();
    if (key.empty()) {
      if (lexer_.AtEnd()) return Fail(at, "unexpected end of file, expected '}'");
      return Fail(at, "expected a field name or '}'");
    }
    int64_t value = 0;
    if (!ExpectAfter('=', key) || !ParseInt(&value, "for '" + std::string(key) + "'")) {
      return false;
    }
    fields->emplace_back(key, value);
  }
}

bool HloParser::ParseComputation() {
  const size_t start = lexer_.offset();
  bool is_entry = false;
  if (lexer_.ConsumeWord("ENTRY")) {
    if (!SkipTrivia()) return false;
    is_entry = lexer_.Peek() == '%' || HloLexer::IsNameChar(lexer_.Peek());
    if (!is_entry) lexer_.set_offset(start);
  }
  const size_t name_offset = lexer_.offset();
  lexer_.Consume('%');
  const std::string_view name = lexer_.ScanName();
  if (name.empty()) return Fail(name_offset, "expected a computation");
  if (const uint32_t* first = computation_index_.Find(name)) {
    return Fail(name_offset, "duplicate computation name '" + std::string(name) +
                                 "' (first defined at " + Position(computations_[*first].offset) +
                                 ")");
  }
  if (is_entry && entry_index_) {
    return Fail(start, "second ENTRY computation (the first is at " +
                           Position(computations_[*entry_index_].offset) + ")");
  }
  if (!SkipTrivia()) return false;
  const bool has_signature = lexer_.Peek() == '(';
  if (has_signature && !ParseSignature()) return false;
  std::unique_ptr<Computation> computation;
  if (!ParseComputationBody(name, name_offset, &computation) ||
      !ParseTrailingAttributes(computation.get())) {
    return false;
  }
  computation->set_print_signature(has_signature);
  // Inline bodies inside it were stored first: its index is known only now.
  computation_index_.Insert(name, static_cast<uint32_t>(computations_.size()));
  if (is_entry) entry_index_ = computations_.size();
  computations_.push_back({std::move(computation), name_offset, is_entry, ""});
  return true;
}

// `{ instructions }`. Reentrant: an inline body is read in the middle of its caller's
// instruction, in a scope of its own.
bool HloParser::ParseComputationBody(std::string_view name, size_t offset,
                                     std::unique_ptr<Computation>* computation) {
  if (!SkipTrivia()) return false;
  if (!lexer_.Consume('{') && !Expect('{', "'{' to open computation '" + std::string(name) + "'")) {
    return false;
  }
  if (scopes_.size() == depth_) scopes_.push_back(std::make_unique<NameScope>());
  NameScope& scope = *scopes_[depth_++];
  scope.Start(name);
  const bool ok = ParseInstructions(name, offset, scope) && CheckParameters(name, scope);
  --depth_;
  if (!ok) return false;
  *computation = std::move(scope.computation);
  for (auto& instruction : scope.held) (*computation)->AddInstruction(std::move(instruction));
  (*computation)->set_root(scope.root ? scope.root : (*computation)->instructions().back().get());
  return true;
}

bool HloParser::ParseInstructions(std::string_view name, size_t offset, NameScope& scope) {
  while (true) {
    if (!SkipTrivia()) return false;
    if (lexer_.Consume('}')) break;
    if (lexer_.AtEnd()) {
      return Fail(lexer_.offset(), "unexpected end of file, expected '}' to close computation '" +
                                       std::string(name) + "'");
    }
    if (!ParseInstruction(scope)) return false;
  }
  if (scope.definitions.empty()) {
    return Fail(offset, "computation '" + std::string(name) + "' has no instructions");
  }
  return true;
}

// `(p0: f32[8], p1: (s32[], f32[])) -> f32[8]`. The parameter instructions are the truth;
// the signature is read for validity and re-derived when printing.
bool HloParser::ParseSignature() {
  lexer_.Consume('(');
  if (!SkipTrivia()) return false;
  if (!lexer_.Consume(')')) {
    while (true) {
      if (!SkipTrivia()) return false;
      const size_t at = lexer_.offset();
      lexer_.Consume('%');
      if (lexer_.ScanName().empty()) return Fail(at, "expected a parameter name");
      Shape shape;
      if (!Expect(':', "':' after the parameter name") || !ParseShape(&shape, 0)) return false;
      if (!SkipTrivia()) return false;
      if (lexer_.Consume(')')) break;
      if (!Expect(',', "',' or ')' in the parameter list")) return false;
    }
  }
  Shape result;
  if (!SkipTrivia()) return false;
  if (!lexer_.StartsWith("->")) return Fail(lexer_.offset(), "expected '->' after the parameters");
  lexer_.Advance(2);
  return ParseShape(&result, 0);
}

// `}, execution_thread="x"`: kept verbatim for printing.
bool HloParser::ParseTrailingAttributes(Computation* computation) {
  const size_t start = lexer_.offset();
  // Only on the closing brace's own line: a new line starts the next computation.
  while (lexer_.Peek() == ' ' || lexer_.Peek() == '\t') lexer_.Advance();
  if (lexer_.Peek() != ',') {
    lexer_.set_offset(start);
    return true;
  }
  const size_t text_start = lexer_.offset();
  while (lexer_.Consume(',')) {
    if (!SkipTrivia()) return false;
    const size_t key_offset = lexer_.offset();
    const std::string_view key = lexer_.ScanName();
    if (key.empty()) return Fail(key_offset, "expected an attribute name");
    std::string_view value;
    if (!ExpectAfter('=', key) || !ParseAttributeValue(key, &value)) {
      return false;
    }
    const size_t after_value = lexer_.offset();
    if (!SkipTrivia()) return false;
    if (lexer_.Peek() != ',') lexer_.set_offset(after_value);
  }
  std::string_view text = lexer_.text().substr(text_start, lexer_.offset() - text_start);
  while (!text.empty() && HloLexer::IsSpace(text.back())) text.remove_suffix(1);
  computation->set_trailing_attributes(std::string(text));
  return true;
}

bool HloParser::CheckParameters(std::string_view computation_name, const NameScope& scope) {
  const std::vector<ParameterDefinition>& parameters = scope.parameters;
  std::vector<size_t> seen(parameters.size(), SIZE_MAX);
  for (const ParameterDefinition& parameter : parameters) {
    if (parameter.number >= static_cast<int64_t>(parameters.size())) {
      return Fail(parameter.offset, "parameter number " + std::to_string(parameter.number) +
                                        " is out of range: computation '" +
                                        std::string(computation_name) + "' has " +
                                        std::to_string(parameters.size()) + " parameters");
    }
    size_t& first = seen[static_cast<size_t>(parameter.number)];
    if (first != SIZE_MAX) {
      return Fail(parameter.offset, "duplicate parameter number " +
                                        std::to_string(parameter.number) + " (first at " +
                                        Position(first) + ")");
    }
    first = parameter.offset;
  }
  return true;
}

bool HloParser::ParseInstruction(NameScope& scope) {
  const size_t start = lexer_.offset();
  bool is_root = false;
  if (lexer_.ConsumeWord("ROOT")) {
    if (!SkipTrivia()) return false;
    // An instruction may itself be named ROOT.
    is_root = lexer_.Peek() != '=' && lexer_.Peek() != '/';
    if (!is_root) lexer_.set_offset(start);
  }
  const size_t name_offset = lexer_.offset();
  const bool sigil = lexer_.Consume('%');
  const std::string_view name = lexer_.ScanName();
  if (name.empty()) return Fail(name_offset, "expected an instruction or '}'");
  if (!sigils_) sigils_ = sigil;
  if (const uint32_t* first = scope.index.Find(name)) {
    return Fail(name_offset, "duplicate instruction name '" + std::string(name) +
                                 "' (first defined at " +
                                 Position(scope.definitions[*first].offset) + ")");
  }
  int64_t id = -1;
  if (!ParseInstructionId(&id) || !ExpectAfter('=', name)) return false;
  Shape shape;
  if (!ParseShape(&shape, 0) || !SkipTrivia()) return false;
  const size_t opcode_offset = lexer_.offset();
  const std::string_view opcode = lexer_.ScanName();
  if (opcode.empty()) return Fail(opcode_offset, "expected an opcode");
  std::unique_ptr<Instruction> instruction;
  if (!ParseInstructionBody(opcode, opcode_offset, std::move(shape), name, &instruction)) {
    return false;
  }
  instruction->set_id(id);
  if (!ParseAttributes(instruction.get(), name)) return false;
  if (is_root) {
    if (scope.root) return Fail(start, "second ROOT in this computation");
    scope.root = instruction.get();
  }
  Instruction* added = instruction.get();
  scope.index.Insert(name, static_cast<uint32_t>(scope.definitions.size()));
  scope.Add(std::move(instruction));
  scope.definitions.push_back({added, name_offset});
  return true;
}

// `%name /*id=12*/ = ...`: ids as recordings write them.
bool HloParser::ParseInstructionId(int64_t* id) {
  lexer_.SkipWhitespace();
  if (!lexer_.StartsWith("/*id=")) return true;
  const size_t at = lexer_.offset();
  lexer_.Advance(5);
  if (lexer_.ScanInt(id) != HloLexer::IntStatus::kOk || *id < 0 || !lexer_.StartsWith("*/")) {
    return Fail(at, "malformed instruction id comment");
  }
  if (*id >= kMaxInstructionId) return Fail(at, "instruction id out of range");
  lexer_.Advance(2);
  if (auto [it, inserted] = explicit_ids_.emplace(*id, at); !inserted) {
    return Fail(at, "duplicate instruction id " + std::to_string(*id) + " (first at " +
                        Position(it->second) + ")");
  }
  return true;
}

bool HloParser::ParseInstructionBody(std::string_view opcode_text, size_t opcode_offset,
                                     Shape shape, std::string_view name,
                                     std::unique_ptr<Instruction>* out) {
  if (!Expect('(', "'(' after the opcode")) return false;
  const std::optional<Opcode> opcode = OpcodeFromName(opcode_text);
  std::vector<Instruction*> operands;
  if (opcode == Opcode::kConstant) {
    const size_t literal_offset = lexer_.offset();
    std::string_view literal;
    if (auto error = lexer_.ScanBalanced(HloLexer::SpanMode::kUntilClose, &literal)) {
      return Fail(error->offset, std::move(error->message));
    }
    if (!lexer_.Consume(')')) {
      return Fail(lexer_.AtEnd() ? literal_offset : lexer_.offset(),
                  "expected ')' to close the constant");
    }
    while (!literal.empty() && HloLexer::IsSpace(literal.front())) literal.remove_prefix(1);
    *out = Instruction::Create(*opcode, std::move(shape), {}, std::string(name));
    (*out)->set_literal(std::string(literal));
    return true;
  }
  if (opcode == Opcode::kParameter) {
    const size_t at = lexer_.offset();
    int64_t number = 0;
    if (!ParseInt(&number, "parameter number") || !Expect(')', "')'")) return false;
    if (number < 0) return Fail(at, "negative parameter number");
    scope().parameters.push_back({number, opcode_offset});
    *out = Instruction::Create(*opcode, std::move(shape), {}, std::string(name));
    (*out)->set_parameter_number(number);
    return true;
  }
  if (!ParseOperands(&operands)) return false;
  *out = opcode ? Instruction::Create(*opcode, std::move(shape), std::move(operands),
                                      std::string(name))
                : Instruction::CreateUnknown(std::string(opcode_text), std::move(shape),
                                             std::move(operands), std::string(name));
  return true;
}

bool HloParser::ParseOperands(std::vector<Instruction*>* operands) {
  const int64_t index_comments = lexer_.index_comment_count();
  if (!SkipTrivia()) return false;
  if (lexer_.Consume(')')) return true;
  operands_.clear();
  while (true) {
    Instruction* operand = nullptr;
    if (!ParseOperand(&operand)) return false;
    operands_.push_back(operand);
    if (!SkipTrivia()) return false;
    if (lexer_.Consume(')')) break;
    if (!Expect(',', "',' or ')' after an operand")) return false;
  }
  if (operands_.size() > 5) long_operand_list_seen_ = true;
  if (lexer_.index_comment_count() != index_comments) operand_index_comment_seen_ = true;
  operands->assign(operands_.begin(), operands_.end());
  return true;
}

// `%x`, `x`, `f32[8]{0} %x` or `(f32[], s32[]) x`.
bool HloParser::ParseOperand(Instruction** operand) {
  if (!SkipTrivia()) return false;
  size_t name_offset = lexer_.offset();
  const char first = lexer_.Peek();
  // A bare word is the operand's name unless a '[' shows it to be an element type.
  std::string_view name = first == '(' || first == '%' ? std::string_view() : lexer_.ScanName();
  const bool typed = first == '(' || (!name.empty() && lexer_.Peek() == '[');
  if (!operand_shapes_) operand_shapes_ = typed;
  if (typed) {
    lexer_.set_offset(name_offset);
    Shape ignored;
    if (!ParseShape(&ignored, 0) || !SkipTrivia()) return false;
    name_offset = lexer_.offset();
  }
  if (typed || name.empty()) {
    lexer_.Consume('%');
    name = lexer_.ScanName();
  }
  if (name.empty()) {
    if (lexer_.AtEnd()) return Fail(name_offset, "unexpected end of file, expected an operand");
    return Fail(name_offset, "expected an operand name");
  }
  const NameScope& names = scope();
  const uint32_t* definition = names.index.Find(name);
  if (definition == nullptr) return FailUndefinedOperand(name, name_offset);
  *operand = names.definitions[*definition].instruction;
  return true;
}

// Distinguishes a use before the definition (XLA requires definitions first) from a name
// that is not defined at all. Only runs on the error path.
bool HloParser::FailUndefinedOperand(std::string_view name, size_t offset) {
  const std::string_view text = lexer_.text();
  const size_t body_end = text.find("\n}", offset);
  for (size_t at = text.find(name, offset + name.size()); at < body_end && at != text.npos;
       at = text.find(name, at + 1)) {
    size_t before = at;
    if (before > 0 && text[before - 1] == '%') --before;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
    if (before >= 4 && text.substr(before - 4, 4) == "ROOT") before -= 4;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
    size_t after = at + name.size();
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    const bool line_start = before == 0 || text[before - 1] == '\n';
    if (line_start && (after == text.size() || text[after] == '=' || text[after] == '/')) {
      return Fail(offset, "operand '" + std::string(name) + "' is used before its definition at " +
                              Position(at));
    }
  }
  return Fail(offset, "undefined operand '" + std::string(name) + "'");
}

bool HloParser::ParseAttributes(Instruction* instruction, std::string_view name) {
  // Collected first: those that name computations wait in pending_ until every computation is
  // known, and the rest must keep their written order among them.
  std::vector<PendingAttribute>& attributes = scope().attributes;
  attributes.clear();
  while (true) {
    if (!SkipTrivia()) return false;
    if (!lexer_.Consume(',')) break;
    if (!ParseAttribute(instruction, name, attributes)) return false;
  }
  const bool names_computations =
      std::any_of(attributes.begin(), attributes.end(),
                  [](const PendingAttribute& attribute) { return attribute.names_computations; });
  if (names_computations) {
    pending_.push_back({instruction, attributes});
    return true;
  }
  for (const PendingAttribute& attribute : attributes) {
    instruction->SetAttribute(attribute.key, std::string(attribute.value));
  }
  return true;
}

bool HloParser::ParseAttribute(Instruction* instruction, std::string_view name,
                               std::vector<PendingAttribute>& attributes) {
  if (!SkipTrivia()) return false;
  const size_t key_offset = lexer_.offset();
  const std::string_view key = lexer_.ScanName();
  if (key.empty()) return Fail(key_offset, "expected an attribute name");
  for (const PendingAttribute& other : attributes) {
    if (other.key == key) return Fail(key_offset, "duplicate attribute '" + std::string(key) + "'");
  }
  if (key == "metadata" && !instruction->metadata().empty()) {
    return Fail(key_offset, "duplicate attribute 'metadata'");
  }
  if (!ExpectAfter('=', key) || !SkipTrivia()) return false;
  if (key == "metadata") return ParseMetadata(&instruction->mutable_metadata());
  PendingAttribute& attribute = attributes.emplace_back();
  attribute.key = key;
  if (NamesComputations(key)) return ParseCallees(key, name, &attribute);
  return ParseAttributeValue(key, &attribute.value);
}

// `metadata={op_type="Mean" op_name="a/Mean" source_line=10 stack_frame_id=3}`.
bool HloParser::ParseMetadata(OpMetadata* metadata) {
  const size_t open = lexer_.offset();
  if (!Expect('{', "'{' after 'metadata='")) return false;
  metadata_fields_.clear();
  while (true) {
    if (!SkipTrivia()) return false;
    if (lexer_.Consume('}')) break;
    if (lexer_.Consume(',')) continue;
    const size_t at = lexer_.offset();
    const std::string_view key = lexer_.ScanName();
    if (key.empty()) {
      if (lexer_.AtEnd()) return Fail(open, "unbalanced '{' (no matching '}')");
      return Fail(at, "expected a metadata field name or '}'");
    }
    if (!ExpectAfter('=', key) || !SkipTrivia()) return false;
    std::string_view value;
    if (lexer_.Peek() == '"') {
      if (!lexer_.ScanQuoted(&value)) return Fail(lexer_.offset(), "unterminated string");
    } else {
      const size_t value_offset = lexer_.offset();
      if (auto error = lexer_.ScanBalanced(HloLexer::SpanMode::kWord, &value)) {
        return Fail(error->offset, std::move(error->message));
      }
      if (value.empty()) {
        return Fail(value_offset, "expected a value for '" + std::string(key) + "'");
      }
    }
    metadata_fields_.emplace_back(key, value);
  }
  metadata->fields.reserve(metadata->fields.size() + metadata_fields_.size());
  for (const auto& [key, value] : metadata_fields_) metadata->fields.emplace_back(key, value);
  return true;
}

// `to_apply=%add`, `branch_computations={%a, %b}`, or bodies in full: `to_apply={ ... }`,
// `branch_computations={{ ... }, { ... }}`.
bool HloParser::ParseCallees(std::string_view key, std::string_view caller,
                             PendingAttribute* attribute) {
  attribute->names_computations = true;
  const bool braced = lexer_.Peek() == '{' && !StartsInlineBody();
  if (braced) lexer_.Consume('{');
  while (true) {
    if (!SkipTrivia()) return false;
    if (braced && attribute->callees.empty() && lexer_.Consume('}')) break;
    if (!ParseCallee(key, caller, attribute)) return false;
    if (!braced) break;
    if (!SkipTrivia()) return false;
    if (lexer_.Consume('}')) break;
    if (!Expect(',', "',' or '}' in the computation list")) return false;
  }
  if (attribute->callees.empty()) {
    // `branch_computations={}` names nothing; keep it as written.
    attribute->names_computations = false;
    attribute->value = "{}";
  }
  return true;
}

bool HloParser::ParseCallee(std::string_view key, std::string_view caller,
                            PendingAttribute* attribute) {
  const size_t at = lexer_.offset();
  if (lexer_.Peek() != '{') {
    lexer_.Consume('%');
    const std::string_view name = lexer_.ScanName();
    if (name.empty()) return Fail(at, "expected a computation name for '" + std::string(key) + "'");
    attribute->callees.push_back({name, at});
    return true;
  }
  if (inline_depth_ >= kMaxInlineDepth) return Fail(at, "inline computations nested too deeply");
  ++inline_depth_;
  std::unique_ptr<Computation> body;
  const bool ok = ParseComputationBody(std::string(caller) + "." + std::string(key), at, &body);
  --inline_depth_;
  if (!ok) return false;
  body->set_print_signature(false);
  attribute->callees.push_back({{}, at, computations_.size()});
  computations_.push_back(
      {std::move(body), at, false, std::string(caller) + "." + std::string(key)});
  return true;
}

// Whether the '{' under the cursor opens an instruction list (`{ x = f32[] ...`) rather than
// a list of computation names.
bool HloParser::StartsInlineBody() {
  const size_t start = lexer_.offset();
  lexer_.Consume('{');
  bool body = SkipTrivia();
  if (body) {
    if (lexer_.ConsumeWord("ROOT")) SkipTrivia();
    lexer_.Consume('%');
    body = !lexer_.ScanName().empty();
    lexer_.SkipWhitespace();
    body = body && (lexer_.Peek() == '=' || lexer_.StartsWith("/*id="));
  }
  lexer_.set_offset(start);
  return body;
}

bool HloParser::ParseShape(Shape* shape, int depth) {
  if (!SkipTrivia()) return false;
  if (!lexer_.Consume('(')) return ParseArrayShape(shape);
  if (depth >= kMaxShapeDepth) return Fail(lexer_.offset() - 1, "tuple shape nested too deeply");
  std::vector<Shape> elements;
  const int64_t index_comments = lexer_.index_comment_count();
  if (!SkipTrivia()) return false;
  if (!lexer_.Consume(')')) {
    while (true) {
      if (!ParseShape(&elements.emplace_back(), depth + 1) || !SkipTrivia()) return false;
      if (lexer_.Consume(')')) break;
      if (!Expect(',', "',' or ')' in the tuple shape")) return false;
    }
  }
  if (elements.size() > 5) long_shape_seen_ = true;
  if (lexer_.index_comment_count() != index_comments) shape_index_comment_seen_ = true;
  *shape = Shape::Tuple(std::move(elements));
  return true;
}

// `f32[8,<=16,?]{1,0:T(8,128)S(1)}`, `token[]`, `pred[]`.
bool HloParser::ParseArrayShape(Shape* shape) {
  const size_t type_offset = lexer_.offset();
  const std::string_view type_name = lexer_.ScanName();
  if (type_name.empty()) {
    if (lexer_.AtEnd()) return Fail(type_offset, "unexpected end of file, expected a shape");
    return Fail(type_offset, "expected a shape");
  }
  const std::optional<PrimitiveType> type = PrimitiveTypeFromName(type_name);
  if (!type) return Fail(type_offset, "unknown element type '" + std::string(type_name) + "'");
  if (*type == PrimitiveType::kToken || *type == PrimitiveType::kOpaque) {
    if (lexer_.StartsWith("[]")) lexer_.Advance(2);
    if (*type == PrimitiveType::kToken) {
      *shape = Shape::Token();
    } else {
      shape->set_element_type(PrimitiveType::kOpaque);
    }
    return true;
  }
  if (!lexer_.Consume('[')) {
    return Fail(lexer_.offset(),
                "expected '[' after element type '" + std::string(type_name) + "'");
  }
  dimensions_.clear();
  dynamic_dimensions_.clear();
  if (!ParseDimensions(&dimensions_)) return false;
  int64_t elements = 1;
  for (int64_t size : dimensions_) {
    if (size > 0 && elements > kMaxElements / size) {
      return Fail(type_offset, "shape has more than 2^40 elements");
    }
    elements *= std::max<int64_t>(size, 1);
  }
  shape->set_element_type(*type);
  shape->set_dimensions(std::vector<int64_t>(dimensions_.begin(), dimensions_.end()));
  for (int64_t dimension : dynamic_dimensions_) shape->set_dynamic_dimension(dimension, true);
  if (!LooksLikeLayout()) return true;
  return ParseLayout(&shape->mutable_layout().emplace());
}

// Dynamic dimensions (`<=N`, `?`) are noted in dynamic_dimensions_.
bool HloParser::ParseDimensions(std::vector<int64_t>* dims) {
  if (!SkipTrivia()) return false;
  if (lexer_.Consume(']')) return true;
  while (true) {
    if (!SkipTrivia()) return false;
    const size_t at = lexer_.offset();
    if (lexer_.Consume('?')) {
      dynamic_dimensions_.push_back(static_cast<int64_t>(dims->size()));
      dims->push_back(Shape::kUnboundedSize);
    } else {
      const bool bounded = lexer_.StartsWith("<=");
      if (bounded) lexer_.Advance(2);
      int64_t size = 0;
      if (!ParseInt(&size, "as a dimension size")) return false;
      if (size < 0) return Fail(at, "negative dimension size");
      if (bounded) dynamic_dimensions_.push_back(static_cast<int64_t>(dims->size()));
      dims->push_back(size);
    }
    if (!SkipTrivia()) return false;
    if (lexer_.Consume(']')) return true;
    if (!Expect(',', "',' or ']' in the dimensions")) return false;
  }
}

// A layout follows the dimensions directly: `f32[8]{0}`. A `{` after a blank, or one that
// opens on something other than a number, ':' or '}', starts a computation body instead
// (`-> f32[8] {`).
bool HloParser::LooksLikeLayout() const {
  if (lexer_.Peek() != '{') return false;
  size_t ahead = 1;
  while (lexer_.Peek(ahead) == ' ') ++ahead;
  const char next = lexer_.Peek(ahead);
  return HloLexer::IsDigit(next) || next == ':' || next == '}';
}

bool HloParser::ParseLayout(Layout* layout) {
  const size_t open = lexer_.offset();
  lexer_.Consume('{');
  if (!SkipTrivia()) return false;
  dimensions_.clear();
  while (HloLexer::IsDigit(lexer_.Peek())) {
    int64_t dim = 0;
    if (!ParseInt(&dim, "in the layout")) return false;
    dimensions_.push_back(dim);
    if (!SkipTrivia()) return false;
    if (!lexer_.Consume(',')) break;
    if (!SkipTrivia()) return false;
  }
  layout->minor_to_major.assign(dimensions_.begin(), dimensions_.end());
  if (lexer_.Consume(':')) {
    while (lexer_.Peek() != '}' && !lexer_.AtEnd()) {
      if (!ParseLayoutField(layout)) return false;
    }
  }
  if (lexer_.Consume('}')) return true;
  if (lexer_.AtEnd()) return Fail(open, "unbalanced '{' (no matching '}')");
  return Fail(lexer_.offset(), "expected '}' to close the layout");
}

// After the ':' of a layout: `T(8,128)(2,1)` tiles, `S(1)` memory space; any other field
// (`E(4)`, `L(s32)`, `M(8)`, ...) is kept verbatim.
bool HloParser::ParseLayoutField(Layout* layout) {
  if (lexer_.StartsWith("T(")) {
    lexer_.Advance();
    return ParseTiles(layout);
  }
  if (lexer_.StartsWith("S(")) {
    lexer_.Advance(2);
    return ParseInt(&layout->memory_space, "as the memory space") && Expect(')', "')'");
  }
  const size_t start = lexer_.offset();
  while (!lexer_.AtEnd() && lexer_.Peek() != '(' && lexer_.Peek() != '}' &&
         !HloLexer::IsSpace(lexer_.Peek())) {
    lexer_.Advance();
  }
  if (lexer_.offset() == start || !lexer_.Consume('(')) {
    return Fail(lexer_.offset(), "expected a layout field such as T(8,128) or S(1)");
  }
  std::string_view inner;
  if (auto error = lexer_.ScanBalanced(HloLexer::SpanMode::kUntilClose, &inner)) {
    return Fail(error->offset, std::move(error->message));
  }
  if (!lexer_.Consume(')')) return Fail(lexer_.offset(), "expected ')' in the layout field");
  layout->extra += lexer_.text().substr(start, lexer_.offset() - start);
  return true;
}

bool HloParser::ParseTiles(Layout* layout) {
  while (lexer_.Consume('(')) {
    std::vector<int64_t>& tile = layout->tiles.emplace_back();
    while (true) {
      if (!SkipTrivia()) return false;
      if (lexer_.Consume(')')) break;
      if (lexer_.Consume('*')) {
        tile.push_back(kCombineTileDimension);
      } else {
        int64_t size = 0;
        if (!ParseInt(&size, "as a tile size")) return false;
        tile.push_back(size);
      }
      if (!SkipTrivia()) return false;
      if (lexer_.Consume(')')) break;
      if (!Expect(',', "',' or ')' in the tile")) return false;
    }
  }
  return true;
}

// Inline bodies get names once all written names are known, so that none is taken twice.
void HloParser::NameInlineComputations() {
  for (ParsedComputation& parsed : computations_) {
    if (parsed.inline_name_base.empty()) continue;
    std::string name = parsed.inline_name_base;
    for (int suffix = 1; computation_index_.Find(name); ++suffix) {
      name = parsed.inline_name_base + "." + std::to_string(suffix);
    }
    parsed.computation->set_name(std::move(name));
    computation_index_.Insert(parsed.computation->name(),
                              static_cast<uint32_t>(&parsed - computations_.data()));
  }
}

bool HloParser::ResolveCalls() {
  for (const PendingInstruction& pending : pending_) {
    Instruction* instruction = pending.instruction;
    for (const PendingAttribute& attribute : pending.attributes) {
      if (!attribute.names_computations) {
        instruction->SetAttribute(attribute.key, std::string(attribute.value));
        continue;
      }
      for (const CalleeRef& callee : attribute.callees) {
        size_t index = callee.inline_index;
        if (index == SIZE_MAX) {
          const uint32_t* found = computation_index_.Find(callee.name);
          if (found == nullptr) {
            return Fail(callee.offset, "unknown computation '" + std::string(callee.name) + "'");
          }
          index = *found;
        }
        instruction->AddCalledComputation(attribute.key, computations_[index].computation.get());
      }
    }
    if (instruction->opcode() == Opcode::kFusion) {
      for (Computation* fused : instruction->CalledComputations("calls")) {
        fused->set_fusion_instruction(instruction);
      }
    }
  }
  return true;
}

// HLO has no recursion; a call cycle would make every post-order walk meaningless.
bool HloParser::CheckCallCycles() {
  const std::vector<std::vector<size_t>> callees = CallGraph();
  enum class Mark { kNew, kActive, kDone };
  std::vector<Mark> marks(computations_.size(), Mark::kNew);
  // Explicit stack of (computation, how many of its callees are still to visit); callees
  // are visited last to first.
  std::vector<std::pair<size_t, size_t>> stack;
  for (size_t root = 0; root < computations_.size(); ++root) {
    if (marks[root] != Mark::kNew) continue;
    marks[root] = Mark::kActive;
    stack.emplace_back(root, callees[root].size());
    while (!stack.empty()) {
      auto& [current, left] = stack.back();
      if (left == 0) {
        marks[current] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const size_t next = callees[current][--left];
      if (marks[next] == Mark::kActive) {
        return Fail(computations_[next].offset, "computation '" +
                                                    computations_[next].computation->name() +
                                                    "' calls itself through a cycle of calls");
      }
      if (marks[next] == Mark::kNew) {
        marks[next] = Mark::kActive;
        stack.emplace_back(next, callees[next].size());
      }
    }
  }
  return true;
}

// Per computation, the computations its instructions call, in instruction and attribute
// order. Only instructions in pending_ call any, so the others are not visited.
std::vector<std::vector<size_t>> HloParser::CallGraph() const {
  std::unordered_map<const Computation*, size_t> index;
  for (size_t i = 0; i < computations_.size(); ++i) {
    index.emplace(computations_[i].computation.get(), i);
  }
  std::vector<std::vector<size_t>> callees(computations_.size());
  for (const PendingInstruction& pending : pending_) {
    std::vector<size_t>& called = callees[index.at(pending.instruction->parent())];
    for (const Computation* callee : pending.instruction->called_computations()) {
      called.push_back(index.at(callee));
    }
  }
  return callees;
}

// Names are scoped per computation in the text (XLA's canonical form writes tmp_0 in every
// computation) but unique in a module, as in XLA, whose parser renames the same way: a name
// already used in an earlier computation gets the first free ".N" suffix. The module has
// reserved the names as written; the new ones are reserved here.
void HloParser::MakeInstructionNamesUnique(Module& module) {
  // Views of names no instruction changes later: first occurrences stay, renamed ones are
  // renamed once.
  NameIndex taken;
  taken.Reserve(static_cast<size_t>(module.instruction_count()));
  std::vector<Instruction*> repeats;
  for (const auto& computation : module.computations()) {
    const auto& instructions = computation->instructions();
    for (size_t i = 0; i < instructions.size(); ++i) {
      // Cache misses overlap when the next names and their slots are asked for early.
      if (i + 8 < instructions.size()) __builtin_prefetch(instructions[i + 8].get());
      if (i + 4 < instructions.size()) taken.Prefetch(instructions[i + 4]->name());
      if (!taken.Insert(instructions[i]->name(), 0).second)
        repeats.push_back(instructions[i].get());
    }
  }
  std::unordered_map<std::string, int64_t> next_suffix;
  for (Instruction* instruction : repeats) {
    int64_t& suffix = next_suffix[instruction->name()];
    std::string name;
    do {
      name = instruction->name() + "." + std::to_string(++suffix);
    } while (taken.Find(name));
    instruction->set_name(std::move(name));
    taken.Insert(instruction->name(), 0);
    module.ReserveName(instruction->name());
  }
}

std::unique_ptr<Module> HloParser::Assemble() {
  auto module = std::make_unique<Module>(module_name_);
  module->header_attributes() = std::move(header_);
  module->stack_frames() = std::move(tables_);
  TextStyle& style = module->text_style();
  style.sigils = sigils_.value_or(true);
  style.operand_shapes = operand_shapes_.value_or(true);
  style.index_comments = shape_index_comment_seen_ || !long_shape_seen_;
  style.operand_index_comments = operand_index_comment_seen_ || !long_operand_list_seen_;
  style.inline_callees = std::any_of(computations_.begin(), computations_.end(),
                                     [](const auto& c) { return !c.inline_name_base.empty(); });
  // Explicit ids first, so that fresh ids never collide with one written further down.
  for (const auto& [id, offset] : explicit_ids_) module->NoteUsedId(id);
  size_t names = computations_.size();
  std::vector<std::unique_ptr<Computation>> computations;
  computations.reserve(computations_.size());
  for (ParsedComputation& parsed : computations_) {
    names += parsed.computation->instructions().size();
    computations.push_back(std::move(parsed.computation));
  }
  module->AddComputations(std::move(computations), entry_index_.value_or(computations_.size() - 1));
  // When every name is distinct, as in most modules, no instruction needs a new one.
  if (module->reserved_name_count() < names) MakeInstructionNamesUnique(*module);
  return module;
}

}  // namespace

StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text,
                                                 std::string_view file_name) {
  HloParser parser(text, file_name);
  return parser.ParseModule();
}

StatusOr<std::unique_ptr<Module>> ParseHloFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open file: " + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return Status::Error(path + ": read error: " + std::strerror(errno));
  return ParseHloModule(text, path);
}

StatusOr<Shape> ParseShape(std::string_view text) {
  HloParser parser(text, "<shape>");
  return parser.ParseShapeOnly();
}

}  // namespace fusescope::ir
