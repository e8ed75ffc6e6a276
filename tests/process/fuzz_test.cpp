// Random option values and random bytes as CSV and config files, fed to `run` (host plugins only),
// `compare` and `report`. Whatever comes in, kbench ends by itself with exit code 0, 1 or 2 (never
// a signal, never an internal error, never a hang), and every CSV it wrote (results and samples)
// is still read whole by libfccp, kbench's reader, and by a second reader, Python's csv module
// (that half skipped with a message without python3).
//
// Bounded and reproducible: each seed of a fixed list is a test of its own, KBENCH_FUZZ_SECONDS
// (default 20) of invocations drawn from it, so that CI runs the same invocations every time.
// KBENCH_FUZZ_SEED=N runs seed N alone, KBENCH_FUZZ_SEED=random a fresh seed (printed first). A
// failure prints the seed and the command lines to run again; KBENCH_FUZZ_KEEP=1 keeps the files
// they name. Fuzz.HostileCellsFilesAndSwapsOnFixedSeeds (below) feeds `compare` and `report`
// results files of hostile text and numbers, and swaps a results file under a sweep.
#include "store/results_store.hpp"
#include "support/kbench_process.hpp"

#include <csv.h>  // libfccp

#include <boost/filesystem.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <thread>

namespace {

namespace fs = boost::filesystem;

class Fuzzer {
 public:
  explicit Fuzzer(std::uint64_t seed) : random_(seed) {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-fuzz-%%%%-%%%%");
    fs::create_directories(folder_);
    results_ = path("results.csv");
    samples_ = path("samples.csv");
  }
  // KBENCH_FUZZ_KEEP=1 keeps the files for a look after a failure.
  ~Fuzzer() {
    if (std::getenv("KBENCH_FUZZ_KEEP") == nullptr) fs::remove_all(folder_);
  }

  // One random invocation; a line describing it when it broke a rule, else nothing.
  std::string step() {
    std::vector<std::string> args;
    switch (pick(5)) {
      case 0: case 1: case 2: args = run_args(); break;
      case 3: args = compare_args(); break;
      default: args = report_args(); break;
    }
    std::string command = "cd " + quote(folder_.string()) + " && timeout -s KILL 60 " + quote(KBENCH_EXE);
    for (const auto& a : args) command += " " + quote(a);
    ++invocations_;
    std::string output;
    int status = -1;
    if (FILE* pipe = popen((command + " 2>&1").c_str(), "r")) {
      char buffer[4096];
      std::size_t n = 0;
      while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
      status = pclose(pipe);
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    ++outcomes_[args.front() + " " + std::to_string(code)];
    if (code == 137) return "hung (killed after 60 s): " + command;
    if (code != 0 && code != 1 && code != 2) {
      return "exit code " + std::to_string(code) + ": " + command + "\n" + tail(output);
    }
    // (A signal of kbench itself shows in the exit code; the rows' messages name the test
    // plugins' own crashes.)
    for (const char* broken : {"internal error", "terminate called"}) {
      if (output.find(broken) != std::string::npos) {
        return std::string("'") + broken + "': " + command + "\n" + tail(output);
      }
    }
    return "";
  }

  // The files kbench alone wrote, read whole by both readers; a description of what failed.
  std::string check_outputs() const {
    std::string problems;
    if (fs::exists(results_)) {
      try {
        kb::read_results(results_);
      } catch (const std::exception& e) {
        problems += std::string("libfccp cannot read the results: ") + e.what() + "\n";
      }
    }
    if (fs::exists(samples_)) {
      try {
        io::CSVReader<13, io::trim_chars<>, io::double_quote_escape<',', '"'>> reader(samples_);
        reader.read_header(io::ignore_no_column, "run_id", "gpu_uuid", "device", "plugin", "dtype",
                           "op", "shape", "block", "params", "cache", "repetition", "sample", "us");
        std::string c[13];
        while (reader.read_row(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10],
                               c[11], c[12])) {
        }
      } catch (const std::exception& e) {
        problems += std::string("libfccp cannot read the samples: ") + e.what() + "\n";
      }
    }
    if (std::system("python3 -c 'import csv' >/dev/null 2>&1") == 0) {
      for (const auto& file : {results_, samples_}) {
        if (!fs::exists(file)) continue;
        const std::string check =
            "python3 -c 'import csv,sys; rows=list(csv.reader(open(sys.argv[1], encoding=\"utf-8\","
            " newline=\"\"), strict=True)); sys.exit(0 if all(len(r) == len(rows[0]) for r in rows)"
            " else 1)' " + quote(file) + " 2>&1";
        if (std::system(check.c_str()) != 0) problems += "Python's csv module cannot read " + file + "\n";
      }
    } else {
      std::cout << "python3 is not installed: the second reader is skipped\n";
    }
    return problems;
  }

  int invocations() const { return invocations_; }
  // "run 0: 12, run 2: 40, ...": how the invocations ended.
  std::string outcomes() const {
    std::string text;
    for (const auto& [what, count] : outcomes_) {
      text += (text.empty() ? "" : ", ") + what + ": " + std::to_string(count);
    }
    return text;
  }
  const std::string& results() const { return results_; }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  template <typename T>
  const T& one_of(const std::vector<T>& items) { return items[pick(items.size())]; }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }

  static std::string quote(const std::string& s) {
    std::string q = "'";
    for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  }
  static std::string tail(const std::string& output) {
    return output.size() > 1500 ? output.substr(output.size() - 1500) : output;
  }

  // Bytes of any value but NUL (command-line arguments cannot hold one), some of them ASCII.
  std::string random_bytes(std::size_t max_length) {
    std::string bytes(pick(max_length + 1), ' ');
    for (char& ch : bytes) {
      ch = chance(0.5) ? static_cast<char>(32 + pick(95)) : static_cast<char>(1 + pick(255));
    }
    return bytes;
  }

  // A value for `option`: half the time one it may well take, else anything.
  std::string value(const std::string& option = "") {
    static const std::map<std::string, std::vector<std::string>> kPlausible = {
        {"--sizes", {"16", "7,100", "33x31", "2^6", "10^2+3", "2^30x2^29"}},
        {"--blocks", {"32", "32x8", "16x16,256"}},
        {"--dtypes", {"int32", "float32,int32", "i32,float64"}},
        {"--ops", {"sum", "sumsq", "sum,sumsq"}},
        {"--seed", {"0", "7", "18446744073709551615"}},
        {"--min-samples", {"1", "3"}},
        {"--min-time", {"0", "0.001"}},
        {"--max-noise", {"0.5", "1"}},
        {"--shard", {"0/2", "1/2", "5/10"}},
        {"--devices", {"0", "all"}},
        {"--run-id", {"fuzz", "fuzz two", "nächtlich"}},
        {"--family", {"testing", "transpose", "reduce"}},
        {"--plugin", {"testing/*", "transpose/cpu", "reduce/cpu", "testing/verify_wrong"}},
        {"--case", {"testing/good int32 16", "reduce/cpu int32 100 - sumsq",
                    "transpose/cpu float64 33x31"}},
        {"--case-timeout", {"5", "0.5"}},
        {"--max-time", {"0.001", "0.005"}},
        {"--repetitions", {"1", "2", "3"}},
        {"--baseline-run", {"fuzz", "fuzz two"}},
        {"--fail-slower", {"0", "5"}}};
    static const std::vector<std::string> kAnything = {
        "", "0", "1", "-1", "7", "nan", "inf", "-inf", "1e7", "1e-7", "0.01", "0.3", "2",
        "18446744073709551616", "9223372036854775807", "2^62+2^62+2^62+2^62+5", "10^18", "2^40x2^40",
        "16", "16,16", "16x16", "1x2x3x4", ",", "int32", "int32,int32", "float16", "sum", "bogus",
        "32", "0x4", "64x32", "0/2", "5/10", "2/2", "all", "0,0", "testing/*", "transpose"};
    const auto plausible = kPlausible.find(option);
    if (plausible != kPlausible.end() && chance(0.5)) return one_of(plausible->second);
    return chance(0.15) ? random_bytes(24) : one_of(kAnything);
  }

  std::string fuzzed_file(bool with_header) {
    const std::string file = path("input-" + std::to_string(files_++) + ".csv");
    std::ofstream out(file, std::ios::binary);
    if (with_header) out << kb::header_line();
    const std::size_t lines = pick(5);
    for (std::size_t i = 0; i < lines; ++i) {
      out << (chance(0.5) ? random_bytes(200) : one_of(std::vector<std::string>{
                                                    "a,b,c", "\"unterminated", ",,,,", "x\ty"}));
      if (chance(0.9)) out << "\n";
    }
    return file;
  }

  std::string config_file() {
    static const std::vector<std::string> kKeys = {"sizes", "dtypes", "blocks", "ops", "seed",
                                                   "max-time", "case-timeout", "plugin", "family",
                                                   "run-id", "frobnicate", "case"};
    const std::string file = path("config-" + std::to_string(files_++) + ".ini");
    std::ofstream out(file, std::ios::binary);
    const std::size_t lines = pick(5);
    for (std::size_t i = 0; i < lines; ++i) {
      const std::string& key = one_of(kKeys);
      out << (chance(0.2) ? random_bytes(60) : key + " = " + value("--" + key)) << "\n";
    }
    return file;
  }

  std::vector<std::string> run_args() {
    static const std::vector<std::string> kPlugins = {"testing/good", "testing/verify_wrong",
                                                      "testing/setup_error", "transpose/cpu",
                                                      "reduce/cpu"};
    static const std::vector<std::string> kOptions = {
        "--sizes", "--blocks", "--dtypes", "--ops", "--seed", "--min-samples", "--min-time",
        "--max-noise", "--shard", "--devices", "--run-id", "--family", "--plugin", "--case",
        "--case-timeout", "--max-time", "--repetitions"};
    std::vector<std::string> args = {"run", "--plugins", kbtest::test_plugin_dir("faulty")};
    // Without a fuzzed value, each option keeps the sweep small and quick.
    std::map<std::string, std::string> given;
    const std::size_t count = pick(4);
    for (std::size_t i = 0; i < count; ++i) {
      const std::string& option = one_of(kOptions);
      given[option] = value(option);
    }
    if (!given.count("--case") && !given.count("--plugin")) given["--plugin"] = one_of(kPlugins);
    if (!given.count("--case") && !given.count("--sizes")) given["--sizes"] = "16,33";
    if (!given.count("--case") && !given.count("--dtypes")) given["--dtypes"] = "int32";
    if (!given.count("--max-time")) given["--max-time"] = "0.005";
    if (!given.count("--case-timeout")) given["--case-timeout"] = "5";
    for (const auto& [option, v] : given) args.insert(args.end(), {option, v});
    for (const char* flag : {"--zip", "--split", "--cold", "--resume", "--profile"}) {
      if (chance(0.1)) args.push_back(flag);
    }
    if (chance(0.1)) args.insert(args.end(), {"--config", config_file()});
    // Each file named as the other kind once it exists (to be refused), never before: a
    // results file kbench creates stays a results file.
    if (chance(0.3)) {
      args.insert(args.end(), {"--samples-out", chance(0.9) || !fs::exists(results_) ? samples_
                                                                                     : results_});
    }
    const double output = std::uniform_real_distribution<double>(0, 1)(random_);
    args.insert(args.end(), {"--output", output < 0.8 || (output >= 0.9 && !fs::exists(samples_))
                                             ? results_
                                         : output < 0.9 ? fuzzed_file(chance(0.5))
                                                        : samples_});
    return args;
  }

  std::vector<std::string> results_files() {
    std::vector<std::string> files;
    const std::size_t count = 1 + pick(3);
    for (std::size_t i = 0; i < count; ++i) {
      files.push_back(chance(0.5) && fs::exists(results_) ? results_ : fuzzed_file(chance(0.6)));
    }
    return files;
  }

  std::vector<std::string> compare_args() {
    std::vector<std::string> args = {"compare"};
    for (const auto& file : results_files()) args.push_back(file);
    if (chance(0.3)) {  // verdicts: no --by
      if (chance(0.7)) args.insert(args.end(), {"--baseline-run", value("--baseline-run")});
      if (chance(0.3)) args.insert(args.end(), {"--fail-slower", value("--fail-slower")});
      if (chance(0.3)) {
        args.insert(args.end(), {"--format", chance(0.7) ? one_of(std::vector<std::string>{
                                                               "json", "benchmark-action"})
                                                         : value()});
      }
      if (chance(0.2)) args.insert(args.end(), {"--junit", path("junit.xml")});
      return args;
    }
    args.insert(args.end(), {"--by", chance(0.8) ? one_of(std::vector<std::string>{"gpu", "run",
                                                                                  "plugin", "device"})
                                                 : value()});
    if (chance(0.3)) args.insert(args.end(), {"--metric", chance(0.7) ? "gbps" : value()});
    if (chance(0.3)) args.insert(args.end(), {"--baseline", value()});
    if (chance(0.3)) args.insert(args.end(), {"--format", chance(0.7) ? "csv" : value()});
    if (chance(0.2)) args.insert(args.end(), {"--plugin", value()});
    if (chance(0.1)) args.insert(args.end(), {"--config", config_file()});
    return args;
  }

  std::vector<std::string> report_args() {
    std::vector<std::string> args = {"report"};
    for (const auto& file : results_files()) args.push_back(file);
    // A fuzzed folder name stays inside the fuzz folder (the commands run there).
    std::string folder = value();
    std::replace(folder.begin(), folder.end(), '/', '_');
    args.insert(args.end(), {"-o", chance(0.9) ? path("report-" + std::to_string(files_++)) : folder});
    if (chance(0.2)) args.insert(args.end(), {"--family", value()});
    if (chance(0.3)) args.push_back("--history");
    return args;
  }

  std::mt19937_64 random_;
  fs::path folder_;
  std::string results_, samples_;
  int files_ = 0;
  int invocations_ = 0;
  std::map<std::string, int> outcomes_;  // "command exit-code" -> invocations
};

// The seeds CI runs; KBENCH_FUZZ_SEED replaces them with one seed of its own.
const std::vector<std::uint64_t> kFixedSeeds = {1, 2, 3};

std::vector<std::uint64_t> fuzz_seeds() {
  const char* given = std::getenv("KBENCH_FUZZ_SEED");
  if (given == nullptr) return kFixedSeeds;
  if (std::string(given) == "random") return {std::random_device{}()};
  return {std::strtoull(given, nullptr, 10)};
}

class Fuzz : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(Fuzz, RunCompareAndReportSurviveRandomOptionsAndFiles) {
  const std::uint64_t seed = GetParam();
  const char* given_seconds = std::getenv("KBENCH_FUZZ_SECONDS");
  const double seconds = given_seconds ? std::strtod(given_seconds, nullptr) : 20;
  std::cout << "fuzz seed " << seed << " (KBENCH_FUZZ_SEED=" << seed
            << " reproduces this run), " << seconds << " s\n";
  RecordProperty("fuzz_seed", std::to_string(seed));

  Fuzzer fuzzer(seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::string> failures;
  while (std::chrono::steady_clock::now() < end && failures.size() < 5) {
    if (std::string failure = fuzzer.step(); !failure.empty()) failures.push_back(failure);
  }
  for (const auto& failure : failures) ADD_FAILURE() << "seed " << seed << ": " << failure;
  const std::string unreadable = fuzzer.check_outputs();
  EXPECT_TRUE(unreadable.empty()) << "seed " << seed << ":\n" << unreadable;
  std::cout << fuzzer.invocations() << " invocations (command exit-code: count): "
            << fuzzer.outcomes() << "; " << kb::read_results(fuzzer.results()).size()
            << " rows in the results file\n";
  EXPECT_GT(fuzzer.invocations(), 7) << "seed " << seed;
}

// --- Hostile cells, files and swaps, on fixed seeds ----------------------------------------------
//
// Results files as someone else may hand them over: every text cell drawn from names with `|`,
// line breaks, backquotes and $(...), formulas, escape sequences; files with a byte-order mark and
// CRLF line ends; medians of nan, inf, 0, -1, 1e308. `compare` (every --by, every format, the
// verdicts with --junit) and `report` (and --history) read them: exit 0, 1 or 2, never a command
// run, every markdown table keeping its columns, every CSV read back whole without a formula. And
// results files replaced under a running sweep: exit 0 or 4, never a row lost, the resume
// completing the sweep once.

// The tables of a markdown text whose lines do not all have their header's number of cells.
std::string broken_tables(const std::string& text) {
  const auto separators = [](const std::string& line) {
    int count = 0;
    for (std::size_t i = 0; i < line.size(); ++i) count += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    return count;
  };
  int columns = -1;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      columns = -1;
    } else if (columns >= 0 || line.front() == '|') {
      if (columns < 0) columns = separators(line);
      if (line.front() != '|' || separators(line) != columns) return line;
    }
  }
  return "";
}

class HostileFiles {
 public:
  explicit HostileFiles(std::uint64_t seed) : random_(seed) {
    folder_ = fs::temp_directory_path() / fs::unique_path("kbench-hostile-%%%%-%%%%");
    fs::create_directories(folder_);
    marker_ = (folder_ / "ran").string();
  }
  ~HostileFiles() {
    if (std::getenv("KBENCH_FUZZ_KEEP") == nullptr) fs::remove_all(folder_);
  }

  // A results file of two GPUs and two runs, every text cell hostile now and then; in every
  // third file, every text cell holds backquotes and $(...).
  std::string results_file() {
    every_cell_ = files_ % 3 == 0;
    const std::string file = (folder_ / ("hostile-" + std::to_string(files_++) + ".csv")).string();
    const bool crlf = chance(0.3);
    std::string text = chance(0.3) ? "\xEF\xBB\xBF" : "";
    const std::string end = crlf ? "\r\n" : "\n";
    std::string header = kb::header_line();
    header.pop_back();
    text += header + end;
    const std::vector<std::string> gpus = {"H100", text_cell("H200")};
    const std::vector<std::string> runs = {"night-1", text_cell("night-2")};
    for (int r = 0; r < 24; ++r) {
      std::vector<std::string> cells;
      for (const char* column : kb::kResultHeader) {
        const std::string name = column;
        std::string cell;
        if (name == "gpu_name") cell = gpus[r % 2];
        else if (name == "gpu_uuid") cell = "GPU-" + std::to_string(r % 2);
        else if (name == "run_id") cell = runs[(r / 2) % 2];
        else if (name == "timestamp_utc") cell = "2026-01-0" + std::to_string(1 + (r / 2) % 2) + "T02:00:00Z";
        else if (name == "family") cell = chance(0.7) ? "transpose" : text_cell("transpose");
        else if (name == "plugin") cell = chance(0.5) ? "transpose/fast" : text_cell("transpose/x");
        else if (name == "status") cell = chance(0.85) ? "ok" : text_cell("error");
        else if (name == "shape") cell = one_of({"1024", "2048", "4096", text_cell("8192")});
        else if (name == "median_us" || name == "gbps" || name == "gflops" || name == "noise" ||
                 name == "bytes" || name == "flops" || name == "copy_gbps") {
          cell = number_cell();
        } else if (name == "compute_capability") cell = "9.0";
        else cell = every_cell_ || chance(0.3) ? text_cell("x") : "";
        cells.push_back(cell);
      }
      std::string line;
      for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + quoted(cells[i]);
      text += line + end;
    }
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  // Runs kbench; a line describing what broke a rule, or "".
  std::string check(const std::vector<std::string>& args, const std::string& stdout_file = "") {
    std::string command = "cd " + quote(folder_.string()) + " && timeout -s KILL 60 " + quote(KBENCH_EXE);
    for (const auto& a : args) command += " " + quote(a);
    const std::string err = (folder_ / "stderr").string();
    command += stdout_file.empty() ? " 2>&1" : " 2>" + quote(err) + " >" + quote(stdout_file);
    std::string output;
    int status = -1;
    if (FILE* pipe = popen(command.c_str(), "r")) {
      char buffer[4096];
      for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
      status = pclose(pipe);
    }
    if (!stdout_file.empty()) output = kbtest::read_file(stdout_file) + kbtest::read_file(err);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    ++invocations_;
    if (code != 0 && code != 1 && code != 2) return "exit " + std::to_string(code) + ": " + command + "\n" + output.substr(0, 1500);
    if (output.find("internal error") != std::string::npos) return "internal error: " + command + "\n" + output.substr(0, 1500);
    if (fs::exists(marker_ + "-bq") || fs::exists(marker_ + "-dollar")) return "a command from a cell ran: " + command;
    if (stdout_file.empty() && output.find_first_of("\r\x1b") != std::string::npos) {
      return "a raw carriage return or escape in the output: " + command;
    }
    const std::string table = broken_tables(stdout_file.empty() ? output : kbtest::read_file(stdout_file));
    if (!table.empty()) return "a table lost its columns (" + table.substr(0, 200) + "): " + command;
    return "";
  }

  std::string compare_and_report() {
    std::vector<std::string> files = {results_file()};
    if (chance(0.5)) files.push_back(results_file());
    std::vector<std::vector<std::string>> commands;
    for (const char* by : {"gpu", "run", "plugin", "device"}) {
      std::vector<std::string> args = {"compare"};
      args.insert(args.end(), files.begin(), files.end());
      args.insert(args.end(), {"--by", by, "--metric", chance(0.5) ? "time" : "gbps"});
      commands.push_back(args);
    }
    std::vector<std::string> verdicts = {"compare"};
    verdicts.insert(verdicts.end(), files.begin(), files.end());
    verdicts.insert(verdicts.end(), {"--baseline-run", "night-1", "--junit", (folder_ / "junit.xml").string()});
    commands.push_back(verdicts);
    for (const bool history : {false, true}) {
      std::vector<std::string> args = {"report"};
      args.insert(args.end(), files.begin(), files.end());
      args.insert(args.end(), {"-o", (folder_ / ("report-" + std::to_string(files_++))).string()});
      if (history) args.push_back("--history");
      commands.push_back(args);
    }
    for (const auto& args : commands) {
      if (std::string failure = check(args); !failure.empty()) return failure;
    }
    for (const auto& entry : fs::recursive_directory_iterator(folder_)) {
      if (entry.path().extension() == ".md") {
        const std::string table = broken_tables(kbtest::read_file(entry.path().string()));
        if (!table.empty()) return "a table of " + entry.path().string() + " lost its columns: " + table;
      }
    }
    // CSV for other programs: read whole by Python's csv module, no cell a formula.
    std::vector<std::string> csv = {"compare"};
    csv.insert(csv.end(), files.begin(), files.end());
    csv.insert(csv.end(), {"--by", chance(0.5) ? "plugin" : "run", "--format", "csv"});
    const std::string out = (folder_ / "compare.csv").string();
    if (std::string failure = check(csv, out); !failure.empty()) return failure;
    if (std::system("python3 -c 'import csv' >/dev/null 2>&1") == 0 && fs::file_size(out) > 0) {
      const std::string python =
          "python3 -c 'import csv,sys,re; rows=list(csv.reader(open(sys.argv[1], encoding=\"utf-8\", "
          "newline=\"\"), strict=True)); num=re.compile(r\"^[-+]?[0-9.eEinfa]+$\"); "
          "bad=[c for r in rows for c in r if c[:1] in \"=+-@\" and len(c) > 1 and not num.match(c)]; "
          "sys.exit(0 if all(len(r) == len(rows[0]) for r in rows) and not bad else 1)' " + quote(out);
      if (std::system(python.c_str()) != 0) return "compare --format csv is not clean RFC 4180: " + out;
    }
    return "";
  }

  // A sweep whose results file is replaced (as an editor saves it) at a random moment: exit 0 or
  // 4, and the resume completes it with every case once.
  std::string swapped_file() {
    const std::string csv = (folder_ / ("swapped-" + std::to_string(files_++) + ".csv")).string();
    const std::vector<std::string> sweep = {
        "run", "--plugins", kbtest::test_plugin_dir("faulty"), "--plugin", "testing/good", "--sizes",
        "10,20,30,40,50,60", "--dtypes", "int32", "--min-time", "0.05", "--max-time", "0.05",
        "--run-id", "swap", "--output", csv};
    const pid_t pid = kbtest::spawn_kbench(sweep, (folder_ / "swap.log").string());
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + pick(500)));
    if (fs::exists(csv)) {
      fs::copy_file(csv, csv + ".swp", fs::copy_option::overwrite_if_exists);
      fs::rename(csv + ".swp", csv);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code != 0 && code != 4) return "a swapped file: exit " + std::to_string(code) + "\n" + kbtest::read_file((folder_ / "swap.log").string());
    auto resume = sweep;
    resume.push_back("--resume");
    if (std::string failure = check(resume); !failure.empty()) return failure;
    std::multiset<std::string> shapes;
    for (const auto& row : kb::read_results(csv)) shapes.insert(row.shape);
    if (shapes.size() != 6 || std::set<std::string>(shapes.begin(), shapes.end()).size() != 6) {
      return "after a swap and the resume, " + std::to_string(shapes.size()) + " rows instead of 6";
    }
    return "";
  }

  int invocations() const { return invocations_; }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  std::string one_of(const std::vector<std::string>& items) { return items[pick(items.size())]; }

  // A text cell: plain, or with what must stay text.
  std::string text_cell(const std::string& plain) {
    if (every_cell_) return plain + "`touch " + marker_ + "-bq`$(touch " + marker_ + "-dollar)";
    if (chance(0.3)) return plain;
    return plain + one_of({"|pipe", "a\\nnew line", "`touch " + marker_ + "-bq`",
                           "$(touch " + marker_ + "-dollar)", "=HYPERLINK(\"x\")", "+cmd", "-cmd",
                           "@cmd", "\x1b[2J", "\r", "\xEF\xBB\xBF", "back\\\\slash", "'quote'",
                           "\"double\"", "\ttab", "caf\xC3\xA9", "\xFF"});
  }
  std::string number_cell() {
    return one_of({"100", "12.5", "0.001", "nan", "inf", "-inf", "0", "-1", "1e308", "1e-300",
                   "", "x", std::to_string(1 + pick(1000))});
  }
  static std::string quoted(const std::string& cell) {
    if (cell.find_first_of(",\"") == std::string::npos) return cell;
    std::string q = "\"";
    for (char ch : cell) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  }
  static std::string quote(const std::string& s) {
    std::string q = "'";
    for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  }

  std::mt19937_64 random_;
  fs::path folder_;
  std::string marker_;
  int files_ = 0;
  int invocations_ = 0;
  bool every_cell_ = false;
};

// In this test's making, other seeds found a copy bandwidth of -1, a shape that is no size and a
// case of 1e-300 bytes, each breaking a plot (exit 3): each such cell can come in any seed's files.
// Its own fixed seeds (those that found the plot failures above); KBENCH_FUZZ_SEED=N or =random
// runs that seed instead, as for the random invocations.
TEST(Fuzz, HostileCellsFilesAndSwapsOnFixedSeeds) {
  const std::vector<std::uint64_t> seeds = std::getenv("KBENCH_FUZZ_SEED")
                                               ? fuzz_seeds()
                                               : std::vector<std::uint64_t>{1, 3, 6, 8};
  for (const std::uint64_t seed : seeds) {
    HostileFiles fuzz(seed);
    for (int round = 0; round < 2; ++round) {
      const std::string failure = fuzz.compare_and_report();
      ASSERT_TRUE(failure.empty()) << "seed " << seed << " (KBENCH_FUZZ_KEEP=1 keeps the files): " << failure;
    }
    const std::string failure = fuzz.swapped_file();
    EXPECT_TRUE(failure.empty()) << "seed " << seed << ": " << failure;
    EXPECT_GT(fuzz.invocations(), 15);
  }
}
INSTANTIATE_TEST_SUITE_P(Seeds, Fuzz, ::testing::ValuesIn(fuzz_seeds()),
                         [](const ::testing::TestParamInfo<std::uint64_t>& info) {
                           return "seed_" + std::to_string(info.index);
                         });

}  // namespace
