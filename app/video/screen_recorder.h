#pragma once
// Records what the GUI shows into a video while the user works: the whole window, the simulation
// view alone, or the view with the timings window (its plots and colour bar) kept in. Frames are
// taken at the point of the frame where that picture is complete, once per simulation step (a
// paused frame adds none) or at a steady rate by the wall clock; reading them back is
// asynchronous and the encoding runs on other threads (video_writer.h).
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "app/video/video_writer.h"
#include "render/gl/frame_grabber.h"

namespace ws::app {

struct ScreenRecording {
  enum class Capture { Window, View, ViewAndTimings } capture = Capture::Window;
  enum class Pace { EachStep, WallClock } pace = Pace::WallClock;
  std::string path = "warpscope.mp4";
  double fps = 60;
};

class ScreenRecorder {
 public:
  // Throws InputError (nothing started) for a path or size the writer refuses.
  void start(const ScreenRecording& recording, int width, int height);
  // Finalizes the file; says what was written. Also on destruction (the window closed).
  std::string stop();
  ~ScreenRecorder();

  bool active() const { return writer_ != nullptr; }
  const ScreenRecording& recording() const { return recording_; }
  // At the start of each frame: how many copies of this frame the video needs (0 for none).
  void beginFrame(bool stepped, int width, int height);
  // At each point of the frame where a picture is complete: grabs it if it is the chosen one.
  void capture(ScreenRecording::Capture point);

  double seconds() const;
  long frames() const { return writer_ ? writer_->frames() : 0; }
  std::string mode() const { return writer_ ? writer_->mode() : ""; }
  std::string lastSummary;  // what the last stop() said

 private:
  ScreenRecording recording_;
  // The writer is declared after the grabber, so it is destroyed first, having released every
  // frame it was reading from the grabber's buffers.
  std::optional<gl::FrameGrabber> grabber_;
  std::unique_ptr<VideoWriter> writer_;
  std::deque<int> copies_;  // per grab in flight: how many times its frame goes into the video
  int due_ = 0;
  long written_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace ws::app
