#include "runtime/npy.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

namespace fusescope::runtime {
namespace {

using ir::PrimitiveType;

struct NpyCode {
  PrimitiveType type;
  const char* descr;
};

constexpr NpyCode kCodes[] = {
    {PrimitiveType::kPred, "|b1"}, {PrimitiveType::kS8, "|i1"},  {PrimitiveType::kS16, "<i2"},
    {PrimitiveType::kS32, "<i4"},  {PrimitiveType::kS64, "<i8"}, {PrimitiveType::kU8, "|u1"},
    {PrimitiveType::kU16, "<u2"},  {PrimitiveType::kU32, "<u4"}, {PrimitiveType::kU64, "<u8"},
    {PrimitiveType::kF16, "<f2"},  {PrimitiveType::kF32, "<f4"}, {PrimitiveType::kF64, "<f8"},
};

// The text after `'key':` in a header dictionary, up to the next top-level comma.
std::string_view HeaderValue(std::string_view header, std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  size_t at = header.find(quoted);
  if (at == std::string_view::npos) return {};
  at = header.find(':', at + quoted.size());
  if (at == std::string_view::npos) return {};
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  size_t end = at;
  int depth = 0;
  for (; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((c == ',' || c == '}') && depth == 0) break;
  }
  return header.substr(at, end - at);
}

}  // namespace

StatusOr<std::string> EncodeNpy(const Literal& literal) {
  if (literal.is_tuple()) return Status::Error("no .npy files for tuples");
  const char* descr = nullptr;
  for (const NpyCode& code : kCodes) {
    if (code.type == literal.type()) descr = code.descr;
  }
  if (descr == nullptr) {
    return Status::Error("no .npy files for " + std::string(ir::PrimitiveTypeName(literal.type())) +
                         " arrays yet");
  }
  std::string dims;
  for (int64_t dim : literal.shape().dimensions()) dims += std::to_string(dim) + ", ";
  if (literal.shape().rank() > 1) dims.resize(dims.size() - 1);  // "(2, 3)" but "(5,)"
  std::string header =
      "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic, version 1.0, a little-endian u16 length; data aligned to 64 bytes.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(literal.data()), literal.byte_size());
  return out;
}

StatusOr<Literal> DecodeNpy(std::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") {
    return Status::Error("not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_length = 0;
  size_t offset = 0;
  if (major == 1) {
    header_length = static_cast<unsigned char>(bytes[8]) |
                    (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Status::Error(".npy header is cut off");
    for (int i = 0; i < 4; ++i) {
      header_length |=
          static_cast<size_t>(static_cast<unsigned char>(bytes[8 + static_cast<size_t>(i)]))
          << (8 * i);
    }
    offset = 12;
  } else {
    return Status::Error(".npy version " + std::to_string(major) + " is not supported");
  }
  if (bytes.size() < offset + header_length) return Status::Error(".npy header is cut off");
  const std::string_view header = bytes.substr(offset, header_length);
  std::string_view descr = HeaderValue(header, "descr");
  if (descr.size() < 2) return Status::Error(".npy header has no descr");
  descr = descr.substr(1, descr.size() - 2);
  std::optional<PrimitiveType> type;
  for (const NpyCode& code : kCodes) {
    if (descr == code.descr || (descr.size() == 3 && descr[0] == '=' &&
                                descr.substr(1) == std::string_view(code.descr).substr(1))) {
      type = code.type;
    }
  }
  if (!type)
    return Status::Error(".npy element type '" + std::string(descr) + "' is not supported");
  if (HeaderValue(header, "fortran_order") != "False") {
    return Status::Error(".npy arrays in Fortran order are not supported");
  }
  std::string_view shape_text = HeaderValue(header, "shape");
  if (shape_text.size() < 2 || shape_text.front() != '(' || shape_text.back() != ')') {
    return Status::Error(".npy header has no shape");
  }
  shape_text = shape_text.substr(1, shape_text.size() - 2);
  std::vector<int64_t> dims;
  size_t at = 0;
  while (at < shape_text.size()) {
    while (at < shape_text.size() && (shape_text[at] == ' ' || shape_text[at] == ',')) ++at;
    if (at >= shape_text.size()) break;
    int64_t dim = 0;
    auto [ptr, ec] =
        std::from_chars(shape_text.data() + at, shape_text.data() + shape_text.size(), dim);
    if (ec != std::errc() || dim < 0)
      return Status::Error(".npy shape '" + std::string(shape_text) + "' is not readable");
    dims.push_back(dim);
    at = static_cast<size_t>(ptr - shape_text.data());
  }
  // The data must be there before anything is allocated for it: a header may claim any shape.
  const std::string_view data = bytes.substr(offset + header_length);
  uint64_t needed = static_cast<uint64_t>(ElementByteSize(*type));
  for (int64_t dim : dims) {
    if (__builtin_mul_overflow(needed, static_cast<uint64_t>(dim), &needed)) {
      return Status::Error(".npy shape '" + std::string(shape_text) + "' is too large");
    }
  }
  if (data.size() != needed) {
    return Status::Error(".npy data holds " + std::to_string(data.size()) +
                         " bytes, its shape needs " + std::to_string(needed));
  }
  StatusOr<Literal> literal = Literal::Create(ir::Shape(*type, dims));
  if (!literal.ok()) return literal.status();
  std::copy(data.begin(), data.end(), reinterpret_cast<char*>(literal->data()));
  if (*type == PrimitiveType::kPred) {
    for (int64_t i = 0; i < literal->element_count(); ++i) literal->SetInt(i, literal->GetInt(i));
  }
  return literal;
}

Status WriteNpyFile(const std::string& path, const Literal& literal) {
  StatusOr<std::string> bytes = EncodeNpy(literal);
  if (!bytes.ok()) return bytes.status();
  std::ofstream out(path, std::ios::binary);
  out << *bytes;
  out.close();
  if (!out) return Status::Error("cannot write " + path);
  return Status::Ok();
}

StatusOr<Literal> ReadNpyFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  StatusOr<Literal> literal = DecodeNpy(buffer.str());
  if (!literal.ok()) return Status::Error(path + ": " + literal.message());
  return literal;
}

}  // namespace fusescope::runtime
