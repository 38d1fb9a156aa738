#pragma once
#include <string>

#include "app/lab.h"

namespace ws::app {

struct GuiOptions {
  LabOptions lab;
  int width = 1600, height = 1000;
  std::string screenshot;   // written when the program quits (and on F12, numbered)
  int quitAfterFrames = 0;  // 0: run until the window closes (tests use a count)
  // Demo sessions from the start (the panel's "Record and replay" does the same later).
  std::string recordSession;  // record a session from the start state into this file
  std::string recordVideo;    // record the window into this video
  std::string replaySession;  // replay this session
  // Drive the window from this UI test script (app/ui/ui_driver.h); exit 3 when a check fails.
  std::string uiScript;
  bool resetSettings = false;  // forget the remembered settings (app/ui/settings.h) first
  // Whether the command line chose these; where it did not, the remembered ones are used.
  bool windowGiven = false, moduleGiven = false, outputDirGiven = false;
};

// The interactive GUI: GLFW window, OpenGL 4.3 core, ImGui. Returns the process exit code.
int runGui(const GuiOptions& options);

}  // namespace ws::app
