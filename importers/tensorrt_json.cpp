#include "importers/tensorrt_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace fusescope::ir {
namespace {

// ParseJson says "line L, column C: cause"; the readers say "PATH:L:C: cause" like every other
// parser of the project.
std::string WithPath(const std::string& path, const std::string& message) {
  constexpr std::string_view kLine = "line ";
  constexpr std::string_view kColumn = ", column ";
  std::string_view rest = message;
  if (rest.substr(0, kLine.size()) != kLine) return path + ": " + message;
  rest.remove_prefix(kLine.size());
  int64_t line = 0;
  auto [after_line, line_error] = std::from_chars(rest.data(), rest.data() + rest.size(), line);
  rest.remove_prefix(static_cast<size_t>(after_line - rest.data()));
  if (line_error != std::errc() || rest.substr(0, kColumn.size()) != kColumn) {
    return path + ": " + message;
  }
  rest.remove_prefix(kColumn.size());
  int64_t column = 0;
  auto [after_column, column_error] =
      std::from_chars(rest.data(), rest.data() + rest.size(), column);
  rest.remove_prefix(static_cast<size_t>(after_column - rest.data()));
  if (column_error != std::errc() || rest.substr(0, 2) != ": ") return path + ": " + message;
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         std::string(rest.substr(2));
}

bool IsRawSeparator(char c) { return c == '\x1e' || c == '\x1f'; }

}  // namespace

StatusOr<std::string> ReadTensorRtFile(const std::string& path, int64_t max_bytes) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Status::Error(path + ": cannot read: " + error.message());
  if (size > static_cast<uintmax_t>(max_bytes)) {
    return Status::Error(path + ": " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": cannot open file");
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) return Status::Error(path + ": read error");
  return text;
}

StatusOr<TensorRtJsonDocument> TensorRtJsonDocument::Parse(std::string_view text,
                                                           std::string path) {
  TensorRtJsonDocument document;
  document.text_ = text;
  document.path_ = std::move(path);
  StatusOr<JsonValue> root = ParseJson(text);
  if (!root.ok() && std::any_of(text.begin(), text.end(), IsRawSeparator)) {
    std::string escaped;
    escaped.reserve(text.size() + 64);
    std::vector<size_t> escapes;
    for (char c : text) {
      if (IsRawSeparator(c)) {
        escapes.push_back(escaped.size());
        escaped += c == '\x1e' ? "\\u001e" : "\\u001f";
      } else {
        escaped += c;
      }
    }
    StatusOr<JsonValue> retried = ParseJson(escaped);
    // A file that still fails is reported as it was first read: positions in the escaped
    // text would not be the file's.
    if (retried.ok()) {
      document.root_ = std::move(retried).value();
      document.escapes_ = std::move(escapes);
      return document;
    }
  }
  if (!root.ok()) return Status::Error(WithPath(document.path_, root.message()));
  document.root_ = std::move(root).value();
  return document;
}

JsonLocation TensorRtJsonDocument::LocationOf(const JsonValue& value) const {
  const size_t before = static_cast<size_t>(
      std::lower_bound(escapes_.begin(), escapes_.end(), value.offset()) - escapes_.begin());
  return JsonLineColumn(text_, value.offset() - 5 * before);
}

Status TensorRtJsonDocument::ErrorAt(const JsonValue& value, const std::string& cause) const {
  const JsonLocation where = LocationOf(value);
  return Status::Error(path_ + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + cause);
}

StatusOr<TensorRtNumber> TensorRtJsonDocument::NumberMember(const JsonValue& object,
                                                            std::string_view key) const {
  const JsonValue* member = object.Find(key);
  if (member == nullptr) return TensorRtNumber{};
  if (!member->is_number() || !std::isfinite(member->number())) {
    return ErrorAt(*member, "\"" + std::string(key) + "\" should be a finite number");
  }
  return TensorRtNumber{true, member->number()};
}

StatusOr<std::string> TensorRtJsonDocument::StringMember(const JsonValue& object,
                                                         std::string_view key) const {
  const JsonValue* member = object.Find(key);
  if (member == nullptr) return std::string();
  if (!member->is_string()) {
    return ErrorAt(*member, "\"" + std::string(key) + "\" should be a string");
  }
  return member->string();
}

}  // namespace fusescope::ir
