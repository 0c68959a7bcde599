#ifndef FUSESCOPE_VIEWS_LAYOUT_CACHE_H_
#define FUSESCOPE_VIEWS_LAYOUT_CACHE_H_

// Laid-out pieces kept in memory, keyed by a hash of everything the layout depends on (node
// sizes and order, edges, Graphviz settings). That key changes exactly when a snapshot's
// visible content or the collapse state of a piece changes, so a pass that left a box alone,
// or a box toggled back, comes from the cache. Least recently used pieces go first.
// Thread-safe.

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "views/graphviz_engine.h"

namespace fusescope::views {

class LayoutCache {
 public:
  explicit LayoutCache(size_t capacity = 4096) : capacity_(capacity) {}
  LayoutCache(const LayoutCache&) = delete;
  LayoutCache& operator=(const LayoutCache&) = delete;

  // The one the GUI and the CLI share.
  static LayoutCache& Global();

  std::shared_ptr<const PieceLayout> Find(uint64_t key);
  void Insert(uint64_t key, std::shared_ptr<const PieceLayout> layout);
  void Clear();

  size_t size() const;
  int64_t hits() const;
  int64_t misses() const;

 private:
  using Entry = std::pair<uint64_t, std::shared_ptr<const PieceLayout>>;
  mutable std::mutex mutex_;
  size_t capacity_;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<uint64_t, std::list<Entry>::iterator> entries_;
  int64_t hits_ = 0;
  int64_t misses_ = 0;
};

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_LAYOUT_CACHE_H_
