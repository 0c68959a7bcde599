#include "recording/constant_store.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "recording/compressed_text.h"

namespace fusescope::recording {
namespace {

constexpr std::string_view kRaw = "raw";
constexpr std::string_view kShuffledDeflate = "shuffle4+deflate";
constexpr int kShuffleWidth = 4;

// Byte k of every 4-byte group, then byte k+1...; a tail shorter than a group stays in place.
std::string Shuffle(std::string_view bytes) {
  std::string out(bytes.size(), '\0');
  const size_t groups = bytes.size() / kShuffleWidth;
  for (size_t g = 0; g < groups; ++g) {
    for (int k = 0; k < kShuffleWidth; ++k) out[k * groups + g] = bytes[g * kShuffleWidth + k];
  }
  std::memcpy(out.data() + groups * kShuffleWidth, bytes.data() + groups * kShuffleWidth,
              bytes.size() - groups * kShuffleWidth);
  return out;
}

std::string Unshuffle(std::string_view bytes) {
  std::string out(bytes.size(), '\0');
  const size_t groups = bytes.size() / kShuffleWidth;
  for (size_t g = 0; g < groups; ++g) {
    for (int k = 0; k < kShuffleWidth; ++k) out[g * kShuffleWidth + k] = bytes[k * groups + g];
  }
  std::memcpy(out.data() + groups * kShuffleWidth, bytes.data() + groups * kShuffleWidth,
              bytes.size() - groups * kShuffleWidth);
  return out;
}

// The deflated chunk, or nullopt when deflating saves less than a tenth.
std::optional<std::string> DeflateChunk(std::string_view bytes) {
  // Level 1: weights compress little at any level, and a model's weights are large.
  StatusOr<std::string> deflated = Deflate(Shuffle(bytes), 1);
  if (!deflated.ok() || deflated->size() > bytes.size() - bytes.size() / 10) return std::nullopt;
  return std::move(deflated).value();
}

Status InflateChunk(std::string_view data, size_t size, std::string& out) {
  StatusOr<std::string> inflated = Inflate(data, static_cast<int64_t>(size));
  if (!inflated.ok()) return Status::Error("a chunk does not inflate to its size");
  out = Unshuffle(*inflated);
  return Status::Ok();
}

Status ForEach(SqliteDatabase& db, std::string_view sql,
               const std::function<Status(const SqliteStatement&)>& visit) {
  StatusOr<SqliteStatement> statement = db.Prepare(sql);
  if (!statement.ok()) return statement.status();
  while (true) {
    StatusOr<bool> row = statement->Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Ok();
    FS_RETURN_IF_ERROR(visit(*statement));
  }
}

}  // namespace

Status ConstantWriter::Prepare(SqliteDatabase& db) {
  const std::pair<std::optional<SqliteStatement>*, std::string_view> statements[] = {
      {&insert_constant_, "INSERT INTO constants VALUES (?,?,?)"},
      {&insert_chunk_, "INSERT INTO constant_chunks VALUES (?,?,?,?)"},
      {&insert_link_, "INSERT INTO record_constants VALUES (?,?)"},
  };
  for (const auto& [statement, sql] : statements) {
    StatusOr<SqliteStatement> prepared = db.Prepare(sql);
    if (!prepared.ok()) return prepared.status();
    statement->emplace(std::move(*prepared));
  }
  return Status::Ok();
}

StatusOr<int64_t> ConstantWriter::Row(const ir::ConstantBytesPtr& bytes) {
  auto known = rows_.find(bytes.get());
  if (known != rows_.end()) return known->second;
  auto [first, last] = by_fingerprint_.equal_range(bytes->fingerprint());
  for (auto it = first; it != last; ++it) {
    if (it->second.first->bytes() == bytes->bytes()) return rows_[bytes.get()] = it->second.second;
  }
  const int64_t row = next_row_++;
  insert_constant_->Bind(1, row);
  insert_constant_->BindUnsigned(2, bytes->fingerprint());
  insert_constant_->Bind(3, bytes->size());
  FS_RETURN_IF_ERROR(insert_constant_->Run());
  FS_RETURN_IF_ERROR(WriteChunks(row, *bytes));
  rows_[bytes.get()] = row;
  by_fingerprint_.emplace(bytes->fingerprint(), std::make_pair(bytes.get(), row));
  return row;
}

Status ConstantWriter::WriteChunks(int64_t row, const ir::ConstantBytes& bytes) {
  const std::string_view all(reinterpret_cast<const char*>(bytes.data()),
                             static_cast<size_t>(bytes.size()));
  for (int64_t chunk = 0, at = 0; at < bytes.size() || chunk == 0; ++chunk) {
    const std::string_view piece = all.substr(at, kConstantChunkBytes);
    std::optional<std::string> deflated = DeflateChunk(piece);
    insert_chunk_->Bind(1, row);
    insert_chunk_->Bind(2, chunk);
    insert_chunk_->Bind(3, deflated ? kShuffledDeflate : kRaw);
    insert_chunk_->BindBlob(4, deflated ? std::string_view(*deflated) : piece);
    FS_RETURN_IF_ERROR(insert_chunk_->Run());
    at += static_cast<int64_t>(piece.size());
    if (piece.empty()) break;
  }
  return Status::Ok();
}

Status ConstantWriter::Link(int64_t record_row, int64_t constant_row) {
  insert_link_->Bind(1, record_row);
  insert_link_->Bind(2, constant_row);
  return insert_link_->Run();
}

StatusOr<std::unordered_map<int64_t, ir::ConstantBytesPtr>> ReadRecordConstants(
    SqliteDatabase& db) {
  std::unordered_map<int64_t, ir::ConstantBytesPtr> by_record;
  StatusOr<int64_t> has_tables = db.QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='record_constants'");
  if (!has_tables.ok()) return has_tables.status();
  if (*has_tables == 0) return by_record;
  std::unordered_map<int64_t, std::pair<int64_t, uint64_t>> sizes;  // size, fingerprint
  FS_RETURN_IF_ERROR(ForEach(db, "SELECT constant_id, fingerprint, byte_size FROM constants",
                             [&](const SqliteStatement& row) {
                               sizes[row.Int(0)] = {row.Int(2), row.Unsigned(1)};
                               return Status::Ok();
                             }));
  std::unordered_map<int64_t, std::vector<uint8_t>> bytes;
  std::string inflated;
  FS_RETURN_IF_ERROR(ForEach(
      db, "SELECT constant_id, chunk, codec, data FROM constant_chunks ORDER BY constant_id, chunk",
      [&](const SqliteStatement& row) {
        const int64_t id = row.Int(0);
        auto size = sizes.find(id);
        const std::string what = "constant " + std::to_string(id);
        if (size == sizes.end()) return Status::Error(what + ": a chunk of no constant");
        std::vector<uint8_t>& into = bytes[id];
        if (into.empty()) into.reserve(static_cast<size_t>(size->second.first));
        const int64_t expected =
            std::min(kConstantChunkBytes, size->second.first - static_cast<int64_t>(into.size()));
        if (row.Int(1) * kConstantChunkBytes != static_cast<int64_t>(into.size()) || expected < 0)
          return Status::Error(what + ": chunk " + std::to_string(row.Int(1)) + " out of order");
        std::string_view data = row.Blob(3);
        if (row.Text(2) == kShuffledDeflate) {
          Status status = InflateChunk(data, static_cast<size_t>(expected), inflated);
          if (!status.ok()) return Status::Error(what + ": " + status.message());
          data = inflated;
        } else if (row.Text(2) != kRaw) {
          return Status::Error(what + ": unknown codec '" + std::string(row.Text(2)) + "'");
        }
        if (static_cast<int64_t>(data.size()) != expected)
          return Status::Error(what + ": chunk " + std::to_string(row.Int(1)) + " holds " +
                               std::to_string(data.size()) + " bytes, not " +
                               std::to_string(expected));
        into.insert(into.end(), data.begin(), data.end());
        return Status::Ok();
      }));
  std::unordered_map<int64_t, ir::ConstantBytesPtr> constants;
  for (auto& [id, size] : sizes) {
    std::vector<uint8_t>& content = bytes[id];
    if (static_cast<int64_t>(content.size()) != size.first)
      return Status::Error("constant " + std::to_string(id) + " is missing chunks");
    ir::ConstantBytesPtr made = ir::MakeConstantBytes(std::move(content));
    if (made->fingerprint() != size.second)
      return Status::Error("constant " + std::to_string(id) + " does not match its fingerprint");
    constants[id] = std::move(made);
  }
  FS_RETURN_IF_ERROR(ForEach(db, "SELECT record_id, constant_id FROM record_constants",
                             [&](const SqliteStatement& row) {
                               auto found = constants.find(row.Int(1));
                               if (found == constants.end())
                                 return Status::Error("a record refers to a missing constant");
                               by_record[row.Int(0)] = found->second;
                               return Status::Ok();
                             }));
  return by_record;
}

}  // namespace fusescope::recording
