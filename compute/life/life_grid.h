#pragma once
// The host-side picture of a Life grid: one bit per cell, 64 cells per word, rows padded to whole
// words (padding bits are always 0). Engines import and export it; tests compare it.
#include <cstdint>
#include <vector>

#include "compute/core/hd.h"

namespace ws::life {

enum class Boundary { Dead, Torus };

using Word = std::uint64_t;
constexpr int kWordBits = 64;

WS_HD int wordsPerRow(int width) {
  return (width + kWordBits - 1) / kWordBits;
}

struct LifeGrid {
  int width = 0, height = 0;
  std::vector<Word> words;

  LifeGrid() = default;
  LifeGrid(int w, int h) : width(w), height(h), words(std::size_t(wordsPerRow(w)) * h, 0) {}

  int stride() const { return wordsPerRow(width); }
  bool get(int x, int y) const {
    return (words[std::size_t(y) * stride() + x / kWordBits] >> (x % kWordBits)) & 1u;
  }
  void set(int x, int y, bool alive) {
    Word& w = words[std::size_t(y) * stride() + x / kWordBits];
    const Word bit = Word(1) << (x % kWordBits);
    w = alive ? (w | bit) : (w & ~bit);
  }
  std::uint64_t population() const {
    std::uint64_t total = 0;
    for (Word w : words) total += static_cast<std::uint64_t>(__builtin_popcountll(w));
    return total;
  }
  bool operator==(const LifeGrid&) const = default;
};

// One cell to set or clear (drawing, pattern placement).
struct CellEdit {
  int x, y;
  bool alive;
  bool operator==(const CellEdit&) const = default;
};

}  // namespace ws::life
