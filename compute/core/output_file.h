#pragma once
// Files the program writes (screenshots, reports, sessions, checkpoints, presets, meshes): a
// path known before a run is checked before it, and a write succeeds whole or is an error that
// names the file; nothing says "wrote" for bytes that did not land (a full disk, /dev/full).
#include <string>
#include <string_view>

namespace ws {

// Throws InputError unless a file can be created or written at `path` (its folder exists and
// takes files). `what` names it in the message ("--report"). Leaves no file behind.
void checkWritable(const std::string& path, const std::string& what);

// Writes `bytes` to `path`, replacing it; throws InputError naming `what` and `path` when any
// part fails (open, write, flush, close).
void writeWholeFile(const std::string& path, std::string_view bytes, const std::string& what);

}  // namespace ws
