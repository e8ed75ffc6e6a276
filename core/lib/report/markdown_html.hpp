// The markdown kbench writes (report.md) as HTML, so that the HTML page's first page is the
// markdown report's, table for table, by construction rather than by a second copy of its rules.
// The subset it writes: headings, paragraphs, pipe tables with their alignment, `code`,
// **bold**, images on a line of their own, and <details>/<summary> lines, passed through.
#pragma once

#include <functional>
#include <string>

namespace kb {

// `image` gets an image's file name ("roofline.png") and its alt text and returns the HTML that
// stands in for it (an interactive chart), or "" to leave it out.
using ImageHtml = std::function<std::string(const std::string& file, const std::string& alt)>;

std::string markdown_html(const std::string& markdown, const ImageHtml& image);

// &, <, > and " as entities.
std::string html_escape(const std::string& text);

}  // namespace kb
