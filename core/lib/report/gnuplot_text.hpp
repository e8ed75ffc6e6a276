// Text from a results CSV (plugin, GPU and run names, ops, shapes: any cell of a file someone else
// wrote) on its way into a gnuplot script or data file. gnuplot runs the command between
// backquotes inside a double-quoted string and expands @macros outside strings; a single-quoted
// string takes neither, and a data file's text is never evaluated. So text reaches a script only
// as a single-quoted string, and a data file only as one column of one line.
#pragma once

#include <string>

namespace kb {

// 'text' as a gnuplot string literal: single-quoted (a quote doubled, as gnuplot reads it), line
// breaks and other control characters as spaces, so the command stays one line.
std::string gnuplot_string(const std::string& text);

// `text` as one field of a tab-separated data line: tabs, line breaks and control characters as
// spaces, and double quotes (which would open a quoted field swallowing the next ones) as single.
std::string gnuplot_data_text(const std::string& text);

}  // namespace kb
