// .npz archives as numpy writes them (tests/data/npz, made by np.savez and
// np.savez_compressed), and damaged ones.

#include "runtime/npz.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace fusescope::runtime {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(FUSESCOPE_SOURCE_DIR) + "/tests/data/npz/" + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

void ExpectFixtureArrays(const std::vector<NpzMember>& members) {
  ASSERT_EQ(members.size(), 3u);
  const Literal& x = members[0].value;
  EXPECT_EQ(x.shape().ToString(false), "f32[2,3]");
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(x.GetDouble(i), static_cast<double>(i) / 4);
  EXPECT_EQ(members[1].value.shape().ToString(false), "f64[1,3]");
  EXPECT_EQ(members[1].value.GetDouble(1), -2.0);
  EXPECT_EQ(members[2].value.GetInt(1), -1);
  EXPECT_EQ(members[2].value.GetInt(2), 7);
}

TEST(NpzTest, ReadsStoredArchivesAsNpSavezWritesThem) {
  auto members = ReadNpzFile(Fixture("stored.npz"));
  ASSERT_TRUE(members.ok()) << members.message();
  ExpectFixtureArrays(*members);
  EXPECT_EQ((*members)[0].name, "arr_0");
  EXPECT_EQ((*members)[2].name, "arr_2");
}

TEST(NpzTest, ReadsDeflatedArchivesWithNamedArrays) {
  auto members = ReadNpzFile(Fixture("compressed.npz"));
  ASSERT_TRUE(members.ok()) << members.message();
  ExpectFixtureArrays(*members);
  EXPECT_EQ((*members)[0].name, "x");
  EXPECT_EQ((*members)[1].name, "w");
}

TEST(NpzTest, DamageIsOneClearError) {
  const std::string bytes = ReadBytes(Fixture("compressed.npz"));
  auto truncated = DecodeNpz(bytes.substr(0, bytes.size() / 2), "cut.npz");
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.message().rfind("cut.npz: ", 0), 0u) << truncated.message();
  std::string scrambled = bytes;
  for (size_t i = 60; i < 120 && i < scrambled.size(); ++i) scrambled[i] ^= 0x5a;
  auto damaged = DecodeNpz(scrambled, "bad.npz");
  ASSERT_FALSE(damaged.ok());
  EXPECT_NE(damaged.message().find("bad.npz"), std::string::npos) << damaged.message();
  auto empty = DecodeNpz("", "empty.npz");
  EXPECT_FALSE(empty.ok());
  auto limited = DecodeNpz(bytes, "big.npz", 16);
  ASSERT_FALSE(limited.ok());
  EXPECT_NE(limited.message().find("more than the limit"), std::string::npos);
}

}  // namespace
}  // namespace fusescope::runtime
