// Copies between pageable host memory and the device through two pinned buffers of the process.
// cudaMemcpy from pageable memory stages through the driver's own pinned buffer, copying on one
// thread; here the host side of each chunk is copied on all host threads while the DMA engine moves
// the chunk before it. A download can also be consumed a chunk at a time (a comparison), so a
// 512 MB output never needs a 512 MB host buffer, whose fresh pages cost more than the copy.
#pragma once

#include <cstddef>
#include <type_traits>

namespace kb {

// Bytes moved per step (a multiple of every element size). Smaller copies, and every copy when
// pinned memory cannot be had, go through plain cudaMemcpy.
inline constexpr std::size_t kStagingChunk = std::size_t{32} << 20;

// Host to the current device's memory; returns when the data is there.
void upload_staged(void* device, const void* host, std::size_t bytes);

namespace detail {

using ChunkSink = void (*)(void* sink, const void* chunk, std::size_t offset, std::size_t bytes);
void download_staged(const void* device, std::size_t bytes, ChunkSink call, void* sink);

}  // namespace detail

// Device to host, a chunk at a time: consume(chunk, offset, bytes) is called for each chunk of
// [device, device + bytes) in order, with the chunk in host memory that stays valid until it
// returns, while the next chunk is on its way.
template <typename Consume>
void download_staged(const void* device, std::size_t bytes, Consume consume) {
  detail::download_staged(
      device, bytes,
      [](void* sink, const void* chunk, std::size_t offset, std::size_t n) {
        (*static_cast<Consume*>(sink))(chunk, offset, n);
      },
      &consume);
}

}  // namespace kb
