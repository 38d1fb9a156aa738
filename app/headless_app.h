#pragma once
#include <string>
#include <vector>

#include "app/lab.h"

namespace ws::app {

struct HeadlessOptions {
  LabOptions lab;
  int width = 1280, height = 720;
  long steps = 100;       // total simulation steps
  std::string framesDir;  // PNG per frame (every `frameEvery` frames) when set
  int frameEvery = 1;
  bool withUi = false;               // draw the ImGui panels into the frames
  std::string screenshot;            // the last frame as PNG
  std::string reportJson;            // frame-time statistics as JSON
  std::vector<std::string> actions;  // module actions run after the steps ("save mesh")
  int eglDevice = -1;
  std::string video;      // every frame into this video (app/video/video_writer.h)
  double fps = 60;        // of the video; a replay's, 0: the recording's pace
  bool realtime = false;  // frames paced at `fps`, as a display would show them
  // A session to replay (`warpscope replay`) instead of running `steps`: its frames, as recorded.
  std::string replay;
  std::string recordSession;  // record the run as a session (from its start state)
  bool roofline = false;      // measure every variant and draw the roofline window (with the UI)
  bool sweep = false;         // run the scaling sweep first and draw its window (with the UI)
};

// Runs with an EGL device context (no window, no X server) and the GUI's drawing code.
int runHeadless(const HeadlessOptions& options);

}  // namespace ws::app
