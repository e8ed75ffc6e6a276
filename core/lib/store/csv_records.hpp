// The records of CSV text as bytes, without parsing cells: where each record and each of its
// fields lies, as written (quotes and all), and whether it ends cleanly. What the store needs to
// judge and rewrite a file byte for byte (a last row cut short, an older header's columns) where
// the reader (libfccp, store/results_store.cpp) would only refuse it.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kb {

// A record without the places of its fields: enough to judge a file read a block at a time,
// whatever its size.
struct CsvRecordShape {
  std::size_t begin = 0, end = 0;  // [begin, end): its bytes without the line feed that ends it
  std::size_t field_count = 1;
  bool terminated = false;  // a line feed outside quotes ends it
  bool quotes_closed = true;
  bool holds_nul = false;  // no writer of CSV text writes one; libfccp reads it as a line's end
  std::size_t line = 0;  // the line it starts on, counting `first_line` for the one at `offset`
  // The most fields a line after its first holds on its own with its quotes closed: a record one
  // of whose later lines is a whole row is a quote left open that swallowed the rows after it,
  // not a quoted cell holding a line break.
  std::size_t widest_later_line = 0;
  // Set for the record the text ends inside: the text's last byte is a line feed, inside quotes.
  bool ends_in_line_feed = false;
};

struct CsvRecord : CsvRecordShape {
  std::vector<std::pair<std::size_t, std::size_t>> fields;  // [begin, end) of each
};

// Reads CSV text in as many pieces as it comes, keeping none of it. Every double quote toggles
// quoting, as RFC 4180's doubled quotes toggle twice; a quoted field may hold line breaks (kbench
// writes them as \n, but a person or another tool may not).
class CsvScanner {
 public:
  explicit CsvScanner(std::size_t offset = 0, std::size_t first_line = 1) : position_(offset) {
    record_.begin = field_begin_ = line_begin_ = offset;
    record_.line = line_ = first_line;
  }

  // Reads the text's next bytes: on_field(begin, end) for each field they end, on_record(shape)
  // for each record.
  template <typename OnField, typename OnRecord>
  void read(std::string_view piece, OnField&& on_field, OnRecord&& on_record) {
    for (const char ch : piece) {
      const std::size_t at = position_++;
      if (ch == '"') {
        quoted_ = !quoted_;
        line_quoted_ = !line_quoted_;
      } else if (ch == ',') {
        if (!line_quoted_) ++line_fields_;
        if (quoted_) continue;
        on_field(field_begin_, at);
        field_begin_ = at + 1;
        ++record_.field_count;
      } else if (ch == '\0') {
        record_.holds_nul = true;
      } else if (ch == '\n') {
        end_line();
        line_begin_ = at + 1;
        if (quoted_) continue;
        on_field(field_begin_, at);
        record_.end = at;
        record_.terminated = true;
        on_record(static_cast<const CsvRecordShape&>(record_));
        record_ = CsvRecordShape{};
        record_.begin = field_begin_ = at + 1;
        record_.line = line_;
      }
    }
  }

  // The record the text ended inside (its last line lacks a line feed, or a quote is open), if any.
  std::optional<CsvRecordShape> unterminated() const {
    if (position_ == record_.begin) return std::nullopt;
    CsvRecordShape last = record_;
    last.end = position_;
    last.quotes_closed = !quoted_;
    last.ends_in_line_feed = position_ == line_begin_;
    if (line_ > last.line && !last.ends_in_line_feed && !line_quoted_) {
      last.widest_later_line = std::max(last.widest_later_line, line_fields_);
    }
    return last;
  }
  // Where the field being read began.
  std::size_t field_begin() const { return field_begin_; }

 private:
  void end_line() {
    if (line_ > record_.line && !line_quoted_) {
      record_.widest_later_line = std::max(record_.widest_later_line, line_fields_);
    }
    ++line_;
    line_fields_ = 1;
    line_quoted_ = false;
  }

  std::size_t position_, field_begin_, line_begin_, line_;
  CsvRecordShape record_;
  bool quoted_ = false;
  // The line being read, on its own: its fields, and its quotes counted from its start.
  std::size_t line_fields_ = 1;
  bool line_quoted_ = false;
};

// The records of `text` from `offset`.
std::vector<CsvRecord> csv_records(std::string_view text, std::size_t offset = 0,
                                   std::size_t first_line = 1);

// The records of the open file `fd` from `offset`, read a block at a time: each(shape) for each
// record a line feed ends; returns the one the file ends inside, if any. A failed read throws as
// throw_file_error (util/write_error.hpp) does, naming `what` and `path`.
std::optional<CsvRecordShape> scan_csv_file(
    int fd, const std::string& what, const std::string& path, off_t offset,
    std::size_t first_line, const std::function<void(const CsvRecordShape&)>& each);

// How a record stands in a file whose header has `columns` fields.
struct RecordVerdict {
  enum class Kind {
    row,          // a row of the header's fields (or an empty line)
    unfinished,   // the file's end: a whole row lacking only its line feed
    torn,         // the file's end: a row cut short (a writer killed mid-row), to move aside
    corrupt,      // no row: `fault` says why, naming the line
  } kind = Kind::row;
  std::string fault;  // "line 6 has 3 cells, its header 66"
};
RecordVerdict judge_record(const CsvRecordShape& record, std::size_t columns);

}  // namespace kb
