#include "compute/io/image_io.h"

#include <stb_image.h>

#include <filesystem>
#include <memory>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws::io {

Mask loadMask(const std::string& path) {
  std::string name = "'";  // built in steps: GCC 12 warns wrongly of "'" + s + "'" (-Wrestrict)
  name += json_input::brief(path);
  name += "'";
  int width = 0, height = 0, channels = 0;
  // The size first, from the header: a picture too large is refused before it is decoded.
  if (!stbi_info(path.c_str(), &width, &height, &channels))
    throw InputError(name + ": not a picture warpscope reads (PNG, BMP, TGA, JPEG, PGM or PPM): " +
                     stbi_failure_reason());
  if (width < 1 || height < 1 || width > kMaxMaskSide || height > kMaxMaskSide)
    throw InputError(name + ": a picture of " + std::to_string(width) + "x" +
                     std::to_string(height) + " pixels; up to " + std::to_string(kMaxMaskSide) +
                     " a side");
  const std::unique_ptr<stbi_uc, void (*)(void*)> rgba(
      stbi_load(path.c_str(), &width, &height, &channels, 4), stbi_image_free);
  if (!rgba) throw InputError(name + ": cannot decode it: " + stbi_failure_reason());
  Mask mask{width, height, std::vector<std::uint8_t>(std::size_t(width) * height)};
  for (std::size_t k = 0; k < mask.dark.size(); ++k) {
    const stbi_uc* p = rgba.get() + 4 * k;
    const int luminance = (299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000;
    mask.dark[k] = luminance < 128 && p[3] >= 128;
  }
  return mask;
}

std::string maskPathOf(const std::string& name) {
  return shippedPath(kMasks, name).value_or(name);
}

std::string checkMaskName(const std::string& name) {
  std::error_code error;
  if (std::filesystem::is_regular_file(maskPathOf(name), error)) return "";
  std::string shipped;
  for (const std::string& mask : shippedNames(kMasks))
    shipped += (shipped.empty() ? "" : ", ") + mask;
  return "no picture '" + json_input::brief(name) + "': a shipped one (" + shipped +
         ") or the path of a .png, .bmp, .tga, .jpg, .pgm or .ppm file";
}

}  // namespace ws::io
