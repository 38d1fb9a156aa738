#pragma once
// Records a session while the user works: the start (module, parameters and state), then every
// action the lab performs (the playback's included), stamped with its frame and step.
// The session file is written at the start and again each second as it goes (marked
// "unfinished" in its end), so that a run that is killed keeps what it recorded.
#include <chrono>
#include <string>

#include "app/session/session.h"

namespace ws::app {

class Lab;

class SessionRecorder {
 public:
  // Starts from the lab as it is: its state is written beside `path` as a checkpoint, unless the
  // lab was just reset (`fromReset`), which the session then says instead.
  SessionRecorder(std::string path, Lab& lab, bool fromReset);

  void log(Lab& lab, nlohmann::json action);
  // Called by the lab's advance(), before it steps: counts the frame (the playback's changes are
  // actions, logged as they are performed).
  void frame(Lab& lab);
  // Writes the session file (with the end state's hash); returns what it wrote, in words.
  std::string finish(Lab& lab);

  const std::string& path() const { return session_.path; }
  long frames() const { return frames_; }
  std::size_t events() const { return session_.events.size(); }
  double seconds() const;

 private:
  void save(Lab& lab, bool finished);

  Session session_;
  long frames_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now(), saved_;
};

}  // namespace ws::app
