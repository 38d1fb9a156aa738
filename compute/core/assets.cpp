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

}  // namespace ws
