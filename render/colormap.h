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
// Fills a GL texture (256 x 1, linear, clamped) with the named map; needs a current context.
void fillColormapTexture(unsigned texture, const std::string& name);
// Distinct colours for categories (colour classes), 0xRRGGBB; category k takes entry k mod 12.
constexpr std::uint32_t kCategoryColours[12] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2,
                                                0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7,
                                                0x9c755f, 0xbab0ac, 0x1f77b4, 0x8c564b};
// The colour drawn where a field is NaN (outside the world).
constexpr float kBackground[3] = {0.09f, 0.10f, 0.12f};
// The line just outside a 2-D world's edges (shaders/field2d.frag).
constexpr float kWorldBorder[3] = {0.42f, 0.47f, 0.55f};

}  // namespace ws::render
