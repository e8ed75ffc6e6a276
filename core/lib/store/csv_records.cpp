#include "store/csv_records.hpp"

#include "util/write_error.hpp"

#include <unistd.h>

#include <cerrno>

namespace kb {

std::vector<CsvRecord> csv_records(std::string_view text, std::size_t offset,
                                   std::size_t first_line) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  CsvScanner scanner(offset, first_line);
  scanner.read(
      text.substr(offset),
      [&](std::size_t begin, std::size_t end) { record.fields.emplace_back(begin, end); },
      [&](const CsvRecordShape& shape) {
        static_cast<CsvRecordShape&>(record) = shape;
        records.push_back(std::move(record));
        record = CsvRecord{};
      });
  if (const auto last = scanner.unterminated()) {
    static_cast<CsvRecordShape&>(record) = *last;
    record.fields.emplace_back(scanner.field_begin(), last->end);
    records.push_back(std::move(record));
  }
  return records;
}

std::optional<CsvRecordShape> scan_csv_file(
    int fd, const std::string& what, const std::string& path, off_t offset,
    std::size_t first_line, const std::function<void(const CsvRecordShape&)>& each) {
  CsvScanner scanner(static_cast<std::size_t>(offset), first_line);
  std::vector<char> block(1 << 20);
  while (true) {
    const ssize_t n = ::pread(fd, block.data(), block.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_file_error("read", what, path, errno);
    if (n == 0) return scanner.unterminated();
    scanner.read(std::string_view(block.data(), static_cast<std::size_t>(n)),
                 [](std::size_t, std::size_t) {}, each);
    offset += n;
  }
}

RecordVerdict judge_record(const CsvRecordShape& record, std::size_t columns) {
  using Kind = RecordVerdict::Kind;
  const std::string line = "line " + std::to_string(record.line);
  const auto cells = [&] {
    return line + " has " + std::to_string(record.field_count) + " cells, its header " +
           std::to_string(columns);
  };
  if (record.terminated) {
    if (record.holds_nul) return {Kind::corrupt, line + " holds a NUL byte"};
    const bool empty = record.begin == record.end;
    if (empty || record.field_count == columns) return {Kind::row, ""};
    return {Kind::corrupt, cells()};
  }
  // The file ends inside it. A writer cut short left no line feed after the last of its bytes,
  // no more cells than a row, and only the rest of one quoted cell on each line after its first.
  if (record.ends_in_line_feed || record.widest_later_line == columns) {
    return {Kind::corrupt, line + " opens a quoted cell that no line closes"};
  }
  if (record.field_count > columns) return {Kind::corrupt, cells()};
  if (record.quotes_closed && record.field_count == columns && !record.holds_nul) {
    return {Kind::unfinished, ""};
  }
  return {Kind::torn, ""};
}

}  // namespace kb
