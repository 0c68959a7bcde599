#include "runtime/npz.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "runtime/npy.h"

namespace fusescope::runtime {
namespace {

constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint16_t kZip64Extra = 0x0001;

class Reader {
 public:
  Reader(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  bool Has(uint64_t at, uint64_t size) const {
    return at <= bytes_.size() && size <= bytes_.size() - at;
  }
  uint64_t Read(uint64_t at, int width) const {
    uint64_t value = 0;
    for (int i = 0; i < width; ++i)
      value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes_[at + i])) << (8 * i);
    return value;
  }
  std::string_view Slice(uint64_t at, uint64_t size) const { return bytes_.substr(at, size); }
  size_t size() const { return bytes_.size(); }
  Status Error(const std::string& message) const {
    return Status::Error(name_ + ": not a readable .npz: " + message);
  }

 private:
  std::string_view bytes_;
  const std::string& name_;
};

struct Entry {
  std::string name;
  uint16_t method = 0;
  uint64_t compressed = 0;
  uint64_t uncompressed = 0;
  uint64_t local_offset = 0;
};

// Sizes and offset of 0xffffffff live in the zip64 extra field, in this order.
void ApplyZip64(const Reader& in, uint64_t extra, uint64_t extra_size, Entry& entry) {
  for (uint64_t at = extra; at + 4 <= extra + extra_size;) {
    const uint64_t id = in.Read(at, 2);
    const uint64_t size = in.Read(at + 2, 2);
    uint64_t field = at + 4;
    if (id == kZip64Extra) {
      for (uint64_t* value : {&entry.uncompressed, &entry.compressed, &entry.local_offset}) {
        if (*value != 0xffffffffu || field + 8 > at + 4 + size || field + 8 > extra + extra_size)
          continue;
        *value = in.Read(field, 8);
        field += 8;
      }
      return;
    }
    at += 4 + size;
  }
}

StatusOr<std::vector<Entry>> ReadDirectory(const Reader& in) {
  if (in.size() < 22) return in.Error("too short");
  uint64_t end = in.size() - 22;
  while (end > 0 && in.Read(end, 4) != kEndOfDirectory && in.size() - end < 22 + 65535) --end;
  if (in.Read(end, 4) != kEndOfDirectory) return in.Error("no end-of-directory record");
  uint64_t count = in.Read(end + 10, 2);
  uint64_t directory = in.Read(end + 16, 4);
  if (directory == 0xffffffffu || count == 0xffff) {
    // The zip64 locator sits just before the end record and points at the zip64 end record.
    if (end < 20 || in.Read(end - 20, 4) != 0x07064b50) return in.Error("no zip64 locator");
    const uint64_t record = in.Read(end - 20 + 8, 8);
    if (!in.Has(record, 56) || in.Read(record, 4) != kZip64EndOfDirectory)
      return in.Error("no zip64 end record");
    count = in.Read(record + 32, 8);
    directory = in.Read(record + 48, 8);
  }
  std::vector<Entry> entries;
  uint64_t at = directory;
  for (uint64_t i = 0; i < count; ++i) {
    if (!in.Has(at, 46) || in.Read(at, 4) != kDirectoryEntry)
      return in.Error("directory entry " + std::to_string(i) + " is damaged");
    Entry entry;
    entry.method = static_cast<uint16_t>(in.Read(at + 10, 2));
    entry.compressed = in.Read(at + 20, 4);
    entry.uncompressed = in.Read(at + 24, 4);
    const uint64_t name_size = in.Read(at + 28, 2);
    const uint64_t extra_size = in.Read(at + 30, 2);
    const uint64_t comment_size = in.Read(at + 32, 2);
    entry.local_offset = in.Read(at + 42, 4);
    if (!in.Has(at + 46, name_size + extra_size + comment_size))
      return in.Error("directory entry " + std::to_string(i) + " runs past the end");
    entry.name = std::string(in.Slice(at + 46, name_size));
    ApplyZip64(in, at + 46 + name_size, extra_size, entry);
    entries.push_back(std::move(entry));
    at += 46 + name_size + extra_size + comment_size;
  }
  return entries;
}

StatusOr<std::string> Inflate(std::string_view data, uint64_t size, const std::string& what) {
  std::string out(size, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) return Status::Error(what + ": zlib failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = inflate(&stream, Z_FINISH);
  const uint64_t produced = stream.total_out;
  inflateEnd(&stream);
  if (result != Z_STREAM_END || produced != size)
    return Status::Error(what + ": the compressed data is damaged");
  return out;
}

StatusOr<NpzMember> ReadMember(const Reader& in, const Entry& entry, const std::string& archive) {
  const std::string what = archive + ": member " + entry.name;
  if (!in.Has(entry.local_offset, 30) || in.Read(entry.local_offset, 4) != kLocalHeader)
    return Status::Error(what + ": its local header is damaged");
  const uint64_t data = entry.local_offset + 30 + in.Read(entry.local_offset + 26, 2) +
                        in.Read(entry.local_offset + 28, 2);
  if (!in.Has(data, entry.compressed)) return Status::Error(what + ": runs past the end");
  std::string_view raw = in.Slice(data, entry.compressed);
  std::string inflated;
  if (entry.method == 8) {
    // One inflate call: zlib counts its buffers in 32 bits.
    if (entry.uncompressed >= (uint64_t{1} << 32))
      return Status::Error(what + ": over 4 GiB compressed; save it with np.savez");
    StatusOr<std::string> out = Inflate(raw, entry.uncompressed, what);
    if (!out.ok()) return out.status();
    inflated = std::move(out).value();
    raw = inflated;
  } else if (entry.method != 0) {
    return Status::Error(what + ": compression method " + std::to_string(entry.method) +
                         " is not stored or deflate");
  }
  StatusOr<Literal> value = DecodeNpy(raw);
  if (!value.ok()) return Status::Error(what + ": " + value.message());
  NpzMember member;
  member.name = entry.name;
  if (member.name.size() > 4 && member.name.ends_with(".npy"))
    member.name.resize(member.name.size() - 4);
  member.value = std::move(value).value();
  return member;
}

}  // namespace

StatusOr<std::vector<NpzMember>> DecodeNpz(std::string_view bytes, const std::string& name,
                                           int64_t max_bytes) {
  const Reader in(bytes, name);
  StatusOr<std::vector<Entry>> entries = ReadDirectory(in);
  if (!entries.ok()) return entries.status();
  uint64_t total = 0;
  for (const Entry& entry : *entries) total += entry.uncompressed;
  if (total > static_cast<uint64_t>(max_bytes))
    return Status::Error(name + ": its arrays take " + std::to_string(total) +
                         " bytes, more than the limit of " + std::to_string(max_bytes));
  std::vector<NpzMember> members;
  for (const Entry& entry : *entries) {
    StatusOr<NpzMember> member = ReadMember(in, entry, name);
    if (!member.ok()) return member.status();
    members.push_back(std::move(member).value());
  }
  return members;
}

StatusOr<std::vector<NpzMember>> ReadNpzFile(const std::string& path, int64_t max_bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error("cannot read " + path);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return DecodeNpz(bytes.str(), path, max_bytes);
}

namespace {

void PutLittleEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

StatusOr<std::string> EncodeNpz(const std::vector<NpzMember>& members) {
  constexpr uint64_t kLimit = 0xffffffffULL;
  std::string archive;
  std::string directory;
  for (const NpzMember& member : members) {
    StatusOr<std::string> npy = EncodeNpy(member.value);
    if (!npy.ok()) return Status::Error(member.name + ": " + npy.message());
    const std::string file_name = member.name + ".npy";
    if (npy->size() >= kLimit || archive.size() >= kLimit)
      return Status::Error(member.name + ": an archive member of 4 GiB or more is not written");
    const uint32_t crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(npy->data()), static_cast<uInt>(npy->size())));
    const uint64_t offset = archive.size();
    // Version 2.0 to extract, no flags, stored, no time stamp: numpy's own choices but the
    // time, which would make equal arrays give different files.
    auto common = [&](std::string& out) {
      PutLittleEndian(out, 20, 2);
      PutLittleEndian(out, 0, 2);
      PutLittleEndian(out, 0, 2);
      PutLittleEndian(out, 0, 2);
      PutLittleEndian(out, 0x21, 2);  // 1980-01-01
      PutLittleEndian(out, crc, 4);
      PutLittleEndian(out, npy->size(), 4);
      PutLittleEndian(out, npy->size(), 4);
      PutLittleEndian(out, file_name.size(), 2);
      PutLittleEndian(out, 0, 2);
    };
    PutLittleEndian(archive, 0x04034b50, 4);
    common(archive);
    archive += file_name;
    archive += *npy;
    PutLittleEndian(directory, 0x02014b50, 4);
    PutLittleEndian(directory, 20, 2);  // made by
    common(directory);
    PutLittleEndian(directory, 0, 2);  // comment length
    PutLittleEndian(directory, 0, 2);  // disk
    PutLittleEndian(directory, 0, 2);  // internal attributes
    PutLittleEndian(directory, 0, 4);  // external attributes
    PutLittleEndian(directory, offset, 4);
    directory += file_name;
  }
  if (archive.size() + directory.size() >= kLimit)
    return Status::Error("an archive of 4 GiB or more is not written");
  const uint64_t directory_offset = archive.size();
  archive += directory;
  PutLittleEndian(archive, 0x06054b50, 4);
  PutLittleEndian(archive, 0, 2);
  PutLittleEndian(archive, 0, 2);
  PutLittleEndian(archive, members.size(), 2);
  PutLittleEndian(archive, members.size(), 2);
  PutLittleEndian(archive, directory.size(), 4);
  PutLittleEndian(archive, directory_offset, 4);
  PutLittleEndian(archive, 0, 2);
  return archive;
}

Status WriteNpzFile(const std::string& path, const std::vector<NpzMember>& members) {
  StatusOr<std::string> bytes = EncodeNpz(members);
  if (!bytes.ok()) return Status::Error(path + ": " + bytes.message());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  file.close();
  if (!file) return Status::Error("cannot write " + path);
  return Status::Ok();
}

}  // namespace fusescope::runtime
