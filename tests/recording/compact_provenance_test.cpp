#include "recording/compact_provenance.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace fusescope::recording {
namespace {

ir::ProvenanceSet Set(std::initializer_list<int64_t> ids) { return ir::ProvenanceSet(ids); }

// Any set, small or large, near or far apart, negative or huge, decodes to itself.
TEST(CompactProvenanceTest, RoundTrips) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  for (const ir::ProvenanceSet& set :
       {Set({}), Set({0}), Set({7}), Set({-5, 3}), Set({1, 2, 3, 130, 20000, 1LL << 40}),
        Set({-big, 0, big})}) {
    CompactProvenance compact(set);
    EXPECT_EQ(compact.Decode(), set);
    EXPECT_EQ(compact.size(), set.size());
    EXPECT_TRUE(compact.Equals(set));
    StatusOr<CompactProvenance> reread = CompactProvenance::FromBytes(compact.bytes());
    ASSERT_TRUE(reread.ok()) << reread.message();
    EXPECT_EQ(*reread, compact);
  }
}

// Ids a few apart, as after CSE of repeated constants, take one byte each.
TEST(CompactProvenanceTest, CloseIdsTakeAByteEach) {
  ir::ProvenanceSet set;
  for (int64_t id = 100; id < 100 + 21 * 500; id += 21) set.Insert(id);
  CompactProvenance compact(set);
  EXPECT_EQ(compact.bytes().size(), 501u);  // 100 zigzagged needs two bytes
}

TEST(CompactProvenanceTest, ContainsAndEquals) {
  CompactProvenance compact(Set({3, 9, 27}));
  EXPECT_TRUE(compact.Contains(3));
  EXPECT_TRUE(compact.Contains(27));
  EXPECT_FALSE(compact.Contains(4));
  EXPECT_FALSE(compact.Contains(28));
  EXPECT_FALSE(compact.Contains(-1));
  EXPECT_FALSE(compact.Equals(Set({3, 9})));
  EXPECT_FALSE(compact.Equals(Set({3, 9, 28})));
  EXPECT_FALSE(CompactProvenance(Set({})).Contains(0));
}

// Bytes from a damaged file are refused, not decoded into nonsense.
TEST(CompactProvenanceTest, MalformedBytesAreRefused) {
  EXPECT_FALSE(CompactProvenance::FromBytes(std::string("\x80", 1)).ok());      // cut varint
  EXPECT_FALSE(CompactProvenance::FromBytes(std::string("\x02\x00", 2)).ok());  // repeated id
  EXPECT_FALSE(CompactProvenance::FromBytes(std::string(11, '\xff')).ok());     // over 64 bits
}

}  // namespace
}  // namespace fusescope::recording
