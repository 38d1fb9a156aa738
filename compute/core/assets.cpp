#include "compute/core/assets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace ws {

std::string assetDirectory() {
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env && *env) return env;
  // Installed (cmake --install, the .deb): beside the program, at WS_INSTALLED_ASSETS from its
  // folder (../share/warpscope/assets); else run from the build tree: the source tree's.
  static const std::string found = [] {
    std::error_code error;
    const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
      const std::filesystem::path installed =
          (program.parent_path() / WS_INSTALLED_ASSETS).lexically_normal();
      if (std::filesystem::is_directory(installed, error)) return installed.string();
    }
    return std::string(WS_ASSET_DIR);
  }();
  return found;
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
