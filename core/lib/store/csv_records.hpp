// The records of CSV text as bytes, without parsing cells: where each record and each of its
// fields lies, as written (quotes and all), and whether it ends cleanly. What the store needs to
// judge and rewrite a file byte for byte (a last row cut short, an older header's columns) where
// the reader (libfccp, store/results_store.cpp) would only refuse it.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace kb {

struct CsvRecord {
  std::size_t begin = 0, end = 0;  // [begin, end): its bytes without the line feed that ends it
  std::vector<std::pair<std::size_t, std::size_t>> fields;  // [begin, end) of each
  bool terminated = false;  // a line feed outside quotes ends it
  bool quotes_closed = true;
  std::size_t line = 0;  // the line it starts on, counting `first_line` for the one at `offset`
};

// The records of `text` from `offset`. Every double quote toggles quoting, as RFC 4180's doubled
// quotes toggle twice; a quoted field may hold line breaks (kbench writes them as \n, but a person
// or another tool may not).
std::vector<CsvRecord> csv_records(std::string_view text, std::size_t offset = 0,
                                   std::size_t first_line = 1);

}  // namespace kb
