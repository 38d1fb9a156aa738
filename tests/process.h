#pragma once
// Runs the real warpscope program for the command-line and GUI tests.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace ws::test {

struct ProcessResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr together
};

inline ProcessResult runProcess(const std::string& command) {
  ProcessResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) result.output += buffer.data();
  const int status = pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace ws::test
