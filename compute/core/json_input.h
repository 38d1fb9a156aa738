#pragma once
// JSON read from files a user gives us (presets, sessions, checkpoints, settings) is untrusted:
// it is parsed with its nesting bounded, its faults are told by file, line and column, and a
// message quotes at most the start of a value it refuses.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ws::json_input {

// Deeper than this is refused while parsing (what we write nests 5 deep): a value nested 75,000
// deep would overflow the stack of whatever walks it.
constexpr int kMaxDepth = 64;

// Parses `text` from `where` (e.g. "preset 'a.json'"); a fault is an InputError naming `where`,
// the line and column, and what was wrong.
nlohmann::json parse(std::string_view text, const std::string& where);

// Reads and parses a file; `what` names it in messages ("preset", "session").
nlohmann::json parseFile(const std::string& path, const std::string& what);

// A file's text, read as parseFile reads it (a regular file within its size).
std::string readText(const std::string& path, const std::string& what);

// "line L, column C" of the first place `"key"` is a key in `text` (followed by a colon), or "".
std::string placeOfKey(std::string_view text, const std::string& key);

// "line L, column C" of a byte offset in `text`.
std::string position(std::string_view text, std::size_t byte);

// The longest message the program shows or prints, in bytes.
constexpr std::size_t kLongestMessage = 600;

// For a message: the start of `value` as JSON (at most `limit` characters, "..." after).
std::string briefJson(const nlohmann::json& value, std::size_t limit = 40);
// For a message: the start of `text`.
std::string brief(std::string_view text, std::size_t limit = 60);

// Throws the InputError for a JSON library error met reading `where`, its message shortened.
[[noreturn]] void throwLibraryError(const std::string& where, const nlohmann::json::exception& e);

// Runs `read`, turning a JSON library error (a missing key, a wrong type, a number out of range)
// into an InputError that names `where`.
template <typename Read>
auto guard(const std::string& where, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throwLibraryError(where, e);
  }
}

}  // namespace ws::json_input
