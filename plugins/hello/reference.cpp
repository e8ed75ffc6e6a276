#include <kbench/families/hello.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <tuple>

namespace kb::hello {
namespace {

// The FIFO's entry layout is not documented. Measured on an H200 (CUDA 13.0): a 128 MB FIFO
// held 376,451 of these lines, about 356 bytes each, so 512 leaves a margin; a line lost to a
// FIFO that was too small shows up as missing.
constexpr std::size_t kFifoBytesPerLine = 512;


bool take(std::string_view& s, std::string_view literal) {
  if (s.substr(0, literal.size()) != literal) return false;
  s.remove_prefix(literal.size());
  return true;
}

// A non-negative number as printf's %d writes it: decimal digits, no sign, no leading zero.
bool take_number(std::string_view& s, std::uint64_t& value) {
  std::size_t i = 0;
  value = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (i == 10) return false;
    value = value * 10 + static_cast<std::uint64_t>(s[i] - '0');
    ++i;
  }
  if (i == 0 || (i > 1 && s[0] == '0')) return false;
  s.remove_prefix(i);
  return true;
}

bool parse_thread_line(std::string_view line, std::uint64_t& x, std::uint64_t& y,
                       std::uint64_t& b) {
  return take(line, "Hello World from Thread (") && take_number(line, x) && take(line, ", ") &&
         take_number(line, y) && take(line, ") in Block ") && take_number(line, b) &&
         take(line, "!") && line.empty();
}

std::string quoted(std::string_view line) {
  constexpr std::size_t kShown = 80;
  std::string text = "\"" + std::string(line.substr(0, kShown)) + "\"";
  if (line.size() > kShown) text += "...";
  return text;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}


// The most intervals alive at one instant, within each key (an SM) or over all of them.
struct Edge {
  std::uint32_t key;
  std::uint64_t time;
  int delta;  // +1 start, -1 end; ends sort first at equal times: intervals are half-open
};

std::uint64_t max_overlap(std::vector<Edge> edges) {
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.key, a.time, a.delta) < std::tie(b.key, b.time, b.delta);
  });
  std::int64_t alive = 0, most = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (i > 0 && edges[i].key != edges[i - 1].key) alive = 0;
    alive += edges[i].delta;
    most = std::max(most, alive);
  }
  return static_cast<std::uint64_t>(most);
}

// Pairs i < j with values[i] > values[j]; values are distinct and below `bound`.
std::uint64_t inversions(const std::vector<std::uint32_t>& values, std::size_t bound) {
  std::vector<std::uint64_t> tree(bound + 1, 0);  // Fenwick tree of the values seen so far
  std::uint64_t count = 0;
  for (std::size_t seen = 0; seen < values.size(); ++seen) {
    std::uint64_t not_above = 0;
    for (std::size_t i = values[seen] + 1; i > 0; i -= i & (~i + 1)) not_above += tree[i];
    count += seen - not_above;
    for (std::size_t i = values[seen] + 1; i <= bound; i += i & (~i + 1)) ++tree[i];
  }
  return count;
}

}  // namespace

kb_verification passed_with(std::uint64_t checked, const std::string& metrics) {
  kb_verification result{};
  result.passed = 1;
  result.checked = checked;
  std::snprintf(result.metrics, sizeof result.metrics, "%s", metrics.c_str());
  return result;
}


// The FIFO can only be resized before the process launches its first kernel that uses printf
// (cudaDeviceSetLimit returns cudaErrorInvalidValue after that), so the first case reserves room
// for the largest launch acceptance allows, and later cases find it already big enough. Should the
// device refuse that much, this case's own size is the fallback.
void reserve_printf_fifo(std::int64_t lines) {
  const std::size_t needed = static_cast<std::size_t>(lines) * kFifoBytesPerLine;
  const std::size_t largest = static_cast<std::size_t>(kMaxThreads) * kFifoBytesPerLine;
  std::size_t size = 0;
  KB_CUDA_CHECK(cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize));
  for (const std::size_t wanted : {largest, needed}) {
    if (size >= wanted || cudaDeviceSetLimit(cudaLimitPrintfFifoSize, wanted) == cudaSuccess) break;
    cudaGetLastError();  // not sticky; the size check below decides
  }
  KB_CUDA_CHECK(cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize));
  if (size < needed) {
    throw Error(KB_UNSUPPORTED,
                "the device printf FIFO holds " + std::to_string(size) + " bytes and could not " +
                    "be enlarged (a printf kernel already ran in this process, or the device " +
                    "refused); this case needs " + std::to_string(needed));
  }
}


Geometry geometry_of(const kb_case& c) {
  return Geometry{c.shape[0], static_cast<std::uint32_t>(c.block[0]),
                  static_cast<std::uint32_t>(c.block[1])};
}

int accepts(const kb_case* c, kb_message* why) {
  if (c->shape[0] < 1 || c->block[0] < 1 || c->block[1] < 1 || c->block[2] > 1) {
    std::snprintf(why->text, sizeof why->text,
                  "hello takes n >= 1 blocks of x * y threads (got n=%lld, block %dx%dx%d)",
                  static_cast<long long>(c->shape[0]), c->block[0], c->block[1], c->block[2]);
    return 0;
  }
  const Geometry g = geometry_of(*c);
  if (g.blocks > kMaxThreads / g.threads_per_block()) {
    std::snprintf(why->text, sizeof why->text,
                  "n*x*y = %.0f threads (one printf line or record each) is over the family's "
                  "limit of %lld per launch",
                  static_cast<double>(g.blocks) * g.threads_per_block(),
                  static_cast<long long>(kMaxThreads));
    return 0;
  }
  return 1;
}

// ---- hello/printf ---------------------------------------------------------------------------

Transcript read_transcript(std::string_view text, const Geometry& g) {
  Transcript t;
  std::vector<std::uint8_t> printed(static_cast<std::size_t>(g.threads()), 0);
  std::vector<bool> block_seen(static_cast<std::size_t>(g.blocks), false);
  std::uint64_t blocks_seen = 0;
  std::uint64_t last_block = std::numeric_limits<std::uint64_t>::max();
  auto bad = [&t](std::string_view line, std::uint64_t& counter) {
    if (t.out_of_range + t.malformed == 0) t.first_bad = std::string(line);
    ++counter;
  };
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++t.lines;
    std::uint64_t x = 0, y = 0, b = 0;
    if (end == std::string_view::npos) {
      bad(line, t.malformed);  // truncated: printf always ends these lines with '\n'
    } else if (line == kHostLine) {
      ++t.host_lines;
    } else if (!parse_thread_line(line, x, y, b)) {
      bad(line, t.malformed);
    } else if (x >= g.x || y >= g.y || b >= static_cast<std::uint64_t>(g.blocks)) {
      bad(line, t.out_of_range);
    } else {
      ++t.thread_lines;
      auto& count = printed[(b * g.y + y) * g.x + x];
      if (count > 0) ++t.duplicated;
      count = 1;
      if (b != last_block) ++t.block_runs;
      last_block = b;
      if (!block_seen[b]) {
        if (b != blocks_seen) t.blocks_in_order = false;
        block_seen[b] = true;
        ++blocks_seen;
      }
    }
  }
  t.missing = static_cast<std::uint64_t>(std::count(printed.begin(), printed.end(), 0));
  return t;
}

std::string metrics_of(const Transcript& t) {
  char text[KB_METRICS_CAPACITY];
  std::snprintf(text, sizeof text,
                "lines=%llu;host_lines=%llu;thread_lines=%llu;missing=%llu;duplicated=%llu;"
                "out_of_range=%llu;malformed=%llu;block_runs=%llu;blocks_in_order=%d",
                static_cast<unsigned long long>(t.lines),
                static_cast<unsigned long long>(t.host_lines),
                static_cast<unsigned long long>(t.thread_lines),
                static_cast<unsigned long long>(t.missing),
                static_cast<unsigned long long>(t.duplicated),
                static_cast<unsigned long long>(t.out_of_range),
                static_cast<unsigned long long>(t.malformed),
                static_cast<unsigned long long>(t.block_runs), t.blocks_in_order ? 1 : 0);
  return text;
}

std::string problems_of(const Transcript& t) {
  std::vector<std::string> parts;
  if (t.host_lines != 1) {
    parts.push_back("the host line appeared " + std::to_string(t.host_lines) +
                    " times (want 1)");
  }
  if (t.missing > 0) parts.push_back(std::to_string(t.missing) + " threads printed no line");
  if (t.duplicated > 0) {
    parts.push_back(std::to_string(t.duplicated) + " thread lines repeat an earlier one");
  }
  if (t.out_of_range > 0) {
    parts.push_back(std::to_string(t.out_of_range) + " lines name no thread of the launch");
  }
  if (t.malformed > 0) parts.push_back(std::to_string(t.malformed) + " lines are malformed");
  std::string text = "hello/printf output: " + join(parts, ", ") + " (" +
                     std::to_string(t.lines) + " lines read)";
  if (t.out_of_range + t.malformed > 0) text += "; first bad line: " + quoted(t.first_bad);
  return text;
}

void StdoutCapture::begin() {
  std::fflush(stdout);
  struct stat output {};
  if (::fstat(STDOUT_FILENO, &output) != 0 || !S_ISREG(output.st_mode)) {
    throw Error(KB_ERROR, "standard output is no file to capture a launch's lines in (the "
                          "referee gives the family the strategy's output file)");
  }
  if (::ftruncate(STDOUT_FILENO, 0) != 0) {
    throw Error(KB_ERROR, std::string("cannot empty the captured standard output: ") +
                              std::strerror(errno));
  }
  active_ = true;
}

std::string StdoutCapture::end() {
  if (!active()) throw Error(KB_ERROR, "standard output is not being captured (no poison?)");
  active_ = false;
  std::fflush(stdout);
  std::string text;
  char chunk[1 << 16];
  for (off_t at = 0;;) {
    const ssize_t got = ::pread(STDOUT_FILENO, chunk, sizeof chunk, at);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      throw Error(KB_ERROR, std::string("cannot read back the captured standard output: ") +
                                std::strerror(errno));
    }
    if (got == 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
    at += got;
  }
  return text;
}

// ---- hello/record ---------------------------------------------------------------------------

RecordCheck check_records(const HostVector<Record>& records, const Geometry& g) {
  RecordCheck check;
  const std::uint32_t per_block = g.threads_per_block();
  std::vector<bool> ticket_seen(records.size(), false);
  char text[256];
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    const std::uint64_t b = i / per_block;
    const std::uint32_t x = static_cast<std::uint32_t>(i % per_block) % g.x;
    const std::uint32_t y = static_cast<std::uint32_t>(i % per_block) / g.x;
    if (r.block != b || r.x != x || r.y != y) {
      if (check.first_problem.empty()) {
        std::snprintf(text, sizeof text,
                      "the slot of thread (%u, %u) in block %llu holds thread (%u, %u) in block %u",
                      x, y, static_cast<unsigned long long>(b), r.x, r.y, r.block);
        check.first_problem = text;
      }
      ++check.wrong_slots;
    } else if (r.ticket >= records.size() || ticket_seen[r.ticket]) {
      if (check.first_problem.empty()) {
        std::snprintf(text, sizeof text,
                      "thread (%u, %u) in block %llu holds ticket %u, out of range or repeated",
                      x, y, static_cast<unsigned long long>(b), r.ticket);
        check.first_problem = text;
      }
      ++check.bad_tickets;
    } else {
      ticket_seen[r.ticket] = true;
    }
  }
  return check;
}

OrderMetrics order_metrics(const HostVector<Record>& records, const Geometry& g) {
  OrderMetrics m;
  const std::uint32_t per_block = g.threads_per_block();
  const auto blocks = static_cast<std::size_t>(g.blocks);

  std::vector<std::uint32_t> sms;
  std::vector<std::uint32_t> first_ticket(blocks, std::numeric_limits<std::uint32_t>::max());
  std::vector<Edge> per_sm;
  std::uint64_t first_start = std::numeric_limits<std::uint64_t>::max(), last_end = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint64_t start = std::numeric_limits<std::uint64_t>::max(), end = 0;
    for (std::uint32_t lane0 = 0; lane0 < per_block; lane0 += 32) {
      bool ordered = true;
      for (std::uint32_t l = lane0; l < std::min(lane0 + 32, per_block); ++l) {
        const Record& r = records[b * per_block + l];
        if (l > lane0 && r.ticket < records[b * per_block + l - 1].ticket) ordered = false;
        first_ticket[b] = std::min(first_ticket[b], r.ticket);
        start = std::min(start, r.start_ns);
        end = std::max(end, r.end_ns);
      }
      ++m.warps;
      if (ordered) ++m.warps_in_lane_order;
    }
    const std::uint32_t sm = records[b * per_block].sm;  // a block never leaves its SM
    sms.push_back(sm);
    per_sm.push_back({sm, start, +1});
    per_sm.push_back({sm, end, -1});
    first_start = std::min(first_start, start);
    last_end = std::max(last_end, end);
  }
  std::sort(sms.begin(), sms.end());
  m.sms = static_cast<std::uint64_t>(std::unique(sms.begin(), sms.end()) - sms.begin());

  m.max_resident_per_sm = max_overlap(per_sm);
  for (Edge& e : per_sm) e.key = 0;
  m.max_resident = max_overlap(std::move(per_sm));

  m.blocks_in_order = std::is_sorted(first_ticket.begin(), first_ticket.end());
  m.block_inversions = inversions(first_ticket, records.size());
  m.span_ns = blocks > 0 ? last_end - first_start : 0;
  return m;
}

std::string metrics_of(const OrderMetrics& m) {
  char text[KB_METRICS_CAPACITY];
  std::snprintf(text, sizeof text,
                "sms=%llu;max_resident=%llu;max_resident_per_sm=%llu;warps=%llu;"
                "warps_in_lane_order=%llu;blocks_in_order=%d;block_inversions=%llu;span_ns=%llu",
                static_cast<unsigned long long>(m.sms),
                static_cast<unsigned long long>(m.max_resident),
                static_cast<unsigned long long>(m.max_resident_per_sm),
                static_cast<unsigned long long>(m.warps),
                static_cast<unsigned long long>(m.warps_in_lane_order), m.blocks_in_order ? 1 : 0,
                static_cast<unsigned long long>(m.block_inversions),
                static_cast<unsigned long long>(m.span_ns));
  return text;
}

std::string summary_of(const OrderMetrics& m, const Geometry& g) {
  const double pairs = static_cast<double>(g.blocks) * static_cast<double>(g.blocks - 1) / 2.0;
  char text[768];
  std::snprintf(
      text, sizeof text,
      "hello/record n=%lld block %ux%u: the blocks ran on %llu SMs; up to %llu blocks were "
      "resident at once (up to %llu on one SM); %llu of %llu warps took their tickets in lane "
      "order (x fastest, then y); blocks %s in index order (%llu of %.0f block pairs "
      "inverted); first start to last end %.1f us, each thread busy for %.1f us",
      static_cast<long long>(g.blocks), g.x, g.y, static_cast<unsigned long long>(m.sms),
      static_cast<unsigned long long>(m.max_resident),
      static_cast<unsigned long long>(m.max_resident_per_sm),
      static_cast<unsigned long long>(m.warps_in_lane_order),
      static_cast<unsigned long long>(m.warps), m.blocks_in_order ? "arrived" : "did not arrive",
      static_cast<unsigned long long>(m.block_inversions), pairs,
      static_cast<double>(m.span_ns) / 1e3, static_cast<double>(kLifeNs) / 1e3);
  return text;
}

}  // namespace kb::hello
