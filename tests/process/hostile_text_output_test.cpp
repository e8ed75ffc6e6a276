// Text from files and people (a CSV cell someone else wrote, an option's value) reaches
// kbench's outputs as data, never as structure or commands: error lines show control characters
// as escapes, markdown tables keep their columns, `compare --format csv` is RFC 4180 without
// formulas, `report` runs nothing from a cell and gives each plot its own files, and its HTML pages
// show every name as text. The text functions alone: tests/unit/hostile_text_test.cpp.
#include "report/plot_stem.hpp"
#include "store/results_store.hpp"
#include "support/case_rows.hpp"
#include "support/kbench_process.hpp"
#include "util/export_csv.hpp"

#include <boost/filesystem.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = boost::filesystem;
using kbtest::kbench;

// Backquotes and $(...) that would each create a file, were they ever run by a shell or gnuplot.
std::string payload(const fs::path& marker) {
  return "`touch " + marker.string() + "-bq`$(touch " + marker.string() + "-dollar)";
}

bool any_marker(const fs::path& marker) {
  return fs::exists(marker.string() + "-bq") || fs::exists(marker.string() + "-dollar");
}

// The number of pipes that separate cells (not escaped by a backslash).
int separators(const std::string& line) {
  int count = 0;
  for (std::size_t i = 0; i < line.size(); ++i) count += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  return count;
}

// The output's tables, each its lines: a table runs from a line that starts with a pipe to the
// next blank line.
std::vector<std::vector<std::string>> tables_of(const std::string& output) {
  std::vector<std::vector<std::string>> tables;
  bool in_table = false;
  std::size_t start = 0;
  while (start < output.size()) {
    const auto end = output.find('\n', start);
    const std::string line = output.substr(start, end - start);
    start = end == std::string::npos ? output.size() : end + 1;
    if (line.empty()) {
      in_table = false;
    } else if (in_table || line.front() == '|') {
      if (!in_table) tables.emplace_back();
      in_table = true;
      tables.back().push_back(line);
    }
  }
  return tables;
}

TEST(HostileText, ErrorLinesEchoNoBomCarriageReturnOrEscapeSequence) {
  const kbtest::TempFolder folder;
  const std::string config = folder.file("bom.ini");
  std::ofstream(config) << "\xEF\xBB\xBFsizes = 12x\r\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--sizes", "12\r\x1b[2Jx"},
        std::vector<std::string>{"run", "--config", config},
        std::vector<std::string>{"run", "--plugin", "\xEF\xBB\xBFtesting/\x1b]0;title\x07"},
        std::vector<std::string>{"compare", folder.file("no\rsuch\x1b[31m.csv")}}) {
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_EQ(kbtest::count_lines(run.output), 1) << run.output;
    EXPECT_EQ(run.output.find_first_of("\r\x1b\x07"), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("\xEF\xBB\xBF"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find_first_of("\\"), std::string::npos) << run.output;
  }
}

// Run ids, plugin and GPU names with pipes and line breaks head the columns of `compare --by`.
TEST(HostileText, CompareTablesKeepTheirColumnsWhateverTheNamesHold) {
  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  {
    kb::ResultsStore store(csv);
    for (const auto& [run, gpu, plugin] :
         {std::tuple{"night|1", "GPU | one", "transpose/a|b"}, {"night\n2", "GPU\ntwo", "transpose/c\nd"}}) {
      kb::ResultCells row = kbtest::case_row({gpu, std::string("uuid-") + run, 3000},
                                           {plugin, "float32", "1024", 10, 8e6});
      row.run_id = run;
      store.append(row);
    }
  }
  for (const char* by : {"run", "gpu", "plugin", "device"}) {
    const auto run = kbench({"compare", csv, "--by", by});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    // Each line of a table is a row of pipes, as many as the header's.
    for (const auto& table : tables_of(run.output)) {
      for (const std::string& line : table) {
        EXPECT_EQ(line.front(), '|') << "--by " << by << ":\n" << run.output;
        EXPECT_EQ(separators(line), separators(table.front())) << "--by " << by << ":\n"
                                                               << run.output;
      }
    }
  }
}

// A plugin may be named "testing/pipe|name": list's table and run's closing one keep their columns.
TEST(HostileText, ListAndRunTablesKeepTheirColumnsWhateverAPluginIsNamed) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--plugins", kbtest::test_plugin_dir("names")},
        std::vector<std::string>{"run", "--plugins", kbtest::test_plugin_dir("names"), "--plugin",
                                 "testing/*", "--sizes", "10", "--dtypes", "int32", "--max-time",
                                 "0.01"}}) {
    const auto run = kbench(args);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("| testing/pipe\\|name |"), std::string::npos) << run.output;
    int columns = -1;
    for (const auto& table : tables_of(run.output)) {
      for (const std::string& line : table) {
        if (line.front() != '|') continue;
        if (columns < 0) columns = separators(line);
        EXPECT_EQ(separators(line), columns) << args.front() << ":\n" << run.output;
      }
    }
  }
}

TEST(HostileText, CompareCsvIsRfc4180AndHoldsNoFormula) {
  EXPECT_EQ(kb::export_csv_cell("back\\slash"), "back\\slash");
  EXPECT_EQ(kb::export_csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
  EXPECT_EQ(kb::export_csv_cell("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
  EXPECT_EQ(kb::export_csv_cell("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(kb::export_csv_cell("-1.25"), "-1.25");  // a number stays one
  EXPECT_EQ(kb::export_csv_cell("-"), "-");
  EXPECT_EQ(kb::export_csv_cell("two\nlines"), "\"two\nlines\"");

  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  {
    kb::ResultsStore store(csv);
    for (const char* plugin : {"transpose/back\\slash", "transpose/=1+1", "transpose/-cmd"}) {
      store.append(kbtest::case_row({"GPU", "uuid-1", 3000}, {plugin, "float32", "1024", 10, 8e6}));
    }
  }
  const auto run = kbench({"compare", csv, "--by", "plugin", "--format", "csv"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string header = run.output.substr(0, run.output.find('\n'));
  EXPECT_NE(header.find(",transpose/back\\slash median_us,"), std::string::npos) << header;
  EXPECT_EQ(header.find("\\\\"), std::string::npos) << header;
  // Each cell starts after a comma; none of them with a formula's first character.
  for (const char* formula : {",=", ",+", ",-c", ",@"}) {
    EXPECT_EQ(run.output.find(formula), std::string::npos) << formula << "\n" << run.output;
  }
}

// Every text cell of a report's CSV holds backquotes and $(...): gnuplot draws the plots and runs
// none of them. An op with a line break no longer breaks the script.
TEST(HostileText, ReportRunsNoCommandFromAnyCell) {
  const kbtest::TempFolder folder;
  const fs::path marker = folder.path() / "ran";
  const std::string evil = payload(marker);
  const std::string csv = folder.file("results.csv");
  {
    kb::ResultsStore store(csv);
    for (const auto& [name, uuid, copy] : {std::tuple{"H100 " + evil, "GPU-a " + evil, 3000.0},
                                           {"H200 " + evil, "GPU-b " + evil, 4200.0}}) {
      for (const char* size : {"1024", "2048"}) {
        kbtest::CaseSpec spec{"transpose/fast" + evil, "float32", size, 10, 8e6};
        spec.op = "op\n" + evil;
        spec.block = "32x8 " + evil;
        spec.metrics = "m=" + evil;
        kb::ResultCells row = kbtest::case_row({name, uuid, copy}, spec);
        row.run_id = "run " + evil;
        row.host = "host " + evil;
        row.params = "p=" + evil;
        row.message = evil;
        store.append(row);
      }
    }
  }
  for (const bool history : {false, true}) {
    std::vector<std::string> args = {"report", csv, "-o", folder.file(history ? "history" : "report")};
    if (history) args.push_back("--history");
    const auto run = kbench(args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_FALSE(any_marker(marker)) << "a command from a CSV cell ran:\n" << run.output;
  }
}

TEST(HostileText, PlotsOfNamesThatDifferInPunctuationKeepTheirOwnFiles) {
  EXPECT_EQ(kb::plot_stem("scaling", "NVIDIA H200"), "scaling_nvidia_h200");
  EXPECT_EQ(kb::plot_stem("scaling", "NVIDIA H200"), "scaling_nvidia_h200");  // the same plot
  EXPECT_NE(kb::plot_stem("scaling", "nvidia-h200"), "scaling_nvidia_h200");

  const kbtest::TempFolder folder;
  const std::string csv = folder.file("results.csv");
  {
    kb::ResultsStore store(csv);
    for (const char* plugin : {"+cmd/a", "-cmd/a", "@cmd/a"}) {
      for (const char* size : {"1024", "2048"}) {  // two sizes: a curve
        store.append(kbtest::case_row({"H100", "GPU-a", 3000}, {plugin, "float32", size, 10, 8e6}));
      }
    }
  }
  const fs::path out = folder.path() / "report";
  const auto run = kbench({"report", csv, "-o", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> scripts;
  for (const auto& entry : fs::directory_iterator(out)) {
    if (entry.path().extension() == ".gp") scripts.insert(entry.path().stem().string());
  }
  const std::string md = kbtest::read_file((out / "report.md").string());
  std::set<std::string> family_plots;
  for (const auto& stem : scripts) {
    if (stem.find("cmd") != std::string::npos) family_plots.insert(stem);
    EXPECT_NE(md.find("(" + stem + ".png)"), std::string::npos) << stem << "\n" << md;
  }
  EXPECT_EQ(family_plots.size(), 3u) << md;
}

// Each table of an HTML page: "" when every row has its header's number of cells, else the table.
std::string html_table_broken(const std::string& html) {
  const auto count = [](const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  for (auto start = html.find("<table>"); start != std::string::npos;
       start = html.find("<table>", start + 1)) {
    const std::string table = html.substr(start, html.find("</table>", start) - start);
    const auto body = table.find("<tbody>");
    const std::string head = table.substr(0, body);
    const int columns = count(head, "<th>") + count(head, "<th ");
    for (auto row = table.find("<tr>", body); row != std::string::npos;
         row = table.find("<tr>", row + 1)) {
      const std::string cells = table.substr(row, table.find("</tr>", row) - row);
      if (count(cells, "<td>") + count(cells, "<td ") != columns) return table;
    }
  }
  return "";
}

// The HTML pages of `report --html`, of a report and of a history: GPU, plugin and run names
// holding tags, pipes, line breaks and backquotes are shown as text (escaped in the page, as data
// in its JSON), the tables keep their columns, and nothing from a cell runs.
TEST(HostileText, HtmlPagesShowEveryNameAsText) {
  const kbtest::TempFolder folder;
  const fs::path marker = folder.path() / "ran";
  const std::string tag = "<img src=x onerror=alert(1)></script><i id=pwned>";
  const std::string csv = folder.file("results.csv");
  {
    kb::ResultsStore store(csv);
    for (const auto& [name, uuid, copy] :
         {std::tuple{"H100 |pipe\nline " + payload(marker), std::string("GPU-a"), 3000.0},
          {"H200 " + tag, "GPU-b", 4200.0}}) {
      for (const char* size : {"1024", "2048"}) {
        for (const std::string& plugin : {"transpose/a|b" + tag, std::string("transpose/plain")}) {
          kb::ResultCells row = kbtest::case_row({name, uuid, copy}, {plugin, "float32", size, 10, 8e6});
          row.run_id = "night " + tag;
          store.append(row);
        }
      }
    }
  }
  for (const bool history : {false, true}) {
    const std::string page = folder.file(history ? "history.html" : "report.html");
    std::vector<std::string> args = {"report", csv, "-o", folder.file(history ? "history" : "report"),
                                     "--html", page};
    if (history) args.push_back("--history");
    const auto run = kbench(args);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_FALSE(any_marker(marker)) << "a command from a CSV cell ran:\n" << run.output;
    const std::string html = kbtest::read_file(page);
    for (const char* raw : {"<img src=x", "<i id=pwned>", "</script><i"}) {
      EXPECT_EQ(html.find(raw), std::string::npos) << raw << " raw in " << page;
    }
    const std::string broken = html_table_broken(html);
    EXPECT_TRUE(broken.empty()) << "a table lost its columns:\n" << broken;
    // The page's data, parsed, holds the names as they were.
    const std::string open = "<script type=\"application/json\" id=\"kbench-data\">";
    const auto start = html.find(open);
    ASSERT_NE(start, std::string::npos);
    const auto end = html.find("</script>", start);
    const auto data = nlohmann::json::parse(html.substr(start + open.size(), end - start - open.size()));
    EXPECT_NE(data.dump().find("transpose/a|b" + tag), std::string::npos) << page;
    if (!history) {
      // The report's first page: the names escaped in its tables, headings and summaries.
      EXPECT_NE(html.find("transpose/a|b&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
      EXPECT_NE(html.find("<summary>H200 &lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;i "
                          "id=pwned&gt; vs H100 |pipe line <code>touch "),
                std::string::npos)
          << html.substr(0, 4000);
    }
  }
}

}  // namespace
