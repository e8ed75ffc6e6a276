#include <kbench/support/memo.hpp>

#include <algorithm>
#include <iterator>

namespace kb {

// Evicted values are freed by the `evicted` lists, declared before the lock so they are destroyed
// after it is released: freeing a gigabyte takes a while, and the value may be a case's only copy.

Memo::Memo(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {}

Memo& Memo::process() {
  static Memo memo(2);
  return memo;
}

std::size_t Memo::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

void Memo::clear() {
  Entries evicted;
  const std::lock_guard<std::mutex> lock(mutex_);
  evicted.swap(entries_);
}

Memo::Entries::iterator Memo::touch(const std::string& key, std::type_index type) {
  const auto at = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.type == type && e.key == key;
  });
  if (at != entries_.end()) entries_.splice(entries_.begin(), entries_, at);
  return at;
}

void Memo::evict(std::size_t room, Entries& evicted) {
  while (!entries_.empty() && entries_.size() + room > capacity_) {
    evicted.splice(evicted.end(), entries_, std::prev(entries_.end()));
  }
}

std::shared_ptr<const void> Memo::find(const std::string& key, std::type_index type) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto at = touch(key, type);
  return at == entries_.end() ? nullptr : at->value;
}

void Memo::make_room() {
  Entries evicted;
  const std::lock_guard<std::mutex> lock(mutex_);
  evict(1, evicted);
}

std::shared_ptr<const void> Memo::keep(const std::string& key, std::type_index type,
                                       std::shared_ptr<const void> value) {
  Entries evicted;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto at = touch(key, type);
  if (at != entries_.end()) return at->value;
  evict(1, evicted);
  entries_.push_front(Entry{key, type, std::move(value)});
  return entries_.front().value;
}

}  // namespace kb
