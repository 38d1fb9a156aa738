#pragma once
// Runs a shell command on a virtual screen of its own (tests/with-xvfb.sh), for the tests that
// open the real window.
#include <string>

#include "tests/process.h"

namespace ws::test {

inline bool hasXvfb() {
  return runProcess("command -v Xvfb").exitCode == 0;
}

// `command` runs through sh -c on a screen of `size` ("WxH"); the result is its exit status.
inline ProcessResult runUnderXvfb(const std::string& size, const std::string& command) {
  std::string quoted;
  for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return runProcess(std::string(WS_SOURCE_DIR) + "/tests/with-xvfb.sh " + size + " '" + quoted +
                    "'");
}

}  // namespace ws::test
