#include "report/markdown_html.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace kb {
namespace {

bool starts_with(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// `code` and **bold** in escaped text; `\|` (a pipe in a name, as markdown_cell escapes it) is a
// pipe.
std::string inline_html(const std::string& text) {
  std::string out;
  bool code = false, bold = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "\\|") == 0) {
      out += '|';
      ++i;
    } else if (text[i] == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else if (!code && text.compare(i, 2, "**") == 0) {
      out += bold ? "</strong>" : "<strong>";
      bold = !bold;
      ++i;
    } else {
      out += html_escape(std::string(1, text[i]));
    }
  }
  if (code) out += "</code>";
  if (bold) out += "</strong>";
  return out;
}

// The cells of a table line: split at each pipe that is not escaped (`\|` stays in its cell, as a
// GitHub table reads it), so a name holding a pipe keeps the table's columns.
std::vector<std::string> cells_of(const std::string& line) {
  const auto next_pipe = [&](std::size_t from) {
    for (std::size_t i = from; i < line.size(); ++i) {
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) return i;
    }
    return std::string::npos;
  };
  std::vector<std::string> cells;
  std::size_t start = next_pipe(0);
  while (start != std::string::npos) {
    const std::size_t end = next_pipe(start + 1);
    if (end == std::string::npos) break;
    cells.push_back(trimmed(line.substr(start + 1, end - start - 1)));
    start = end;
  }
  return cells;
}

std::string table_html(const std::vector<std::string>& lines) {
  const auto header = cells_of(lines[0]);
  std::vector<std::string> align;  // per column: "" or " class=\"num\""
  const auto rule = lines.size() > 1 ? cells_of(lines[1]) : std::vector<std::string>{};
  for (std::size_t c = 0; c < header.size(); ++c) {
    const bool right = c < rule.size() && !rule[c].empty() && rule[c].back() == ':';
    align.push_back(right ? " class=\"num\"" : "");
  }
  std::ostringstream out;
  out << "<div class=\"table\"><table>\n<thead><tr>";
  for (std::size_t c = 0; c < header.size(); ++c) {
    out << "<th" << align[c] << ">" << inline_html(header[c]) << "</th>";
  }
  out << "</tr></thead>\n<tbody>\n";
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const auto cells = cells_of(lines[i]);
    out << "<tr>";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      out << "<td" << (c < align.size() ? align[c] : "") << ">" << inline_html(cells[c])
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></div>\n";
  return out.str();
}

// "Scaling: NVIDIA H200 vs ..." -> "scaling-nvidia-h200-vs": a heading's anchor.
std::string anchor(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string markdown_html(const std::string& markdown, const ImageHtml& image) {
  std::vector<std::string> lines;
  std::istringstream in(markdown);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::ostringstream out;
  std::vector<std::string> paragraph;
  const auto flush_paragraph = [&]() {
    if (paragraph.empty()) return;
    std::string text;
    for (const auto& line : paragraph) text += (text.empty() ? "" : " ") + line;
    out << "<p>" << inline_html(text) << "</p>\n";
    paragraph.clear();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (trimmed(line).empty()) {
      flush_paragraph();
    } else if (starts_with(line, "#")) {
      flush_paragraph();
      const std::size_t level = line.find_first_not_of('#');
      const std::string text = trimmed(line.substr(level));
      const std::string h = "h" + std::to_string(std::min<std::size_t>(level, 6));
      out << "<" << h << " id=\"" << anchor(text) << "\">" << inline_html(text) << "</" << h
          << ">\n";
    } else if (starts_with(line, "|")) {
      flush_paragraph();
      std::vector<std::string> table;
      while (i < lines.size() && starts_with(lines[i], "|")) table.push_back(lines[i++]);
      --i;
      out << table_html(table);
    } else if (starts_with(line, "![") && line.find("](") != std::string::npos &&
               line.back() == ')') {
      flush_paragraph();
      // The last "](": an alt text (a plot's title, names in it) may hold one, a file name not.
      const std::size_t middle = line.rfind("](");
      out << image(line.substr(middle + 2, line.size() - middle - 3), line.substr(2, middle - 2));
    } else if (line == "<details>" || line == "</details>") {
      // kbench's own markup: kept as written.
      flush_paragraph();
      out << line << "\n";
    } else if (starts_with(line, "<details><summary>") && line.size() >= 28 &&
               line.compare(line.size() - 10, 10, "</summary>") == 0) {
      // The summary's text holds names (GPU models): text, escaped like any other.
      flush_paragraph();
      out << "<details><summary>" << inline_html(line.substr(18, line.size() - 28))
          << "</summary>\n";
    } else {
      paragraph.push_back(line);
    }
  }
  flush_paragraph();
  return out.str();
}

}  // namespace kb
