#pragma once
// Colour maps for scalar fields: 256-entry RGBA tables built from a few control points.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws::render {

using ColormapTable = std::array<std::uint8_t, 256 * 4>;

const std::vector<std::string>& colormapNames();
// Throws std::invalid_argument for an unknown name.
ColormapTable colormapTable(const std::string& name);
// The colour drawn where a field is NaN (outside the world).
constexpr float kBackground[3] = {0.09f, 0.10f, 0.12f};

}  // namespace ws::render
