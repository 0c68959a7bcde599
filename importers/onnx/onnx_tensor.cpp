// Decoding ONNX tensors (initializers, Constant values) into element values and XLA literal
// text.

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "importers/onnx/onnx_internal.h"

namespace fusescope::ir::onnx_import {
namespace {

namespace fs = std::filesystem;

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = (bits >> 15) & 1u;
  const int exponent = (bits >> 10) & 0x1f;
  const uint32_t mantissa = bits & 0x3ffu;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value =
        mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400u), exponent - 25);
  }
  return sign ? -value : value;
}

float BFloat16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

// Bytes one element takes in raw_data (ONNX stores bool as one byte each).
int64_t RawElementBytes(PrimitiveType type) {
  if (type == PrimitiveType::kPred) return 1;
  return PrimitiveTypeBitWidth(type) / 8;
}

template <typename T>
T LoadLittleEndian(const char* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);  // x86 and arm64 hosts are little-endian
  return value;
}

// Appends one element read from raw little-endian bytes.
void AppendRawElement(PrimitiveType type, const char* p, TensorData& out) {
  switch (type) {
    case PrimitiveType::kPred:
      out.ints.push_back(*p != 0);
      break;
    case PrimitiveType::kS8:
      out.ints.push_back(LoadLittleEndian<int8_t>(p));
      break;
    case PrimitiveType::kU8:
      out.ints.push_back(LoadLittleEndian<uint8_t>(p));
      break;
    case PrimitiveType::kS16:
      out.ints.push_back(LoadLittleEndian<int16_t>(p));
      break;
    case PrimitiveType::kU16:
      out.ints.push_back(LoadLittleEndian<uint16_t>(p));
      break;
    case PrimitiveType::kS32:
      out.ints.push_back(LoadLittleEndian<int32_t>(p));
      break;
    case PrimitiveType::kU32:
      out.ints.push_back(LoadLittleEndian<uint32_t>(p));
      break;
    case PrimitiveType::kS64:
      out.ints.push_back(LoadLittleEndian<int64_t>(p));
      break;
    case PrimitiveType::kU64:
      out.ints.push_back(static_cast<int64_t>(LoadLittleEndian<uint64_t>(p)));
      break;
    case PrimitiveType::kF16:
      out.floats.push_back(HalfToFloat(LoadLittleEndian<uint16_t>(p)));
      break;
    case PrimitiveType::kBF16:
      out.floats.push_back(BFloat16ToFloat(LoadLittleEndian<uint16_t>(p)));
      break;
    case PrimitiveType::kF32:
      out.floats.push_back(LoadLittleEndian<float>(p));
      break;
    case PrimitiveType::kF64:
      out.floats.push_back(LoadLittleEndian<double>(p));
      break;
    case PrimitiveType::kC64:
      out.floats.push_back(LoadLittleEndian<float>(p));
      out.floats.push_back(LoadLittleEndian<float>(p + 4));
      break;
    case PrimitiveType::kC128:
      out.floats.push_back(LoadLittleEndian<double>(p));
      out.floats.push_back(LoadLittleEndian<double>(p + 8));
      break;
    default:
      break;
  }
}

Status DecodeRaw(std::string_view raw, PrimitiveType type, int64_t count, const std::string& what,
                 TensorData& out) {
  const int64_t element_bytes = RawElementBytes(type);
  if (static_cast<int64_t>(raw.size()) != count * element_bytes) {
    return Status::Error(what + ": " + std::to_string(raw.size()) + " bytes of data for " +
                         std::to_string(count) + " elements of " +
                         std::string(PrimitiveTypeName(type)) + " (" +
                         std::to_string(count * element_bytes) + " expected)");
  }
  for (int64_t i = 0; i < count; ++i) AppendRawElement(type, raw.data() + i * element_bytes, out);
  return Status::Ok();
}

Status CountMismatch(const std::string& what, const char* field, int64_t have, int64_t want) {
  return Status::Error(what + ": " + field + " holds " + std::to_string(have) + " values for " +
                       std::to_string(want) + " elements");
}

// The typed repeated fields (float_data, int32_data, ...), per ONNX's rules for which type
// goes where.
Status DecodeTyped(const onnx::TensorProto& tensor, PrimitiveType type, int64_t count,
                   const std::string& what, TensorData& out) {
  const bool complex = type == PrimitiveType::kC64 || type == PrimitiveType::kC128;
  const int64_t want = complex ? 2 * count : count;
  switch (type) {
    case PrimitiveType::kF32:
    case PrimitiveType::kC64:
      if (tensor.float_data_size() != want) {
        return CountMismatch(what, "float_data", tensor.float_data_size(), want);
      }
      out.floats.assign(tensor.float_data().begin(), tensor.float_data().end());
      return Status::Ok();
    case PrimitiveType::kF64:
    case PrimitiveType::kC128:
      if (tensor.double_data_size() != want) {
        return CountMismatch(what, "double_data", tensor.double_data_size(), want);
      }
      out.floats.assign(tensor.double_data().begin(), tensor.double_data().end());
      return Status::Ok();
    case PrimitiveType::kS64:
      if (tensor.int64_data_size() != want) {
        return CountMismatch(what, "int64_data", tensor.int64_data_size(), want);
      }
      out.ints.assign(tensor.int64_data().begin(), tensor.int64_data().end());
      return Status::Ok();
    case PrimitiveType::kU32:
    case PrimitiveType::kU64:
      if (tensor.uint64_data_size() != want) {
        return CountMismatch(what, "uint64_data", tensor.uint64_data_size(), want);
      }
      for (uint64_t v : tensor.uint64_data()) out.ints.push_back(static_cast<int64_t>(v));
      return Status::Ok();
    default:
      break;
  }
  if (tensor.int32_data_size() != want) {
    return CountMismatch(what, "int32_data", tensor.int32_data_size(), want);
  }
  for (int32_t v : tensor.int32_data()) {
    const auto bits = static_cast<uint16_t>(static_cast<uint32_t>(v) & 0xffffu);
    if (type == PrimitiveType::kF16) {
      out.floats.push_back(HalfToFloat(bits));
    } else if (type == PrimitiveType::kBF16) {
      out.floats.push_back(BFloat16ToFloat(bits));
    } else if (type == PrimitiveType::kPred) {
      out.ints.push_back(v != 0);
    } else {
      out.ints.push_back(v);
    }
  }
  return Status::Ok();
}

// Reads the bytes of an external tensor: location relative to the model's folder, optional
// offset and length.
StatusOr<std::vector<uint8_t>> ReadExternal(const onnx::TensorProto& tensor,
                                            const std::string& base_dir, int64_t expected_bytes,
                                            const std::string& what) {
  std::string location;
  int64_t offset = 0;
  std::optional<int64_t> length;
  for (const auto& entry : tensor.external_data()) {
    auto as_int = [&](const std::string& text) -> std::optional<int64_t> {
      int64_t value = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || ptr != text.data() + text.size() || value < 0) return std::nullopt;
      return value;
    };
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      std::optional<int64_t> value = as_int(entry.value());
      if (!value) {
        return Status::Error(what + ": external data " + entry.key() + " '" + entry.value() +
                             "' is not a byte count");
      }
      (entry.key() == "offset" ? offset : length.emplace()) = *value;
    }
  }
  if (location.empty()) return Status::Error(what + ": external data without a location");
  const fs::path relative(location);
  if (relative.is_absolute() ||
      std::any_of(relative.begin(), relative.end(), [](const fs::path& p) { return p == ".."; })) {
    return Status::Error(what + ": external data file '" + location +
                         "' is outside the model's folder");
  }
  if (base_dir.empty()) {
    return Status::Error(what + ": external data file '" + location +
                         "' cannot be found for a model read from memory");
  }
  const fs::path path = fs::path(base_dir) / relative;
  std::error_code ec;
  const auto file_size = fs::file_size(path, ec);
  if (ec) return Status::Error(what + ": external data file '" + path.string() + "' not found");
  if (length && *length != expected_bytes) {
    return Status::Error(what + ": external data length " + std::to_string(*length) +
                         " does not match the " + std::to_string(expected_bytes) +
                         " bytes its shape needs");
  }
  if (offset > static_cast<int64_t>(file_size) ||
      expected_bytes > static_cast<int64_t>(file_size) - offset) {
    return Status::Error(what + ": external data file '" + path.string() + "' has " +
                         std::to_string(file_size) + " bytes, fewer than offset " +
                         std::to_string(offset) + " + " + std::to_string(expected_bytes));
  }
  std::ifstream file(path, std::ios::binary);
  std::vector<uint8_t> bytes(static_cast<size_t>(expected_bytes));
  file.seekg(offset);
  file.read(reinterpret_cast<char*>(bytes.data()), expected_bytes);
  if (file.gcount() != expected_bytes) {
    return Status::Error(what + ": cannot read external data file '" + path.string() + "'");
  }
  return bytes;
}

template <typename T>
void StoreLittleEndian(T value, uint8_t* out) {
  std::memcpy(out, &value, sizeof value);  // x86 and arm64 hosts are little-endian
}

// The bytes of a tensor given in the typed fields, from its decoded values; f16 and bf16
// from their bit patterns in int32_data, so that nothing is rounded twice.
std::vector<uint8_t> EncodeTyped(const onnx::TensorProto& tensor, const TensorData& data,
                                 int64_t count) {
  const PrimitiveType type = data.shape.element_type();
  const int64_t width = RawElementBytes(type);
  std::vector<uint8_t> bytes(static_cast<size_t>(count * width));
  uint8_t* out = bytes.data();
  for (int64_t i = 0; i < count; ++i, out += width) {
    const auto at = static_cast<size_t>(i);
    switch (type) {
      case PrimitiveType::kPred:
        *out = data.ints[at] != 0;
        break;
      case PrimitiveType::kS8:
      case PrimitiveType::kU8:
        *out = static_cast<uint8_t>(data.ints[at]);
        break;
      case PrimitiveType::kS16:
      case PrimitiveType::kU16:
        StoreLittleEndian(static_cast<uint16_t>(data.ints[at]), out);
        break;
      case PrimitiveType::kF16:
      case PrimitiveType::kBF16:
        StoreLittleEndian(static_cast<uint16_t>(tensor.int32_data(static_cast<int>(i))), out);
        break;
      case PrimitiveType::kS32:
      case PrimitiveType::kU32:
        StoreLittleEndian(static_cast<uint32_t>(data.ints[at]), out);
        break;
      case PrimitiveType::kS64:
      case PrimitiveType::kU64:
        StoreLittleEndian(static_cast<uint64_t>(data.ints[at]), out);
        break;
      case PrimitiveType::kF32:
        StoreLittleEndian(static_cast<float>(data.floats[at]), out);
        break;
      case PrimitiveType::kF64:
        StoreLittleEndian(data.floats[at], out);
        break;
      case PrimitiveType::kC64:
        StoreLittleEndian(static_cast<float>(data.floats[2 * at]), out);
        StoreLittleEndian(static_cast<float>(data.floats[2 * at + 1]), out + 4);
        break;
      case PrimitiveType::kC128:
        StoreLittleEndian(data.floats[2 * at], out);
        StoreLittleEndian(data.floats[2 * at + 1], out + 8);
        break;
      default:
        break;
    }
  }
  return bytes;
}

// Raw little-endian bytes as a constant's bytes: the same layout, with predicates made 0 or 1.
ConstantBytesPtr BytesOfRaw(std::vector<uint8_t> bytes, PrimitiveType type) {
  if (type == PrimitiveType::kPred) {
    for (uint8_t& b : bytes) b = b != 0;
  }
  return MakeConstantBytes(std::move(bytes));
}

std::string FloatText(double value, PrimitiveType type) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  const bool wide = type == PrimitiveType::kF64 || type == PrimitiveType::kC128;
  auto result = wide ? std::to_chars(buffer, buffer + sizeof buffer, value)
                     : std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
  return std::string(buffer, result.ptr);
}

std::string ElementText(const TensorData& data, size_t index) {
  const PrimitiveType type = data.shape.element_type();
  if (type == PrimitiveType::kPred) return data.ints[index] ? "true" : "false";
  if (type == PrimitiveType::kC64 || type == PrimitiveType::kC128) {
    return "(" + FloatText(data.floats[2 * index], type) + ", " +
           FloatText(data.floats[2 * index + 1], type) + ")";
  }
  if (IsFloatingPointType(type)) return FloatText(data.floats[index], type);
  if (type == PrimitiveType::kU64) return std::to_string(static_cast<uint64_t>(data.ints[index]));
  return std::to_string(data.ints[index]);
}

void AppendNested(const TensorData& data, size_t dim, size_t& next, std::string& out) {
  const auto& dims = data.shape.dimensions();
  const bool innermost = dim + 1 == dims.size();
  const bool spaced = dims.size() > 1;
  out += spaced ? "{ " : "{";
  for (int64_t i = 0; i < dims[dim]; ++i) {
    if (i > 0) out += ", ";
    if (innermost) {
      out += ElementText(data, next++);
    } else {
      AppendNested(data, dim + 1, next, out);
    }
  }
  out += spaced ? " }" : "}";
}

}  // namespace

std::optional<PrimitiveType> ElementTypeFromOnnx(int32_t data_type) {
  using T = onnx::TensorProto;
  switch (data_type) {
    case T::FLOAT:
      return PrimitiveType::kF32;
    case T::UINT8:
      return PrimitiveType::kU8;
    case T::INT8:
      return PrimitiveType::kS8;
    case T::UINT16:
      return PrimitiveType::kU16;
    case T::INT16:
      return PrimitiveType::kS16;
    case T::INT32:
      return PrimitiveType::kS32;
    case T::INT64:
      return PrimitiveType::kS64;
    case T::BOOL:
      return PrimitiveType::kPred;
    case T::FLOAT16:
      return PrimitiveType::kF16;
    case T::DOUBLE:
      return PrimitiveType::kF64;
    case T::UINT32:
      return PrimitiveType::kU32;
    case T::UINT64:
      return PrimitiveType::kU64;
    case T::COMPLEX64:
      return PrimitiveType::kC64;
    case T::COMPLEX128:
      return PrimitiveType::kC128;
    case T::BFLOAT16:
      return PrimitiveType::kBF16;
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims, int64_t limit) {
  // The non-zero dimensions must multiply within the limit too: a [2^40, 0] array holds
  // nothing, but its literal text and any loop over its rows would not end.
  int64_t product = 1;
  bool empty = false;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d == 0) {
      empty = true;
      continue;
    }
    if (d > limit / product) return std::nullopt;
    product *= d;
  }
  return empty ? 0 : product;
}

StatusOr<TensorData> ReadTensor(const onnx::TensorProto& tensor, const std::string& base_dir,
                                const OnnxImportOptions& options, const std::string& what) {
  std::optional<PrimitiveType> type = ElementTypeFromOnnx(tensor.data_type());
  if (!type) {
    return Status::Error(what + ": element type " +
                         (onnx::TensorProto::DataType_IsValid(tensor.data_type())
                              ? onnx::TensorProto::DataType_Name(
                                    static_cast<onnx::TensorProto::DataType>(tensor.data_type()))
                              : std::to_string(tensor.data_type())) +
                         " is not supported");
  }
  if (tensor.has_segment()) return Status::Error(what + ": segmented tensors are not supported");
  std::vector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  std::optional<int64_t> count = CheckedElementCount(dims, options.max_tensor_elements);
  if (!count) {
    std::string text;
    for (int64_t d : dims) text += (text.empty() ? "" : ",") + std::to_string(d);
    return Status::Error(what + ": shape [" + text + "] is negative or has more than " +
                         std::to_string(options.max_tensor_elements) + " elements");
  }
  TensorData data;
  data.shape = Shape(*type, std::move(dims));
  // Literal text grows with the rows of an empty array too, hence the check of all dimensions.
  // Larger tensors keep their values as bytes.
  const bool as_text =
      CheckedElementCount(data.shape.dimensions(), options.max_literal_elements).has_value();
  const int64_t raw_bytes = *count * RawElementBytes(*type);
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    auto bytes = ReadExternal(tensor, base_dir, raw_bytes, what);
    if (!bytes.ok()) return bytes.status();
    if (!as_text) {
      data.bytes = BytesOfRaw(std::move(bytes).value(), *type);
      return data;
    }
    FS_RETURN_IF_ERROR(
        DecodeRaw(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()),
                  *type, *count, what, data));
  } else if (tensor.has_raw_data()) {
    const std::string& raw = tensor.raw_data();
    if (static_cast<int64_t>(raw.size()) != raw_bytes || as_text) {
      FS_RETURN_IF_ERROR(DecodeRaw(raw, *type, *count, what, data));
    }
    if (!as_text) {
      data.bytes = BytesOfRaw(std::vector<uint8_t>(raw.begin(), raw.end()), *type);
      return data;
    }
  } else {
    FS_RETURN_IF_ERROR(DecodeTyped(tensor, *type, *count, what, data));
    if (!as_text) {
      data.bytes = MakeConstantBytes(EncodeTyped(tensor, data, *count));
      data.ints.clear();
      data.floats.clear();
      return data;
    }
  }
  data.has_values = true;
  return data;
}

std::string LiteralText(const TensorData& data) {
  if (!data.has_values) return "{...}";
  if (data.shape.dimensions().empty()) return ElementText(data, 0);
  std::string out;
  size_t next = 0;
  AppendNested(data, 0, next, out);
  return out;
}

}  // namespace fusescope::ir::onnx_import
