#pragma once
// Reading text files (meshes, graphs) token by token, with each token's line and column for the
// messages of a ParseError.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <limits>
#include <string>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws {

struct Token {
  std::string text;
  int line = 0, column = 0;
  // The text as a message quotes it: briefly, however long the token (a file without spaces).
  std::string shown() const { return json_input::brief(text); }
};

// Whitespace-separated tokens of a text file, with their positions; a `comment` character starts
// a comment to the end of the line.
class TextTokens {
 public:
  TextTokens(std::istream& in, std::string source, char comment = '#')
      : in_(in), source_(std::move(source)), comment_(comment) {}

  // The next token on this line, or false at the end of it (then nextLine()).
  bool onLine(Token& token) {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ >= text_.size() || text_[at_] == comment_) return false;
    const std::size_t start = at_;
    while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    token = {text_.substr(start, at_ - start), line_, int(start) + 1};
    return true;
  }
  bool nextLine() {
    if (!std::getline(in_, text_)) return false;
    ++line_;
    at_ = 0;
    return true;
  }
  // The next token, across lines; fails naming `what` at the end of the file.
  Token next(const std::string& what) {
    Token token;
    while (!onLine(token))
      if (!nextLine())
        fail(line_, int(text_.size()) + 1, "the file ends where " + what + " should be");
    return token;
  }
  // What is left of the current line, as one string (the PLY header's comments, OBJ names).
  std::string rest() {
    const std::string r = at_ < text_.size() ? text_.substr(at_) : "";
    at_ = text_.size();
    return r;
  }

  // Fails with `problem` at the first token left in the file (the rest of this line, then every
  // line after it): where a header said how much data there is, comments alone may follow.
  void requireEnd(const std::string& problem) {
    Token extra;
    for (bool more = true; more; more = nextLine())
      if (onLine(extra)) fail(extra, problem);
  }

  [[noreturn]] void fail(int line, int column, const std::string& problem) const {
    throw ParseError(source_, line, column, problem);
  }
  [[noreturn]] void fail(const Token& t, const std::string& problem) const {
    fail(t.line, t.column, problem);
  }

  float real(const Token& t, const char* what) const {
    char* end = nullptr;
    const float v = std::strtof(t.text.c_str(), &end);
    if (end == t.text.c_str() || *end != '\0')
      fail(t, std::string(what) + ": '" + t.shown() + "' is not a number");
    if (!std::isfinite(v)) fail(t, std::string(what) + ": '" + t.shown() + "' is not finite");
    return v;
  }
  long long integer(const Token& t, const char* what) const {
    char* end = nullptr;
    const long long v = std::strtoll(t.text.c_str(), &end, 10);
    if (end == t.text.c_str() || *end != '\0')
      fail(t, std::string(what) + ": '" + t.shown() + "' is not a whole number");
    return v;
  }
  long long count(const Token& t, const char* what) const {
    const long long v = integer(t, what);
    if (v < 0 || v > (long long)std::numeric_limits<std::uint32_t>::max())
      fail(t, std::string(what) + ": " + t.shown() + " is out of range");
    return v;
  }
  std::istream& stream() { return in_; }
  int line() const { return line_; }

 private:
  std::istream& in_;
  std::string source_;
  char comment_;
  std::string text_;
  std::size_t at_ = 0;
  int line_ = 0;
};

}  // namespace ws
