#include "render/colormap.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "render/gl/gl_check.h"

namespace ws::render {

namespace {

// A control point: the table's entry (0 to 255) and its colour, 0xRRGGBB.
struct Stop {
  double entry;
  std::uint32_t rgb;
};

// Evenly spaced control points, 0xRRGGBB.
const std::map<std::string, std::vector<std::uint32_t>>& evenlySpaced() {
  static const std::map<std::string, std::vector<std::uint32_t>> maps = {
      {"life", {0x0b0f17, 0x3a5a78, 0x9fd3c7, 0xfff4c2}},
      {"grayscale", {0x000000, 0xffffff}},
      {"viridis",
       {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e, 0x1f9e89, 0x35b779, 0x6ece58, 0xb5de2b,
        0xfde725}},
      {"inferno",
       {0x000004, 0x1b0c41, 0x4a0c6b, 0x781c6d, 0xa52c60, 0xcf4446, 0xed6925, 0xfb9b06, 0xf7d13d,
        0xfcffa4}},
      {"coolwarm", {0x3b4cc0, 0x7b9ff9, 0xc0d4f5, 0xdddddd, 0xf2cbb7, 0xee8468, 0xb40426}},
  };
  return maps;
}

// Every map's control points. "age" is Life's age view: entry 0 is a dead cell (as dark as in
// "life"), a newborn cell (1) is the brightest, and cells darken as they age, to a purple that
// still shows against the dead ones (gliders stay bright; old still lifes recede).
const std::map<std::string, std::vector<Stop>>& controlPoints() {
  static const std::map<std::string, std::vector<Stop>> maps = [] {
    std::map<std::string, std::vector<Stop>> all;
    for (const auto& [name, points] : evenlySpaced())
      for (std::size_t k = 0; k < points.size(); ++k)
        all[name].push_back({255.0 * double(k) / double(points.size() - 1), points[k]});
    all["age"] = {{0, 0x0b0f17},  {1, 0xffffff},  {4, 0xfff4a0},
                  {16, 0xfdb42f}, {64, 0xd8576b}, {255, 0x5c1a9c}};
    return all;
  }();
  return maps;
}

}  // namespace

const std::vector<std::string>& colormapNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, points] : controlPoints()) out.push_back(name);
    return out;
  }();
  return names;
}

ColormapTable colormapTable(const std::string& name) {
  const auto it = controlPoints().find(name);
  if (it == controlPoints().end()) throw std::invalid_argument("unknown colour map '" + name + "'");
  const std::vector<Stop>& points = it->second;
  ColormapTable table{};
  std::size_t k = 0;  // the stops around entry i: k and k + 1
  for (int i = 0; i < 256; ++i) {
    while (k + 2 < points.size() && points[k + 1].entry <= i) ++k;
    const double f =
        std::clamp((i - points[k].entry) / (points[k + 1].entry - points[k].entry), 0.0, 1.0);
    for (int c = 0; c < 3; ++c) {
      const int shift = 16 - 8 * c;
      const double a = (points[k].rgb >> shift) & 0xff, b = (points[k + 1].rgb >> shift) & 0xff;
      table[i * 4 + c] = static_cast<std::uint8_t>(std::lround(a + (b - a) * f));
    }
    table[i * 4 + 3] = 255;
  }
  return table;
}

void fillColormapTexture(unsigned texture, const std::string& name) {
  const ColormapTable table = colormapTable(name);
  WS_GL_CHECK(glBindTexture(GL_TEXTURE_2D, texture));
  WS_GL_CHECK(
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, table.data()));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
  WS_GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
}

}  // namespace ws::render
