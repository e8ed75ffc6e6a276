// Rows of a vector, all of them or a chosen few in their order: a report's family, or the rows
// that ran on a GPU, without a copy of each. A view is cheap to copy; the vector must outlive it.
// Positions in a view are in the vector's order, so "the later of two rows" reads the same in a
// view as in a copy.
#pragma once

#include "store/result_record.hpp"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kb {

class RowsView {
 public:
  RowsView(const std::vector<ResultRecord>& rows) : rows_(&rows) {}  // NOLINT: every row
  RowsView(const std::vector<ResultRecord>& rows, std::vector<std::uint32_t> chosen)
      : rows_(&rows),
        chosen_(std::make_shared<const std::vector<std::uint32_t>>(std::move(chosen))) {}

  // The rows at these positions of this view, in their order.
  RowsView subset(const std::vector<std::uint32_t>& positions) const {
    std::vector<std::uint32_t> chosen;
    chosen.reserve(positions.size());
    for (const std::uint32_t p : positions) chosen.push_back(chosen_ ? (*chosen_)[p] : p);
    return RowsView(*rows_, std::move(chosen));
  }

  std::size_t size() const { return chosen_ ? chosen_->size() : rows_->size(); }
  bool empty() const { return size() == 0; }
  const ResultRecord& operator[](std::size_t i) const {
    return chosen_ ? (*rows_)[(*chosen_)[i]] : (*rows_)[i];
  }

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = ResultRecord;
    using difference_type = std::ptrdiff_t;
    using pointer = const ResultRecord*;
    using reference = const ResultRecord&;

    const_iterator() = default;
    const_iterator(const RowsView* view, std::size_t at) : view_(view), at_(at) {}
    reference operator*() const { return (*view_)[at_]; }
    pointer operator->() const { return &(*view_)[at_]; }
    reference operator[](difference_type n) const { return (*view_)[at_ + n]; }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator operator++(int) { const_iterator was = *this; ++at_; return was; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator--(int) { const_iterator was = *this; --at_; return was; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
    }
    using It = const const_iterator&;
    friend bool operator==(It a, It b) { return a.at_ == b.at_; }
    friend bool operator!=(It a, It b) { return a.at_ != b.at_; }
    friend bool operator<(It a, It b) { return a.at_ < b.at_; }
    friend bool operator>(It a, It b) { return a.at_ > b.at_; }
    friend bool operator<=(It a, It b) { return a.at_ <= b.at_; }
    friend bool operator>=(It a, It b) { return a.at_ >= b.at_; }

   private:
    const RowsView* view_ = nullptr;
    std::size_t at_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  const std::vector<ResultRecord>* rows_;
  std::shared_ptr<const std::vector<std::uint32_t>> chosen_;  // none: every row
};

// The positions of the rows that ran on a GPU.
std::vector<std::uint32_t> on_a_gpu(const RowsView& rows);
// The positions of each family's rows (those that ran on a GPU alone, with `gpu_only`).
std::map<std::string, std::vector<std::uint32_t>> positions_by_family(const RowsView& rows,
                                                                      bool gpu_only);

}  // namespace kb
