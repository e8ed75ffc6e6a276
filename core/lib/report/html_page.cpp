#include "report/html_page.hpp"

#include "report/html_assets.hpp"
#include "report/json_columns.hpp"
#include "report/markdown_html.hpp"
#include "store/version.hpp"
#include "util/output_file.hpp"

namespace kb {

std::string html_page(const HtmlPage& page) {
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"kbench " + html_escape(kKbenchVersion) + "\">\n"
          "<title>" + html_escape(page.title) + "</title>\n<style>\n";
  html += kUplotCss;
  html += "\n";
  html += kPageCss;
  html += "</style>\n</head>\n<body>\n";
  html += page.body;
  html += "\n<script type=\"application/json\" id=\"kbench-data\">" + script_json(page.data) +
          "</script>\n";
  // The licence travels with the library's code, as MIT asks.
  html += "<script>\n/* uPlot 1.6.32, https://github.com/leeoniya/uPlot\n";
  html += kUplotLicence;
  html += "*/\n";
  html += kUplotJs;
  html += "\n</script>\n<script>\n";
  html += kCommonJs;
  html += "\n";
  html += page.script;
  html += "</script>\n</body>\n</html>\n";
  return html;
}

void write_html_page(const HtmlPage& page, const std::string& path) {
  // A full disk is a failed command (exit 4), never a truncated page and exit 0.
  write_output_file(path, html_page(page), "HTML page");
}

}  // namespace kb
