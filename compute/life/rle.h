#pragma once
// Run Length Encoded Life patterns, the format Golly and LifeWiki use:
//   #N Glider
//   x = 3, y = 3, rule = B3/S23
//   bo$2bo$3o!
#include <optional>
#include <string>
#include <vector>

#include "compute/life/life_rule.h"

namespace ws::life {

struct Pattern {
  std::string name;
  std::vector<std::string> comments;
  int width = 0, height = 0;
  std::optional<LifeRule> rule;
  std::vector<std::pair<int, int>> cells;  // live cells, (x, y) from the top-left corner
};

// Largest pattern accepted, per side and in live cells: a bad header cannot make us allocate
// without limit.
constexpr int kMaxPatternSide = 1 << 20;
constexpr std::size_t kMaxPatternCells = std::size_t(1) << 26;

// Throws ParseError naming `source`, the line and the column of the first problem.
Pattern parseRle(const std::string& text, const std::string& source = "<rle>");
Pattern loadRleFile(const std::string& path);
std::string writeRle(const Pattern& pattern);

// The pattern turned: mirrored left to right when orientation & 4, then turned a quarter clockwise
// (orientation & 3) times (PointerEdit::orientation).
Pattern oriented(const Pattern& pattern, int orientation);

}  // namespace ws::life
