// One self-contained HTML file: the page's own markup, its data as one JSON element, the chart
// library (uPlot, with its licence) and the page's script, all inline. Nothing is loaded from
// anywhere else, so the file opens offline, from disk, a CI's artefacts or a web server's folder.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace kb {

struct HtmlPage {
  std::string title;
  std::string body;        // HTML: what the page shows before its script runs
  nlohmann::json data;     // read by the script from <script id="kbench-data">
  const char* script;      // kReportJs or kHistoryJs
};

std::string html_page(const HtmlPage& page);

// Writes the page to `path` (util/output_file.hpp): WriteError when the storage fails, InputError
// when the path cannot be a file.
void write_html_page(const HtmlPage& page, const std::string& path);

}  // namespace kb
