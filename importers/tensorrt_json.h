#ifndef FUSESCOPE_IMPORTERS_TENSORRT_JSON_H_
#define FUSESCOPE_IMPORTERS_TENSORRT_JSON_H_

// What the three TensorRT readers (layer information, layer profile, inference times) share:
// reading a file with a size limit, parsing it as JSON, and saying where a value is wrong as
// "FILE:LINE:COLUMN: cause".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/json_reader.h"
#include "ir/status.h"

namespace fusescope::ir {

// The whole file; refused unread when larger than `max_bytes`.
StatusOr<std::string> ReadTensorRtFile(const std::string& path, int64_t max_bytes);

// A member that must be a number when present.
struct TensorRtNumber {
  bool present = false;
  double value = 0;
};

// A parsed JSON document that remembers its text, so that a value a reader refuses is reported
// where it stands in the file. The text must outlive the document.
class TensorRtJsonDocument {
 public:
  // TensorRT separates Metadata entries with ASCII 0x1E/0x1F, which its JSON writer escapes; a
  // file that carries them raw (strict JSON refuses control characters in a string) is read
  // with those two escaped, positions still counted in the file as written. Syntax errors
  // read "PATH:LINE:COLUMN: cause".
  static StatusOr<TensorRtJsonDocument> Parse(std::string_view text, std::string path);

  const JsonValue& root() const { return root_; }
  const std::string& path() const { return path_; }
  // Where `value`, a value of this document, starts in the file.
  JsonLocation LocationOf(const JsonValue& value) const;
  // "PATH:LINE:COLUMN: cause" at `value`.
  Status ErrorAt(const JsonValue& value, const std::string& cause) const;
  // Member `key` of `object`: absent is {false, 0}; present but not a finite number is an
  // error at the member.
  StatusOr<TensorRtNumber> NumberMember(const JsonValue& object, std::string_view key) const;
  // Member `key` as a string: absent is ""; present but not a string is an error there.
  StatusOr<std::string> StringMember(const JsonValue& object, std::string_view key) const;

 private:
  std::string_view text_;
  std::string path_;
  JsonValue root_;
  // Offsets, in the escaped text, of the escapes put in for raw separators (5 bytes longer
  // each than the byte they replace); empty when the file parsed as it is.
  std::vector<size_t> escapes_;
};

}  // namespace fusescope::ir

#endif  // FUSESCOPE_IMPORTERS_TENSORRT_JSON_H_
