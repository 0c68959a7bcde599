#ifndef FUSESCOPE_TESTS_VIEWS_XML_CHECK_H_
#define FUSESCOPE_TESTS_VIEWS_XML_CHECK_H_

// A strict little XML reader for the tests: it refuses what an XML parser refuses in the
// documents we write (unbalanced or misnested tags, unquoted or repeated attributes, raw '<'
// or stray '&' in text or values, unknown entities) and returns the elements, so tests can
// look for nodes, classes and colours in our SVG without Qt.

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope::views::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // values unescaped
  int parent = -1;
  std::vector<int> children;
  std::string text;  // direct text content, unescaped

  std::string Attribute(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? "" : it->second;
  }
  bool HasClass(std::string_view name) const {
    std::string classes = " " + Attribute("class") + " ";
    return classes.find(" " + std::string(name) + " ") != std::string::npos;
  }
};

struct XmlDocument {
  std::vector<XmlElement> elements;  // document order; [0] is the root
  std::string error;                 // empty when well-formed

  bool ok() const { return error.empty(); }
  std::vector<const XmlElement*> All(std::string_view name) const {
    std::vector<const XmlElement*> found;
    for (const XmlElement& element : elements) {
      if (element.name == name) found.push_back(&element);
    }
    return found;
  }
  // The first descendant of `element` named `name`, or nullptr.
  const XmlElement* Find(const XmlElement& element, std::string_view name) const {
    for (int child : element.children) {
      const XmlElement& c = elements[static_cast<size_t>(child)];
      if (c.name == name) return &c;
      if (const XmlElement* deeper = Find(c, name)) return deeper;
    }
    return nullptr;
  }
  // All text below `element`, concatenated.
  std::string AllText(const XmlElement& element) const {
    std::string text = element.text;
    for (int child : element.children) AllText(elements[static_cast<size_t>(child)], text);
    return text;
  }

 private:
  void AllText(const XmlElement& element, std::string& text) const {
    text += element.text;
    for (int child : element.children) AllText(elements[static_cast<size_t>(child)], text);
  }
};

class XmlReader {
 public:
  static XmlDocument Read(std::string_view text) {
    XmlReader reader(text);
    reader.Document();
    return std::move(reader.document_);
  }

 private:
  explicit XmlReader(std::string_view text) : text_(text) {}

  bool Fail(const std::string& message) {
    if (document_.error.empty()) {
      document_.error = message + " at offset " + std::to_string(pos_);
    }
    return false;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  bool StartsWith(std::string_view prefix) const {
    return text_.substr(pos_, prefix.size()) == prefix;
  }
  void SkipSpace() {
    while (!AtEnd() && std::string_view(" \t\r\n").find(text_[pos_]) != std::string_view::npos) {
      ++pos_;
    }
  }
  bool Skip(std::string_view prefix, std::string_view until) {
    if (!StartsWith(prefix)) return false;
    size_t end = text_.find(until, pos_);
    if (end == std::string_view::npos) return Fail("unterminated " + std::string(prefix));
    pos_ = end + until.size();
    return true;
  }

  void Document() {
    SkipSpace();
    Skip("<?xml", "?>");
    SkipSpace();
    while (Skip("<!--", "-->")) SkipSpace();
    if (!StartsWith("<")) {
      Fail("no root element");
      return;
    }
    if (!Element(-1)) return;
    SkipSpace();
    while (Skip("<!--", "-->")) SkipSpace();
    if (!AtEnd()) Fail("content after the root element");
  }

  std::optional<std::string> Name() {
    size_t start = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                        std::string_view("-_:.").find(text_[pos_]) != std::string_view::npos)) {
      ++pos_;
    }
    if (pos_ == start) return std::nullopt;
    return std::string(text_.substr(start, pos_ - start));
  }

  std::optional<std::string> Unescape(std::string_view raw) {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '<') return std::nullopt;
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      size_t end = raw.find(';', i);
      if (end == std::string_view::npos) return std::nullopt;
      std::string_view entity = raw.substr(i + 1, end - i - 1);
      static const std::map<std::string_view, char> kEntities = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      auto known = kEntities.find(entity);
      if (known != kEntities.end()) {
        out += known->second;
      } else if (entity.size() > 1 && entity[0] == '#' &&
                 entity.find_first_not_of("0123456789", 1) == std::string_view::npos) {
        out += '?';
      } else {
        return std::nullopt;
      }
      i = end;
    }
    return out;
  }

  bool Attributes(XmlElement& element) {
    while (true) {
      SkipSpace();
      if (StartsWith("/>") || StartsWith(">")) return true;
      std::optional<std::string> key = Name();
      if (!key) return Fail("bad attribute name");
      SkipSpace();
      if (!StartsWith("=")) return Fail("attribute " + *key + " without value");
      ++pos_;
      SkipSpace();
      if (AtEnd() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
        return Fail("unquoted value of " + *key);
      }
      char quote = text_[pos_++];
      size_t end = text_.find(quote, pos_);
      if (end == std::string_view::npos) return Fail("unterminated value of " + *key);
      std::optional<std::string> value = Unescape(text_.substr(pos_, end - pos_));
      if (!value) return Fail("bad character or entity in value of " + *key);
      if (!element.attributes.emplace(*key, *value).second) return Fail("repeated " + *key);
      pos_ = end + 1;
    }
  }

  bool Element(int parent) {
    ++pos_;  // '<'
    XmlElement element;
    std::optional<std::string> name = Name();
    if (!name) return Fail("bad element name");
    element.name = *name;
    element.parent = parent;
    if (!Attributes(element)) return false;
    int index = static_cast<int>(document_.elements.size());
    if (parent >= 0) document_.elements[static_cast<size_t>(parent)].children.push_back(index);
    document_.elements.push_back(std::move(element));
    if (StartsWith("/>")) {
      pos_ += 2;
      return true;
    }
    ++pos_;  // '>'
    return Content(index);
  }

  bool Content(int index) {
    while (!AtEnd()) {
      size_t next = text_.find('<', pos_);
      if (next == std::string_view::npos) return Fail("unclosed element");
      std::optional<std::string> text = Unescape(text_.substr(pos_, next - pos_));
      if (!text) return Fail("bad character or entity in text");
      document_.elements[static_cast<size_t>(index)].text += *text;
      pos_ = next;
      if (Skip("<!--", "-->")) continue;
      if (StartsWith("</")) {
        pos_ += 2;
        std::optional<std::string> name = Name();
        if (!name || *name != document_.elements[static_cast<size_t>(index)].name) {
          return Fail("closing tag does not match <" +
                      document_.elements[static_cast<size_t>(index)].name + ">");
        }
        SkipSpace();
        if (!StartsWith(">")) return Fail("bad closing tag");
        ++pos_;
        return true;
      }
      if (!Element(index)) return false;
    }
    return Fail("unclosed element");
  }

  std::string_view text_;
  size_t pos_ = 0;
  XmlDocument document_;
};

}  // namespace fusescope::views::testing

#endif  // FUSESCOPE_TESTS_VIEWS_XML_CHECK_H_
