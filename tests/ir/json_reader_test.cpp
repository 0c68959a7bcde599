#include "ir/json_reader.h"

#include <gtest/gtest.h>

#include <string>

namespace fusescope {
namespace {

TEST(JsonReaderTest, ReadsEveryKindOfValue) {
  StatusOr<JsonValue> doc = ParseJson(R"( {"a": [1, -2.5e3, true, false, null],
    "s": "x\"y\\z\n\u00e9\ud83d\ude00", "o": {}, "e": []} )");
  ASSERT_TRUE(doc.ok()) << doc.message();
  const JsonValue* a = doc->Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->array().size(), 5u);
  EXPECT_EQ(a->array()[0].number(), 1);
  EXPECT_EQ(a->array()[1].number(), -2500);
  EXPECT_TRUE(a->array()[2].boolean());
  EXPECT_FALSE(a->array()[3].boolean());
  EXPECT_TRUE(a->array()[4].is_null());
  EXPECT_EQ(doc->Find("s")->string(), "x\"y\\z\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(doc->Find("o")->is_object());
  EXPECT_TRUE(doc->Find("e")->array().empty());
  EXPECT_EQ(doc->Find("missing"), nullptr);
  EXPECT_EQ(a->Text("x"), "");  // not an object
}

TEST(JsonReaderTest, TextOfNumbersAndStrings) {
  StatusOr<JsonValue> doc = ParseJson(R"({"run": -66235640, "name": "ynn_fusion.5", "t": 1.5})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Text("run"), "-66235640");
  EXPECT_EQ(doc->Text("name"), "ynn_fusion.5");
  EXPECT_EQ(doc->Text("t"), "1.5");
}

// Errors say where, by line and column.
TEST(JsonReaderTest, ErrorsSayWhere) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {Case{"{\"a\" 1}", "line 1, column 6: expected ':' after an object key"},
                        Case{"[1,\n 2,\n x]", "line 3, column 2: unexpected character 'x'"},
                        Case{"{\"a\": \"b", "line 1, column 9: unterminated string"},
                        Case{"[1] 2", "line 1, column 5: unexpected text after the JSON value"},
                        Case{"", "line 1, column 1: unexpected end of the document"},
                        Case{"[01.]", "line 1, column 5: a number needs digits after '.'"},
                        Case{"\"\\q\"", "line 1, column 3: unknown escape '\\q'"}}) {
    StatusOr<JsonValue> doc = ParseJson(c.text);
    ASSERT_FALSE(doc.ok()) << c.text;
    EXPECT_EQ(doc.message(), c.message) << c.text;
  }
}

// Nesting is bounded instead of exhausting the stack.
TEST(JsonReaderTest, RefusesDeepNesting) {
  const std::string deep(100000, '[');
  StatusOr<JsonValue> doc = ParseJson(deep);
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.message().find("nested deeper than 256"), std::string::npos) << doc.message();
  EXPECT_TRUE(ParseJson(std::string(200, '[') + std::string(200, ']')).ok());
}

// A value that parses but that a reader refuses can still be placed in the file.
TEST(JsonReaderTest, ValuesKnowWhereTheyStart) {
  const std::string text = "{\"a\": 1,\n  \"b\": [true, \"x\"]}";
  StatusOr<JsonValue> doc = ParseJson(text);
  ASSERT_TRUE(doc.ok()) << doc.message();
  EXPECT_EQ(doc->offset(), 0u);
  const JsonValue& x = doc->Find("b")->array()[1];
  EXPECT_EQ(text.substr(x.offset(), 3), "\"x\"");
  const JsonLocation where = JsonLineColumn(text, x.offset());
  EXPECT_EQ(where.line, 2);
  EXPECT_EQ(where.column, 15);
  EXPECT_EQ(JsonLineColumn(text, doc->Find("a")->offset()).column, 7);
}

}  // namespace
}  // namespace fusescope
