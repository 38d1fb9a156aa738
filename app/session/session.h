#pragma once
// A recorded session, as read from or written to its JSON file:
//   {"warpscope_session": 1,
//    "start": {recorded (UTC time), module, backend, variant, params, playback, camera,
//              follow_graph,
//              "state": "reset" or {"checkpoint": "<file beside the session>", "hash"},
//              "files": [{"param", "path", "hash"}]},
//    "events": [{"frame", "step", "type", ...}, ...],      (app/session/actions.h)
//    "end": {"frames", "step", "seconds", "module", "state_hash"}}
// An event stamped frame f was done before the lab's f-th advance (counting from 0); "step" is
// the module's step count then, for readers. The parameters carry the modules' random seeds.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ws::app {

constexpr int kSessionVersion = 1;

struct Session {
  std::string path;  // the file it came from; a start checkpoint is beside it
  nlohmann::json start;
  std::vector<nlohmann::json> events;
  nlohmann::json end;

  long frames() const { return end.at("frames").get<long>(); }
  // The frames a second the recording ran at (its frames over its length), nullopt for a session
  // recorded before its length was (or one too short to tell).
  std::optional<double> framesPerSecond() const;
  // The start checkpoint's path, or "" when the session starts from a reset.
  std::string checkpointPath() const;
};

// Throws InputError, naming the file and the line and column or the event, for text that is not
// JSON, a session of a newer version, a missing or mistyped field, events out of frame order, and
// files the session refers to that are missing.
Session readSession(const std::string& path);
void writeSession(const std::string& path, const Session& session);

// Files the session used that have changed since it was recorded (their hash differs), in words.
std::vector<std::string> changedFiles(const Session& session);

}  // namespace ws::app
