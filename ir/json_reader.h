#ifndef FUSESCOPE_IR_JSON_READER_H_
#define FUSESCOPE_IR_JSON_READER_H_

// A small JSON reader for documents other tools write (profiler traces, reports). Strict
// RFC 8259 syntax; numbers as double; strings with \u escapes (surrogate pairs) decoded to
// UTF-8. Bounded: nesting deeper than kMaxJsonDepth is refused instead of exhausting the
// stack. Errors say where: "line 3, column 17: expected ':' after an object key".

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/status.h"

namespace fusescope {

inline constexpr int kMaxJsonDepth = 256;

class JsonValue {
 public:
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_object() const { return kind_ == Kind::kObject; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_number() const { return kind_ == Kind::kNumber; }

  bool boolean() const { return boolean_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& array() const { return array_; }
  const std::vector<std::pair<std::string, JsonValue>>& object() const { return object_; }
  // An object's member, or null when absent (or when this is not an object).
  const JsonValue* Find(std::string_view key) const;
  // The member as text: a string as is, a number printed without a trailing ".0"; "" else.
  std::string Text(std::string_view key) const;
  // Byte offset of the value's first character in the parsed text, so that a reader that
  // refuses a well-formed value can still say where it is (JsonLineColumn).
  size_t offset() const { return offset_; }

 private:
  friend class JsonParser;
  Kind kind_ = Kind::kNull;
  size_t offset_ = 0;
  bool boolean_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::vector<std::pair<std::string, JsonValue>> object_;
};

StatusOr<JsonValue> ParseJson(std::string_view text);

struct JsonLocation {
  int64_t line = 1;    // 1-based
  int64_t column = 1;  // 1-based, in bytes
};
// Where byte `offset` of `text` is.
JsonLocation JsonLineColumn(std::string_view text, size_t offset);

}  // namespace fusescope

#endif  // FUSESCOPE_IR_JSON_READER_H_
