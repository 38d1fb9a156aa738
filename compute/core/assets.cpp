#include "compute/core/assets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace ws {

std::string assetDirectory() {
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env && *env) return env;
  return WS_ASSET_DIR;
}

std::vector<std::string> listAssets(const std::string& folder, const std::string& extension) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(assetDirectory() + "/" + folder, error))
    if (entry.is_regular_file() && entry.path().extension() == extension)
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> shippedNames(const AssetKind& kind) {
  std::vector<std::string> names;
  for (const char* extension : kind.extensions)
    for (const std::string& path : listAssets(kind.folder, extension))
      names.push_back(std::filesystem::path(path).stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> shippedPath(const AssetKind& kind, const std::string& name) {
  for (const char* extension : kind.extensions) {
    const std::string path = assetDirectory() + "/" + kind.folder + "/" + name + extension;
    std::error_code error;
    if (std::filesystem::is_regular_file(path, error)) return path;
  }
  return std::nullopt;
}

}  // namespace ws
