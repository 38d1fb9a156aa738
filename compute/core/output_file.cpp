#include "compute/core/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compute/core/errors.h"

namespace ws {

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
