// Cold-cache samples (--cold): before each sample, lines a strategy asked the L2 to keep
// (cudaAccessPolicyWindow with a persisting hit property) are made ordinary again and the
// persisting set-aside is put back to zero, then a buffer twice the L2 (at least 64 MiB) is
// written over, outside the timed region, so the case's inputs are read from DRAM.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace kb {

class L2Flush {
 public:
  explicit L2Flush(int device);
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  static std::size_t bytes(int device);
  void flush(cudaStream_t stream);
  std::size_t size() const { return size_; }  // the bytes each flush writes (one memset)

 private:
  void* buffer_ = nullptr;
  std::size_t size_ = 0;
  unsigned char value_ = 0;
};

}  // namespace kb
