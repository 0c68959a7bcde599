#ifndef FUSESCOPE_IR_JSON_WRITER_H_
#define FUSESCOPE_IR_JSON_WRITER_H_

// A small streaming JSON writer for the CLI's --json output and the report's embedded data.
// Commas and nesting are tracked here so callers only say what comes next.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope {

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // Inside an object: the key of the next value.
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // The document so far (complete once every Begin has its End).
  const std::string& str() const { return out_; }

  static std::string Escape(std::string_view text);

 private:
  void BeforeValue();
  void NewLine();
  void Close(char bracket);

  bool pretty_;
  std::string out_;
  // One entry per open container: whether it already holds an element.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace fusescope

#endif  // FUSESCOPE_IR_JSON_WRITER_H_
