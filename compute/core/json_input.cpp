#include "compute/core/json_input.h"

#include <cctype>
#include <fstream>
#include <iterator>

#include "compute/core/errors.h"
#include "compute/core/input_file.h"

namespace ws::json_input {

namespace {

// What the library says is wrong, without its prefix ("[json.exception.parse_error.101] parse
// error at line 1, column 5: ") or the token it last read (which can be the whole file).
std::string problem(const nlohmann::json::exception& e) {
  std::string text = e.what();
  if (const auto bracket = text.find("] "); bracket != std::string::npos)
    text = text.substr(bracket + 2);
  if (const auto colon = text.find(": "); colon != std::string::npos && text.rfind("parse", 0) == 0)
    text = text.substr(colon + 2);
  if (const auto last = text.find("; last read"); last != std::string::npos) text.resize(last);
  return brief(std::string_view(text), 120);
}

}  // namespace

std::string position(std::string_view text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, column = 1;
    else
      ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

nlohmann::json parse(std::string_view text, const std::string& where) {
  // Nesting is counted before parsing, outside strings, so that the fault has its place.
  int depth = 0;
  bool inString = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth)
        throw InputError(where + " nests values deeper than " + std::to_string(kMaxDepth) +
                         " levels, at " + position(text, i + 1));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(where + " is not valid JSON at " + position(text, e.byte) + ": " + problem(e) +
                     (e.byte >= text.size() ? " (the file ends early: truncated?)" : ""));
  } catch (const nlohmann::json::out_of_range& e) {  // a number too large for a double (1e309)
    // The library names the number but not its place: the number's first occurrence is it.
    const std::string what = e.what();
    const auto open = what.find('\''), close = what.rfind('\'');
    const auto at =
        open < close ? text.find(what.substr(open + 1, close - open - 1)) : std::string_view::npos;
    if (at == std::string_view::npos) throwLibraryError(where, e);
    throw InputError(where + " is not valid JSON at " + position(text, at + 1) + ": " + problem(e));
  }
}

std::string readText(const std::string& path, const std::string& what) {
  std::ifstream in = openInputFile(path, what, 256 * kMiB);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw InputError("cannot read " + what + " '" + path + "'");
  return text;
}

nlohmann::json parseFile(const std::string& path, const std::string& what) {
  return parse(readText(path, what), what + " '" + path + "'");
}

std::string placeOfKey(std::string_view text, const std::string& key) {
  const std::string quoted = "\"" + key + "\"";
  for (auto at = text.find(quoted); at != std::string_view::npos; at = text.find(quoted, at + 1)) {
    auto after = at + quoted.size();
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == ':') return position(text, at + 1);
  }
  return "";
}

std::string briefJson(const nlohmann::json& value, std::size_t limit) {
  return brief(
      std::string_view(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
      limit);
}

std::string brief(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

void throwLibraryError(const std::string& where, const nlohmann::json::exception& e) {
  throw InputError(where + ": " + problem(e));
}

}  // namespace ws::json_input
