#include "views/layout_cache.h"

namespace fusescope::views {

LayoutCache& LayoutCache::Global() {
  static LayoutCache cache;
  return cache;
}

std::shared_ptr<const PieceLayout> LayoutCache::Find(uint64_t key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  order_.splice(order_.begin(), order_, it->second);
  return it->second->second;
}

void LayoutCache::Insert(uint64_t key, std::shared_ptr<const PieceLayout> layout) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    it->second->second = std::move(layout);
    order_.splice(order_.begin(), order_, it->second);
    return;
  }
  order_.emplace_front(key, std::move(layout));
  entries_[key] = order_.begin();
  while (entries_.size() > capacity_) {
    entries_.erase(order_.back().first);
    order_.pop_back();
  }
}

void LayoutCache::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  order_.clear();
  entries_.clear();
}

size_t LayoutCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

int64_t LayoutCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

int64_t LayoutCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}

}  // namespace fusescope::views
