#pragma once
// Writes frames to a video off the render thread: an MP4 (or another container ffmpeg knows by
// its extension) or a GIF through an ffmpeg child process fed raw frames by a pipe, or, where
// ffmpeg is missing or fails, a PNG sequence beside the video's name with the ffmpeg command that
// joins it. The render thread only queues frames; a full queue makes it wait rather than drop.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ws::app {

struct VideoOptions {
  std::string path;  // .mp4, .mkv, .mov, .webm or .gif
  int width = 0, height = 0;
  double fps = 60;
  // Recorded while the user works: an encoder preset that keeps up with 1080p at 60 frames per
  // second on two cores (x264 ultrafast, files about 3x larger); offline, a slower, smaller one.
  bool live = false;
};

class VideoWriter {
 public:
  // Throws InputError for a path it cannot write or a size ffmpeg's encoders refuse (odd).
  explicit VideoWriter(VideoOptions options);
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // RGBA8 rows bottom first (as GL reads them), copied on a writer thread, which then calls
  // `release`; the frame goes into the video `copies` times.
  void add(const std::uint8_t* bottomUp, std::function<void()> release, int copies = 1);
  // Waits for every frame to be written and the encoder to finish; says what was written, and
  // why the frames went to PNG files instead where they did. Called by the destructor too.
  std::string finish();

  long frames() const { return added_; }
  const VideoOptions& options() const { return options_; }
  // "MP4 through ffmpeg", "PNG frames (ffmpeg not found)", ...
  std::string mode() const;

  // The ffmpeg to use: $WARPSCOPE_FFMPEG when set (empty: none), else `ffmpeg` on the PATH; ""
  // when there is none.
  static std::string findFfmpeg();

 private:
  struct Frame {
    long index;
    std::vector<std::uint8_t> pixels;
    const std::uint8_t* bottomUp = nullptr;  // copied into pixels by a writer thread
    std::function<void()> release;
    int copies = 1;
  };
  void copyOut(Frame& frame) const;
  void work();
  bool startFfmpeg(const std::string& ffmpeg);
  void writePng(const Frame& frame);
  bool writeToPipe(const std::vector<std::uint8_t>& pixels);
  void fallBack(const std::string& why);  // under lock_

  VideoOptions options_;
  std::string framesDir_;
  int pipe_ = -1;
  int child_ = -1;
  bool pngs_ = false;
  std::string why_;  // why PNG frames, if they are
  long added_ = 0, pngFrames_ = 0;
  std::deque<Frame> queue_;
  std::size_t capacity_;
  bool closing_ = false, finished_ = false;
  mutable std::mutex lock_;
  std::condition_variable changed_;
  std::vector<std::thread> workers_;
  std::string summary_;
};

}  // namespace ws::app
