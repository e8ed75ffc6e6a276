// The files of core/lib/report/html, compiled in (core/CMakeLists.txt generates their definitions):
// the HTML pages inline them, so a page opens offline from disk and the binary needs no data
// files.
#pragma once

namespace kb {

extern const char* const kUplotJs;       // uPlot 1.6.32, minified (vendor/uplot)
extern const char* const kUplotCss;
extern const char* const kUplotLicence;  // its MIT licence, carried into every page
extern const char* const kPageCss;       // the pages' own style
extern const char* const kCommonJs;      // what both pages share: data, colours, tooltips
extern const char* const kReportJs;      // kbench report --html
extern const char* const kHistoryJs;     // kbench report --history --html

}  // namespace kb
