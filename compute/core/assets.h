#pragma once
// The shipped assets (patterns, meshes, graphs, presets): where they are ($WARPSCOPE_ASSETS, else
// the source tree's assets/ folder that the build recorded), and one catalog of them by kind, so
// that every module finds its shipped files the same way.
#include <optional>
#include <string>
#include <vector>

namespace ws {

std::string assetDirectory();
// Files under assets/<folder> with the given extension, sorted by name (full paths).
std::vector<std::string> listAssets(const std::string& folder, const std::string& extension);

// A kind of shipped asset: its folder under assets/ and the extensions its files have.
struct AssetKind {
  const char* folder;
  std::vector<const char*> extensions;
};
inline const AssetKind kPatterns{"patterns", {".rle"}};
inline const AssetKind kMeshes{"meshes", {".obj", ".ply", ".off"}};
// Pictures whose dark pixels are obstacles (compute/io/image_io.h).
inline const AssetKind kMasks{"masks", {".png", ".bmp", ".tga", ".jpg", ".jpeg", ".pgm", ".ppm"}};
inline const AssetKind kGraphs{"graphs", {".txt", ".edges", ".mtx"}};
inline const AssetKind kPresets{"presets", {".json"}};

// The shipped assets of a kind by name (their file names without the extension), sorted.
std::vector<std::string> shippedNames(const AssetKind& kind);
// The file of the shipped asset called `name`, if there is one.
std::optional<std::string> shippedPath(const AssetKind& kind, const std::string& name);

}  // namespace ws
