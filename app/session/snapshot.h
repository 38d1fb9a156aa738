#pragma once
// A whole lab at one moment: the module (name, backend, variant, parameters), its state, and the
// lab's playback and camera. A checkpoint file holds one, to resume a run later; a replay keeps
// some in memory to seek with; a recorded session starts from one.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "compute/core/module.h"

namespace ws::app {

struct LabSnapshot {
  // module, backend, variant, params, playback {running, steps_per_frame}, camera.
  nlohmann::json meta;
  StateBlob state;
  bool reset = false;  // no state: the parameters' initial state (a session that starts from one)
};

// Checkpoint files: a header line ("warpscope-checkpoint <version> <metadata bytes> <data bytes>"),
// the metadata as JSON (with the state's own metadata as "state"), then the state's bytes.
// readCheckpoint() throws InputError naming the file and what is wrong with it (not a checkpoint, a
// newer version, truncated, bad metadata). writeCheckpoint() returns the file's content hash, as
// fileHash() would find it.
std::string writeCheckpoint(const std::string& path, const LabSnapshot& snapshot);
LabSnapshot readCheckpoint(const std::string& path);
constexpr int kCheckpointVersion = 1;

// Content hashes (64-bit FNV-1a, written "fnv1a64:<16 hex digits>"): to tell whether a file a
// session used has changed, and whether a replayed state equals the recorded one.
std::string contentHash(std::string_view bytes);
std::string stateHash(const StateBlob& state);
std::string fileHash(const std::string& path);  // throws InputError when it cannot be read

class SessionRecorder;

}  // namespace ws::app
