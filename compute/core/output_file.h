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

// The folder where what the user saves goes (screenshots, exports, saved meshes, presets,
// checkpoints, sessions, videos), unless its name says another: the GUI's Files section sets it
// (and remembers it), --output-dir on the command line; "" (the start) is the current folder.
// Throws InputError, changing nothing, unless `folder` is a folder that takes files; "" is the
// current folder again.
void setOutputFolder(const std::string& folder);
const std::string& outputFolder();

// Where to write what the user saves as `name`: in the output folder unless the name has a folder
// of its own, and never over a file that is there: "optimized.ply", else "optimized-2.ply",
// "optimized-3.ply", ... (a file saved twice is kept twice).
std::string freshOutputPath(const std::string& name);

// Writes `bytes` to `path`, replacing it; throws InputError naming `what` and `path` when any
// part fails (open, write, flush, close).
void writeWholeFile(const std::string& path, std::string_view bytes, const std::string& what);

}  // namespace ws
