#include "app/session/player.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/lab.h"
#include "compute/core/errors.h"

namespace ws::app {

namespace {

std::size_t stateBytes(const std::map<long, LabSnapshot>& checkpoints) {
  std::size_t bytes = 0;
  for (const auto& [frame, snapshot] : checkpoints) bytes += snapshot.state.data.size();
  return bytes;
}

}  // namespace

SessionPlayer::SessionPlayer(Session session, std::optional<Backend> backend)
    : session_(std::move(session)), backend_(backend) {
  start_.meta = session_.start;
  changed_ = ws::app::changedFiles(session_);
  const std::string checkpoint = session_.checkpointPath();
  if (checkpoint.empty())
    start_.reset = true;
  else
    start_.state = readCheckpoint(checkpoint).state;
}

void SessionPlayer::begin(Lab& lab) {
  const std::string checkpoint = session_.checkpointPath();
  lab.restore(start_, backend_, checkpoint.empty() ? "" : "checkpoint '" + checkpoint + "'");
  frame_ = 0;
  nextEvent_ = 0;
  checkpoints_.clear();
  checkpoints_[0] = lab.snapshot();
  verdict_.clear();
  credit_ = 0;
}

nlohmann::json SessionPlayer::adapt(nlohmann::json action) const {
  // On another backend than recorded, a variant switch keeps that backend's default.
  if (backend_ && action["type"] == "select") {
    action["backend"] = toString(*backend_);
    action["variant"] = "";
  }
  return action;
}

bool SessionPlayer::advance(Lab& lab) {
  if (atEnd()) return false;
  applyEvents(lab);
  lab.advance();
  ++frame_;
  if (atEnd())
    applyEvents(lab);  // what was done after the last frame, before the recording stopped
  else if (frame_ % interval_ == 0)
    keepCheckpoint(lab);
  return true;
}

void SessionPlayer::applyEvents(Lab& lab) {
  const auto& events = session_.events;
  for (; nextEvent_ < events.size() && events[nextEvent_]["frame"].get<long>() == frame_;
       ++nextEvent_) {
    const nlohmann::json& event = events[nextEvent_];
    std::optional<Action> action;
    if (lab.attempt([&] { action = actionFromJson(adapt(event)); })) lab.perform(*action);
  }
}

void SessionPlayer::keepCheckpoint(Lab& lab) {
  if (checkpoints_.count(frame_)) return;
  checkpoints_[frame_] = lab.snapshot();
  while (stateBytes(checkpoints_) > kCheckpointBytes && checkpoints_.size() > 2) {
    interval_ *= 2;
    std::erase_if(checkpoints_, [&](const auto& entry) { return entry.first % interval_ != 0; });
  }
}

void SessionPlayer::seek(Lab& lab, long target) {
  target = std::clamp(target, 0l, frames());
  auto nearest = checkpoints_.upper_bound(target);
  --nearest;  // frame 0 is always there
  lab.restore(nearest->second, backend_);
  frame_ = nearest->first;
  nextEvent_ = std::size_t(
      std::lower_bound(session_.events.begin(), session_.events.end(), frame_,
                       [](const nlohmann::json& e, long f) { return e["frame"].get<long>() < f; }) -
      session_.events.begin());
  verdict_.clear();
  while (frame_ < target) advance(lab);
}

void SessionPlayer::tick(Lab& lab) {
  if (!playing || atEnd()) return;
  credit_ += speed;
  for (; credit_ >= 1 && !atEnd(); credit_ -= 1) advance(lab);
}

std::string SessionPlayer::verdict(Lab& lab) {
  if (!atEnd()) return "";
  if (!verdict_.empty()) return verdict_;
  if (session_.end.value("unfinished", false)) {
    verdict_ = "the recording was interrupted after frame " + std::to_string(frames()) +
               ": there is no recorded end state to compare with";
    return verdict_;
  }
  const std::string recorded = session_.end["state_hash"];
  const std::string replayed = stateHash(lab.module().saveState());
  matched_ = recorded == replayed;
  if (matched_)
    verdict_ = "the replayed state equals the recorded one (" + replayed + ")";
  else if (backend_ && toString(*backend_) != session_.start["backend"].get<std::string>())
    verdict_ = "replayed on the " + std::string(toString(*backend_)) + " backend, recorded on " +
               session_.start["backend"].get<std::string>() +
               ": the states differ, as different arithmetic may make them";
  else
    verdict_ = "the replayed state differs from the recorded one (" + replayed + ", recorded " +
               recorded + ")";
  for (const std::string& change : changed_) verdict_ += "; " + change;
  return verdict_;
}

}  // namespace ws::app
