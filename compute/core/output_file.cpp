#include "compute/core/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compute/core/errors.h"

namespace ws {

namespace {

std::string& folderSetting() {
  static std::string folder;
  return folder;
}

}  // namespace

void setOutputFolder(const std::string& folder) {
  if (!folder.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
      throw InputError("output folder '" + folder + "' is not a folder");
    checkWritable((std::filesystem::path(folder) / ".warpscope-write-check").string(),
                  "a file in the output folder");
  }
  folderSetting() = folder;
}

const std::string& outputFolder() {
  return folderSetting();
}

std::string freshOutputPath(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path given(name);
  const fs::path path =
      given.has_parent_path() || outputFolder().empty() ? given : fs::path(outputFolder()) / given;
  std::error_code error;
  if (!fs::exists(path, error)) return path.string();
  // The name as given, a number before its extension.
  const std::string whole = path.string(), extension = path.extension().string();
  const std::string stem = whole.substr(0, whole.size() - extension.size());
  for (int copy = 2; copy < 100000; ++copy) {
    const std::string next = stem + "-" + std::to_string(copy) + extension;
    if (!fs::exists(next, error)) return next;
  }
  throw InputError("'" + path.string() + "' and 100,000 numbered copies of it exist already");
}

void checkWritable(const std::string& path, const std::string& what) {
  std::error_code error;
  const bool existed = std::filesystem::exists(path, error);
  if (existed && std::filesystem::is_directory(path, error))
    throw InputError(what + " '" + path + "' is a folder, not a file");
  // Opened to append, as a write would open it: a new file is removed again.
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (!file) throw InputError(what + " '" + path + "' cannot be written: " + std::strerror(errno));
  std::fclose(file);
  if (!existed) std::filesystem::remove(path, error);
}

void writeWholeFile(const std::string& path, std::string_view bytes, const std::string& what) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw InputError("cannot write " + what + " '" + path + "': " + std::strerror(errno));
  const bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size() && std::fflush(file) == 0;
  const int writeError = errno;
  if (std::fclose(file) != 0 || !written)
    throw InputError("cannot write " + what + " '" + path +
                     "': " + std::strerror(written ? errno : writeError));
}

}  // namespace ws
