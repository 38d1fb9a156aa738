#include "app/session/recorder.h"

#include <ctime>
#include <filesystem>

#include "app/lab.h"
#include "app/session/snapshot.h"

namespace ws::app {

namespace {

// A string that names an existing file gets its path and hash recorded beside it.
void noteFile(nlohmann::json& action, const char* field) {
  if (!action.contains(field) || !action[field].is_string()) return;
  const std::string path = action[field];
  std::error_code error;
  if (path.empty() || !std::filesystem::is_regular_file(path, error)) return;
  action["file"] = {{"path", path}, {"hash", fileHash(path)}};
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace

SessionRecorder::SessionRecorder(std::string path, Lab& lab, bool fromReset)
    : running_(lab.running), stepsPerFrame_(lab.stepsPerFrame) {
  session_.path = std::move(path);
  LabSnapshot start = lab.snapshot();
  session_.start = start.meta;
  session_.start["recorded"] = utcNow();
  if (fromReset) {
    session_.start["state"] = "reset";
  } else {
    const std::filesystem::path checkpoint =
        std::filesystem::path(session_.path).replace_extension(".start.wsckpt");
    writeCheckpoint(checkpoint.string(), start);
    session_.start["state"] = {{"checkpoint", checkpoint.filename().string()},
                               {"hash", fileHash(checkpoint.string())}};
  }
  nlohmann::json files = nlohmann::json::array();
  for (const auto& [key, value] : session_.start["params"].items()) {
    nlohmann::json probe = {{"value", value}};
    noteFile(probe, "value");
    if (probe.contains("file"))
      files.push_back(
          {{"param", key}, {"path", probe["file"]["path"]}, {"hash", probe["file"]["hash"]}});
  }
  session_.start["files"] = files;
}

void SessionRecorder::log(Lab& lab, nlohmann::json action) {
  for (const char* field : {"value", "item", "path"}) noteFile(action, field);
  action["frame"] = frames_;
  action["step"] = lab.module().stepCount();
  session_.events.push_back(std::move(action));
}

void SessionRecorder::frame(Lab& lab, int requestedSteps) {
  if (lab.running != running_) log(lab, {{"type", "running"}, {"value", lab.running}});
  if (lab.stepsPerFrame != stepsPerFrame_)
    log(lab, {{"type", "steps_per_frame"}, {"value", lab.stepsPerFrame}});
  if (requestedSteps > 0) log(lab, {{"type", "steps"}, {"count", requestedSteps}});
  running_ = lab.running;
  stepsPerFrame_ = lab.stepsPerFrame;
  ++frames_;
}

std::string SessionRecorder::finish(Lab& lab) {
  session_.end = {{"frames", frames_},
                  {"step", lab.module().stepCount()},
                  {"module", lab.module().name()},
                  {"state_hash", stateHash(lab.module().saveState())}};
  writeSession(session_.path, session_);
  return session_.path + ": " + std::to_string(frames_) + " frames, " +
         std::to_string(session_.events.size()) + " events, " + std::to_string(long(seconds())) +
         " s";
}

double SessionRecorder::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace ws::app
