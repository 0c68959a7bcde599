#include "ir/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace fusescope {

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  StatusOr<JsonValue> ParseDocument() {
    JsonValue value;
    FS_RETURN_IF_ERROR(ParseValue(value, 0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the JSON value");
    return value;
  }

 private:
  Status Error(const std::string& what) const {
    const JsonLocation where = JsonLineColumn(text_, pos_);
    return Status::Error("line " + std::to_string(where.line) + ", column " +
                         std::to_string(where.column) + ": " + what);
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Status ParseValue(JsonValue& out, int depth) {
    if (depth > kMaxJsonDepth) {
      return Error("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end of the document");
    out.offset_ = pos_;
    const char c = text_[pos_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      out.kind_ = JsonValue::Kind::kString;
      return ParseString(out.string_);
    }
    if (Consume("true")) {
      out.kind_ = JsonValue::Kind::kBool;
      out.boolean_ = true;
      return Status::Ok();
    }
    if (Consume("false")) {
      out.kind_ = JsonValue::Kind::kBool;
      return Status::Ok();
    }
    if (Consume("null")) return Status::Ok();
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    return Error(std::string("unexpected character '") + c + "'");
  }

  Status ParseObject(JsonValue& out, int depth) {
    out.kind_ = JsonValue::Kind::kObject;
    ++pos_;  // {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return Status::Ok();
    }
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected an object key");
      std::string key;
      FS_RETURN_IF_ERROR(ParseString(key));
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        return Error("expected ':' after an object key");
      }
      ++pos_;
      JsonValue value;
      FS_RETURN_IF_ERROR(ParseValue(value, depth + 1));
      out.object_.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return Status::Ok();
      }
      return Error("expected ',' or '}' in an object");
    }
  }

  Status ParseArray(JsonValue& out, int depth) {
    out.kind_ = JsonValue::Kind::kArray;
    ++pos_;  // [
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return Status::Ok();
    }
    for (;;) {
      JsonValue value;
      FS_RETURN_IF_ERROR(ParseValue(value, depth + 1));
      out.array_.push_back(std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return Status::Ok();
      }
      return Error("expected ',' or ']' in an array");
    }
  }

  Status ParseNumber(JsonValue& out) {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (!digits()) return Error("a number needs digits");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) return Error("a number needs digits after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return Error("a number needs digits in its exponent");
    }
    double value = 0;
    const auto result = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    if (result.ec == std::errc::result_out_of_range) {
      value = text_[start] == '-' ? -HUGE_VAL : HUGE_VAL;
    } else if (result.ec != std::errc()) {
      pos_ = start;
      return Error("not a number");
    }
    out.kind_ = JsonValue::Kind::kNumber;
    out.number_ = value;
    return Status::Ok();
  }

  static void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  Status ParseHex4(uint32_t& code) {
    if (pos_ + 4 > text_.size()) return Error("\\u needs four hex digits");
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9') {
        code |= static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        code |= static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        code |= static_cast<uint32_t>(h - 'A' + 10);
      } else {
        --pos_;
        return Error("\\u needs four hex digits");
      }
    }
    return Status::Ok();
  }

  Status ParseString(std::string& out) {
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= text_.size()) return Error("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return Status::Ok();
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        return Error("control character in a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return Error("unterminated string");
      const char escape = text_[pos_++];
      switch (escape) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t code = 0;
          FS_RETURN_IF_ERROR(ParseHex4(code));
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low = 0;
            FS_RETURN_IF_ERROR(ParseHex4(low));
            if (low >= 0xDC00 && low < 0xE000) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else {
              AppendUtf8(out, 0xFFFD);
              code = low;
            }
          } else if (code >= 0xD800 && code < 0xE000) {
            code = 0xFFFD;  // a lone surrogate
          }
          AppendUtf8(out, code);
          break;
        }
        default:
          --pos_;
          return Error(std::string("unknown escape '\\") + escape + "'");
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [name, value] : object_) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::string JsonValue::Text(std::string_view key) const {
  const JsonValue* value = Find(key);
  if (value == nullptr) return "";
  if (value->is_string()) return value->string();
  if (value->is_number()) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.17g", value->number());
    return buffer;
  }
  return "";
}

StatusOr<JsonValue> ParseJson(std::string_view text) { return JsonParser(text).ParseDocument(); }

JsonLocation JsonLineColumn(std::string_view text, size_t offset) {
  JsonLocation where;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++where.line;
      where.column = 1;
    } else {
      ++where.column;
    }
  }
  return where;
}

}  // namespace fusescope
