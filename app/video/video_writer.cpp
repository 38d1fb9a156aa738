#include "app/video/video_writer.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "compute/core/errors.h"
#include "render/gl/offscreen_target.h"

extern char** environ;

namespace ws::app {

namespace {

namespace fs = std::filesystem;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool isGif(const std::string& path) {
  return lower(fs::path(path).extension().string()) == ".gif";
}

std::string lastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

std::string fpsText(double fps) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", fps);
  return text;
}

}  // namespace

std::string VideoWriter::findFfmpeg() {
  if (const char* chosen = std::getenv("WARPSCOPE_FFMPEG"))
    return *chosen && ::access(chosen, X_OK) == 0 ? chosen : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / "ffmpeg";
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

VideoWriter::VideoWriter(VideoOptions options) : options_(std::move(options)) {
  const std::string extension = lower(fs::path(options_.path).extension().string());
  if (extension != ".mp4" && extension != ".mkv" && extension != ".mov" && extension != ".webm" &&
      extension != ".gif")
    throw InputError("video '" + options_.path +
                     "': expected a name ending .mp4, .mkv, .mov, .webm or .gif");
  if (options_.width < 16 || options_.height < 16 || options_.width % 2 || options_.height % 2)
    throw InputError("video size " + std::to_string(options_.width) + "x" +
                     std::to_string(options_.height) +
                     ": both sides must be even and at least 16 (the encoders need it)");
  if (!(options_.fps > 0 && options_.fps <= 1000))
    throw InputError("video frame rate must be above 0 and at most 1000");
  const fs::path parent = fs::absolute(options_.path).parent_path();
  if (!fs::is_directory(parent))
    throw InputError("video '" + options_.path + "': the folder " + parent.string() +
                     " does not exist");
  framesDir_ = (fs::path(options_.path).parent_path() /
                (fs::path(options_.path).stem().string() + "_frames"))
                   .string();
  const std::string ffmpeg = findFfmpeg();
  if (ffmpeg.empty() || !startFfmpeg(ffmpeg))
    fallBack(ffmpeg.empty() ? "ffmpeg not found" : "ffmpeg did not start");
  // PNG compression is slow: several writers, each its own file. ffmpeg needs the frames in order.
  const int writers = pngs_ ? std::max(2, int(std::thread::hardware_concurrency()) - 1) : 1;
  capacity_ = std::size_t(pngs_ ? 2 * writers : 8);
  for (int i = 0; i < writers; ++i) workers_.emplace_back([this] { work(); });
}

VideoWriter::~VideoWriter() {
  finish();
}

bool VideoWriter::startFfmpeg(const std::string& ffmpeg) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  const std::string size = std::to_string(options_.width) + "x" + std::to_string(options_.height);
  std::vector<std::string> args = {ffmpeg,
                                   "-hide_banner",
                                   "-loglevel",
                                   "error",
                                   "-y",
                                   "-f",
                                   "rawvideo",
                                   "-pix_fmt",
                                   "rgba",
                                   "-s",
                                   size,
                                   "-framerate",
                                   fpsText(options_.fps),
                                   "-i",
                                   "-"};
  if (isGif(options_.path))
    args.insert(args.end(), {"-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse"});
  else
    args.insert(args.end(), {"-c:v", "libx264", "-preset", options_.live ? "ultrafast" : "veryfast",
                             "-crf", "18", "-pix_fmt", "yuv420p", "-movflags", "+faststart"});
  args.push_back(options_.path);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const std::string log = options_.path + ".ffmpeg.log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (failed) {
    ::close(fds[1]);
    return false;
  }
  // A dead ffmpeg must come back as a failed write, not a signal that ends warpscope.
  ::signal(SIGPIPE, SIG_IGN);
  pipe_ = fds[1];
  child_ = pid;
  return true;
}

void VideoWriter::fallBack(const std::string& why) {
  pngs_ = true;
  why_ = why;
  fs::create_directories(framesDir_);
}

void VideoWriter::add(const std::uint8_t* bottomUp, std::function<void()> release, int copies) {
  std::unique_lock lock(lock_);
  changed_.wait(lock, [&] { return queue_.size() < capacity_; });
  queue_.push_back({added_, {}, bottomUp, std::move(release), copies});
  added_ += copies;
  changed_.notify_all();
}

void VideoWriter::copyOut(Frame& frame) const {
  // Image rows run top-down; GL's bottom-up.
  const std::size_t rowBytes = std::size_t(options_.width) * 4;
  frame.pixels.resize(rowBytes * options_.height);
  for (int y = 0; y < options_.height; ++y)
    std::memcpy(frame.pixels.data() + std::size_t(y) * rowBytes,
                frame.bottomUp + std::size_t(options_.height - 1 - y) * rowBytes, rowBytes);
  frame.release();
}

void VideoWriter::work() {
  for (;;) {
    Frame frame;
    bool png;
    {
      std::unique_lock lock(lock_);
      changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;
      frame = std::move(queue_.front());
      queue_.pop_front();
      png = pngs_;
      changed_.notify_all();
    }
    copyOut(frame);
    const long last = frame.index + frame.copies;
    for (; frame.index < last; ++frame.index) {
      if (png) {
        writePng(frame);
      } else if (!writeToPipe(frame.pixels)) {
        // ffmpeg stopped taking frames: this one and the rest go to PNG files.
        std::lock_guard lock(lock_);
        fallBack("ffmpeg stopped at frame " + std::to_string(frame.index) + ": " +
                 lastLine(options_.path + ".ffmpeg.log"));
        png = true;
        --frame.index;
      }
    }
  }
}

bool VideoWriter::writeToPipe(const std::vector<std::uint8_t>& pixels) {
  const auto* bytes = pixels.data();
  std::size_t left = pixels.size();
  while (left > 0) {
    const ssize_t wrote = ::write(pipe_, bytes, left);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    bytes += wrote, left -= std::size_t(wrote);
  }
  return true;
}

void VideoWriter::writePng(const Frame& frame) {
  char name[32];
  std::snprintf(name, sizeof name, "/frame_%06ld.png", frame.index);
  gl::writePng(framesDir_ + name, options_.width, options_.height, frame.pixels);
  std::lock_guard lock(lock_);
  ++pngFrames_;
}

std::string VideoWriter::mode() const {
  std::lock_guard lock(lock_);
  if (pngs_) return "PNG frames (" + why_ + ")";
  return isGif(options_.path) ? "GIF through ffmpeg" : "video through ffmpeg";
}

std::string VideoWriter::finish() {
  if (finished_) return summary_;
  {
    std::lock_guard lock(lock_);
    closing_ = true;
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  finished_ = true;
  int status = 0;
  if (pipe_ >= 0) ::close(pipe_);
  if (child_ > 0) ::waitpid(child_, &status, 0);
  const bool ffmpegFailed = child_ > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::string log = options_.path + ".ffmpeg.log";
  std::string summary;
  if (child_ > 0 && !ffmpegFailed && pngFrames_ == 0) {
    summary = "wrote " + options_.path + " (" + std::to_string(added_) + " frames, " +
              std::to_string(options_.width) + "x" + std::to_string(options_.height) + " at " +
              fpsText(options_.fps) + " fps)";
    std::error_code ignored;
    if (fs::file_size(log, ignored) == 0) fs::remove(log, ignored);
  } else {
    if (ffmpegFailed && why_.empty()) why_ = "ffmpeg failed: " + lastLine(log);
    summary = "warning: " + (why_.empty() ? std::string("ffmpeg failed") : why_) + "; " +
              std::to_string(pngFrames_) + " frames kept as PNG in " + framesDir_ +
              "; join them with: ffmpeg -framerate " + fpsText(options_.fps) + " -i " + framesDir_ +
              "/frame_%06d.png -c:v libx264 -pix_fmt yuv420p " + options_.path;
  }
  summary_ = summary;
  return summary_;
}

}  // namespace ws::app
