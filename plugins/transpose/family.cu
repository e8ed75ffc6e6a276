// The transpose family's referee: it allocates `in` and `out`, draws `in` from the seed on the
// device, and checks `out` against the transpose of values it draws again, so no reference lives
// in memory a strategy could write. Every element is checked, on the device: at 8192^2 that is a
// kernel of a few hundred microseconds, not a download. A near draw (KB_DRAW_NEAR) changes a few
// elements of the last draw.
#include <kbench/families/transpose.hpp>
#include <kbench/support/generated.cuh>

namespace kb::transpose {
namespace {

// A value whose bits differ from `old`'s: `candidate`, or candidate with its lowest bit flipped.
template <typename T>
KB_HOST_DEVICE T other_than(const T& old, T candidate) {
  unsigned char a[sizeof(T)], b[sizeof(T)];
  memcpy(a, &old, sizeof(T));
  memcpy(b, &candidate, sizeof(T));
  bool same = true;
  for (std::size_t i = 0; i < sizeof(T); ++i) same = same && a[i] == b[i];
  if (same) {
    b[0] ^= 1u;
    memcpy(&candidate, b, sizeof(T));
  }
  return candidate;
}

// The inputs of a draw: the seeded values, and after a near draw a few of them drawn again.
template <typename T>
struct Drawn {
  RandomValues<T> values;
  NearPositions near{};
  std::uint64_t near_seed = 0;
  KB_HOST_DEVICE T operator()(std::uint64_t i) const {
    const T value = values(i);
    if (!near.contains(i)) return value;
    return other_than(value, random_value<T>(near_seed, kInputStream, i, kLow, kHigh));
  }
};

// Element o of the output of a case (o = c * rows + r) holds input element r * cols + c.
template <typename T>
struct TransposedInput {
  Drawn<T> input;
  std::int64_t rows, cols;
  KB_HOST_DEVICE T operator()(std::uint64_t o) const {
    const auto r = static_cast<std::int64_t>(o % static_cast<std::uint64_t>(rows));
    const auto c = static_cast<std::int64_t>(o / static_cast<std::uint64_t>(rows));
    return input(static_cast<std::uint64_t>(r * cols + c));
  }
};

template <typename T>
class Referee {
 public:
  static kb_work work(const kb_case& c) {
    const double bytes = static_cast<double>(c.shape[0]) * static_cast<double>(c.shape[1]) *
                         static_cast<double>(sizeof(T));
    return kb_work{2.0 * bytes, 0.0};  // each element read once and written once
  }

  Referee(const kb_case& c, kb_device_kind where)
      : rows_(c.shape[0]),
        cols_(c.shape[1]),
        in_(where, static_cast<std::size_t>(rows_ * cols_)),
        out_(where, static_cast<std::size_t>(rows_ * cols_)) {}

  kb_buffers buffers() const {
    kb_buffers b{};
    b.input_count = 1;
    b.inputs[0] = operand_of(in_);
    b.output_count = 1;
    b.outputs[0] = operand_of(out_);
    return b;
  }

  // A near draw changes a few elements of the last draw's inputs, which the check covers anyway:
  // it compares every element.
  void draw(std::uint64_t seed, std::uint32_t purpose, cudaStream_t stream) {
    if (purpose == KB_DRAW_NEAR) {
      input_.near = NearPositions::of(seed, static_cast<std::uint64_t>(rows_ * cols_));
      input_.near_seed = seed;
    } else {
      input_ = Drawn<T>{RandomValues<T>{seed, kInputStream, kLow, kHigh}};
    }
    fill_generated(in_, input_, stream);
  }

  void poison(cudaStream_t stream) { out_.poison(stream); }

  // A ceiling strategy (transpose/copy) must leave the input untransposed.
  kb_verification check(std::uint32_t strategy_flags, cudaStream_t stream) const {
    if (strategy_flags & KB_FLAG_CEILING) return check_generated(out_, input_, stream);
    return check_generated(out_, TransposedInput<T>{input_, rows_, cols_}, stream);
  }

 private:
  std::int64_t rows_, cols_;
  Array<T> in_, out_;
  Drawn<T> input_{};
};

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] < 1 || c->shape[1] < 1) {
    std::snprintf(why->text, sizeof why->text, "a transpose needs at least one row and column");
    return 0;
  }
  return 1;
}

}  // namespace
}  // namespace kb::transpose

KBENCH_FAMILY(kb::transpose::Referee, kb::EveryDType,
              {.info = kb::transpose::descriptor(),
               .version = "3",
               .accepts = kb::transpose::accepts})
