// An array that lives where the plugin computes: device memory for CUDA plugins, host memory for
// host plugins, so one family problem type serves both.
#pragma once

#include <kbench/support/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
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

  void upload(const std::vector<T>& values) {
    if (values.size() != count_) throw Error(KB_ERROR, "Array::upload: size mismatch");
    copy(data_, values.data(), where_ == KB_DEVICE_CUDA ? cudaMemcpyHostToDevice
                                                       : cudaMemcpyHostToHost);
  }

  std::vector<T> download() const {
    std::vector<T> values(count_);
    copy(values.data(), data_, where_ == KB_DEVICE_CUDA ? cudaMemcpyDeviceToHost
                                                       : cudaMemcpyHostToHost);
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
  std::vector<T> host_;
};

}  // namespace kb
