#include "util/interned_text.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace kb {
namespace {

// The copies in blocks that never move, so that a handle reads its text without a lock while
// another thread adds more: the table of blocks is allocated once.
constexpr std::uint32_t kBlockBits = 12;
constexpr std::uint32_t kBlockSize = 1u << kBlockBits;
constexpr std::uint32_t kBlocks = 1u << 18;  // a billion texts

class TextPool {
 public:
  TextPool() : blocks_(new std::unique_ptr<std::string[]>[kBlocks]) { add(""); }

  std::uint32_t intern(std::string_view text) {
    if (text.empty()) return 0;
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = ids_.find(text);
    if (found != ids_.end()) return found->second;
    return add(text);
  }

  const std::string& at(std::uint32_t id) const {
    return blocks_[id >> kBlockBits][id & (kBlockSize - 1)];
  }

 private:
  std::uint32_t add(std::string_view text) {
    const std::uint32_t id = size_;
    if (id >> kBlockBits >= kBlocks) throw std::length_error("more distinct texts than a Text holds");
    auto& block = blocks_[id >> kBlockBits];
    if (!block) block.reset(new std::string[kBlockSize]);
    std::string& kept = block[id & (kBlockSize - 1)];
    kept.assign(text);
    ids_.emplace(std::string_view(kept), id);
    ++size_;
    return id;
  }

  std::mutex mutex_;
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::unique_ptr<std::unique_ptr<std::string[]>[]> blocks_;
  std::uint32_t size_ = 0;
};

TextPool& pool() {
  static TextPool* const shared = new TextPool;  // never destroyed: Texts outlive statics
  return *shared;
}

}  // namespace

Text::Text(std::string_view text) : id_(pool().intern(text)) {}

const std::string& Text::str() const { return pool().at(id_); }

}  // namespace kb
