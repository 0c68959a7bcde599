#include "importers/tvm/tvmscript_reader.h"

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace fusescope::ir::tvm_import {
namespace {

using mlir_import::MlirBlock;
using mlir_import::MlirOperation;

// A statement as the printer wrote it: its physical lines joined while brackets were open,
// comments dropped.
struct LogicalLine {
  int64_t line = 0;  // 1-based, of its first physical line
  int64_t indent = 0;
  std::string text;  // without the indentation
};

bool IsIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool IsIdentifier(std::string_view text) {
  if (text.empty() || !IsIdentifierStart(text.front())) return false;
  for (char c : text) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

// The index after the string literal starting at `at` (a quote), or npos when the text ends
// inside it.
size_t SkipString(std::string_view text, size_t at) {
  const char quote = text[at];
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

bool IsOpen(char c) { return c == '(' || c == '[' || c == '{'; }
bool IsClose(char c) { return c == ')' || c == ']' || c == '}'; }

// Calls `visit(index, depth)` for every character outside string literals; `depth` counts the
// brackets open before it. Text is well formed here (SplitLogicalLines balanced it).
template <typename Visit>
void ForEachOutsideStrings(std::string_view text, Visit visit) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const size_t end = SkipString(text, i);
      if (end == std::string_view::npos) return;
      i = end - 1;
      continue;
    }
    if (IsClose(c)) --depth;
    if (!visit(i, depth)) return;
    if (IsOpen(c)) ++depth;
  }
}

// The first `c` outside brackets and strings, or npos.
size_t FindTopLevel(std::string_view text, char c) {
  size_t found = std::string_view::npos;
  ForEachOutsideStrings(text, [&](size_t i, int depth) {
    if (depth == 0 && text[i] == c) {
      found = i;
      return false;
    }
    return true;
  });
  return found;
}

// The `=` of an assignment: outside brackets and strings, not part of ==, !=, <=, >=.
size_t FindAssignment(std::string_view text) {
  size_t found = std::string_view::npos;
  ForEachOutsideStrings(text, [&](size_t i, int depth) {
    if (depth != 0 || text[i] != '=') return true;
    const char before = i > 0 ? text[i - 1] : ' ';
    const char after = i + 1 < text.size() ? text[i + 1] : ' ';
    if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>')
      return true;
    found = i;
    return false;
  });
  return found;
}

std::vector<std::string_view> SplitTopLevel(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  ForEachOutsideStrings(text, [&](size_t i, int depth) {
    if (depth == 0 && text[i] == separator) {
      parts.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
    return true;
  });
  std::string_view last = Trim(text.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

// The index of the bracket closing the one at `open`, or npos.
size_t MatchingClose(std::string_view text, size_t open) {
  size_t found = std::string_view::npos;
  const std::string_view rest = text.substr(open);
  ForEachOutsideStrings(rest, [&](size_t i, int depth) {
    if (depth == 0 && IsClose(rest[i])) {  // depth counts what is open after this close
      found = open + i;
      return false;
    }
    return true;
  });
  return found;
}

// `callee(args)` taking the whole text: the dotted callee and the arguments' text.
struct Call {
  std::string_view callee;
  std::string_view arguments;
};

std::optional<Call> AsCall(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && (IsIdentifierChar(text[i]) || text[i] == '.')) ++i;
  if (i == 0 || !IsIdentifierStart(text.front()) || i >= text.size() || text[i] != '(')
    return std::nullopt;
  const size_t close = MatchingClose(text, i);
  if (close != text.size() - 1) return std::nullopt;
  return Call{text.substr(0, i), text.substr(i + 1, close - i - 1)};
}

// The value of keyword argument `key` among `arguments`, or empty.
std::string_view KeywordArgument(std::string_view arguments, std::string_view key) {
  for (std::string_view argument : SplitTopLevel(arguments, ',')) {
    const size_t equals = FindAssignment(argument);
    if (equals != std::string_view::npos && Trim(argument.substr(0, equals)) == key)
      return Trim(argument.substr(equals + 1));
  }
  return {};
}

std::string StringContents(std::string_view literal) {
  literal = Trim(literal);
  if (literal.size() >= 2 && (literal.front() == '"' || literal.front() == '\'') &&
      literal.back() == literal.front()) {
    return std::string(literal.substr(1, literal.size() - 2));
  }
  return {};
}

std::optional<std::string> MlirElementType(std::string_view dtype) {
  static const std::map<std::string_view, std::string_view> kTypes = {
      {"float16", "f16"}, {"float32", "f32"}, {"float64", "f64"}, {"bfloat16", "bf16"},
      {"int8", "i8"},     {"int16", "i16"},   {"int32", "i32"},   {"int64", "i64"},
      {"uint8", "ui8"},   {"uint16", "ui16"}, {"uint32", "ui32"}, {"uint64", "ui64"},
      {"bool", "i1"}};
  auto found = kTypes.find(dtype);
  if (found == kTypes.end()) return std::nullopt;
  return std::string(found->second);
}

// `32`, `T.int64(32)` -> "32"; anything symbolic -> "?".
std::string Dimension(std::string_view dim) {
  dim = Trim(dim);
  if (auto call = AsCall(dim); call && StartsWith(call->callee, "T.")) dim = Trim(call->arguments);
  if (dim.empty()) return "?";
  for (char c : dim) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return "?";
  }
  return std::string(dim);
}

// `R.Tensor(...)` / `T.Buffer(...)` / an allocation's arguments: shape, dtype (positional
// string or `dtype=`), `ndim=`.
std::optional<std::string> TensorType(std::string_view arguments, std::string_view default_dtype) {
  std::optional<std::string_view> shape;
  std::string dtype(default_dtype);
  std::optional<int64_t> ndim;
  for (std::string_view argument : SplitTopLevel(arguments, ',')) {
    const size_t equals = FindAssignment(argument);
    std::string_view key = equals == std::string_view::npos ? "" : Trim(argument.substr(0, equals));
    std::string_view value =
        equals == std::string_view::npos ? argument : Trim(argument.substr(equals + 1));
    if (!key.empty() && !IsIdentifier(key)) key = "";
    if (key == "shape" || (key.empty() && !shape && !value.empty() &&
                           (value.front() == '(' || value.front() == '['))) {
      shape = value;
    } else if (key == "dtype" || (key.empty() && !StringContents(value).empty())) {
      dtype = StringContents(value);
    } else if (key == "ndim") {
      const std::string digits(Trim(value));
      if (!digits.empty() && digits.size() < 3 &&
          std::isdigit(static_cast<unsigned char>(digits[0])))
        ndim = std::stoll(digits);
    }
  }
  const std::optional<std::string> element = MlirElementType(dtype);
  if (!element) return std::nullopt;
  std::string type = "tensor<";
  if (shape && shape->size() >= 2) {
    for (std::string_view dim : SplitTopLevel(shape->substr(1, shape->size() - 2), ',')) {
      if (!dim.empty()) type += Dimension(dim) + "x";
    }
  } else if (ndim) {
    for (int64_t i = 0; i < *ndim; ++i) type += "?x";
  } else {
    return std::nullopt;  // unranked: no array shape of ours
  }
  return type + *element + ">";
}

std::optional<std::string> ConvertType(std::string_view type, int depth) {
  type = Trim(type);
  if (depth > 8) return std::nullopt;
  if (auto element = MlirElementType(StartsWith(type, "T.") ? type.substr(2) : type))
    return element;
  const std::optional<Call> call = AsCall(type);
  if (!call) return std::nullopt;
  if (call->callee == "R.Tensor") return TensorType(call->arguments, "");
  if (call->callee == "T.Buffer") return TensorType(call->arguments, "float32");
  if (call->callee == "R.Prim") {
    std::string dtype = StringContents(call->arguments);
    if (dtype.empty()) dtype = StringContents(KeywordArgument(call->arguments, "dtype"));
    return MlirElementType(dtype);
  }
  if (call->callee == "R.Tuple") {
    std::string tuple = "tuple<";
    bool first = true;
    for (std::string_view element : SplitTopLevel(call->arguments, ',')) {
      if (element.empty()) continue;
      auto converted = ConvertType(element, depth + 1);
      if (!converted) return std::nullopt;
      tuple += (first ? "" : ", ") + *converted;
      first = false;
    }
    return tuple + ">";
  }
  return std::nullopt;
}

// What a function's body is read as.
enum class FunctionKind { kNone, kRelax, kTir };

// The value names of one function: TVMScript rebinds names (a buffer written twice, a Relax
// variable bound again), our operation tree wants SSA, so each definition gets a fresh SSA
// name ("%C", then "%C.1": a dot no Python name holds).
struct FunctionScope {
  FunctionKind kind = FunctionKind::kNone;
  MlirBlock* block = nullptr;
  std::unordered_map<std::string, std::string> ssa;     // Python name -> current SSA name
  std::unordered_map<std::string, std::string> types;   // SSA name -> MLIR type ("" unknown)
  std::unordered_map<std::string, std::string> python;  // SSA name -> Python name
  std::unordered_map<std::string, int64_t> versions;
  std::map<std::string, std::string> constants;  // `key[i]` -> SSA name
  std::string first_constant_key;

  // `base`: the SSA name's stem when it is not `name` (a block's buffer named after the
  // block).
  std::string Define(const std::string& name, std::string type, const std::string& base = "") {
    const std::string& stem = base.empty() ? name : base;
    int64_t& version = versions[stem];
    std::string value = "%" + stem + (version > 0 ? "." + std::to_string(version) : "");
    ++version;
    ssa[name] = value;
    python[value] = name;
    types[value] = std::move(type);
    return value;
  }
  const std::string* Lookup(std::string_view name) const {
    auto found = ssa.find(std::string(name));
    return found == ssa.end() ? nullptr : &found->second;
  }
};

// What a `with T.sblock(...)` body says it reads and writes.
struct TirBlockAccess {
  std::vector<std::string> reads;
  std::vector<std::string> writes;
  std::vector<std::string> stored;       // buffers stored to, for a block without T.writes
  std::vector<std::string> store_reads;  // values read by those stores
  bool has_reads = false;
  bool has_writes = false;
};

void AddUnique(std::vector<std::string>& list, const std::string& value) {
  for (const std::string& existing : list) {
    if (existing == value) return;
  }
  list.push_back(value);
}

std::vector<LogicalLine> SplitLogicalLines(std::string_view text, std::string_view file,
                                           std::vector<std::string>& warnings) {
  std::vector<LogicalLine> lines;
  std::optional<LogicalLine> pending;
  std::vector<std::pair<char, std::pair<int64_t, int64_t>>> open;  // bracket, line, column
  int64_t number = 0;
  size_t start = 0;
  auto warn = [&](int64_t line, int64_t column, const std::string& cause) {
    warnings.push_back(std::string(file) + ":" + std::to_string(line) + ":" +
                       std::to_string(column) + ": " + cause);
  };
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view physical = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!physical.empty() && physical.back() == '\r') physical.remove_suffix(1);
    size_t at = 0;
    if (!pending) {
      while (at < physical.size() && (physical[at] == ' ' || physical[at] == '\t')) ++at;
      if (at == physical.size() || physical[at] == '#') continue;
      pending = LogicalLine{number, static_cast<int64_t>(at), {}};
    } else {
      pending->text += ' ';
    }
    for (size_t i = at; i < physical.size(); ++i) {
      const char c = physical[i];
      if (c == '#') break;
      if (c == '"' || c == '\'') {
        const size_t close = SkipString(physical, i);
        if (close == std::string_view::npos) {
          warn(number, static_cast<int64_t>(i) + 1,
               "string left open at the end of the line; read as closed there");
          pending->text += physical.substr(i);
          pending->text += c;
          break;
        }
        pending->text += physical.substr(i, close - i);
        i = close - 1;
        continue;
      }
      if (IsOpen(c)) {
        open.push_back({c, {number, static_cast<int64_t>(i) + 1}});
      } else if (IsClose(c)) {
        const char expected = open.empty() ? 0
                                           : (open.back().first == '('   ? ')'
                                              : open.back().first == '[' ? ']'
                                                                         : '}');
        if (c != expected) {
          warn(number, static_cast<int64_t>(i) + 1,
               std::string("'") + c + "' closes no bracket; ignored");
          continue;
        }
        open.pop_back();
      }
      pending->text += c;
    }
    if (open.empty()) {
      lines.push_back(std::move(*pending));
      pending.reset();
    }
  }
  if (pending) {
    warn(open.front().second.first, open.front().second.second,
         std::string("'") + open.front().first +
             "' is never closed; the statement it opens is left out");
  }
  return lines;
}

class Reader {
 public:
  Reader(std::string_view text, std::string_view file) : file_(file) {
    lines_ = SplitLogicalLines(text, file, result_.warnings);
  }

  TvmScriptReadResult Run() {
    FunctionScope top;
    MlirBlock top_block;
    top.block = &top_block;
    while (next_ < lines_.size()) Statement(top, nullptr, 0);
    result_.tree.operations = std::move(top_block.operations);
    return std::move(result_);
  }

 private:
  void Warn(const LogicalLine& line, const std::string& cause) {
    result_.warnings.push_back(file_ + ":" + std::to_string(line.line) + ":" +
                               std::to_string(line.indent + 1) + ": " + cause);
  }

  // Reads the statements indented deeper than `indent` (a block's body).
  void Body(int64_t indent, FunctionScope& scope, TirBlockAccess* access, int depth) {
    if (depth > kMaxTvmScriptNesting) {
      if (next_ < lines_.size() && lines_[next_].indent > indent)
        Warn(lines_[next_],
             "nested deeper than " + std::to_string(kMaxTvmScriptNesting) + " blocks; left out");
      SkipBody(indent);
      return;
    }
    while (next_ < lines_.size() && lines_[next_].indent > indent) Statement(scope, access, depth);
  }

  void SkipBody(int64_t indent) {
    while (next_ < lines_.size() && lines_[next_].indent > indent) ++next_;
  }

  void Statement(FunctionScope& scope, TirBlockAccess* access, int depth) {
    const LogicalLine& line = lines_[next_++];
    const std::string_view text = Trim(line.text);
    const bool opens_block = !text.empty() && text.back() == ':';
    if (!text.empty() && text.front() == '@') {
      decorators_.emplace_back(text);
      return;
    }
    if (StartsWith(text, "class ") && opens_block) {
      decorators_.clear();
      Module(line, text, depth);
      return;
    }
    if (StartsWith(text, "def") && (text.size() == 3 || !IsIdentifierChar(text[3]))) {
      Function(line, text, scope, depth);
      return;
    }
    decorators_.clear();
    switch (scope.kind) {
      case FunctionKind::kNone:
        if (opens_block) SkipBody(line.indent);
        return;
      case FunctionKind::kRelax:
        RelaxStatement(line, text, opens_block, scope, depth);
        return;
      case FunctionKind::kTir:
        TirStatement(line, text, opens_block, scope, access, depth);
        return;
    }
  }

  void Module(const LogicalLine& line, std::string_view text, int depth) {
    size_t end = 6;
    while (end < text.size() && IsIdentifierChar(text[end])) ++end;
    MlirOperation module;
    module.name = "builtin.module";
    module.symbol = std::string(text.substr(6, end - 6));
    module.text = std::string(text);
    module.line = line.line;
    module.column = line.indent + 1;
    if (result_.module_name.empty()) result_.module_name = module.symbol;
    FunctionScope scope;
    scope.block = &module.regions.emplace_back().blocks.emplace_back();
    Body(line.indent, scope, nullptr, depth + 1);
    pending_modules_.push_back(std::move(module));
  }

  void Function(const LogicalLine& line, std::string_view text, FunctionScope& outer, int depth) {
    FunctionKind kind = FunctionKind::kNone;
    std::string decorator;
    for (const std::string& d : decorators_) {
      if (StartsWith(d, "@R.function")) kind = FunctionKind::kRelax, decorator = d;
      if (StartsWith(d, "@T.prim_func")) kind = FunctionKind::kTir, decorator = d;
    }
    decorators_.clear();
    const size_t name_begin = std::min<size_t>(4, text.size());  // after "def "
    size_t name_end = name_begin;
    while (name_end < text.size() && IsIdentifierChar(text[name_end])) ++name_end;
    const std::string name(text.substr(name_begin, name_end - name_begin));
    const size_t close = name_end < text.size() && text[name_end] == '('
                             ? MatchingClose(text, name_end)
                             : std::string_view::npos;
    if (name.empty() || close == std::string_view::npos || text.back() != ':') {
      Warn(line, "cannot read this function header; the function is left out");
      SkipBody(line.indent);
      return;
    }
    if (kind == FunctionKind::kNone) {
      Warn(line, "function '" + name + "' has neither @R.function nor @T.prim_func; left out");
      SkipBody(line.indent);
      return;
    }
    MlirOperation function;
    function.name = kind == FunctionKind::kRelax ? "R.function" : "T.prim_func";
    function.symbol = name;
    function.text = decorator + " " + std::string(text);
    function.line = line.line;
    function.column = line.indent + 1;
    FunctionScope scope;
    scope.kind = kind;
    scope.block = &function.regions.emplace_back().blocks.emplace_back();
    for (std::string_view parameter :
         SplitTopLevel(text.substr(name_end + 1, close - name_end - 1), ',')) {
      const size_t colon = FindTopLevel(parameter, ':');
      const size_t equals = FindAssignment(parameter);
      std::string_view parameter_name = Trim(parameter.substr(0, std::min(colon, equals)));
      if (!IsIdentifier(parameter_name)) continue;
      std::string type;
      if (colon != std::string_view::npos) {
        const std::string_view written = Trim(
            parameter.substr(colon + 1, equals == std::string_view::npos ? std::string_view::npos
                                                                         : equals - colon - 1));
        type = ConvertType(written, 0).value_or(std::string(written));
      }
      scope.block->arguments.push_back(scope.Define(std::string(parameter_name), type));
      scope.block->argument_types.push_back(type);
    }
    Body(line.indent, scope, nullptr, depth + 1);
    if (outer.block != nullptr) outer.block->operations.push_back(std::move(function));
  }

  // --- Relax ---

  void RelaxStatement(const LogicalLine& line, std::string_view text, bool opens_block,
                      FunctionScope& scope, int depth) {
    if (opens_block) {
      // `with R.dataflow():`, `if cond:`, `else:`: their bindings are read in order.
      Body(line.indent, scope, nullptr, depth + 1);
      return;
    }
    if (StartsWith(text, "R.func_attr(") || StartsWith(text, "R.output(") || text == "pass" ||
        StartsWith(text, "assert ")) {
      return;
    }
    if (StartsWith(text, "return ") || text == "return") {
      MlirOperation op = NewOperation(line, "R.return", text);
      AddOperands(op, text.substr(6), scope, line);
      scope.block->operations.push_back(std::move(op));
      return;
    }
    const size_t equals = FindAssignment(text);
    if (equals == std::string_view::npos) {
      if (AsCall(text)) Bind(line, text, {}, "", scope);
      return;
    }
    std::string_view target = Trim(text.substr(0, equals));
    std::string annotation;
    if (const size_t colon = FindTopLevel(target, ':'); colon != std::string_view::npos) {
      const std::string_view written = Trim(target.substr(colon + 1));
      annotation = ConvertType(written, 0).value_or(std::string(written));
      target = Trim(target.substr(0, colon));
    }
    if (!target.empty() && target.front() == '(' && target.back() == ')')
      target = target.substr(1, target.size() - 2);
    std::vector<std::string> names;
    for (std::string_view name : SplitTopLevel(target, ',')) {
      if (!IsIdentifier(name)) {
        Warn(line,
             "cannot read the target '" + std::string(target) + "' of this binding; left out");
        return;
      }
      names.emplace_back(name);
    }
    const std::string_view value = Trim(text.substr(equals + 1));
    // `cls = Module`: a name for the module, not a value.
    if (IsIdentifier(value) && scope.Lookup(value) == nullptr) return;
    Bind(line, value, names, annotation, scope);
  }

  // One binding `names = value` (no names: a call made for its effect).
  void Bind(const LogicalLine& line, std::string_view value, const std::vector<std::string>& names,
            std::string annotation, FunctionScope& scope) {
    std::string name = "R.expr";
    std::string callee;
    std::string_view operands = value;
    if (const std::optional<Call> call = AsCall(value)) {
      name = std::string(call->callee);
      operands = call->arguments;
      const std::vector<std::string_view> arguments = SplitTopLevel(call->arguments, ',');
      const bool calls_function =
          StartsWith(name, "R.call_tir") || StartsWith(name, "R.call_dps_packed") ||
          StartsWith(name, "R.call_packed") || StartsWith(name, "R.call_pure_packed") ||
          StartsWith(name, "R.call_builtin_with_ctx");
      if (calls_function && !arguments.empty()) {
        const std::string_view first = arguments.front();
        callee = StringContents(first);
        if (callee.empty() && FindAssignment(first) == std::string_view::npos)
          callee = std::string(
              first.substr(first.rfind('.') == std::string_view::npos ? 0 : first.rfind('.') + 1));
        if (annotation.empty()) {
          std::string_view out = KeywordArgument(call->arguments, "out_sinfo");
          if (out.empty()) out = KeywordArgument(call->arguments, "out_ty");
          if (out.empty()) out = KeywordArgument(call->arguments, "sinfo_args");
          if (out.empty()) out = KeywordArgument(call->arguments, "ty_args");
          if (out.size() >= 2 && out.front() == '(' && out.back() == ')') {
            const auto elements = SplitTopLevel(out.substr(1, out.size() - 2), ',');
            if (elements.size() <= 2 && !elements.empty()) out = elements.front();
          }
          if (!out.empty()) annotation = ConvertType(out, 0).value_or(std::string(out));
        }
      } else if (const size_t dot = name.rfind('.');
                 dot != std::string::npos && !StartsWith(name, "R.")) {
        callee = name.substr(dot + 1);  // cls.fused_matmul_add
      }
    } else if (StartsWith(value, "metadata[")) {
      name = "R.const";
    } else if (IsIdentifier(value)) {
      name = "R.bind";
    } else if (!value.empty() && value.front() == '(') {
      name = "R.tuple";
    } else if (!value.empty() && value.back() == ']' && IsIdentifierStart(value.front())) {
      name = "R.tuple_get";
    } else if (!value.empty() && (std::isdigit(static_cast<unsigned char>(value.front())) ||
                                  value.front() == '"' || value.front() == '-')) {
      name = "R.const";
    }
    // Operands before the results: `lv = R.add(lv, c)` reads the old `lv`.
    MlirOperation op;
    op.name = name;
    op.callee = callee;
    op.text = std::string(line.text);
    op.line = line.line;
    op.column = line.indent + 1;
    if (name == "R.const" && StartsWith(value, "metadata[")) {
      op.operands.clear();
    } else {
      AddOperands(op, operands, scope, line);
    }
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string type = names.size() == 1 ? annotation : "";
      op.results.push_back(scope.Define(names[i], type));
      op.result_types.push_back(type);
    }
    scope.block->operations.push_back(std::move(op));
  }

  // Added to the block by the caller once its operands are read: reading them may add
  // constants, which must come first.
  MlirOperation NewOperation(const LogicalLine& line, std::string name, std::string_view text) {
    MlirOperation op;
    op.name = std::move(name);
    op.text = std::string(text);
    op.line = line.line;
    op.column = line.indent + 1;
    return op;
  }

  // Every name in `text` that is a value of the function becomes an operand of `op` (keyword
  // names and attributes `a.b` are not); a `metadata["key"][i]` becomes an `R.const`
  // operation of its own, once per function, placed before `op` is added.
  void AddOperands(MlirOperation& op, std::string_view text, FunctionScope& scope,
                   const LogicalLine& line) {
    std::vector<std::string> operands;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '"' || c == '\'') {
        const size_t end = SkipString(text, i);
        if (end == std::string_view::npos) break;
        i = end - 1;
        continue;
      }
      if (!IsIdentifierStart(c) || (i > 0 && (IsIdentifierChar(text[i - 1]) || text[i - 1] == '.')))
        continue;
      size_t end = i;
      while (end < text.size() && IsIdentifierChar(text[end])) ++end;
      const std::string_view name = text.substr(i, end - i);
      size_t after = end;
      while (after < text.size() && text[after] == ' ') ++after;
      const bool keyword = after < text.size() && text[after] == '=' &&
                           (after + 1 >= text.size() || text[after + 1] != '=');
      if (name == "metadata" && after < text.size() && text[after] == '[') {
        const size_t key_close = MatchingClose(text, after);
        const size_t index_open = key_close == std::string_view::npos ? key_close : key_close + 1;
        if (index_open < text.size() && text[index_open] == '[') {
          const size_t index_close = MatchingClose(text, index_open);
          if (index_close != std::string_view::npos) {
            operands.push_back(Constant(line, scope, text.substr(after + 1, key_close - after - 1),
                                        text.substr(index_open + 1, index_close - index_open - 1),
                                        text.substr(i, index_close + 1 - i)));
            i = index_close;
            continue;
          }
        }
      }
      if (!keyword) {
        if (const std::string* value = scope.Lookup(name)) operands.push_back(*value);
      }
      i = end - 1;
    }
    op.operands.insert(op.operands.end(), operands.begin(), operands.end());
  }

  std::string Constant(const LogicalLine& line, FunctionScope& scope, std::string_view key,
                       std::string_view index, std::string_view written) {
    const std::string id = std::string(Trim(key)) + "[" + std::string(Trim(index)) + "]";
    if (auto found = scope.constants.find(id); found != scope.constants.end()) return found->second;
    if (scope.first_constant_key.empty()) scope.first_constant_key = std::string(Trim(key));
    std::string base = "const";
    if (std::string(Trim(key)) != scope.first_constant_key) {
      for (char c : StringContents(key)) base += IsIdentifierChar(c) ? c : '_';
      base += "_";
    }
    for (char c : Trim(index)) base += IsIdentifierChar(c) ? c : '_';
    MlirOperation op = NewOperation(line, "R.const", written);
    op.results.push_back(scope.Define(base, ""));
    op.result_types.emplace_back();
    scope.constants[id] = op.results.back();
    scope.block->operations.push_back(std::move(op));
    return scope.constants[id];
  }

  // --- TIR ---

  void TirStatement(const LogicalLine& line, std::string_view text, bool opens_block,
                    FunctionScope& scope, TirBlockAccess* access, int depth) {
    if (opens_block) {
      const std::string_view header = Trim(text.substr(0, text.size() - 1));
      const std::optional<Call> block =
          StartsWith(header, "with ") ? AsCall(Trim(header.substr(5))) : std::nullopt;
      if (block && (block->callee == "T.sblock" || block->callee == "T.block")) {
        TirBlock(line, header, *block, scope, depth);
        return;
      }
      Body(line.indent, scope, access, depth + 1);  // loops, ifs, T.init(), launch_thread
      return;
    }
    if (const std::optional<Call> call = AsCall(text)) {
      if (call->callee == "T.reads" || call->callee == "T.writes") {
        if (access == nullptr) return;
        const bool reads = call->callee == "T.reads";
        (reads ? access->has_reads : access->has_writes) = true;
        MlirOperation probe;
        AddOperands(probe, call->arguments, scope, line);
        for (const std::string& value : probe.operands)
          AddUnique(reads ? access->reads : access->writes, value);
        return;
      }
      static const char* const kStructure[] = {"T.func_attr", "T.sblock_attr", "T.block_attr",
                                               "T.where",     "T.assume",      "T.axis"};
      for (const char* skip : kStructure) {
        if (StartsWith(call->callee, skip)) return;
      }
      std::string name(call->callee);
      std::string_view arguments = call->arguments;
      if (name == "T.evaluate") {
        if (const std::optional<Call> inner = AsCall(Trim(arguments))) name = inner->callee;
      }
      MlirOperation op = NewOperation(line, name, text);
      AddOperands(op, arguments, scope, line);
      scope.block->operations.push_back(std::move(op));
      return;
    }
    if (StartsWith(text, "return ") || StartsWith(text, "T.ret(")) {
      MlirOperation op = NewOperation(line, "T.ret", text);
      AddOperands(op, text.substr(text.find_first_of(" (") + 1), scope, line);
      scope.block->operations.push_back(std::move(op));
      return;
    }
    const size_t equals = FindAssignment(text);
    if (equals == std::string_view::npos) return;
    std::string_view target = Trim(text.substr(0, equals));
    const std::string_view value = Trim(text.substr(equals + 1));
    const size_t bracket = target.find('[');
    if (bracket != std::string_view::npos && IsIdentifier(target.substr(0, bracket)) &&
        target.back() == ']') {
      Store(line, text, std::string(target.substr(0, bracket)), value, scope, access);
      return;
    }
    if (const size_t colon = FindTopLevel(target, ':'); colon != std::string_view::npos)
      target = Trim(target.substr(0, colon));
    const std::optional<Call> call = AsCall(value);
    if (!IsIdentifier(target) || !call) return;  // loop variables, scalar lets
    const std::string_view method = call->callee.substr(call->callee.rfind('.') + 1);
    const bool defines_buffer = method.find("alloc") != std::string_view::npos ||
                                method == "decl_buffer" || method == "match_buffer" ||
                                method == "Buffer";
    if (!defines_buffer) return;
    std::string_view shape_arguments = call->arguments;
    if (method == "match_buffer") {  // (handle, shape, dtype)
      const size_t comma = FindTopLevel(shape_arguments, ',');
      shape_arguments =
          comma == std::string_view::npos ? std::string_view() : shape_arguments.substr(comma + 1);
    }
    MlirOperation op;
    op.name = std::string(call->callee);
    op.text = std::string(text);
    op.line = line.line;
    op.column = line.indent + 1;
    AddOperands(op, call->arguments, scope, line);
    const std::string type = TensorType(shape_arguments, "float32").value_or("");
    op.results.push_back(scope.Define(std::string(target), type));
    op.result_types.push_back(type);
    scope.block->operations.push_back(std::move(op));
  }

  // `C[i, j] = value`: inside a block it only tells what the block writes; elsewhere (lowered
  // TIR) it is an operation defining a new version of the buffer.
  void Store(const LogicalLine& line, std::string_view text, const std::string& buffer,
             std::string_view value, FunctionScope& scope, TirBlockAccess* access) {
    MlirOperation op;
    AddOperands(op, value, scope, line);
    AddOperands(op, text.substr(buffer.size(), FindAssignment(text) - buffer.size()), scope, line);
    if (access != nullptr) {
      if (const std::string* written = scope.Lookup(buffer)) AddUnique(access->stored, *written);
      for (const std::string& read : op.operands) AddUnique(access->store_reads, read);
      return;
    }
    op.name = "T.buffer_store";
    op.text = std::string(text);
    op.line = line.line;
    op.column = line.indent + 1;
    const std::string* previous = scope.Lookup(buffer);
    const std::string type = previous != nullptr ? scope.types[*previous] : "";
    op.results.push_back(scope.Define(buffer, type));
    op.result_types.push_back(type);
    scope.block->operations.push_back(std::move(op));
  }

  void TirBlock(const LogicalLine& line, std::string_view header, const Call& block,
                FunctionScope& scope, int depth) {
    TirBlockAccess access;
    Body(line.indent, scope, &access, depth + 1);
    const std::vector<std::string>& reads = access.has_reads ? access.reads : access.store_reads;
    const std::vector<std::string>& writes = access.has_writes ? access.writes : access.stored;
    MlirOperation op;
    op.name = std::string(block.callee);
    op.text = std::string(header);
    op.line = line.line;
    op.column = line.indent + 1;
    op.operands = reads;
    const std::string block_name = StringContents(block.arguments);
    if (!writes.empty()) {
      // A new version of the written buffer, named after the block, which is what TIR's
      // readers know it by.
      const std::string& ssa = writes.front();
      const std::string buffer = scope.python[ssa];
      const std::string type = scope.types[ssa];
      op.results.push_back(
          scope.Define(buffer, type, IsIdentifier(block_name) ? block_name : buffer));
      op.result_types.push_back(type);
    } else {
      op.symbol = block_name;
    }
    scope.block->operations.push_back(std::move(op));
  }

  std::string file_;
  std::vector<LogicalLine> lines_;
  size_t next_ = 0;
  std::vector<std::string> decorators_;
  std::vector<MlirOperation> pending_modules_;
  TvmScriptReadResult result_;

 public:
  std::vector<MlirOperation> TakeModules() { return std::move(pending_modules_); }
};

}  // namespace

std::string MlirTypeOfTvmType(std::string_view type) {
  return ConvertType(type, 0).value_or(std::string(Trim(type)));
}

TvmScriptReadResult ReadTvmScript(std::string_view text, std::string_view file) {
  Reader reader(text, file);
  TvmScriptReadResult result = reader.Run();
  std::vector<MlirOperation> modules = reader.TakeModules();
  // Modules first, as the file prints them; bare functions (a PrimFunc's script) after.
  for (MlirOperation& function : result.tree.operations) modules.push_back(std::move(function));
  result.tree.operations = std::move(modules);
  return result;
}

}  // namespace fusescope::ir::tvm_import
