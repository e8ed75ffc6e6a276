// An array that lives where the plugin computes: device memory for CUDA plugins, host memory for
// host plugins, so one family problem type serves both.
#pragma once

#include <kbench/support/error.hpp>
#include <kbench/support/host_vector.hpp>
#include <kbench/support/parallel.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

namespace kb {

template <typename T>
class Array {
 public:
  Array(kb_device_kind where, std::size_t count) : where_(where), count_(count) {
    if (count_ == 0) return;
    if (where_ == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
    } else {
      host_.resize(count_);
      data_ = host_.data();
    }
  }
  ~Array() {
    if (where_ == KB_DEVICE_CUDA && data_ != nullptr) cudaFree(data_);
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  kb_device_kind where() const noexcept { return where_; }

  // From a std::vector, a HostVector, or a braced list (the default allocator).
  template <typename Allocator = std::allocator<T>>
  void upload(const std::vector<T, Allocator>& values) {
    if (values.size() != count_) throw Error(KB_ERROR, "Array::upload: size mismatch");
    copy(data_, values.data(), where_ == KB_DEVICE_CUDA ? cudaMemcpyHostToDevice
                                                       : cudaMemcpyHostToHost);
  }

  HostVector<T> download() const {
    HostVector<T> values(count_);
    if (where_ == KB_DEVICE_CUDA) {
      // cudaMemcpy to pageable memory writes it from one thread, taking every page fault of a
      // fresh buffer there; fault the pages in on all host threads first.
      constexpr std::size_t kPage = 4096, kPagesPerChunk = 256;
      unsigned char* base = reinterpret_cast<unsigned char*>(values.data());
      parallel_for(bytes(), kPage * kPagesPerChunk, [=](std::size_t begin, std::size_t end) {
        for (std::size_t at = begin; at < end; at += kPage) base[at] = 0;
      });
      copy(values.data(), data_, cudaMemcpyDeviceToHost);
    } else {
      const T* from = data_;
      T* to = values.data();
      parallel_for(count_, kHostGrain, [=](std::size_t begin, std::size_t end) {
        std::copy(from + begin, from + end, to + begin);
      });
    }
    return values;
  }

  // Every byte 0xFF: NaN for floating point, -1 for integers.
  void poison(cudaStream_t stream) {
    if (count_ == 0) return;
    if (where_ == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemsetAsync(data_, 0xFF, bytes(), stream));
    } else {
      std::memset(data_, 0xFF, bytes());
    }
  }

 private:
  void copy(void* to, const void* from, cudaMemcpyKind kind) const {
    if (count_ == 0) return;
    if (kind == cudaMemcpyHostToHost) {
      std::memcpy(to, from, bytes());
    } else {
      KB_CUDA_CHECK(cudaMemcpy(to, from, bytes(), kind));
    }
  }

  kb_device_kind where_;
  std::size_t count_;
  T* data_ = nullptr;
  // Zeroed, unlike a HostVector: a host plugin's output holds no leftovers before it is written.
  std::vector<T> host_;
};

}  // namespace kb
