#include "app/session/session.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "app/session/actions.h"
#include "app/session/snapshot.h"
#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/json_input.h"
#include "compute/core/output_file.h"

namespace ws::app {

namespace {

// The longest session a replay runs.
constexpr long long kMostFrames = 10'000'000;

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// Every file the session refers to, and where: {path, hash, where}.
struct FileUse {
  std::string path, hash, where;
};

std::vector<FileUse> fileUses(const Session& session) {
  std::vector<FileUse> uses;
  for (const auto& file : session.start.value("files", nlohmann::json::array()))
    uses.push_back({file.value("path", ""), file.value("hash", ""),
                    "the start's parameter '" + file.value("param", "") + "'"});
  for (std::size_t i = 0; i < session.events.size(); ++i)
    if (const auto& e = session.events[i]; e.contains("file"))
      uses.push_back({e["file"].value("path", ""), e["file"].value("hash", ""),
                      "events[" + std::to_string(i) + "] (frame " +
                          std::to_string(e["frame"].get<long>()) + ")"});
  if (const std::string checkpoint = session.checkpointPath(); !checkpoint.empty())
    uses.push_back({checkpoint, session.start.at("state").at("hash"), "the start state"});
  return uses;
}

void validate(Session& session, const std::string& where) {
  const nlohmann::json& start = session.start;
  require(start.is_object(), where + ": \"start\" must be an object");
  for (const char* key : {"module", "backend", "variant"})
    require(start.contains(key) && start[key].is_string(),
            where + ": start." + key + " must be a string");
  require(start.contains("params") && start["params"].is_object(),
          where + ": start.params must be an object");
  require(start.contains("playback") && start["playback"].is_object() &&
              start["playback"].value("running", nlohmann::json()).is_boolean() &&
              start["playback"].value("steps_per_frame", nlohmann::json()).is_number_integer(),
          where + ": start.playback must hold \"running\" and \"steps_per_frame\"");
  try {
    nlohmann::json camera = start.value("camera", nlohmann::json::object());
    camera["type"] = "camera";
    validateAction(camera);
  } catch (const InputError& e) {
    throw InputError(where + ": start.camera: " + e.what());
  }
  const nlohmann::json& state = start.value("state", nlohmann::json());
  require(state == "reset" ||
              (state.is_object() && state.value("checkpoint", nlohmann::json()).is_string()),
          where + ": start.state must be \"reset\" or {\"checkpoint\": file, \"hash\": ...}");
  const nlohmann::json& end = session.end;
  require(end.is_object() && end.value("frames", nlohmann::json()).is_number_integer() &&
              end.value("state_hash", nlohmann::json()).is_string(),
          where + ": \"end\" must hold \"frames\" (a whole number) and \"state_hash\"");
  require(end["frames"].get<long long>() >= 0 && end["frames"].get<long long>() <= kMostFrames,
          where + ": end.frames is " + json_input::briefJson(end["frames"]) +
              ": a session runs from 0 to " + std::to_string(kMostFrames) +
              " frames (two days at 60 a second)");
  if (end.contains("seconds"))
    require(end["seconds"].is_number() && end["seconds"].get<double>() >= 0 &&
                end["seconds"].get<double>() <= 2.0 * 86400,
            where + ": end.seconds must be the recording's length in seconds, up to two days");
  long previous = 0;
  for (std::size_t i = 0; i < session.events.size(); ++i) {
    const nlohmann::json& event = session.events[i];
    const std::string at = where + ": events[" + std::to_string(i) + "]";
    require(event.is_object() && event.value("frame", nlohmann::json()).is_number_integer(),
            at + " has no whole-number \"frame\"");
    const long frame = event["frame"];
    require(frame >= previous && frame < std::max(1l, end["frames"].get<long>()) + 1,
            at + " (frame " + std::to_string(frame) + ") is out of order: frames run from " +
                std::to_string(previous) + " to " + std::to_string(end["frames"].get<long>()));
    previous = frame;
    try {
      validateAction(event);
    } catch (const InputError& e) {
      throw InputError(at + " (frame " + std::to_string(frame) + "): " + e.what());
    }
  }
  for (const FileUse& use : fileUses(session))
    require(isRegularFile(use.path),
            where + " refers to '" + use.path + "' (" + use.where + "), which is missing");
}

}  // namespace

std::optional<double> Session::framesPerSecond() const {
  const double seconds = end.value("seconds", 0.0);
  if (seconds < 0.1 || frames() < 1) return std::nullopt;
  return double(frames()) / seconds;
}

std::string Session::checkpointPath() const {
  const nlohmann::json& state = start.value("state", nlohmann::json());
  if (!state.is_object()) return "";
  // at(): a key that is not there is a library error (an InputError under json_input::guard),
  // where operator[] of a const object would read past it.
  return (std::filesystem::path(path).parent_path() / state.at("checkpoint").get<std::string>())
      .string();
}

Session readSession(const std::string& path) {
  const std::string where = "session '" + path + "'";
  std::ifstream in = openInputFile(path, "session", 256 * kMiB);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const nlohmann::json json = json_input::parse(text, where);
  require(json.is_object() && json.contains("warpscope_session"),
          where + " is not a warpscope session (no \"warpscope_session\" version)");
  const nlohmann::json& version = json["warpscope_session"];
  require(version.is_number_integer() && version.get<long long>() >= 1,
          where + ": \"warpscope_session\" is " + json_input::briefJson(version) +
              ", not a version (a whole number from 1)");
  require(version.get<long long>() <= kSessionVersion,
          where + " is of version " + json_input::briefJson(version) +
              ", newer than this warpscope reads (" + std::to_string(kSessionVersion) + ")");
  require(json.contains("events") && json["events"].is_array(),
          where + ": \"events\" must be an array");
  Session session;
  session.path = path;
  session.start = json.value("start", nlohmann::json());
  session.end = json.value("end", nlohmann::json());
  session.events = json["events"].get<std::vector<nlohmann::json>>();
  json_input::guard(where, [&] { validate(session, where); });
  return session;
}

void writeSession(const std::string& path, const Session& session) {
  // One event per line: readable, and a diff of two sessions reads well.
  std::ostringstream out;
  out << "{\n  \"warpscope_session\": " << kSessionVersion
      << ",\n  \"start\": " << session.start.dump() << ",\n  \"events\": [";
  for (std::size_t i = 0; i < session.events.size(); ++i)
    out << (i ? ",\n    " : "\n    ") << session.events[i].dump();
  out << "\n  ],\n  \"end\": " << session.end.dump() << "\n}\n";
  // Written aside and renamed: a run killed while writing leaves the last whole session.
  const std::string partial = path + ".partial";
  writeWholeFile(partial, out.str(), "session");
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  if (error) throw InputError("cannot write session '" + path + "': " + error.message());
}

std::vector<std::string> changedFiles(const Session& session) {
  std::vector<std::string> changed;
  for (const FileUse& use : fileUses(session)) {
    if (!isRegularFile(use.path))
      changed.push_back("'" + use.path + "' (" + use.where + ") is gone");
    else if (!use.hash.empty() && fileHash(use.path) != use.hash)
      changed.push_back("'" + use.path + "' (" + use.where + ") has changed since recording");
  }
  return changed;
}

}  // namespace ws::app
