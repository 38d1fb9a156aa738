#include "app/video/screen_recorder.h"

#include <algorithm>
#include <cmath>

#include "compute/core/errors.h"

namespace ws::app {

void ScreenRecorder::start(const ScreenRecording& recording, int width, int height) {
  // Encoders need even sides: the last row or column of an odd window is left out.
  auto writer = std::make_unique<VideoWriter>(
      VideoOptions{recording.path, width & ~1, height & ~1, recording.fps, true});
  grabber_.emplace(width & ~1, height & ~1);
  writer_ = std::move(writer);
  recording_ = recording;
  copies_.clear();
  written_ = 0;
  started_ = std::chrono::steady_clock::now();
}

ScreenRecorder::~ScreenRecorder() {
  stop();
}

std::string ScreenRecorder::stop() {
  if (!writer_) return "";
  for (auto& frame : grabber_->drain()) {
    writer_->add(frame.bottomUp, std::move(frame.release), copies_.front());
    copies_.pop_front();
  }
  lastSummary = writer_->finish();
  writer_.reset();
  grabber_.reset();
  return lastSummary;
}

void ScreenRecorder::beginFrame(bool stepped, int width, int height) {
  due_ = 0;
  if (!writer_) return;
  if ((width & ~1) != grabber_->width() || (height & ~1) != grabber_->height()) {
    stop();
    lastSummary = "warning: the window changed size, so the video stopped; " + lastSummary;
    return;
  }
  if (recording_.pace == ScreenRecording::Pace::EachStep) {
    due_ = stepped ? 1 : 0;
    return;
  }
  // By the wall clock: as many frames as the time since the start asks for (a slow frame is
  // repeated, a fast one may be skipped), at most a second's worth at once.
  const long wanted = long(std::floor(seconds() * recording_.fps)) + 1;
  due_ = int(std::clamp(wanted - written_, 0l, long(std::ceil(recording_.fps))));
  written_ += due_;
}

void ScreenRecorder::capture(ScreenRecording::Capture point) {
  if (!writer_ || due_ == 0 || point != recording_.capture) return;
  copies_.push_back(due_);
  if (auto frame = grabber_->grab()) {
    writer_->add(frame->bottomUp, std::move(frame->release), copies_.front());
    copies_.pop_front();
  }
}

double ScreenRecorder::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace ws::app
