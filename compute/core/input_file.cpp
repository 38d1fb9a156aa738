#include "compute/core/input_file.h"

#include <filesystem>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/memory.h"

namespace ws {

std::ifstream openInputFile(const std::string& path, const std::string& what, std::uintmax_t most) {
  std::string shown = json_input::brief(path, 200);
  shown = '\'' + shown + '\'';
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw InputError("cannot open " + what + " " + shown + ": no such file");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(what + " " + shown + " is not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > most)
    throw InputError(what + " " + shown + " is " + formatBytes(double(size)) +
                     ", larger than the " + formatBytes(double(most)) + " such files may be");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + what + " " + shown);
  return in;
}

bool pathExists(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(path, error) && !error;
}

bool isRegularFile(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && !error;
}

}  // namespace ws
