// The hello family's referee. A launch says hello by printing or by recording, so the family
// watches both: poison() empties the records and starts capturing what the strategy's process
// prints (a strategy that prints reserves room in its own printf FIFO), check() ends the capture
// and passes the launch when either the transcript or the records show every thread exactly once.
// The work of a hello is its time alone: no bytes, no flops.
#include <kbench/families/hello.hpp>

#include <cstdio>

namespace kb::hello {
namespace {

template <typename T>
class Referee {
 public:
  static kb_work work(const kb_case&) { return kb_work{0.0, 0.0}; }

  Referee(const kb_case& c, kb_device_kind where)
      : geometry_(geometry_of(c)),
        verbose_(c.verbose != 0),
        records_(where, static_cast<std::size_t>(geometry_.threads())) {}

  kb_buffers buffers() const {
    kb_buffers b{};
    b.output_count = 1;
    b.outputs[0] = operand_of(records_, KB_DTYPE_NONE);
    return b;
  }

  void draw(std::uint64_t, std::uint32_t, cudaStream_t) {}  // a hello has no inputs

  void poison(cudaStream_t stream) {
    records_.poison(stream);
    synchronize_device();
    // The worker wrote out the timed launches' lines before it asked for the poison: emptied, the
    // capture holds the next launch's lines only.
    capture_.begin();
  }

  kb_verification check(std::uint32_t, cudaStream_t) {
    synchronize_device();
    const std::string text = capture_.active() ? capture_.end() : std::string();
    const auto threads = static_cast<std::uint64_t>(geometry_.threads());
    const Transcript transcript = read_transcript(text, geometry_);
    // --show: what the first passing check captured, once per case.
    const bool show = verbose_ && !shown_;
    if (transcript.passed()) {
      if (show) {
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fprintf(stderr, "hello/printf n=%lld block %ux%u: %s\n",
                     static_cast<long long>(geometry_.blocks), geometry_.x, geometry_.y,
                     metrics_of(transcript).c_str());
        shown_ = true;
      }
      return passed_with(threads, metrics_of(transcript));
    }
    const HostVector<Record> records = records_.download();
    const RecordCheck recorded = check_records(records, geometry_);
    if (recorded.passed()) {
      const OrderMetrics m = order_metrics(records, geometry_);
      if (show) std::fprintf(stderr, "%s\n", summary_of(m, geometry_).c_str());
      shown_ = shown_ || show;
      return passed_with(threads, metrics_of(m));
    }
    kb_verification failed = passed_with(threads, "");
    failed.passed = 0;
    const std::string why =
        transcript.lines > 0
            ? "printed: " + problems_of(transcript)
            : "recorded: " + std::to_string(recorded.wrong_slots) + " of " +
                  std::to_string(records.size()) + " records missing or misplaced, " +
                  std::to_string(recorded.bad_tickets) + " tickets out of range or repeated; " +
                  recorded.first_problem;
    std::snprintf(failed.metrics, sizeof failed.metrics, "%s", why.c_str());
    return failed;
  }

 private:
  // Device printf lines reach standard output when the device synchronises; a host case has
  // nothing there to wait for (and may run where there is no device at all).
  void synchronize_device() const {
    if (records_.where() == KB_DEVICE_CUDA) KB_CUDA_CHECK(cudaDeviceSynchronize());
  }

  Geometry geometry_;
  bool verbose_;
  bool shown_ = false;
  Array<Record> records_;
  StdoutCapture capture_;
};

}  // namespace
}  // namespace kb::hello

KBENCH_FAMILY(kb::hello::Referee, kb::NoDTypes,
              {.info = kb::hello::descriptor(),
               .version = "3",
               .accepts = kb::hello::accepts})
