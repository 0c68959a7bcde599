#include "importers/mlir/mlir_tolerant_reader.h"

#include <initializer_list>
#include <map>
#include <unordered_set>
#include <utility>

#include "importers/mlir/mlir_text_scan.h"

namespace fusescope::ir::mlir_import {
namespace {

// How many lines one operation may span outside its regions before the reader gives up on
// joining them (an unbalanced bracket would otherwise swallow the rest of the text).
constexpr int kMaxContinuationLines = 256;

struct Line {
  std::string_view text;  // trimmed, without comment
  int64_t number = 0;
  int64_t column = 1;
};

// A `%name` (with an optional `#N` result index) at `position` in `text`.
struct ValueToken {
  size_t begin = 0;
  size_t end = 0;
  std::string name;
};

// The parentheses right after the first `@symbol` of `text` (a declaration's signature), as
// offsets of the '(' and its ')'; {npos, 0} when there are none.
std::pair<size_t, size_t> DeclarationSignature(std::string_view text) {
  const size_t at = text.find('@');
  if (at == std::string_view::npos) return {std::string_view::npos, 0};
  size_t open = at + 1;
  while (open < text.size() && text[open] != '(' && text[open] != ' ' && text[open] != ',') ++open;
  if (open >= text.size() || text[open] != '(') return {std::string_view::npos, 0};
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return {open, i};
  }
  return {std::string_view::npos, 0};
}

std::vector<ValueToken> ValueTokens(std::string_view text) {
  std::vector<ValueToken> tokens;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '"') {
      i = SkipStringLiteral(text, i);
      continue;
    }
    if (text[i] != '%') {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && IsValueNameChar(text[end])) ++end;
    if (end == i + 1) {
      ++i;
      continue;
    }
    if (end + 1 < text.size() && text[end] == '#' &&
        std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
      ++end;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    }
    tokens.push_back({i, end, std::string(text.substr(i, end - i))});
    i = end;
  }
  return tokens;
}

// Bracket depths of the text of one operation outside its regions, strings skipped.
struct Depths {
  int round = 0;  // () and []
  int curly = 0;
  void Scan(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (c == '"') {
        i = SkipStringLiteral(text, i);
        continue;
      }
      if (c == '(' || c == '[') ++round;
      if ((c == ')' || c == ']') && round > 0) --round;
      if (c == '{') ++curly;
      if (c == '}' && curly > 0) --curly;
      ++i;
    }
  }
};

std::string_view StripComment(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size();) {
    if (text[i] == '"') {
      i = SkipStringLiteral(text, i);
      continue;
    }
    if (text[i] == '/' && text[i + 1] == '/') return text.substr(0, i);
    ++i;
  }
  return text;
}

bool EndsWith(std::string_view text, std::initializer_list<std::string_view> suffixes) {
  for (std::string_view suffix : suffixes) {
    if (text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix)
      return true;
  }
  return false;
}

// `memref<1x4xf32, strided<...>>` -> `f32`; other types unchanged.
std::string ElementTypeOf(const std::string& type) {
  for (std::string_view kind : {"memref<", "tensor<"}) {
    if (type.rfind(kind, 0) != 0 || type.back() != '>') continue;
    std::vector<std::string_view> parts =
        SplitTopLevel(std::string_view(type).substr(kind.size(), type.size() - kind.size() - 1));
    if (parts.empty()) return type;
    std::string_view shape = parts.front();
    const size_t x = shape.rfind('x');
    return std::string(x == std::string_view::npos ? shape : shape.substr(x + 1));
  }
  return type;
}

// `reducer(...)  {` or `cond {`: a lower-case word followed by `(` or ` {`.
bool NamesRegion(std::string_view line) {
  size_t end = 0;
  while (end < line.size() && ((line[end] >= 'a' && line[end] <= 'z') || line[end] == '_')) ++end;
  if (end == 0 || end >= line.size()) return false;
  return line[end] == '(' || line.substr(end) == " {";
}

class Reader {
 public:
  Reader(std::string_view text, std::string_view file, int64_t first_line)
      : text_(text), file_(file), line_number_(first_line) {}

  TolerantReadResult Run() {
    scopes_.emplace_back();
    MlirRegion top;
    std::string rest;
    ReadBlocks(top, 0, rest);
    for (MlirBlock& block : top.blocks) {
      for (MlirOperation& operation : block.operations) {
        result_.tree.operations.push_back(std::move(operation));
      }
    }
    ResolveLocations(result_.tree.operations);
    return std::move(result_);
  }

 private:
  bool AtEnd() const { return position_ >= text_.size(); }

  Line Current() const {
    size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view raw = text_.substr(position_, end - position_);
    size_t indent = 0;
    while (indent < raw.size() && (raw[indent] == ' ' || raw[indent] == '\t')) ++indent;
    return Line{TrimText(StripComment(raw)), line_number_, static_cast<int64_t>(indent) + 1};
  }

  void Advance() {
    const size_t end = text_.find('\n', position_);
    position_ = end == std::string_view::npos ? text_.size() : end + 1;
    ++line_number_;
  }

  void Warn(const Line& line, const std::string& cause) {
    result_.warnings.push_back(std::string(file_) + ":" + std::to_string(line.number) + ":" +
                               std::to_string(line.column) + ": " + cause);
  }

  // `%3#1` is defined when `%3` is.
  bool Defined(const std::string& name) const {
    const std::string value = name.substr(0, name.find('#'));
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->count(value) > 0) return true;
    }
    return false;
  }

  // Reads operations and blocks until a line starting with `}` (the rest of that line goes
  // to `rest`; returns true) or the end of the text (returns false).
  bool ReadBlocks(MlirRegion& region, int depth, std::string& rest) {
    region.blocks.emplace_back();
    while (!AtEnd()) {
      const Line line = Current();
      if (line.text.empty()) {
        Advance();
      } else if (line.text.front() == '}') {
        Advance();
        if (depth > 0) {
          rest = std::string(line.text.substr(1));
          return true;
        }
        Warn(line, "'}' closes no region");
      } else if (line.text.front() == '^') {
        ReadBlockLabel(line, region);
        Advance();
      } else if (line.text.substr(0, 3) == "{-#") {
        SkipResources();
      } else if (depth == 0 && (line.text.front() == '#' || line.text.front() == '!')) {
        ReadAlias(line);
        Advance();
      } else {
        ReadOperation(line, region.blocks.back(), depth);
      }
    }
    return false;
  }

  void SkipResources() {
    while (!AtEnd()) {
      const bool last = Current().text.find("#-}") != std::string_view::npos;
      Advance();
      if (last) return;
    }
  }

  // `#loc3 = loc("f.py":1:2)` is kept for resolving `loc(#loc3)`; other aliases are skipped.
  void ReadAlias(const Line& line) {
    const size_t equals = line.text.find(" = ");
    if (equals == std::string_view::npos) {
      Warn(line, "unreadable line skipped");
      return;
    }
    std::string_view value = TrimText(line.text.substr(equals + 3));
    const std::string name(TrimText(line.text.substr(0, equals)));
    if (value.substr(0, 4) == "loc(" && value.back() == ')') {
      location_aliases_[name] = std::string(value.substr(4, value.size() - 5));
    } else {
      aliases_[name] = ExpandAliases(value);
    }
  }

  // `#map1` and `!type` aliases replaced by what they stand for: alias names are numbered per
  // dump, so two dumps of the same operation would otherwise differ.
  std::string ExpandAliases(std::string_view text) const {
    if (aliases_.empty()) return std::string(text);
    std::string expanded;
    expanded.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
      if (text[i] == '"') {
        const size_t end = SkipStringLiteral(text, i);
        expanded.append(text.substr(i, end - i));
        i = end;
        continue;
      }
      if ((text[i] == '#' || text[i] == '!') && (i == 0 || !IsValueNameChar(text[i - 1]))) {
        size_t end = i + 1;
        while (end < text.size() && IsValueNameChar(text[end])) ++end;
        auto alias = aliases_.find(std::string(text.substr(i, end - i)));
        if (alias != aliases_.end() && (end >= text.size() || text[end] != '<')) {
          expanded += alias->second;
          i = end;
          continue;
        }
      }
      expanded += text[i++];
    }
    return expanded;
  }

  void ReadBlockLabel(const Line& line, MlirRegion& region) {
    MlirBlock* block = &region.blocks.back();
    if (!block->label.empty() || !block->operations.empty()) block = &region.blocks.emplace_back();
    std::string_view text = line.text;
    size_t end = 1;
    while (end < text.size() && IsValueNameChar(text[end])) ++end;
    block->label = std::string(text.substr(0, end));
    const size_t open = text.find('(', end);
    const size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
    for (std::string_view argument : SplitTopLevel(text.substr(open + 1, close - open - 1))) {
      const size_t colon = argument.find(':');
      std::string_view name = TrimText(argument.substr(0, colon));
      if (name.empty() || name.front() != '%') continue;
      std::string_view type = colon == std::string_view::npos
                                  ? std::string_view()
                                  : TrimText(argument.substr(colon + 1));
      if (const size_t loc = type.find(" loc("); loc != std::string_view::npos)
        type = type.substr(0, loc);
      block->arguments.emplace_back(name);
      block->argument_types.push_back(ExpandAliases(type));
      scopes_.back().insert(std::string(name));
    }
  }

  // `%a, %b:2 = ` at the start of `text`: fills `results` and returns the text after it.
  std::string_view TakeResults(std::string_view text, std::vector<std::string>& results) {
    if (text.empty() || text.front() != '%') return text;
    size_t i = 0;
    std::vector<std::string> names;
    while (i < text.size() && text[i] == '%') {
      size_t end = i + 1;
      while (end < text.size() && IsValueNameChar(text[end])) ++end;
      const std::string name(text.substr(i, end - i));
      size_t count = 1;
      bool packed = false;
      if (end < text.size() && text[end] == ':') {
        size_t digits_end = end + 1;
        size_t value = 0;
        while (digits_end < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[digits_end])) && value < 100000) {
          value = value * 10 + static_cast<size_t>(text[digits_end] - '0');
          ++digits_end;
        }
        if (digits_end > end + 1) {
          count = value;
          packed = true;
          end = digits_end;
        }
      }
      for (size_t k = 0; k < count; ++k) {
        names.push_back(packed ? name + "#" + std::to_string(k) : name);
      }
      while (end < text.size() && text[end] == ' ') ++end;
      if (end < text.size() && text[end] == ',') {
        ++end;
        while (end < text.size() && text[end] == ' ') ++end;
        i = end;
        continue;
      }
      if (end < text.size() && text[end] == '=') {
        results = std::move(names);
        return TrimText(text.substr(end + 1));
      }
      break;
    }
    return text;
  }

  static std::string_view TakeName(std::string_view text, std::string& name) {
    if (!text.empty() && text.front() == '"') {
      const size_t end = SkipStringLiteral(text, 0);
      name = std::string(text.substr(1, end >= 2 ? end - 2 : 0));
      return TrimText(text.substr(end));
    }
    size_t end = 0;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '_' || text[end] == '.' || text[end] == '$')) {
      ++end;
    }
    name = std::string(text.substr(0, end));
    if (!name.empty() && name.find('.') == std::string::npos) {
      // The printer leaves out the dialect of ops in their default dialect.
      name =
          (name == "module" || name == "unrealized_conversion_cast" ? "builtin." : "func.") + name;
    }
    return TrimText(text.substr(end));
  }

  // The arguments an operation defines for its first region (`%arg0: f32` of a function
  // signature, `%iv = ...`, names not defined yet); every other value is an operand.
  void ClassifyHeader(std::string_view header, MlirOperation& operation, MlirBlock& entry,
                      std::unordered_set<std::string>& region_scope) {
    for (const ValueToken& token : ValueTokens(header)) {
      std::string_view after = header.substr(token.end);
      const bool typed = after.size() >= 2 && after[0] == ':' && after[1] != ':';
      const bool assigned = after.substr(0, 3) == " = ";
      if (typed || assigned || !Defined(token.name)) {
        std::string type;
        if (typed) {
          std::string_view rest = after.substr(1);
          std::vector<std::string_view> parts = SplitTopLevel(rest);
          // SplitTopLevel stops at nothing: cut the first part at an unmatched ')'.
          std::string_view first = parts.empty() ? std::string_view() : parts.front();
          int depth = 0;
          for (size_t i = 0; i < first.size(); ++i) {
            if (first[i] == '(' || first[i] == '<' || first[i] == '[') ++depth;
            if (first[i] == ')' || first[i] == ']' ||
                (first[i] == '>' && i > 0 && first[i - 1] != '-')) {
              if (depth == 0) {
                first = first.substr(0, i);
                break;
              }
              --depth;
            }
          }
          if (const size_t loc = first.find(" loc("); loc != std::string_view::npos)
            first = first.substr(0, loc);
          if (const size_t brace = first.find(" {"); brace != std::string_view::npos)
            first = first.substr(0, brace);
          type = ExpandAliases(TrimText(first));
        }
        if (region_scope.insert(token.name).second) {
          entry.arguments.push_back(token.name);
          entry.argument_types.push_back(std::move(type));
        }
      } else {
        operation.operands.push_back(token.name);
      }
    }
  }

  void ReadOperation(const Line& first, MlirBlock& block, int depth) {
    MlirOperation operation;
    operation.line = first.number;
    operation.column = first.column;
    std::string_view text = TakeResults(first.text, operation.results);
    text = TakeName(text, operation.name);
    if (operation.name.empty()) {
      Warn(first, "no operation here; line skipped");
      operation.name = "unknown";
      const bool opens_region = first.text.back() == '{';
      if (!opens_region) {
        Advance();
        return;
      }
    }
    std::string flat;
    std::string storage;         // holds the text `piece` views once it is no longer the line's
    MlirBlock header_arguments;  // what the header defined for the regions
    size_t header_scanned = 0;
    Depths depths;
    std::string_view piece = text;
    int continuation = 0;
    Advance();
    while (true) {
      flat += piece;
      depths.Scan(piece);
      std::string_view trimmed = TrimText(piece);
      if (!trimmed.empty() && trimmed.back() == '{' && depths.curly > 0) {
        flat.erase(flat.find_last_of('{'));
        --depths.curly;
        if (!ReadRegion(operation, flat, header_scanned, depth, header_arguments, storage, piece))
          return Finish(std::move(operation), flat, header_scanned, block);
        continue;
      }
      // An operation also goes on after a line ending in `=` or `,` (IREE's dispatch regions).
      // It also goes on at a line that names a region (`reducer(%a: f32, %b: f32) {`, `cond {`
      // of stablehlo's reduce and while): an op never starts with a bare word and `(` or `{`.
      const bool continues =
          (!trimmed.empty() && (trimmed.back() == '=' || trimmed.back() == ',')) ||
          (depths.round == 0 && depths.curly == 0 && !AtEnd() && NamesRegion(Current().text));
      if ((depths.round > 0 || depths.curly > 0 || continues) && !AtEnd() &&
          continuation < kMaxContinuationLines) {
        const Line next = Current();
        if (!next.text.empty() && next.text.front() == '}' && depths.round == 0) break;
        ++continuation;
        Advance();
        flat += ' ';
        storage = std::string(next.text);
        piece = storage;
        continue;
      }
      if (depths.round > 0 || depths.curly > 0)
        Warn(first, "unbalanced brackets in '" + operation.name + "'");
      break;
    }
    Finish(std::move(operation), flat, header_scanned, block);
  }

  // Reads one region of `operation`; `piece` becomes the text after its closing `}`.
  // Returns false when the text ended inside it.
  bool ReadRegion(MlirOperation& operation, std::string& flat, size_t& header_scanned, int depth,
                  MlirBlock& header_arguments, std::string& storage, std::string_view& piece) {
    MlirRegion& region = operation.regions.emplace_back();
    scopes_.emplace_back();
    std::string rest;
    bool closed = false;
    if (depth + 1 >= kMaxNesting) {
      if (!nesting_warned_) {
        Warn(Line{{}, line_number_, 1},
             "regions nested deeper than " + std::to_string(kMaxNesting) + " skipped");
        nesting_warned_ = true;
      }
      closed = SkipRegion(rest);
    } else {
      MlirBlock entry;
      if (operation.regions.size() > 1) {
        // `stablehlo.while(%iterArg = %0) ... cond { } do { }`: a later region without a block
        // label of its own takes the arguments the header defined, as the first one did.
        entry = header_arguments;
        for (const std::string& argument : entry.arguments) scopes_.back().insert(argument);
      }
      if (operation.regions.size() == 1) {
        std::vector<std::string> operands_before = std::move(operation.operands);
        operation.operands.clear();
        const std::string_view header = std::string_view(flat).substr(header_scanned);
        ClassifyHeader(header, operation, entry, scopes_.back());
        // `reducer(%a0, %b0) (%a1, %b1)` pairs each input's accumulator with its value; the
        // block takes the accumulators first: (%a0, %a1, %b0, %b1).
        if (header.find("reducer(") != std::string_view::npos && entry.arguments.size() > 2 &&
            entry.arguments.size() % 2 == 0) {
          MlirBlock paired = entry;
          const size_t pairs = entry.arguments.size() / 2;
          for (size_t i = 0; i < entry.arguments.size(); ++i) {
            const size_t to = (i % 2) * pairs + i / 2;
            entry.arguments[to] = paired.arguments[i];
            entry.argument_types[to] = paired.argument_types[i];
          }
        }
        operands_before.insert(operands_before.end(), operation.operands.begin(),
                               operation.operands.end());
        operation.operands = std::move(operands_before);
        header_scanned = flat.size();
        header_arguments = entry;
      }
      closed = ReadBlocks(region, depth + 1, rest);
      const bool labelled = !region.blocks.front().label.empty();
      if (!entry.arguments.empty() && (operation.regions.size() == 1 || !labelled)) {
        MlirBlock& first_block = region.blocks.front();
        entry.arguments.insert(entry.arguments.end(), first_block.arguments.begin(),
                               first_block.arguments.end());
        entry.argument_types.insert(entry.argument_types.end(), first_block.argument_types.begin(),
                                    first_block.argument_types.end());
        first_block.arguments = std::move(entry.arguments);
        first_block.argument_types = std::move(entry.argument_types);
      }
    }
    scopes_.pop_back();
    if (!closed) {
      if (!result_.cut_off) {
        Warn(Line{{}, operation.line, operation.column},
             "text ends inside the region of '" + operation.name + "' opened here");
      }
      result_.cut_off = true;
      return false;
    }
    storage = std::move(rest);
    piece = storage;
    return true;
  }

  bool SkipRegion(std::string& rest) {
    int open = 1;
    while (!AtEnd()) {
      const Line line = Current();
      Advance();
      if (!line.text.empty() && line.text.front() == '}') --open;
      if (!line.text.empty() && line.text.back() == '{') ++open;
      if (open == 0) {
        rest = std::string(line.text.substr(1));
        return true;
      }
    }
    return false;
  }

  void Finish(MlirOperation operation, std::string& flat, size_t header_scanned, MlirBlock& block) {
    std::string_view text = TrimText(flat);
    // The trailing `loc(...)` is the operation's location.
    if (!text.empty() && text.back() == ')') {
      const size_t loc = FindLastTopLevel(text, "loc(");
      if (loc != std::string_view::npos && (loc == 0 || text[loc - 1] == ' ')) {
        operation.location = std::string(text.substr(loc + 4, text.size() - loc - 5));
        text = TrimText(text.substr(0, loc));
        header_scanned =
            std::min(header_scanned, static_cast<size_t>(text.data() - flat.data()) + text.size());
      }
    }
    const size_t text_offset = static_cast<size_t>(text.data() - flat.data());
    const size_t scan_from = header_scanned > text_offset ? header_scanned - text_offset : 0;
    if (scan_from < text.size()) {
      const std::string_view rest = text.substr(scan_from);
      const std::pair<size_t, size_t> signature = DeclarationSignature(rest);
      for (const ValueToken& token : ValueTokens(rest)) {
        // A body-less declaration names its arguments (`vm.import @f(%device : !vm.ref<..>)`):
        // they are no uses of values.
        if (token.begin > signature.first && token.end < signature.second &&
            TrimText(rest.substr(token.end)).substr(0, 1) == ":") {
          continue;
        }
        operation.operands.push_back(token.name);
      }
    }
    const std::string expanded = ExpandAliases(text);
    text = expanded;
    operation.result_types = ResultTypesOf(text);
    // `memref.load %m[%i] : memref<4x8xf32>` writes the container's type: the result is one
    // element of it.
    if (operation.result_types.size() == 1 && EndsWith(operation.name, {".load", ".extract"})) {
      operation.result_types.front() = ElementTypeOf(operation.result_types.front());
    }
    // Comparisons write their operands' type; the result holds i1s of that shape.
    if (operation.result_types.size() == 1 &&
        EndsWith(operation.name, {".cmpi", ".cmpf", ".icmp", ".fcmp"})) {
      std::string& type = operation.result_types.front();
      const std::string element = ElementTypeOf(type);
      type = element == type ? "i1" : type.substr(0, type.find(element, type.find('<'))) + "i1>";
    }
    // `stablehlo.select %p, %a, %b : tensor<i1>, tensor<f32>` lists operand types, the result's
    // last.
    if (operation.results.size() == 1 && operation.result_types.size() > 1 &&
        FindLastTopLevel(text, "->") == std::string_view::npos) {
      operation.result_types = {operation.result_types.back()};
    }
    // `arith.constant true` writes no type: a boolean literal is an i1.
    if (operation.result_types.empty() && (text == "true" || text == "false")) {
      operation.result_types.emplace_back("i1");
    }
    if (operation.result_types.size() != operation.results.size()) {
      if (operation.result_types.size() == 1 && !operation.results.empty()) {
        operation.result_types.assign(operation.results.size(), operation.result_types.front());
      } else {
        operation.result_types.assign(operation.results.size(), std::string());
      }
    }
    PairOperandsAsMlirDoes(text, operation);
    std::string_view symbol_text = text;
    for (std::string_view keyword : {"public ", "private ", "nested "}) {
      if (symbol_text.substr(0, keyword.size()) == keyword)
        symbol_text.remove_prefix(keyword.size());
    }
    if (const size_t at = symbol_text.find('@'); at != std::string_view::npos) {
      size_t end = at + 1;
      std::string symbol;
      if (end < symbol_text.size() && symbol_text[end] == '"') {
        const size_t close = SkipStringLiteral(symbol_text, end);
        symbol = std::string(symbol_text.substr(end + 1, close - end - 2));
      } else {
        while (end < symbol_text.size() && IsValueNameChar(symbol_text[end])) ++end;
        symbol = std::string(symbol_text.substr(at + 1, end - at - 1));
      }
      if (operation.name.find("call") != std::string::npos) {
        operation.callee = std::move(symbol);
      } else if (at == 0) {
        operation.symbol = std::move(symbol);
      }
    }
    operation.text = std::string(text);
    for (const std::string& result : operation.results) {
      const size_t hash = result.find('#');
      scopes_.back().insert(result.substr(0, hash));
    }
    block.operations.push_back(std::move(operation));
  }

  // The pretty forms of reduce and while write what the generic form keeps elsewhere:
  // `reduce(%x init: %c), (%i init: %d)` pairs each input with its initial value, where the
  // operation takes the inputs first (%x, %i, %c, %d); `while(%iterArg = %c) : tensor<i32>`
  // types its regions' arguments after the colon, as its results.
  static void PairOperandsAsMlirDoes(std::string_view text, MlirOperation& operation) {
    const size_t count = operation.operands.size();
    if (text.find(" init: ") != std::string_view::npos && count > 2 && count % 2 == 0) {
      const std::vector<std::string> paired = operation.operands;
      for (size_t i = 0; i < count; ++i)
        operation.operands[(i % 2) * (count / 2) + i / 2] = paired[i];
    }
    if (!EndsWith(operation.name, {".while"})) return;
    for (MlirRegion& region : operation.regions) {
      if (region.blocks.empty()) continue;
      MlirBlock& entry = region.blocks.front();
      if (entry.argument_types.size() != operation.result_types.size()) continue;
      for (size_t i = 0; i < entry.argument_types.size(); ++i) {
        if (entry.argument_types[i].empty()) entry.argument_types[i] = operation.result_types[i];
      }
    }
  }

  void ResolveLocations(std::vector<MlirOperation>& operations) {
    for (MlirOperation& operation : operations) {
      auto alias = location_aliases_.find(operation.location);
      if (alias != location_aliases_.end()) operation.location = alias->second;
      for (MlirRegion& region : operation.regions) {
        for (MlirBlock& block : region.blocks) ResolveLocations(block.operations);
      }
    }
  }

  std::string_view text_;
  std::string_view file_;
  size_t position_ = 0;
  int64_t line_number_ = 1;
  std::vector<std::unordered_set<std::string>> scopes_;
  std::map<std::string, std::string> location_aliases_;
  std::map<std::string, std::string> aliases_;
  bool nesting_warned_ = false;
  TolerantReadResult result_;
};

}  // namespace

TolerantReadResult ReadMlirTolerantly(std::string_view text, std::string_view file,
                                      int64_t first_line) {
  return Reader(text, file, first_line).Run();
}

}  // namespace fusescope::ir::mlir_import
