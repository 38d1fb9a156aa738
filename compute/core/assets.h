#pragma once
// Where the shipped assets (patterns, presets) are: $WARPSCOPE_ASSETS, else the source tree's
// assets/ folder that the build recorded.
#include <string>
#include <vector>

namespace ws {

std::string assetDirectory();
// Files under assets/<folder> with the given extension, sorted by name (full paths).
std::vector<std::string> listAssets(const std::string& folder, const std::string& extension);

}  // namespace ws
