#include "app/session/recorder.h"

#include <ctime>
#include <filesystem>
#include <optional>

#include "app/lab.h"
#include "app/session/snapshot.h"

namespace ws::app {

namespace {

// A string that names an existing file: its path and hash, to be recorded beside it.
std::optional<nlohmann::json> fileRecord(const nlohmann::json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string path = value;
  std::error_code error;
  if (path.empty() || !std::filesystem::is_regular_file(path, error)) return std::nullopt;
  return nlohmann::json{{"path", path}, {"hash", fileHash(path)}};
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace

SessionRecorder::SessionRecorder(std::string path, Lab& lab, bool fromReset) {
  session_.path = std::move(path);
  if (fromReset) {
    session_.start = lab.snapshotMeta();  // the state follows from the parameters
    session_.start["state"] = "reset";
  } else {
    const LabSnapshot start = lab.snapshot();
    const std::filesystem::path checkpoint =
        std::filesystem::path(session_.path).replace_extension(".start.wsckpt");
    const std::string hash = writeCheckpoint(checkpoint.string(), start);
    session_.start = start.meta;
    session_.start["state"] = {{"checkpoint", checkpoint.filename().string()}, {"hash", hash}};
  }
  session_.start["recorded"] = utcNow();
  nlohmann::json files = nlohmann::json::array();
  for (const auto& [key, value] : session_.start["params"].items())
    if (auto file = fileRecord(value)) {
      (*file)["param"] = key;
      files.push_back(*file);
    }
  session_.start["files"] = files;
  save(lab, false);  // a path that cannot be written fails here, before the run
}

void SessionRecorder::save(Lab& lab, bool finished) {
  session_.end = {{"frames", frames_},
                  {"step", lab.module().stepCount()},
                  {"seconds", seconds()},
                  {"module", lab.module().name()}};
  // The end state's hash costs a saveState: only once, at the end.
  session_.end["state_hash"] = finished ? stateHash(lab.module().saveState()) : "";
  if (!finished) session_.end["unfinished"] = true;
  writeSession(session_.path, session_);
  saved_ = std::chrono::steady_clock::now();
}

void SessionRecorder::log(Lab& lab, nlohmann::json action) {
  for (const char* field : {"value", "item", "path"})
    if (action.contains(field))
      if (auto file = fileRecord(action[field])) action["file"] = *file;
  action["frame"] = frames_;
  action["step"] = lab.module().stepCount();
  session_.events.push_back(std::move(action));
}

void SessionRecorder::frame(Lab& lab) {
  ++frames_;
  // Written as it goes: a run killed now loses at most the last second.
  if (std::chrono::steady_clock::now() - saved_ > std::chrono::seconds(1)) save(lab, false);
}

std::string SessionRecorder::finish(Lab& lab) {
  save(lab, true);
  return session_.path + ": " + std::to_string(frames_) + " frames, " +
         std::to_string(session_.events.size()) + " events, " + std::to_string(long(seconds())) +
         " s";
}

double SessionRecorder::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

}  // namespace ws::app
