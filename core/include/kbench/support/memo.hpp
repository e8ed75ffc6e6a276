// Host values kept from one case to the next. A worker runs its plugin's cases in the order
// dtype > op > size > block, so consecutive cases mostly differ in the block alone and share
// their inputs and reference: regenerating them costs seconds at the largest sizes, the GPU work
// of the case milliseconds.
//
// A value is found by its key, which must name everything it depends on (family, what it is, data
// type, shape, seed, stream, value range, op), and by its C++ type. Values are immutable and
// shared: a case holds them through shared_ptr, so an evicted value lives on until the case that
// uses it is torn down.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>

namespace kb {

class Memo {
 public:
  // The least recently used entries go first once there are `capacity` (at least 1).
  explicit Memo(std::size_t capacity);
  Memo(const Memo&) = delete;
  Memo& operator=(const Memo&) = delete;

  // The one the family problems use. A plugin links its own copy of the support library, so this
  // is per plugin, and a worker runs one plugin. It keeps two entries: a case's inputs and its
  // reference (reduce) or its two inputs (matmul).
  static Memo& process();

  // The value under `key`, or make() (returning a V) kept under it. Entries are evicted before
  // make() runs, so a case of another size does not hold the old values and the new at once.
  // make() runs without the lock, so it may itself use the memo; should two threads miss the same
  // key at once, both make it and the first kept is returned to both.
  template <typename V, typename Make>
  std::shared_ptr<const V> get(const std::string& key, Make&& make) {
    const std::type_index type(typeid(V));
    if (auto found = find(key, type)) return std::static_pointer_cast<const V>(std::move(found));
    make_room();
    std::shared_ptr<const void> made = std::make_shared<const V>(make());
    return std::static_pointer_cast<const V>(keep(key, type, std::move(made)));
  }

  std::size_t size() const;
  std::size_t capacity() const noexcept { return capacity_; }
  void clear();

 private:
  struct Entry {
    std::string key;
    std::type_index type;
    std::shared_ptr<const void> value;
  };

  using Entries = std::list<Entry>;

  std::shared_ptr<const void> find(const std::string& key, std::type_index type);
  void make_room();
  std::shared_ptr<const void> keep(const std::string& key, std::type_index type,
                                   std::shared_ptr<const void> value);
  // With the lock held: the entry, moved to the front, or end().
  Entries::iterator touch(const std::string& key, std::type_index type);
  // With the lock held: moves the least recently used entries to `evicted` until `room` more fit.
  void evict(std::size_t room, Entries& evicted);

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  Entries entries_;  // most recently used first
};

// Memo::process().get<V>(key, make).
template <typename V, typename Make>
std::shared_ptr<const V> memoized(const std::string& key, Make&& make) {
  return Memo::process().get<V>(key, std::forward<Make>(make));
}

// The parts of a key joined by '|': memo_key("transpose/input", dtype, rows, cols, seed).
template <typename... Parts>
std::string memo_key(const Parts&... parts) {
  std::ostringstream key;
  ((key << parts << '|'), ...);
  return key.str();
}

}  // namespace kb
