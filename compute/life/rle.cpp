#include "compute/life/rle.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/json_input.h"

namespace ws::life {

namespace {

class RleReader {
 public:
  RleReader(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  Pattern read() {
    Pattern pattern;
    readHeaderAndComments(pattern);
    readCells(pattern);
    return pattern;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw ParseError(source_, line_, column_, problem);
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  char next() {
    const char c = text_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  std::string restOfLine() {
    std::string out;
    while (!atEnd() && peek() != '\n') out += next();
    if (!atEnd()) next();
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return out;
  }

  void readHeaderAndComments(Pattern& pattern) {
    while (!atEnd()) {
      if (peek() == '#') {
        next();
        const char kind = atEnd() ? ' ' : next();
        std::string text = restOfLine();
        const auto first = text.find_first_not_of(' ');
        text = first == std::string::npos ? "" : text.substr(first);
        if (kind == 'N')
          pattern.name = text;
        else if (kind == 'C' || kind == 'c' || kind == 'O')
          pattern.comments.push_back(text);
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(peek()))) {
        next();
        continue;
      }
      if (peek() != 'x') fail("expected the header 'x = <width>, y = <height>' before the pattern");
      readHeader(pattern);
      return;
    }
    fail("no header 'x = <width>, y = <height>' (empty pattern file?)");
  }

  void readHeader(Pattern& pattern) {
    const int headerLine = line_;
    const std::string header = restOfLine();
    bool haveX = false, haveY = false;
    std::stringstream fields(header);
    std::string field;
    int fieldColumn = 1;
    while (std::getline(fields, field, ',')) {
      const auto eq = field.find('=');
      auto trim = [](std::string s) {
        s.erase(0, s.find_first_not_of(" \t"));
        s.erase(s.find_last_not_of(" \t\r") + 1);
        return s;
      };
      line_ = headerLine;
      column_ = fieldColumn;
      fieldColumn += static_cast<int>(field.size()) + 1;
      if (eq == std::string::npos)
        fail("header field '" + json_input::brief(trim(field)) + "' has no '='");
      const std::string key = trim(field.substr(0, eq));
      const std::string value = trim(field.substr(eq + 1));
      if (key == "x" || key == "y") {
        int v = 0;
        std::size_t used = 0;
        try {
          v = std::stoi(value, &used);
        } catch (...) {
          used = 0;
        }
        if (used == 0 || used != value.size() || v < 0)
          fail("the header's " + key + ": '" + json_input::brief(value) + "' is not a size");
        if (v > kMaxPatternSide)
          fail("pattern " + key + " = " + value + " is larger than the limit of " +
               std::to_string(kMaxPatternSide));
        (key == "x" ? pattern.width : pattern.height) = v;
        (key == "x" ? haveX : haveY) = true;
      } else if (key == "rule") {
        try {
          pattern.rule = LifeRule::parse(value);
        } catch (const InputError& e) {
          fail(e.what());
        }
      } else {
        fail("unknown header field '" + json_input::brief(key) + "'");
      }
    }
    line_ = headerLine;
    column_ = 1;
    if (!haveX || !haveY) fail("the header needs both x and y");
    line_ = headerLine + 1;
  }

  void readCells(Pattern& pattern) {
    int x = 0, y = 0;
    long long count = 0;
    bool haveCount = false;
    while (!atEnd()) {
      const char c = peek();
      if (std::isdigit(static_cast<unsigned char>(c))) {
        next();
        count = count * 10 + (c - '0');
        haveCount = true;
        if (count > kMaxPatternSide) fail("run length " + std::to_string(count) + " is too long");
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (haveCount) fail("a run length must be followed by b, o or $");
        next();
        continue;
      }
      const long long run = haveCount ? count : 1;
      if (haveCount && run == 0) fail("a run length of 0");
      count = 0;
      haveCount = false;
      if (c == '!') {
        next();
        return;
      }
      if (c == '$') {
        y += static_cast<int>(run);
        x = 0;
        if (y > pattern.height)
          fail("more rows than the header's y = " + std::to_string(pattern.height));
      } else if (c == 'b' || c == '.' || c == 'o' || c == 'A') {
        if (x + run > pattern.width)
          fail("row " + std::to_string(y + 1) +
               " is wider than the header's x = " + std::to_string(pattern.width));
        if (y >= pattern.height)
          fail("more rows than the header's y = " + std::to_string(pattern.height));
        if (c == 'o' || c == 'A') {
          if (pattern.cells.size() + run > kMaxPatternCells) fail("too many live cells");
          for (long long i = 0; i < run; ++i) pattern.cells.emplace_back(x + int(i), y);
        }
        x += static_cast<int>(run);
      } else if (c == '#') {
        restOfLine();  // comments after the header (some files have them)
        continue;
      } else {
        fail(std::string("unexpected character '") + c +
             "' in the pattern (expected b, o, $, ! or a count)");
      }
      next();
    }
    fail("the pattern ends without '!' (truncated file?)");
  }

  const std::string& text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1, column_ = 1;
};

}  // namespace

Pattern parseRle(const std::string& text, const std::string& source) {
  return RleReader(text, source).read();
}

Pattern loadRleFile(const std::string& path) {
  std::ifstream in = openInputFile(path, "pattern file", 64 * kMiB);
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  in.seekg(0);
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  Pattern pattern = parseRle(text, path);
  if (pattern.name.empty()) {
    const auto slash = path.find_last_of('/');
    pattern.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  }
  return pattern;
}

std::string writeRle(const Pattern& pattern) {
  std::ostringstream out;
  if (!pattern.name.empty()) out << "#N " << pattern.name << "\n";
  for (const auto& comment : pattern.comments) out << "#C " << comment << "\n";
  out << "x = " << pattern.width << ", y = " << pattern.height;
  if (pattern.rule) out << ", rule = " << pattern.rule->toString();
  out << "\n";

  std::vector<std::pair<int, int>> cells = pattern.cells;
  std::sort(cells.begin(), cells.end(), [](auto a, auto b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());

  // Lines of at most 70 characters, broken between runs (never inside one).
  std::string body, line;
  auto emit = [&](long long run, char tag) {
    if (run <= 0) return;
    const std::string token = (run > 1 ? std::to_string(run) : std::string()) + tag;
    if (line.size() + token.size() > 70) {
      body += line + "\n";
      line.clear();
    }
    line += token;
  };
  int y = 0;
  std::size_t i = 0;
  while (i < cells.size()) {
    const int row = cells[i].second;
    emit(row - y, '$');
    y = row;
    int x = 0;
    while (i < cells.size() && cells[i].second == row) {
      const int start = cells[i].first;
      int end = start;
      while (i < cells.size() && cells[i].second == row && cells[i].first == end) {
        ++end;
        ++i;
      }
      emit(start - x, 'b');
      emit(end - start, 'o');
      x = end;
    }
  }
  emit(1, '!');
  out << body << line << "\n";
  return out.str();
}

Pattern oriented(const Pattern& pattern, int orientation) {
  Pattern out = pattern;
  if (orientation & 4)
    for (auto& [x, y] : out.cells) x = out.width - 1 - x;
  for (int turn = 0; turn < (orientation & 3); ++turn) {
    // A quarter turn clockwise (y grows downwards): (x, y) -> (h - 1 - y, x).
    for (auto& [x, y] : out.cells) {
      const int was = x;
      x = out.height - 1 - y;
      y = was;
    }
    std::swap(out.width, out.height);
  }
  return out;
}

}  // namespace ws::life
