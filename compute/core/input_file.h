#pragma once
// Opening a file a user gave (a pattern, mesh, graph, preset, session or checkpoint): it must be a
// regular file (not /dev/zero, a pipe or a folder, which would read forever or not at all) of at
// most `most` bytes, checked before anything is read or allocated for it.
#include <cstdint>
#include <fstream>
#include <string>

namespace ws {

// Throws InputError naming `what` ("graph file") and `path` when the file cannot be opened, is no
// regular file, or is larger than `most` bytes.
std::ifstream openInputFile(const std::string& path, const std::string& what, std::uintmax_t most);

// Whether something (a regular file, for the second) is at `path`. Never throws: a name too long
// for the file system, or a path through a file, is simply not there.
bool pathExists(const std::string& path);
bool isRegularFile(const std::string& path);

constexpr std::uintmax_t kMiB = std::uintmax_t(1) << 20;

}  // namespace ws
