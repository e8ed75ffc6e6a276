// The scan family's referee (ABI version 3), its own library: scan_family.so, built with
// kbench_add_family and found by the runner beside the strategies. It owns every case of every
// scan strategy: it allocates `in` and `out` where the strategy computes, draws `in` from a seed
// the strategy never sees, counts the work from n, poisons `out`, and checks it exactly.
//
// The check is exact (integer sums) and covers every element:
//   on the device, a kernel holds each element to its predecessor plus its input, regenerated
//     from the seed: out[0] == in[0] and out[i] == out[i-1] + in[i] for every i (wrapping int32
//     arithmetic). That recurrence holds for the inclusive scan and for nothing else, so no
//     reference array is kept, no output is downloaded, and 2^24 elements cost one pass;
//   on the host (for host strategies), against the inclusive-scan reference computed in order
//     from the regenerated inputs when they are drawn.
// Neither reads `in` back: a strategy that wrote its input cannot move the reference with it (and
// the runner's input digests fail it anyway).
#include "scan.hpp"

#include <kbench/support/generated.cuh>

#include <cstdio>
#include <cstring>
#include <type_traits>

namespace scan {
namespace {

// Inputs: integers in [-100, 100], stream 1 of the draw's seed. |sum| <= 100 n stays far inside
// int32 for every n the family accepts.
constexpr std::uint64_t kInputStream = 1;
constexpr std::int64_t kLow = -100, kHigh = 100;
constexpr std::int64_t kMaxElements = std::int64_t{1} << 24;
// The poison: every byte 0x7F, 2139062143 in each element, more than 100 n for any accepted n,
// so no correct output holds it anywhere (not even out[0]).
constexpr int kPoisonByte = 0x7F;

// Element i of a correct output, from element i - 1 of the output under check and input i.
template <typename T>
struct PredecessorPlusInput {
  const T* out;
  kb::RandomValues<T> input;
  KB_HOST_DEVICE T operator()(std::uint64_t i) const {
    using U = std::make_unsigned_t<T>;
    const U before = i == 0 ? U{0} : static_cast<U>(out[i - 1]);
    return static_cast<T>(static_cast<U>(before + static_cast<U>(input(i))));
  }
};

// Element i of the reference, computed on the host in order.
template <typename T>
struct Stored {
  const T* values;  // host memory: used only for host arrays
  KB_HOST_DEVICE T operator()(std::uint64_t i) const { return values[i]; }
};

template <typename T>
class Referee {
 public:
  // Each element read once and written once; one addition per element.
  static kb_work work(const kb_case& c) {
    const double n = static_cast<double>(c.shape[0]);
    return kb_work{2.0 * n * static_cast<double>(sizeof(T)), n};
  }

  Referee(const kb_case& c, kb_device_kind where)
      : n_(static_cast<std::size_t>(c.shape[0])), in_(where, n_), out_(where, n_) {}

  kb_buffers buffers() const {
    kb_buffers b{};
    b.input_count = 1;
    b.inputs[0] = kb::operand_of(in_);
    b.output_count = 1;
    b.outputs[0] = kb::operand_of(out_);
    return b;
  }

  void draw(std::uint64_t seed, std::uint32_t, cudaStream_t stream) {
    input_ = kb::RandomValues<T>{seed, kInputStream, kLow, kHigh};
    kb::fill_generated(in_, input_, stream);
    if (in_.where() == KB_DEVICE_HOST) {
      reference_.resize(n_);
      using U = std::make_unsigned_t<T>;
      U sum = 0;
      for (std::size_t i = 0; i < n_; ++i) {
        sum += static_cast<U>(input_(i));
        reference_[i] = static_cast<T>(sum);
      }
    }
  }

  void poison(cudaStream_t stream) {
    if (n_ == 0) return;
    if (out_.where() == KB_DEVICE_CUDA) {
      KB_CUDA_CHECK(cudaMemsetAsync(out_.data(), kPoisonByte, out_.bytes(), stream));
    } else {
      std::memset(out_.data(), kPoisonByte, out_.bytes());
    }
  }

  kb_verification check(std::uint32_t, cudaStream_t stream) const {
    if (out_.where() == KB_DEVICE_CUDA) {
      return kb::check_generated(out_, PredecessorPlusInput<T>{out_.data(), input_}, stream);
    }
    return kb::check_generated(out_, Stored<T>{reference_.data()}, stream);
  }

 private:
  std::size_t n_;
  kb::Array<T> in_, out_;
  kb::RandomValues<T> input_{};
  kb::HostVector<T> reference_;
};

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] < 1 || c->shape[0] > kMaxElements) {
    std::snprintf(why->text, sizeof why->text,
                  "a scan of 1 to 2^24 elements (its int32 sums must not overflow)");
    return 0;
  }
  return 1;
}

}  // namespace
}  // namespace scan

KBENCH_FAMILY(scan::Referee, kb::DTypes<std::int32_t>,
              {.info = scan::descriptor(),
               .version = "1",
               .accepts = scan::accepts})
