#include "compute/core/input_file.h"

#include <filesystem>

#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"

namespace ws {

std::ifstream openInputFile(const std::string& path, const std::string& what, std::uintmax_t most) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw InputError("cannot open " + what + " '" + path + "': no such file");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(what + " '" + path + "' is not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > most)
    throw InputError(what + " '" + path + "' is " + formatBytes(double(size)) +
                     ", larger than the " + formatBytes(double(most)) + " such files may be");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + what + " '" + path + "'");
  return in;
}

}  // namespace ws
