// The hello family (seed 000): n blocks of x * y threads, each thread says hello once. Shape {n};
// block {x, y}; no data (T is always kb::NoData). A strategy says hello in one of two ways, and
// the family's referee (plugins/hello/family.cu) takes either:
//   printing   it captures the process's standard output around a checked launch: every thread
//              printed exactly one well-formed line and the host one line;
//   recording  outputs[0] holds one Record per thread: every thread wrote exactly one, and the
//              records measure the order and residency seed 000 asks about.
// The host code behind both (parser, capture, checks, metrics) is in plugins/hello/reference.cpp;
// docs/families/hello.md explains the metrics.
#pragma once

#include <kbench/plugin.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace kb::hello {

// The family as the runner sees it (kb_family): a case is n blocks of a block shape, no data.
inline const kb_family* descriptor() {
  static constexpr kb_family kFamily = {
      .name = "hello",
      .rank = 1,
      .shape_names = "blocks",
      .default_sizes = "5,32,1024",
      .default_blocks = "2x2,8x8,32x32",
      .default_dtypes = "none",
      .check_sizes = "2",
      .check_blocks = "2x2",
      // A launch of a few hundred bytes: its time is its measure, not a bandwidth.
      .headline = "time",
      .reference = ""};
  return &kFamily;
}

// Acceptance refuses larger launches: a million printf lines is already seconds of host-side
// formatting per timed launch, and the printf FIFO is reserved for this many lines up front.
constexpr std::int64_t kMaxThreads = 1'000'000;

struct Geometry {
  std::int64_t blocks;  // n
  std::uint32_t x, y;   // threads per block
  std::uint32_t threads_per_block() const noexcept { return x * y; }
  std::int64_t threads() const noexcept { return blocks * threads_per_block(); }
  dim3 grid() const noexcept { return dim3(static_cast<unsigned>(blocks)); }
  dim3 block() const noexcept { return dim3(x, y); }
};

Geometry geometry_of(const kb_case& c);

// Both plugins: a 2-D block and at most kMaxThreads threads.
int accepts(const kb_case* c, kb_message* why);

// ---- hello/printf ---------------------------------------------------------------------------

constexpr const char* kHostLine = "Hello World from the host!";

// What a captured standard output holds, line by line. A thread line is exactly
// "Hello World from Thread (x, y) in Block b!" with x, y, b as printf's %d writes them.
struct Transcript {
  std::uint64_t lines = 0;         // every line, the last one even without its '\n'
  std::uint64_t host_lines = 0;    // exactly kHostLine
  std::uint64_t thread_lines = 0;  // well-formed, naming a thread of the launch
  std::uint64_t missing = 0;       // threads of the launch with no line
  std::uint64_t duplicated = 0;    // thread lines beyond the first for the same thread
  std::uint64_t out_of_range = 0;  // well-formed, naming no thread of the launch
  std::uint64_t malformed = 0;     // anything else, empty lines and a truncated last line included
  std::string first_bad;           // the first out-of-range or malformed line
  // Maximal runs of consecutive thread lines from one block: equal to n when each block's lines
  // came out together (what made the seed conclude that one block runs at a time).
  std::uint64_t block_runs = 0;
  bool blocks_in_order = true;     // blocks first appear in index order

  bool passed() const noexcept {
    return host_lines == 1 && missing == 0 && duplicated == 0 && out_of_range == 0 &&
           malformed == 0;
  }
};

Transcript read_transcript(std::string_view text, const Geometry& g);
std::string metrics_of(const Transcript& t);   // "lines=..;host_lines=..;..." (hello.md)
std::string problems_of(const Transcript& t);  // the failure message: what is wrong, with counts

// What the strategy's process printed. A family runs in the referee process, whose standard output
// (descriptor 1) is the file the strategy's worker writes its own standard output into, appending
// (a file in memory): begin() empties it, end() reads everything written since. A file, not a
// pipe: the CUDA runtime writes the printf output at synchronisation points from inside the
// runtime, and a full pipe that nobody drains would block it. The worker writes out what it
// printed before it asks for a poison or a check.
class StdoutCapture {
 public:
  void begin();       // throws kb::Error when descriptor 1 is no file to capture in
  std::string end();  // everything written to descriptor 1 since begin()
  bool active() const noexcept { return active_; }

 private:
  bool active_ = false;
};

// Room in the device printf FIFO for `lines` lines; KB_UNSUPPORTED where the device cannot give it.
void reserve_printf_fifo(std::int64_t lines);

// ---- hello/record ---------------------------------------------------------------------------

// What one thread writes: who it is, where and when it ran. Slot b * x * y + (tx + ty * x) belongs
// to thread (tx, ty) of block b.
struct Record {
  std::uint32_t block;
  std::uint16_t x, y;       // threadIdx (at most 1024 each)
  std::uint32_t sm;         // %smid
  std::uint32_t ticket;     // arrival order over the whole launch: 0, 1, ... from an atomicAdd
  std::uint64_t start_ns;   // %globaltimer when the thread started
  std::uint64_t end_ns;     // %globaltimer after the thread's busy wait of kLifeNs
};
static_assert(sizeof(Record) == 32, "Record is written by the device and read by the host");

// How long each thread stays alive. Without it a block lives a few hundred nanoseconds, near or
// below the update step of %globaltimer (the PTX ISA does not specify it; it is reported from tens
// of nanoseconds to 1 us on different GPUs), so the [start, end] intervals of blocks that ran side
// by side would not reliably overlap, and blocks that ran one after another could look
// simultaneous. 20 us is many updates long and keeps a launch of kMaxThreads one-thread blocks to a
// few milliseconds.
constexpr std::uint64_t kLifeNs = 20'000;

// Every slot holds its own thread's identity, and the tickets are 0 .. threads-1 once each.
struct RecordCheck {
  std::uint64_t wrong_slots = 0;  // slots not written, or holding another thread's record
  std::uint64_t bad_tickets = 0;  // out of range or repeated
  std::string first_problem;
  bool passed() const noexcept { return wrong_slots == 0 && bad_tickets == 0; }
};

RecordCheck check_records(const HostVector<Record>& records, const Geometry& g);

// The answers to the seed's question, from records that passed check_records. A block's life is
// [first start, last end] of its threads; intervals are half-open, so a block that starts the
// nanosecond another ends did not overlap it.
struct OrderMetrics {
  std::uint64_t sms = 0;                  // distinct SMs that ran blocks
  std::uint64_t max_resident = 0;         // most blocks alive at one instant
  std::uint64_t max_resident_per_sm = 0;  // most blocks alive at one instant on one SM
  std::uint64_t warps = 0;
  std::uint64_t warps_in_lane_order = 0;  // warps whose tickets rise with tx + ty * x
  bool blocks_in_order = false;           // first tickets of the blocks rise with block index
  std::uint64_t block_inversions = 0;     // block pairs (i < j) where j arrived first
  std::uint64_t span_ns = 0;              // first start to last end over the launch
};

OrderMetrics order_metrics(const HostVector<Record>& records, const Geometry& g);
std::string metrics_of(const OrderMetrics& m);              // "sms=..;max_resident=..;..."
std::string summary_of(const OrderMetrics& m, const Geometry& g);  // for --show

// A check that passed `checked` threads, with the family's metrics.
kb_verification passed_with(std::uint64_t checked, const std::string& metrics);

// What a strategy computes on: the case's geometry, and outputs[0], one Record slot per thread
// (a strategy that prints leaves it alone; the family captures what it prints instead).
template <typename T>
class Operands {
 public:
  Operands(const kb_case& c, const kb_buffers& b)
      : geometry(geometry_of(c)), records_(static_cast<Record*>(b.outputs[0].data)) {}

  const Geometry geometry;
  Record* records() const noexcept { return records_; }

 private:
  Record* records_;
};

}  // namespace kb::hello
