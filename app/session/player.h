#pragma once
// Replays a recorded session into a lab, frame by frame as it was recorded: each frame's actions,
// then the lab's advance. Seeking restores the nearest checkpoint before the frame (kept in
// memory as the replay goes) and simulates forward from it.
#include <map>
#include <optional>
#include <string>

#include "app/session/session.h"
#include "app/session/snapshot.h"

namespace ws::app {

class Lab;

class SessionPlayer {
 public:
  // `backend` replaces the recorded one (a CUDA session replayed on a machine without a GPU);
  // variant switches then keep the backend's default.
  explicit SessionPlayer(Session session, std::optional<Backend> backend = std::nullopt);

  // Puts the lab in the session's start state; throws InputError (the lab unchanged) when it
  // cannot (a checkpoint that does not fit the module, a module that refuses its parameters).
  void begin(Lab& lab);
  // One recorded frame. Returns false at the end.
  bool advance(Lab& lab);
  // To the start of frame `frame` (clamped to the session), as a straight run would reach it.
  void seek(Lab& lab, long frame);

  long frame() const { return frame_; }
  long frames() const { return session_.frames(); }
  bool atEnd() const { return frame_ >= frames(); }
  const Session& session() const { return session_; }
  // Files the session refers to that are gone or changed since recording (its start checkpoint
  // included), said before the replay begins: the replay may not reach the recorded state.
  const std::vector<std::string>& changedFiles() const { return changed_; }
  // At the end: whether the state equals the recorded run's, in words; empty before the end.
  std::string verdict(Lab& lab);
  bool matched() const { return matched_; }

  // GUI playback: frames per drawn frame (fractions accumulate) while playing.
  bool playing = true;
  double speed = 1;
  void tick(Lab& lab);

  // Memory the in-memory checkpoints may take; past it, every other one goes and they are
  // kept twice as far apart.
  static constexpr std::size_t kCheckpointBytes = std::size_t(1) << 30;

 private:
  void keepCheckpoint(Lab& lab);
  void applyEvents(Lab& lab);  // those of frame_
  nlohmann::json adapt(nlohmann::json action) const;

  Session session_;
  std::optional<Backend> backend_;
  LabSnapshot start_;
  long frame_ = 0;
  std::size_t nextEvent_ = 0;
  std::map<long, LabSnapshot> checkpoints_;  // by frame, each taken before that frame's events
  long interval_ = 30;
  double credit_ = 0;
  std::string verdict_;
  std::vector<std::string> changed_;
  bool matched_ = false;
};

}  // namespace ws::app
