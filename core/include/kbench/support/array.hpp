// An array that lives where the plugin computes: device memory for CUDA plugins, host memory for
// host plugins, so one family problem type serves both.
#pragma once

#include <kbench/support/error.hpp>
#include <kbench/support/host_vector.hpp>
#include <kbench/support/parallel.hpp>
#include <kbench/support/staging.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
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
      zero_here();
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
    if (count_ == 0) return;
    if (where_ == KB_DEVICE_CUDA) {
      upload_staged(data_, values.data(), bytes());
    } else {
      std::memcpy(data_, values.data(), bytes());
    }
  }

  HostVector<T> download() const {
    HostVector<T> values(count_);
    if (where_ == KB_DEVICE_CUDA) {
      unsigned char* to = reinterpret_cast<unsigned char*>(values.data());
      download_staged(data_, bytes(), [to](const void* chunk, std::size_t offset, std::size_t n) {
        parallel_copy(to + offset, chunk, n);
      });
    } else {
      parallel_copy(values.data(), data_, bytes());
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
  kb_device_kind where_;
  std::size_t count_;
  T* data_ = nullptr;
  // Zeroed, unlike a bare HostVector: a host plugin's output holds no leftovers before it is
  // written. In 2 MiB pages (HostVector's), so a gigabyte is 512 page faults, not a quarter of a
  // million on one thread.
  HostVector<T> host_;

  // Every page written once by this thread, the one that goes on to run a host strategy: a page
  // first written by one of the threads that draw the inputs would live on that thread's memory
  // node, far from the strategy's (seen on a 16-core GPU machine: host plugins 1.2-1.6x slower).
  // A type with a constructor was built by this thread already.
  void zero_here() {
    if constexpr (std::is_trivially_default_constructible_v<T>) std::memset(data_, 0, bytes_());
  }
  std::size_t bytes_() const noexcept { return count_ * sizeof(T); }
};

}  // namespace kb
