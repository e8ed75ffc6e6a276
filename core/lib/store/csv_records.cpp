#include "store/csv_records.hpp"

namespace kb {

std::vector<CsvRecord> csv_records(std::string_view text, std::size_t offset,
                                   std::size_t first_line) {
  std::vector<CsvRecord> records;
  std::size_t pos = offset, line = first_line;
  while (pos < text.size()) {
    CsvRecord record;
    record.begin = pos;
    record.line = line;
    std::size_t field = pos;
    bool quoted = false;
    for (; pos < text.size(); ++pos) {
      const char ch = text[pos];
      if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        record.fields.emplace_back(field, pos);
        field = pos + 1;
      } else if (ch == '\n') {
        ++line;
        if (!quoted) break;
      }
    }
    record.fields.emplace_back(field, pos);
    record.end = pos;
    record.quotes_closed = !quoted;
    record.terminated = pos < text.size();
    if (record.terminated) ++pos;
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace kb
