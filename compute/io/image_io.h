#pragma once
// Pictures read as masks: where a picture is dark, something is (an obstacle in a flow). Read
// through stb_image (PNG, BMP, TGA, JPEG, PNM); a file that is not such a picture, or one too
// large, is an InputError naming the file, and nothing is returned.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/assets.h"

namespace ws::io {

struct Mask {
  int width = 0, height = 0;
  // Row-major from the picture's top row: 1 where a pixel is dark (luminance under half) and
  // opaque (alpha at least half), else 0.
  std::vector<std::uint8_t> dark;
  bool at(int x, int y) const { return dark[std::size_t(y) * width + x] != 0; }
};

// Up to kMaxMaskSide pixels a side.
constexpr int kMaxMaskSide = 16384;
Mask loadMask(const std::string& path);

// The file a mask name refers to: a shipped one (assets/masks) by that name, else the name
// itself as a path. And whether a name is one: "" when it is, else why not (reads only the name
// and whether the file exists).
std::string maskPathOf(const std::string& name);
std::string checkMaskName(const std::string& name);

}  // namespace ws::io
