// `kbench report --html`: the markdown renderer and the columnar JSON the pages are made of, and
// the pages the real executable writes, read back as text (tests/browser/ loads them in Chromium).
#include "report/json_columns.hpp"
#include "report/markdown_html.hpp"
#include "store/results_store.hpp"
#include "support/case_rows.hpp"
#include "support/kbench_process.hpp"
#include "support/night_rows.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace kb {
namespace {

using kbtest::read_file;

TEST(MarkdownHtml, HeadingsParagraphsTablesAndImagesAsTheReportWritesThem) {
  const std::string md =
      "# kbench report\n\n2 rows from `1` run, **bold** & <more>.\nSecond line.\n\n"
      "## Best per family\n\n"
      "| family | value |\n|--------|------:|\n| matmul | 41 GFLOP/s |\n\n"
      "![Roofline](roofline.png)\n\n<details><summary>2 cases</summary>\n\n</details>\n";
  const std::string html = markdown_html(md, [](const std::string& file, const std::string& alt) {
    return "[chart " + file + " / " + alt + "]\n";
  });
  EXPECT_EQ(html,
            "<h1 id=\"kbench-report\">kbench report</h1>\n"
            "<p>2 rows from <code>1</code> run, <strong>bold</strong> &amp; &lt;more&gt;. Second "
            "line.</p>\n"
            "<h2 id=\"best-per-family\">Best per family</h2>\n"
            "<div class=\"table\"><table>\n<thead><tr><th>family</th><th class=\"num\">value</th>"
            "</tr></thead>\n<tbody>\n<tr><td>matmul</td><td class=\"num\">41 GFLOP/s</td></tr>\n"
            "</tbody></table></div>\n"
            "[chart roofline.png / Roofline]\n"
            "<details><summary>2 cases</summary>\n</details>\n");
}

// Names as markdown_cell writes them into report.md (a pipe escaped) and as a CSV may hold them
// (tags, brackets): a table keeps its columns, a summary and an image's alt text stay text.
TEST(MarkdownHtml, NamesHoldingPipesTagsAndBracketsStayText) {
  const std::string md =
      "## t/a\\|b <i>\n\n"
      "| plugin | value |\n|--------|------:|\n| t/a\\|b <script>x</script> | 1 |\n\n"
      "<details><summary><img src=x onerror=alert(1)> vs B\\|C: 2 cases</summary>\n\n</details>\n\n"
      "![H](x) <b>](scaling_h.png)\n";
  const std::string html = markdown_html(md, [](const std::string& file, const std::string& alt) {
    return "[chart " + html_escape(file) + " / " + html_escape(alt) + "]\n";
  });
  EXPECT_EQ(html,
            "<h2 id=\"t-a-b-i\">t/a|b &lt;i&gt;</h2>\n"
            "<div class=\"table\"><table>\n<thead><tr><th>plugin</th><th class=\"num\">value</th>"
            "</tr></thead>\n<tbody>\n<tr><td>t/a|b &lt;script&gt;x&lt;/script&gt;</td>"
            "<td class=\"num\">1</td></tr>\n</tbody></table></div>\n"
            "<details><summary>&lt;img src=x onerror=alert(1)&gt; vs B|C: 2 cases</summary>\n"
            "</details>\n"
            "[chart scaling_h.png / H](x) &lt;b&gt;]\n");
}

TEST(JsonColumns, TextAsADictionaryAndCodesNumbersRoundedNullWhereNone) {
  JsonColumns columns(4);
  columns.add_text("plugin", {"a/x", "a/y", "a/x", "a/x"});
  columns.add_numbers("us", {123.456789, std::nullopt, 1980.0, 0.000123456});
  EXPECT_EQ(columns.json().dump(),
            R"({"columns":{"plugin":{"codes":[0,1,0,0],"dict":["a/x","a/y"]},)"
            R"("us":[123.5,null,1980,0.0001235]},"n":4})");
  EXPECT_THROW(columns.add_text("short", {"a"}), std::logic_error);
}

TEST(JsonColumns, NoValueEndsTheScriptElementItSitsIn) {
  EXPECT_EQ(script_json(nlohmann::json{{"message", "</script><b>"}}),
            R"({"message":"\u003c/script>\u003cb>"})");
}

// The data a page embeds: the JSON inside <script id="kbench-data">.
nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"kbench-data\">";
  const auto start = html.find(open);
  if (start == std::string::npos) return nullptr;
  const auto end = html.find("</script>", start);
  return nlohmann::json::parse(html.substr(start + open.size(), end - start - open.size()));
}

TEST(HtmlReport, BesideTheMarkdownOneSelfContainedPageWithItsFirstPageAndData) {
  const kbtest::TempFolder folder;
  {
    ResultsStore store(folder.file("results.csv"));
    const kbtest::Card h100{"H100", "GPU-a", 3000}, h200{"H200", "GPU-c", 4200};
    for (const auto& [card, speed] : {std::pair{h100, 1.0}, {h200, 1.4}}) {
      store.append(kbtest::case_row(card, {"transpose/copy", "float32", "8192x8192", 180 / speed, 536870912}));
      store.append(kbtest::case_row(card, {"transpose/fast", "float32", "8192x8192", 200 / speed, 536870912}));
      store.append(kbtest::case_row(card, {"transpose/fast", "float32", "4096x4096", 55 / speed, 134217728}));
    }
  }
  const auto run = kbtest::kbench({"report", folder.file("results.csv"), "-o", folder.file("out"),
                                   "--html", folder.file("report.html")});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("report.md, " + folder.file("report.html")), std::string::npos)
      << run.output;
  const std::string html = read_file(folder.file("report.html"));
  // report.md's first page, as HTML, its images replaced by the charts.
  for (const char* part : {"<h2 id=\"gpu-models\">GPU models</h2>", "<h2 id=\"best-per-family\">",
                           "<h2 id=\"scaling-h200-vs-h100\">", "data-chart=\"scaling\" data-model=\"h200\"",
                           "<td>transpose/fast</td>", "<section id=\"explore\">",
                           "<details id=\"details\">"}) {
    EXPECT_NE(html.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(html.find(".png"), std::string::npos) << "no image is referenced";
  // Self-contained: uPlot and its licence inline, no element loading anything.
  EXPECT_NE(html.find("Copyright (c) 2022 Leon Sorokin"), std::string::npos);
  EXPECT_NE(html.find("var uPlot="), std::string::npos);
  for (const char* loads : {"src=", "href=\"http", "<link", "@import"}) {
    EXPECT_EQ(html.find(loads), std::string::npos) << loads;
  }
  const nlohmann::json data = page_data(html);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["kind"], "report");
  EXPECT_EQ(data["models"].size(), 2u);
  EXPECT_EQ(data["families"][0]["name"], "transpose");
  // A point per case and model: two plugins' cases on each of two models.
  EXPECT_EQ(data["points"]["n"], 6);
  EXPECT_EQ(data["scaling"][0]["other"], "H200");
}

TEST(HtmlReport, HistoryPageHoldsTheGatesRegressionsAndEachRepetitionsRange) {
  const kbtest::TempFolder folder;
  {
    ResultsStore store(folder.file("nights.csv"));
    for (int night = 0; night < 3; ++night) {
      const std::string stamp = "2026-11-1" + std::to_string(night) + "T02:00:00Z";
      // 10% slower on the second night, back to 4% above the first on the third (faster).
      const double factor = night == 2 ? 1.04 : night == 1 ? 1.10 : 1.0;
      for (const auto& row : kbtest::night_rows("n" + std::to_string(night),
                                                kbtest::shaped("2048", kbtest::scaled(kbtest::kSteadyFive, factor)),
                                                stamp)) {
        store.append(row);
      }
    }
  }
  const auto page = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"report", folder.file("nights.csv"), "--history", "-o",
                                     folder.file("out"), "--html", folder.file("history.html")};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = kbtest::kbench(args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return page_data(read_file(folder.file("history.html")));
  };
  nlohmann::json data = page(std::vector<std::string>{});
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["kind"], "history");
  EXPECT_EQ(data["runs"]["n"], 3);
  EXPECT_EQ(data["cases"]["n"], 1);
  // The gate's rule by default: 10% slower on the second night fails it; the third is faster.
  EXPECT_EQ(data["regressions"]["n"], 1);
  EXPECT_EQ(data["regressions"]["columns"]["run"][0], 1);
  // Each run's repetitions' range, for the band: 99.8 .. 100.3 us on the first night.
  EXPECT_EQ(data["values"]["columns"]["low"][0], 99.8);
  EXPECT_EQ(data["values"]["columns"]["high"][0], 100.3);
  EXPECT_EQ(data["values"]["columns"]["median"][0], 100);

  // --fail-slower as kbench compare takes it.
  data = page({"--fail-slower", "12"});
  EXPECT_EQ(data["regressions"]["n"], 0);
  EXPECT_EQ(data["rule"]["fail_slower"], 0.12);
  const auto refused = kbtest::kbench({"report", folder.file("nights.csv"), "-o", folder.file("out"),
                                       "--fail-slower", "3"});
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("are for --history"), std::string::npos) << refused.output;
}

}  // namespace
}  // namespace kb
