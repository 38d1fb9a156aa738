#pragma once
// The command line: GUI by default, --headless for EGL rendering, `bench` for measurements.
namespace ws::app {

// Exit codes: 0 success, 1 runtime failure, 2 bad command line or input.
int runCommandLine(int argc, char** argv);

}  // namespace ws::app
