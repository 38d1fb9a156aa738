#pragma once
// Error types shared by every module. Each one carries a message meant for the user: it names the
// thing that was wrong (file and position, parameter and range) so the UI can show it unchanged.
#include <stdexcept>
#include <string>

namespace ws {

// A value the user gave (a parameter, a size, a command-line flag) that is not acceptable.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file the user loaded (pattern, preset, mesh, graph, session) that could not be parsed.
class ParseError : public InputError {
 public:
  ParseError(const std::string& source, int line, int column, const std::string& problem)
      : InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                   problem),
        line_(line),
        column_(column) {}
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  int line_;
  int column_;
};

// A request that does not fit in the memory of the chosen backend.
class OutOfMemoryError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace ws
