#pragma once
// Runs the real window under Xvfb on a UI script (app/ui/ui_driver.h): the driver finds widgets by
// their labels, operates them as a user would, and checks what should have happened; the program
// exits 3 and names the script's line when a check fails. Each run has a folder of its own, which
// is its working directory (files the GUI writes land there) and its settings folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/xvfb.h"

namespace ws::test {

struct UiRun {
  std::string dir;  // the run's folder
  ProcessResult result;
  bool passed() const { return result.exitCode == 0; }
};

inline bool canRunWindows() {
  return hasXvfb();
}

// `script`: the commands; `options`: warpscope's (the window's size with --window WxH).
// `fresh`: start from an empty folder (false: keep the last run's settings and files).
// `screen`: under Xvfb (false: a script refused before any window opens needs no screen).
// `environment`: shell assignments for the program ("WARPSCOPE_FILE_DIALOG=builtin").
inline UiRun runUiScript(const std::string& name, const std::string& script,
                         const std::string& options, bool fresh = true, bool screen = true,
                         const std::string& environment = "") {
  UiRun run;
  run.dir = ::testing::TempDir() + "/ui-" + name;
  if (fresh) std::filesystem::remove_all(run.dir);
  std::filesystem::create_directories(run.dir);
  const std::string path = run.dir + "/script.ui";
  std::ofstream(path) << script;
  // The program's own exit status, printed last, apart from the screen's. Each step is traced, so
  // a failure's output shows where the run was; a run is stopped before ctest's 900 s would.
  const std::string program = "cd " + run.dir + " && export XDG_CONFIG_HOME=" + run.dir +
                              "/config && export WARPSCOPE_UI_TRACE=1 " + environment +
                              " && timeout 840 " + std::string(WARPSCOPE_BIN) + " " + options +
                              " --ui-script " + path + " 2>&1; echo warpscope-exit: $?";
  // A screen larger than any window the scripts ask for.
  run.result = screen ? runUnderXvfb("2400x1400", program) : runProcess(program);
  const auto at = run.result.output.rfind("warpscope-exit: ");
  run.result.exitCode = at == std::string::npos ? -1 : std::stoi(run.result.output.substr(at + 16));
  return run;
}

// A word for a script, quoted.
inline std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

}  // namespace ws::test
