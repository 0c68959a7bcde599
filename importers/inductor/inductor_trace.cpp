#include "importers/inductor/inductor_trace.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "importers/mlir/mlir_module_builder.h"
#include "importers/xla_dump_provenance.h"
#include "ir/hlo_printer.h"
#include "ir/json_reader.h"
#include "recording/recorder.h"

namespace fusescope::ir::inductor_import {
namespace {

namespace fs = std::filesystem;
using mlir_import::MlirBlock;
using mlir_import::MlirLogImport;
using mlir_import::MlirLogImportOptions;
using mlir_import::MlirLogSectionReport;
using mlir_import::MlirOperation;
using mlir_import::MlirOperationTree;
using mlir_import::MlirRegion;

// A garbled file can warn on every line; a few say enough.
constexpr size_t kWarningsPerFile = 5;

// The stages, in Inductor's order: the file each reads and the pass that made it.
struct Stage {
  const char* file;
  const char* pass;  // the pass from the stage before (the first is the recording's input)
  bool fx;
};
constexpr Stage kStages[] = {
    {"fx_graph_readable.py", "aot_autograd", true},
    {"fx_graph_transformed.py", "post_grad_passes", true},
    {"ir_pre_fusion.txt", "graph_lowering", false},
    {"ir_post_fusion.txt", "scheduler_fusion", false},
};

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

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsIdentifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  return std::all_of(text.begin(), text.end(), IsIdentifierChar);
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

// Where the quoted string or bracket opened at `i` closes; text.size() when it never does.
size_t SkipQuoted(std::string_view text, size_t i) {
  const char quote = text[i];
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i;
    }
  }
  return text.size();
}

// `a, f(b, c), [d, e]` -> {"a", "f(b, c)", "[d, e]"}: commas outside brackets and quotes.
std::vector<std::string_view> SplitTopLevel(std::string_view text, char separator = ',') {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = SkipQuoted(text, i);
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == separator && depth == 0) {
      parts.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (std::string_view last = Trim(text.substr(start)); !last.empty()) parts.push_back(last);
  return parts;
}

// The position of the ')' matching the '(' at `open`, or npos.
size_t MatchingParen(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = SkipQuoted(text, i);
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return c == ')' ? i : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// Every identifier in `text` outside quoted strings, in order.
std::vector<std::string> Identifiers(std::string_view text) {
  std::vector<std::string> names;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = SkipQuoted(text, i) + 1;
    } else if (IsIdentifierChar(c) && !std::isdigit(static_cast<unsigned char>(c)) &&
               (i == 0 || text[i - 1] != '.')) {
      size_t end = i;
      while (end < text.size() && IsIdentifierChar(text[end])) ++end;
      // `x.y` is an attribute path, `x=` a keyword: neither is a value named x.
      size_t next = end;
      while (next < text.size() && text[next] == ' ') ++next;
      const bool keyword = next < text.size() && text[next] == '=' &&
                           (next + 1 >= text.size() || text[next + 1] != '=');
      if ((end >= text.size() || text[end] != '.') && !keyword)
        names.emplace_back(text.substr(i, end - i));
      i = end;
    } else {
      ++i;
    }
  }
  return names;
}

// "f32" (FX) or "float32" (torch.float32) -> the MLIR element type; "" when unknown.
std::string ElementTypeName(std::string_view dtype) {
  static const std::map<std::string_view, std::string_view> kTypes = {
      {"f32", "f32"},
      {"float32", "f32"},
      {"f64", "f64"},
      {"float64", "f64"},
      {"f16", "f16"},
      {"float16", "f16"},
      {"bf16", "bf16"},
      {"bfloat16", "bf16"},
      {"i64", "i64"},
      {"int64", "i64"},
      {"i32", "i32"},
      {"int32", "i32"},
      {"i16", "i16"},
      {"int16", "i16"},
      {"i8", "i8"},
      {"int8", "i8"},
      {"u8", "ui8"},
      {"uint8", "ui8"},
      {"b8", "i1"},
      {"bool", "i1"},
      {"c64", "complex<f32>"},
      {"complex64", "complex<f32>"}};
  auto found = kTypes.find(dtype);
  return found == kTypes.end() ? std::string() : std::string(found->second);
}

// Sizes as written ("8, 512", "s0, 4") with an element type -> `tensor<8x512xf32>`.
std::string TensorType(std::string_view sizes, const std::string& element) {
  if (element.empty()) return "";
  std::string type = "tensor<";
  for (std::string_view size : SplitTopLevel(sizes)) {
    const bool number = !size.empty() && std::all_of(size.begin(), size.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    type += (number ? std::string(size) : std::string("?")) + "x";
  }
  return type + element + ">";
}

// An FX annotation: "f32[8, 512]" -> tensor<8x512xf32>, "f32[]" -> tensor<f32>; "" for
// "Sym(s0)" and the like.
std::string FxType(std::string_view annotation) {
  const size_t open = annotation.find('[');
  if (open == std::string_view::npos || annotation.back() != ']') return "";
  return TensorType(annotation.substr(open + 1, annotation.size() - open - 2),
                    ElementTypeName(annotation.substr(0, open)));
}

// A layout line: "FixedLayout('cpu', torch.float32, size=[8, 512], stride=[512, 1])".
std::string LayoutType(std::string_view layout) {
  const size_t dtype = layout.find("torch.");
  const size_t size = layout.find("size=[");
  if (dtype == std::string_view::npos || size == std::string_view::npos) return "";
  size_t end = dtype + 6;
  while (end < layout.size() && IsIdentifierChar(layout[end])) ++end;
  const size_t close = layout.find(']', size);
  if (close == std::string_view::npos) return "";
  return TensorType(layout.substr(size + 6, close - size - 6),
                    ElementTypeName(layout.substr(dtype + 6, end - dtype - 6)));
}

std::string Escaped(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

std::string Joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (const std::string& part : parts)
    joined += (joined.empty() ? "" : std::string(separator)) + part;
  return joined;
}

// The location a node is given: its pre-grad nodes as a name, its source line inside.
std::string Location(const std::vector<std::string>& pre_grad, const std::string& file,
                     int64_t line) {
  const std::string source =
      file.empty() ? "" : "\"" + Escaped(file) + "\":" + std::to_string(line) + ":0";
  if (pre_grad.empty()) return source;
  const std::string name = "\"" + Escaped(Joined(pre_grad, ", ")) + "\"";
  return source.empty() ? name : name + "(" + source + ")";
}

// `torch.ops.aten.mm.default` -> `aten.mm`; other callees as written.
std::string OpName(std::string callee) {
  if (!StartsWith(callee, "torch.ops.")) return callee;
  callee = callee.substr(10);
  if (std::count(callee.begin(), callee.end(), '.') >= 2) callee = callee.substr(0, callee.rfind('.'));
  return callee;
}

MlirOperation Function(const std::string& name, int64_t line) {
  MlirOperation function;
  function.name = "func.func";
  function.symbol = name;
  function.line = line;
  function.column = 1;
  function.regions.emplace_back().blocks.emplace_back();
  return function;
}

// ---------------------------------------------------------------------------------------
// FX graphs

class FxReader {
 public:
  FxReader(const std::string& path, const std::string& function,
           const std::map<std::string, std::vector<std::string>>& pre_grad)
      : path_(path), pre_grad_(pre_grad) {
    read_.function = Function(function, 1);
  }

  FxGraphRead Read(std::string_view text) {
    const std::vector<std::string_view> lines = Lines(text);
    bool in_forward = false;
    for (size_t i = 0; i < lines.size(); ++i) {
      const int64_t number = static_cast<int64_t>(i) + 1;
      const std::string_view line = lines[i];
      const std::string_view stripped = Trim(line);
      if (!in_forward) {
        if (StartsWith(stripped, "def forward(")) {
          in_forward = true;
          ReadArguments(stripped, number);
        }
        continue;
      }
      if (stripped.empty()) {
        source_file_.clear();
        continue;
      }
      const size_t indent = line.find_first_not_of(" \t");
      if (indent <= 4 && !StartsWith(stripped, "#")) break;  // the forward has ended
      if (StartsWith(stripped, "#")) {
        ReadComment(stripped);
      } else if (StartsWith(stripped, "return")) {
        ReadReturn(stripped.substr(6), number, static_cast<int64_t>(indent) + 1);
      } else {
        ReadNode(stripped, number, static_cast<int64_t>(indent) + 1);
      }
    }
    if (!in_forward) Warn(1, 1, "no `def forward(` in the file: no graph read");
    return std::move(read_);
  }

 private:
  MlirBlock& block() { return read_.function.regions[0].blocks[0]; }

  void Warn(int64_t line, int64_t column, const std::string& cause) {
    read_.warnings.push_back(path_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                             ": " + cause);
  }

  void ReadArguments(std::string_view line, int64_t number) {
    read_.function.line = number;
    const size_t open = line.find('(');
    const size_t close = MatchingParen(line, open);
    if (close == std::string_view::npos) {
      Warn(number, 1, "the forward's arguments do not close on its line");
      return;
    }
    for (std::string_view argument : SplitTopLevel(line.substr(open + 1, close - open - 1))) {
      const size_t colon = argument.find(':');
      const std::string name(Trim(argument.substr(0, colon)));
      if (name == "self" || !IsIdentifier(name)) continue;
      std::string type;
      if (colon != std::string_view::npos) {
        std::string_view annotation = Trim(argument.substr(colon + 1));
        const size_t equals = annotation.find('=');
        if (equals != std::string_view::npos) annotation = Trim(annotation.substr(0, equals));
        if (annotation.size() >= 2 && (annotation.front() == '"' || annotation.front() == '\''))
          annotation = annotation.substr(1, annotation.size() - 2);
        type = FxType(annotation);
      }
      block().arguments.push_back("%" + name);
      block().argument_types.push_back(type);
      read_.argument_types.push_back(type);
      values_.insert(name);
    }
  }

  // "# File: /path/model.py:18 in forward, code: return torch.matmul(x, y)"
  void ReadComment(std::string_view comment) {
    constexpr std::string_view kFile = "# File: ";
    if (!StartsWith(comment, kFile)) return;
    std::string_view rest = comment.substr(kFile.size());
    const size_t in = rest.find(" in ");
    if (in != std::string_view::npos) rest = rest.substr(0, in);
    const size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos) return;
    int64_t line = 0;
    for (char c : rest.substr(colon + 1)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return;
      line = line * 10 + (c - '0');
    }
    source_file_ = std::string(rest.substr(0, colon));
    source_line_ = line;
  }

  std::vector<std::string> Operands(std::string_view text) const {
    std::vector<std::string> operands;
    for (const std::string& name : Identifiers(text)) {
      if (values_.count(name) &&
          std::find(operands.begin(), operands.end(), "%" + name) == operands.end())
        operands.push_back("%" + name);
    }
    return operands;
  }

  void ReadReturn(std::string_view values, int64_t number, int64_t column) {
    MlirOperation& op = block().operations.emplace_back();
    op.name = "func.return";
    op.operands = Operands(values);
    op.text = std::string(Trim(values));
    op.line = number;
    op.column = column;
  }

  // `mm: "f32[8, 512]" = torch.ops.aten.mm.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None`
  void ReadNode(std::string_view line, int64_t number, int64_t column) {
    // The statement ends at the first ';' outside brackets (what follows frees values).
    std::vector<std::string_view> statements = SplitTopLevel(line, ';');
    if (statements.empty()) return;
    const std::string_view statement = statements.front();
    size_t equals = std::string_view::npos;
    for (size_t i = 0; i < statement.size(); ++i) {
      if (statement[i] == '"' || statement[i] == '\'') {
        i = SkipQuoted(statement, i);
      } else if (statement[i] == '=' && (i + 1 >= statement.size() || statement[i + 1] != '=')) {
        equals = i;
        break;
      }
    }
    if (equals == std::string_view::npos) {
      Warn(number, column, "not a node of the graph (no assignment); skipped");
      return;
    }
    std::string_view target = Trim(statement.substr(0, equals));
    std::string type;
    if (const size_t colon = target.find(':'); colon != std::string_view::npos) {
      std::string_view annotation = Trim(target.substr(colon + 1));
      if (annotation.size() >= 2 && (annotation.front() == '"' || annotation.front() == '\''))
        annotation = annotation.substr(1, annotation.size() - 2);
      type = FxType(annotation);
      target = Trim(target.substr(0, colon));
    }
    if (!IsIdentifier(target)) {
      Warn(number, column, "a node whose name reads as no identifier; skipped");
      return;
    }
    const std::string_view expression = Trim(statement.substr(equals + 1));
    MlirOperation op;
    op.results.push_back("%" + std::string(target));
    op.result_types.push_back(type);
    op.line = number;
    op.column = column;
    op.text = std::string(expression);
    const size_t open = expression.find('(');
    const size_t bracket = expression.find('[');
    if (open != std::string_view::npos && (bracket == std::string_view::npos || open < bracket)) {
      // A call: `torch.ops.aten.mm.default(...)` -> aten.mm; other callees as written.
      const std::string callee = OpName(std::string(Trim(expression.substr(0, open))));
      op.name = callee == "operator.getitem" ? "getitem" : callee;
      const size_t close = MatchingParen(expression, open);
      op.operands = Operands(expression.substr(
          open + 1, (close == std::string_view::npos ? expression.size() : close) - open - 1));
    } else if (bracket != std::string_view::npos &&
               IsIdentifier(Trim(expression.substr(0, bracket)))) {
      op.name = "getitem";  // `var_mean[0]`
      op.operands = Operands(expression.substr(0, bracket));
    } else if (StartsWith(expression, "self.")) {
      op.name = "get_attr";  // a constant of the module
    } else {
      op.name = "fx.value";
      op.operands = Operands(expression);
    }
    auto pre = pre_grad_.find(std::string(target));
    op.location = Location(pre == pre_grad_.end() ? std::vector<std::string>{} : pre->second,
                           source_file_, source_line_);
    values_.insert(std::string(target));
    block().operations.push_back(std::move(op));
    ++read_.nodes;
  }

  std::string path_;
  const std::map<std::string, std::vector<std::string>>& pre_grad_;
  FxGraphRead read_;
  std::set<std::string> values_;
  std::string source_file_;
  int64_t source_line_ = 0;
};

// ---------------------------------------------------------------------------------------
// The scheduler's nodes (ir_pre_fusion.txt, ir_post_fusion.txt)

struct BodyOp {
  std::string result;
  std::string op;  // "ops.load"
  std::string text;
  std::vector<std::string> operands;
  int64_t line = 0;
  int64_t column = 0;
};

struct SchedulerNode {
  std::string name;
  std::string kind;    // "SchedulerNode", "ExternKernelSchedulerNode", "FusedSchedulerNode"
  std::string kernel;  // "extern_kernels.addmm" for a library call
  std::string iteration;
  int64_t line = 0;
  std::vector<std::string> writes;
  std::vector<std::string> reads;
  std::vector<std::pair<std::string, std::string>> buffers;  // name, type
  std::vector<std::string> graph_outputs;
  std::vector<BodyOp> body;
  std::vector<size_t> members;
  bool member = false;
};

struct SchedulerRead {
  std::vector<SchedulerNode> nodes;
  std::vector<size_t> top;  // top-level nodes in the file's order
  std::vector<std::string> warnings;
};

// The buffers a dependency list names: MemoryDep('buf0', ...), StarDep(name='buf0', ...);
// WeakDep only orders nodes and is left out.
std::vector<std::string> DependencyNames(std::string_view text) {
  std::vector<std::string> names;
  for (std::string_view kind : {"MemoryDep(", "StarDep("}) {
    for (size_t at = text.find(kind); at != std::string_view::npos; at = text.find(kind, at + 1)) {
      size_t quote = text.find('\'', at);
      if (quote == std::string_view::npos) break;
      const size_t end = text.find('\'', quote + 1);
      if (end == std::string_view::npos) break;
      std::string name(text.substr(quote + 1, end - quote - 1));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

class SchedulerReader {
 public:
  explicit SchedulerReader(const std::string& path) : path_(path) {}

  SchedulerRead Read(std::string_view text) {
    const std::vector<std::string_view> lines = Lines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      const int64_t number = static_cast<int64_t>(i) + 1;
      const std::string_view line = lines[i];
      if (Trim(line).empty()) continue;
      if (line.front() != ' ') {
        TopLevelLine(line, number);
      } else {
        IndentedLine(line, number);
      }
    }
    Flush();
    return std::move(read_);
  }

 private:
  SchedulerNode* current() {
    return current_ < read_.nodes.size() ? &read_.nodes[current_] : nullptr;
  }

  void Warn(int64_t line, const std::string& cause) {
    read_.warnings.push_back(path_ + ":" + std::to_string(line) + ":1: " + cause);
  }

  void Flush() {
    SchedulerNode* node = current();
    if (node && !field_.empty()) {
      if (field_ == "writes") {
        node->writes = DependencyNames(value_);
      } else if (field_ == "unmet_dependencies" || field_ == "met_dependencies") {
        for (std::string& name : DependencyNames(value_)) {
          if (std::find(node->reads.begin(), node->reads.end(), name) == node->reads.end())
            node->reads.push_back(std::move(name));
        }
      } else if (field_ == "node.kernel") {
        node->kernel = std::string(Trim(value_));
      } else if (field_ == "group.iteration") {
        node->iteration = std::string(Trim(value_));
      }
    }
    field_.clear();
    value_.clear();
  }

  std::optional<size_t> Find(std::string_view name) const {
    for (size_t i = 0; i < read_.nodes.size(); ++i)
      if (read_.nodes[i].name == name) return i;
    return std::nullopt;
  }

  void TopLevelLine(std::string_view line, int64_t number) {
    Flush();
    in_outputs_ = in_class_ = in_body_ = false;
    // `op1: SchedulerNode(ComputedBuffer)`, `op1_op2: FusedSchedulerNode(...)`
    const size_t colon = line.find(": ");
    if (colon != std::string_view::npos && IsIdentifier(line.substr(0, colon))) {
      std::string_view kind = line.substr(colon + 2);
      kind = kind.substr(0, kind.find('('));
      if (IsIdentifier(kind) && kind.find("Node") != std::string_view::npos) {
        SchedulerNode& node = read_.nodes.emplace_back();
        node.name = std::string(line.substr(0, colon));
        node.kind = std::string(kind);
        node.line = number;
        current_ = read_.nodes.size() - 1;
        if (pending_parent_) {
          read_.nodes[*pending_parent_].members.push_back(current_);
          node.member = true;
          pending_parent_.reset();
        } else {
          read_.top.push_back(current_);
        }
        return;
      }
    }
    // `op1_op2.snodes[0] =`: the next node is that fused node's member.
    if (const size_t snodes = line.find(".snodes["); snodes != std::string_view::npos) {
      pending_parent_ = Find(line.substr(0, snodes));
      if (!pending_parent_) Warn(number, "members of an unknown node");
      return;
    }
    // `class op1_loop_body:`
    if (StartsWith(line, "class ") && line.find("_loop_body:") != std::string_view::npos) {
      const std::string_view name = line.substr(6, line.find("_loop_body:") - 6);
      if (auto found = Find(name)) {
        current_ = *found;
        in_class_ = true;
      }
      return;
    }
    // `op1.writes = [...]`
    SchedulerNode* node = current();
    if (!node || !StartsWith(line, node->name + ".")) return;
    const size_t equals = line.find(" =");
    if (equals == std::string_view::npos) return;
    field_ = std::string(line.substr(node->name.size() + 1, equals - node->name.size() - 1));
    value_ = std::string(line.substr(std::min(line.size(), equals + 2)));
    if (field_ == "outputs") {
      in_outputs_ = true;
      field_.clear();
      value_.clear();
    }
  }

  void IndentedLine(std::string_view line, int64_t number) {
    SchedulerNode* node = current();
    if (!node) return;
    const std::string_view stripped = Trim(line);
    if (in_outputs_) {
      // `buf1: ComputedBuffer`, `buf1.layout = FixedLayout(...)`, users naming OUTPUT
      const size_t colon = stripped.find(": ");
      if (colon != std::string_view::npos && IsIdentifier(stripped.substr(0, colon))) {
        buffer_ = std::string(stripped.substr(0, colon));
        node->buffers.emplace_back(buffer_, "");
      } else if (StartsWith(stripped, buffer_ + ".layout = ") && !node->buffers.empty()) {
        node->buffers.back().second = LayoutType(stripped);
      }
      if (!buffer_.empty() && stripped.find("node=OUTPUT") != std::string_view::npos &&
          std::find(node->graph_outputs.begin(), node->graph_outputs.end(), buffer_) ==
              node->graph_outputs.end())
        node->graph_outputs.push_back(buffer_);
      return;
    }
    if (in_class_) {
      if (StartsWith(stripped, "def body(")) {
        in_body_ = true;
      } else if (StartsWith(stripped, "def ")) {
        in_body_ = false;
      } else if (in_body_) {
        ReadBodyLine(*node, line, stripped, number);
      }
      return;
    }
    if (!field_.empty()) value_ += std::string(stripped);
  }

  // `mul = ops.mul(load, load_1)`; index lookups and the return are left out.
  void ReadBodyLine(SchedulerNode& node, std::string_view line, std::string_view stripped,
                    int64_t number) {
    const size_t equals = stripped.find(" = ");
    if (equals == std::string_view::npos) return;
    const std::string_view result = stripped.substr(0, equals);
    const std::string_view call = stripped.substr(equals + 3);
    if (!IsIdentifier(result) || !StartsWith(call, "ops.")) return;
    const size_t open = call.find('(');
    if (open == std::string_view::npos) return;
    BodyOp& op = node.body.emplace_back();
    op.result = std::string(result);
    op.op = std::string(call.substr(0, open));
    op.text = std::string(call);
    op.line = number;
    op.column = static_cast<int64_t>(line.size() - stripped.size()) + 1;
    const size_t close = MatchingParen(call, open);
    for (const std::string& name : Identifiers(call.substr(
             open + 1, (close == std::string_view::npos ? call.size() : close) - open - 1))) {
      const bool defined =
          std::any_of(node.body.begin(), node.body.end() - 1,
                      [&](const BodyOp& earlier) { return earlier.result == name; });
      if (defined && std::find(op.operands.begin(), op.operands.end(), name) == op.operands.end())
        op.operands.push_back(name);
    }
  }

  std::string path_;
  SchedulerRead read_;
  size_t current_ = static_cast<size_t>(-1);
  std::optional<size_t> pending_parent_;
  std::string field_;
  std::string value_;
  std::string buffer_;
  bool in_outputs_ = false;
  bool in_class_ = false;
  bool in_body_ = false;
};

// Opcodes as Inductor's engineers say them.
std::string NodeOpcode(const SchedulerNode& node) {
  // A fallback to an aten op names it as `torch.ops.aten.x.default`; a MultiOutput (one
  // output of such a call) has kernel `None`.
  if (node.kind == "ExternKernelSchedulerNode" && !node.kernel.empty() && node.kernel != "None")
    return OpName(node.kernel);
  if (node.kind == "SchedulerNode") return "inductor.loop";
  if (node.kind == "FusedSchedulerNode") return "inductor.fused";
  if (node.kind == "OuterLoopFusedSchedulerNode") return "inductor.outer_loop_fused";
  if (node.kind == "NopKernelSchedulerNode") return "inductor.nop";
  if (node.kind == "ForeachKernelSchedulerNode") return "inductor.foreach";
  if (node.kind == "ExternKernelSchedulerNode")
    return node.kernel == "None" ? "inductor.multi_output" : "inductor.extern";
  return "inductor." + node.kind;
}

// One graph's scheduler nodes as a function: `arguments` and their types from its FX graph.
class SchedulerGraphBuilder {
 public:
  SchedulerGraphBuilder(const SchedulerRead& read, const std::vector<std::string>& arguments,
                        const std::vector<std::string>& argument_types,
                        const std::map<std::string, std::string>& kernels,
                        const std::map<std::string, std::vector<std::string>>& pre_grad)
      : read_(read), kernels_(kernels), pre_grad_(pre_grad) {
    function_ = Function("", 1);
    MlirBlock& block = function_.regions[0].blocks[0];
    block.arguments = arguments;
    block.argument_types = argument_types;
    for (const std::string& argument : arguments) inputs_.insert(argument.substr(1));
    // Members first: a fused node lists its members' buffers as its own writes too.
    for (size_t top : read.top) {
      for (size_t member : read.nodes[top].members) Claim(read.nodes[member], read.nodes[top].name);
      Claim(read.nodes[top], read.nodes[top].name);
    }
  }

  MlirOperation Build(const std::string& name) {
    function_.symbol = name;
    MlirBlock& block = function_.regions[0].blocks[0];
    std::vector<std::string> outputs;
    for (size_t top : read_.top) {
      const SchedulerNode& node = read_.nodes[top];
      block.operations.push_back(NodeOperation(node, ""));
      if (!node.graph_outputs.empty()) outputs.push_back("%" + node.name);
    }
    MlirOperation& ret = block.operations.emplace_back();
    ret.name = "func.return";
    ret.operands = outputs;
    return std::move(function_);
  }

 private:
  void Claim(const SchedulerNode& node, const std::string& top) {
    for (const std::string& buffer : node.writes) writers_.try_emplace(buffer, node.name, top);
    for (const auto& [buffer, type] : node.buffers) writers_.try_emplace(buffer, node.name, top);
  }

  // The value a read of `buffer` is, seen from inside `fused` (empty: the function's level).
  std::optional<std::string> Resolve(const std::string& buffer, const std::string& fused) const {
    if (inputs_.count(buffer)) return "%" + buffer;
    auto writer = writers_.find(buffer);
    if (writer == writers_.end()) return std::nullopt;  // a constant the dump does not list
    return "%" + (writer->second.second == fused ? writer->second.first : writer->second.second);
  }

  MlirOperation NodeOperation(const SchedulerNode& node, const std::string& fused) {
    MlirOperation op;
    op.name = NodeOpcode(node);
    op.results.push_back("%" + node.name);
    op.result_types.push_back(node.buffers.empty() ? "" : node.buffers.front().second);
    op.line = node.line;
    op.column = 1;
    std::vector<std::string> text;
    const std::string& top = fused.empty() ? node.name : fused;
    if (auto kernel = kernels_.find(top); kernel != kernels_.end()) {
      text.push_back("kernel " + kernel->second);
      if (auto pre = pre_grad_.find(kernel->second); pre != pre_grad_.end())
        op.location = Location(pre->second, "", 0);
    }
    if (!node.writes.empty()) text.push_back("writes " + Joined(node.writes, ", "));
    if (!node.iteration.empty()) text.push_back("iteration " + node.iteration);
    op.text = Joined(text, "; ");
    if (!node.members.empty()) {
      // The members' reads of outer values become the fused node's operands.
      MlirBlock& block = op.regions.emplace_back().blocks.emplace_back();
      for (size_t member : node.members)
        block.operations.push_back(NodeOperation(read_.nodes[member], node.name));
      return op;
    }
    for (const std::string& buffer : node.reads) {
      auto value = Resolve(buffer, fused);
      if (!value || *value == "%" + node.name || *value == "%" + fused) continue;
      if (std::find(op.operands.begin(), op.operands.end(), *value) == op.operands.end())
        op.operands.push_back(*value);
    }
    if (!node.body.empty()) {
      MlirBlock& block = op.regions.emplace_back().blocks.emplace_back();
      for (const BodyOp& body : node.body) {
        MlirOperation& inner = block.operations.emplace_back();
        inner.name = body.op;
        inner.results.push_back("%" + node.name + "." + body.result);
        inner.result_types.push_back("");
        for (const std::string& operand : body.operands)
          inner.operands.push_back("%" + node.name + "." + operand);
        inner.text = body.text;
        inner.line = body.line;
        inner.column = body.column;
      }
    }
    return op;
  }

  const SchedulerRead& read_;
  const std::map<std::string, std::string>& kernels_;                // top-level node -> kernel
  const std::map<std::string, std::vector<std::string>>& pre_grad_;  // kernel -> pre-grad
  MlirOperation function_;
  std::set<std::string> inputs_;
  std::map<std::string, std::pair<std::string, std::string>> writers_;  // buffer -> node, top
};

// ---------------------------------------------------------------------------------------
// The generated wrapper (output_code.py): which kernel call writes which buffer

struct KernelCall {
  std::string kernel;  // "cpp_fused_relu_0", "extern_kernels.addmm"
  std::string handle;  // "cpp_fused_relu_0:2" from the comment before it; may be empty
};

struct WrapperCalls {
  std::vector<KernelCall> calls;
  std::map<std::string, size_t> writer;  // buffer -> the first call naming it
};

// The wrapper's `call` function: each call of a kernel the file defines (`NAME =
// async_compile.cpp_pybinding(...)`, `.triton(...)`) or of a library (`extern_kernels.mm(...)`,
// `buf2 = extern_kernels.convolution(...)`) or of an aten op Inductor falls back to
// (`buf9 = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(...)`). A
// buffer's first call is the one that writes it: nodes are generated in order, so a buffer is
// written before it is read. `buf10 = buf9[0]` (one output of a call) is written by buf9's.
WrapperCalls ReadWrapper(std::string_view text) {
  WrapperCalls wrapper;
  std::set<std::string> kernels;
  bool in_call = false;
  std::string handle;
  for (std::string_view line : Lines(text)) {
    const std::string_view stripped = Trim(line);
    if (!in_call) {
      const size_t equals = line.find(" = async_compile.");
      if (equals != std::string_view::npos && IsIdentifier(line.substr(0, equals)))
        kernels.insert(std::string(line.substr(0, equals)));
      in_call = StartsWith(stripped, "def call(");
      continue;
    }
    if (!line.empty() && line.front() != ' ' && !stripped.empty()) break;  // past the class
    if (StartsWith(stripped, "def ") && !StartsWith(stripped, "def call(")) {
      in_call = false;
      continue;
    }
    constexpr std::string_view kHandle = "# [Provenance debug handles] ";
    if (StartsWith(stripped, kHandle)) {
      handle = std::string(Trim(stripped.substr(kHandle.size())));
      continue;
    }
    std::string_view statement = stripped;
    std::string target;
    if (const size_t equals = statement.find(" = ");
        equals != std::string_view::npos && IsIdentifier(statement.substr(0, equals))) {
      target = std::string(statement.substr(0, equals));
      statement = statement.substr(equals + 3);
    }
    if (const size_t bracket = statement.find('[');
        !target.empty() && bracket != std::string_view::npos &&
        IsIdentifier(statement.substr(0, bracket))) {
      auto picked = wrapper.writer.find(std::string(statement.substr(0, bracket)));
      if (picked != wrapper.writer.end()) wrapper.writer.try_emplace(target, picked->second);
      continue;
    }
    const size_t open = statement.find('(');
    if (open == std::string_view::npos) continue;
    const std::string callee(statement.substr(0, open));
    if (!kernels.count(callee) && !StartsWith(callee, "extern_kernels.") &&
        !StartsWith(callee, "torch.ops."))
      continue;
    const size_t index = wrapper.calls.size();
    wrapper.calls.push_back({callee, handle});
    handle.clear();
    if (!target.empty()) wrapper.writer.try_emplace(target, index);
    for (const std::string& name : Identifiers(statement.substr(open))) {
      if (StartsWith(name, "buf")) wrapper.writer.try_emplace(name, index);
    }
  }
  return wrapper;
}

// ---------------------------------------------------------------------------------------
// The provenance mapping

struct KernelMapping {
  std::map<std::string, std::vector<std::string>> post_to_pre;
  std::map<std::string, std::vector<std::string>> kernels;  // "cpp_fused_relu_0:2" -> post-grad
  bool present = false;
};

std::vector<std::string> StringList(const JsonValue& value) {
  std::vector<std::string> list;
  if (!value.is_array()) return list;
  for (const JsonValue& item : value.array())
    if (item.is_string()) list.push_back(item.string());
  return list;
}

class TraceImporter {
 public:
  TraceImporter(const std::string& root, const MlirLogImportOptions& options)
      : root_(root), options_(options), recorder_("inductor", passes::PipelineOptions{}) {}

  StatusOr<MlirLogImport> Run() {
    graphs_ = FindInductorGraphs(root_);
    if (graphs_.empty())
      return Status::Error(root_ + ": no Inductor graph folder (torchinductor/model__*) in it");
    int64_t unmapped = 0;
    for (const InductorGraphFolder& graph : graphs_) {
      ReadMapping(graph);
      unmapped += mappings_[graph.function].present ? 0 : 1;
    }
    if (unmapped > 0) {
      Warn(root_ + ": " + std::to_string(unmapped) + " of " + std::to_string(graphs_.size()) +
           " graphs have no inductor_provenance_tracking_node_mappings.json (traced without "
           "trace.provenance_tracking_level=1): their kernels are not linked to FX nodes");
    }
    recorder_.set_model(mlir_import::FolderModelName(root_, "inductor"), root_);
    for (const Stage& stage : kStages) {
      Status read = ImportStage(stage);
      if (!read.ok()) return read;
    }
    if (!previous_)
      return Status::Error(root_ + ": no graph of its " + std::to_string(graphs_.size()) +
                           " folders holds a readable FX graph or scheduler dump");
    result_.recording =
        mlir_import::FinishImportedRecording(recorder_, *previous_, std::move(sources_));
    return std::move(result_);
  }

 private:
  void Warn(std::string warning) { result_.warnings.push_back(std::move(warning)); }

  void WarnAll(const std::vector<std::string>& warnings) {
    for (size_t i = 0; i < warnings.size() && i < kWarningsPerFile; ++i) Warn(warnings[i]);
    if (warnings.size() > kWarningsPerFile)
      Warn(std::to_string(warnings.size() - kWarningsPerFile) + " more warnings of that file");
  }

  std::optional<std::string> ReadFile(const std::string& path) {
    std::error_code error;
    if (!fs::is_regular_file(path, error)) return std::nullopt;
    auto text = mlir_import::ReadTextFile(path, options_.max_file_bytes);
    if (!text.ok()) {
      Warn(path + ":1:1: " + text.message());
      return std::nullopt;
    }
    total_bytes_ += static_cast<int64_t>(text->size());
    return std::move(text).value();
  }

  void ReadMapping(const InductorGraphFolder& graph) {
    KernelMapping& mapping = mappings_[graph.function];
    const std::string path =
        (fs::path(graph.path) / "inductor_provenance_tracking_node_mappings.json").string();
    auto text = ReadFile(path);
    if (!text) return;
    auto json = ParseJson(*text);
    if (!json.ok()) {
      Warn(path + ": " + json.message() + "; its kernels are not linked to the FX nodes");
      return;
    }
    if (const JsonValue* post = json->Find("postToPre"); post && post->is_object()) {
      for (const auto& [name, pre] : post->object()) mapping.post_to_pre[name] = StringList(pre);
    }
    for (const char* key : {"cppCodeToPost", "tritonCodeToPost"}) {
      if (const JsonValue* code = json->Find(key); code && code->is_object()) {
        for (const auto& [handle, post] : code->object())
          mapping.kernels[handle] = StringList(post);
      }
    }
    mapping.present = true;
  }

  // The wrapper's kernel calls of a graph, its output_code.py read once (and kept for the
  // last snapshot's source text).
  const WrapperCalls& Wrapper(const InductorGraphFolder& graph) {
    auto cached = wrappers_.find(graph.function);
    if (cached != wrappers_.end()) return cached->second;
    WrapperCalls& wrapper = wrappers_[graph.function];
    if (std::optional<std::string> code =
            ReadFile((fs::path(graph.path) / "output_code.py").string())) {
      wrapper = ReadWrapper(*code);
      output_code_[graph.function] = std::move(*code);
    }
    return wrapper;
  }

  Status ImportStage(const Stage& stage) {
    MlirOperationTree tree;
    std::string text;
    int64_t files = 0;
    int64_t nodes = 0;
    int64_t linked = 0;  // top-level nodes whose kernel call was found
    std::map<std::string, std::vector<std::string>> node_kernels;  // instruction -> post-grad
    for (const InductorGraphFolder& graph : graphs_) {
      const std::string path = (fs::path(graph.path) / stage.file).string();
      std::optional<std::string> file = ReadFile(path);
      if (total_bytes_ > options_.max_file_bytes)
        return Status::Error(root_ + ": the trace's files hold more than " +
                             std::to_string(options_.max_file_bytes) + " bytes");
      if (!file) {
        if (functions_.count(graph.function)) {
          Warn(path + ":1:1: missing; " + graph.function + " is left as the stage before had it");
          tree.operations.push_back(functions_[graph.function]);
        }
        continue;
      }
      ++files;
      text += "# " + fs::path(graph.path).filename().string() + "/" + stage.file + "\n" + *file;
      if (!text.empty() && text.back() != '\n') text += '\n';
      const KernelMapping& mapping = mappings_[graph.function];
      if (stage.fx) {
        FxGraphRead read = ReadFxGraph(*file, path, graph.function, mapping.post_to_pre);
        WarnAll(read.warnings);
        nodes += read.nodes;
        if (read.nodes == 0) continue;
        arguments_[graph.function] = {read.function.regions[0].blocks[0].arguments,
                                      read.argument_types};
        functions_[graph.function] = read.function;
        tree.operations.push_back(std::move(read.function));
        continue;
      }
      SchedulerRead read = SchedulerReader(path).Read(*file);
      WarnAll(read.warnings);
      if (read.top.empty()) {
        Warn(path + ":1:1: no scheduler node in it; left out");
        continue;
      }
      nodes += static_cast<int64_t>(read.nodes.size());
      // Which kernel call each node ends up in: the one that writes its buffers. A buffer the
      // wrapper never names was made local to a kernel that reads it: such a node ends up in
      // the kernel of its first reader (repeated, for chains of them).
      const WrapperCalls& wrapper = Wrapper(graph);
      std::map<std::string, size_t> calls;  // top-level node -> kernel call
      for (size_t top : read.top) {
        for (const auto& [buffer, type] : read.nodes[top].buffers) {
          if (auto writer = wrapper.writer.find(buffer); writer != wrapper.writer.end()) {
            calls[read.nodes[top].name] = writer->second;
            break;
          }
        }
      }
      for (bool more = true; more;) {
        more = false;
        for (size_t top : read.top) {
          const SchedulerNode& node = read.nodes[top];
          if (calls.count(node.name)) continue;
          for (size_t reader : read.top) {
            const SchedulerNode& user = read.nodes[reader];
            auto call = calls.find(user.name);
            if (call == calls.end()) continue;
            const bool reads = std::any_of(node.buffers.begin(), node.buffers.end(), [&](const auto& b) {
              return std::find(user.reads.begin(), user.reads.end(), b.first) != user.reads.end();
            });
            if (!reads) continue;
            calls[node.name] = call->second;
            more = true;
            break;
          }
        }
      }
      std::map<std::string, std::string> top_kernels;
      std::map<std::string, std::vector<std::string>> kernel_pre_grad;
      for (const auto& [name, call] : calls) {
        const KernelCall& kernel = wrapper.calls[call];
        const std::string key = kernel.handle.empty() ? kernel.kernel : kernel.handle;
        top_kernels[name] = key;
        std::vector<std::string> post;
        if (auto found = mapping.kernels.find(kernel.handle); found != mapping.kernels.end())
          post = found->second;
        std::vector<std::string> pre;
        for (const std::string& post_node : post) {
          auto found = mapping.post_to_pre.find(post_node);
          if (found == mapping.post_to_pre.end()) continue;
          for (const std::string& p : found->second)
            if (std::find(pre.begin(), pre.end(), p) == pre.end()) pre.push_back(p);
        }
        kernel_pre_grad[key] = pre;
        if (!post.empty()) node_kernels[graph.function + "/" + name] = post;
        ++linked;
      }
      auto& [arguments, types] = arguments_[graph.function];
      SchedulerGraphBuilder builder(read, arguments, types, top_kernels, kernel_pre_grad);
      MlirOperation function = builder.Build(graph.function);
      functions_[graph.function] = function;
      tree.operations.push_back(std::move(function));
    }
    MlirLogSectionReport& report = result_.sections.emplace_back();
    report.file = stage.file;
    report.pass = stage.pass;
    report.operations = mlir_import::CountOperations(tree);
    if (tree.operations.empty()) {
      report.skipped = true;
      Warn(root_ + ": no graph has a readable " + std::string(stage.file) + "; stage '" +
           stage.pass + "' left out");
      return Status::Ok();
    }
    mlir_import::MlirModuleOptions module_options;
    module_options.file = root_;
    module_options.module_name = "inductor";
    mlir_import::MlirModule built = mlir_import::BuildModule(tree, module_options);
    for (size_t i = 0; i < built.warnings.size() && i < kWarningsPerFile * 4; ++i)
      Warn(built.warnings[i]);
    recording::SnapshotSource source;
    source.language = stage.fx ? "fx graph" : "inductor ir";
    source.text = std::move(text);
    if (!stage.fx && std::string(stage.file) == "ir_post_fusion.txt") AppendOutputCode(source.text);
    Record(stage, std::move(built.module), std::move(source), files, nodes, linked, node_kernels);
    return Status::Ok();
  }

  void AppendOutputCode(std::string& text) {
    for (const InductorGraphFolder& graph : graphs_) {
      Wrapper(graph);
      auto code = output_code_.find(graph.function);
      if (code == output_code_.end()) continue;
      text += "# " + fs::path(graph.path).filename().string() + "/output_code.py\n" + code->second;
      if (!text.empty() && text.back() != '\n') text += '\n';
    }
  }

  // Every instruction of `computation` and of what it calls, nested.
  static void ForEachNested(Computation* computation, const std::function<void(Instruction*)>& f) {
    for (const auto& instruction : computation->instructions()) {
      f(instruction.get());
      for (Computation* called : instruction->called_computations()) ForEachNested(called, f);
    }
  }

  // A scheduler node answers for the post-grad nodes of its kernel (and so does all it holds).
  // (Graph bodies are found through their function: the module names computations uniquely,
  // so the body of `model__0_inference_0` is `model__0_inference_0.1`.)
  void SetKernelProvenance(Module& current,
                           const std::map<std::string, std::vector<std::string>>& node_kernels) {
    if (!post_grad_) return;
    for (const InductorGraphFolder& graph : graphs_) {
      Computation* function = FunctionBody(current, graph.function);
      Computation* fx = FunctionBody(*post_grad_, graph.function);
      if (!function || !fx) continue;
      for (const auto& instruction : function->instructions()) {
        auto post = node_kernels.find(graph.function + "/" + instruction->name());
        if (post == node_kernels.end()) continue;
        ProvenanceSet provenance;
        for (const std::string& name : post->second)
          if (Instruction* node = fx->FindInstruction(name)) provenance.Union(node->provenance());
        if (provenance.empty()) continue;
        instruction->set_provenance(provenance);
        for (Computation* called : instruction->called_computations())
          ForEachNested(called, [&](Instruction* inner) { inner->set_provenance(provenance); });
      }
    }
  }

  void Record(const Stage& stage, std::unique_ptr<Module> current, recording::SnapshotSource source,
              int64_t files, int64_t nodes, int64_t linked,
              const std::map<std::string, std::vector<std::string>>& node_kernels) {
    const uint64_t fingerprint = Fingerprint(*current);
    if (!previous_) {
      next_id_ = MaxInstructionId(*current) + 1;
      recorder_.set_input_text(source.text);
      recorder_.BeforePipeline(*current);
    } else {
      passes::PassRunInfo info;
      info.name = stage.pass;
      info.index = pass_index_++;
      info.stats.emplace_back("files", std::to_string(files) + " " + stage.file);
      info.stats.emplace_back("nodes", std::to_string(nodes));
      const ProvenanceCarryCounts counts = CarryOverProvenance(*previous_, *current, next_id_);
      if (!stage.fx) {
        SetKernelProvenance(*current, node_kernels);
        info.stats.emplace_back("kernel calls found", std::to_string(linked));
        info.stats.emplace_back("linked to FX nodes", std::to_string(node_kernels.size()));
      }
      if (counts.new_instructions > 0)
        info.stats.emplace_back("new", std::to_string(counts.new_instructions));
      info.fingerprint_before = previous_fingerprint_;
      info.fingerprint_after = fingerprint;
      info.reported_changed = info.changed();
      recorder_.BeforePass(info, *previous_);
      recorder_.AfterPass(info, *current);
    }
    sources_.push_back(std::move(source));
    if (std::string(stage.file) == "fx_graph_transformed.py" || (stage.fx && !post_grad_)) {
      post_grad_ = current->Clone();
    }
    previous_ = std::move(current);
    previous_fingerprint_ = fingerprint;
  }

  std::string root_;
  MlirLogImportOptions options_;
  recording::Recorder recorder_;
  MlirLogImport result_;
  std::vector<InductorGraphFolder> graphs_;
  std::map<std::string, KernelMapping> mappings_;
  std::map<std::string, WrapperCalls> wrappers_;
  std::map<std::string, std::string> output_code_;  // graph -> its output_code.py
  // Per graph: its function as the last stage that read it had it, and its arguments.
  std::map<std::string, MlirOperation> functions_;
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> arguments_;
  std::unique_ptr<Module> previous_;
  std::unique_ptr<Module> post_grad_;  // the FX graph the scheduler's nodes answer to
  uint64_t previous_fingerprint_ = 0;
  int64_t next_id_ = 1;
  int64_t pass_index_ = 0;
  int64_t total_bytes_ = 0;
  std::vector<recording::SnapshotSource> sources_;
};

bool IsGraphFolder(const fs::path& folder) {
  std::error_code error;
  for (const Stage& stage : kStages)
    if (fs::is_regular_file(folder / stage.file, error)) return true;
  return false;
}

// "model__0_inference_3.3" -> 3 (the number after the last '_' before the '.').
int64_t GraphOrder(const std::string& name) {
  const std::string stem = name.substr(0, name.rfind('.'));
  const size_t underscore = stem.rfind('_');
  if (underscore == std::string::npos) return 0;
  int64_t number = 0;
  for (char c : stem.substr(underscore + 1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    number = number * 10 + (c - '0');
  }
  return number;
}

}  // namespace

Computation* FunctionBody(const Module& module, const std::string& function) {
  if (!module.entry()) return nullptr;
  for (const auto& instruction : module.entry()->instructions()) {
    if (instruction->name() == function && instruction->called_computations().size() == 1)
      return instruction->called_computations().front();
  }
  return nullptr;
}

std::vector<InductorGraphFolder> FindInductorGraphs(const std::string& root) {
  std::vector<InductorGraphFolder> graphs;
  std::error_code error;
  auto add = [&](const fs::path& folder) {
    if (!IsGraphFolder(folder)) return;
    InductorGraphFolder graph;
    graph.path = folder.string();
    const std::string name = folder.filename().string();
    const size_t dot = name.rfind('.');
    graph.function = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
    graph.order = GraphOrder(name);
    graphs.push_back(std::move(graph));
  };
  auto subfolders = [&](const fs::path& folder) {
    std::vector<fs::path> found;
    fs::directory_iterator it(folder, error);
    if (error) return found;
    for (const fs::directory_entry& entry : it)
      if (entry.is_directory(error)) found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found;
  };
  const fs::path base(root);
  if (IsGraphFolder(base)) {
    add(base);
    return graphs;
  }
  std::vector<fs::path> places = {base / "torchinductor"};
  for (const fs::path& sub : subfolders(base)) places.push_back(sub / "torchinductor");
  places.push_back(base);
  for (const fs::path& place : places) {
    for (const fs::path& folder : subfolders(place)) add(folder);
    if (!graphs.empty()) break;
  }
  std::stable_sort(
      graphs.begin(), graphs.end(),
      [](const InductorGraphFolder& a, const InductorGraphFolder& b) { return a.order < b.order; });
  return graphs;
}

bool LooksLikeInductorTrace(const std::string& root) {
  std::error_code error;
  if (!fs::is_directory(root, error)) return false;
  for (const InductorGraphFolder& graph : FindInductorGraphs(root)) {
    if (fs::is_regular_file(fs::path(graph.path) / "fx_graph_readable.py", error) ||
        fs::is_regular_file(fs::path(graph.path) / "ir_post_fusion.txt", error))
      return true;
  }
  return false;
}

FxGraphRead ReadFxGraph(std::string_view text, const std::string& path, const std::string& function,
                        const std::map<std::string, std::vector<std::string>>& pre_grad) {
  return FxReader(path, function, pre_grad).Read(text);
}

StatusOr<MlirLogImport> ImportInductorTrace(const std::string& root,
                                            const MlirLogImportOptions& options) {
  return TraceImporter(root, options).Run();
}

}  // namespace fusescope::ir::inductor_import
