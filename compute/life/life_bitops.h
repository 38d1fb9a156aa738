#pragma once
// Bit-sliced Life arithmetic on 64 cells at once, shared by the CPU fast path and the CUDA
// bit-packed kernel. Bit b of a word is cell x = 64*j + b of its row. Each row's horizontal
// sums (west + centre + east, 0..3) are two bit planes; three of them add to the 3x3 block count
// (0..9) as four bit planes; the rule is a lookup on those planes.
#include "compute/core/hd.h"
#include "compute/life/life_grid.h"

namespace ws::life {

struct BitGeometry {
  int width, height, words;  // words per row
  int tailBits;              // width % 64: valid bits in a row's last word (0: all 64)
  bool torus;
};

inline BitGeometry makeBitGeometry(int width, int height, Boundary boundary) {
  return {width, height, wordsPerRow(width), width % kWordBits, boundary == Boundary::Torus};
}

struct RowSum {
  Word lo, hi;  // per bit: west + centre + east, as a 2-bit number
};

struct BlockCount {
  Word s0, s1, s2, s3;  // per bit: the 3x3 block's live cells (0..9), as a 4-bit number
};

// A row word with the neighbours its edge cells need.
struct RowWords {
  Word left, centre, right;  // bit 63 of left is west of bit 0; bit 0 of right is east of bit 63
};

// Loads word j of a row and its neighbours, handling the grid's left and right edges (dead, or
// wrapped including a partial last word). A null row (past a dead edge) is all zeros.
WS_HD RowWords loadRowWords(const Word* row, int j, const BitGeometry& g) {
  if (!row) return {0, 0, 0};
  RowWords w{0, row[j], 0};
  if (j > 0) {
    w.left = row[j - 1];
  } else if (g.torus) {
    const int lastBit = (g.width - 1) % kWordBits;
    w.left = (row[g.words - 1] >> lastBit) << 63;  // cell W-1 lands west of cell 0
  }
  if (j + 1 < g.words) {
    w.right = row[j + 1];
  } else if (g.torus) {
    // Cell 0 sits just east of cell W-1: in the next word, or in the bit after the last valid one
    // (that bit's own result is masked off).
    if (g.tailBits == 0)
      w.right = row[0];
    else
      w.centre |= (row[0] & 1u) << g.tailBits;
  }
  return w;
}

// Per bit: west + centre + east of the row, as two bit planes.
WS_HD RowSum rowSum(const RowWords& w) {
  const Word west = (w.centre << 1) | (w.left >> 63);
  const Word east = (w.centre >> 1) | (w.right << 63);
  const Word x = west ^ east;
  return {x ^ w.centre, (west & east) | (x & w.centre)};
}

WS_HD BlockCount addRows(const RowSum& a, const RowSum& b, const RowSum& c) {
  const Word t0 = a.lo ^ b.lo;
  const Word carry0 = (a.lo & b.lo) | (t0 & c.lo);  // weight 2
  const Word t1 = a.hi ^ b.hi;
  const Word u = t1 ^ c.hi;
  const Word carry1 = (a.hi & b.hi) | (t1 & c.hi);  // weight 4
  const Word carry2 = u & carry0;                   // weight 4
  return {t0 ^ c.lo, u ^ carry0, carry1 ^ carry2, carry1 & carry2};
}

WS_HD Word selectBits(Word a, Word b, Word select) {
  return a ^ ((a ^ b) & select);
}

// Entry `count` (0..9) of a 10-bit table, for every bit at once: a multiplexer tree.
WS_HD Word tableLookup(unsigned table, const BlockCount& n) {
  auto leaf = [table](int k) { return Word(0) - Word((table >> k) & 1u); };
  const Word m01 = selectBits(leaf(0), leaf(1), n.s0), m23 = selectBits(leaf(2), leaf(3), n.s0);
  const Word m45 = selectBits(leaf(4), leaf(5), n.s0), m67 = selectBits(leaf(6), leaf(7), n.s0);
  const Word m03 = selectBits(m01, m23, n.s1), m47 = selectBits(m45, m67, n.s1);
  const Word m07 = selectBits(m03, m47, n.s2);
  const Word m89 = selectBits(leaf(8), leaf(9), n.s0);
  return selectBits(m07, m89, n.s3);
}

// The next state of 64 cells. Conway's rule (block count 3, or 4 with the cell alive) takes a
// short path; any other rule goes through the lookup.
template <bool kConway>
WS_HD Word nextState(const BlockCount& n, Word alive, unsigned birthTable, unsigned surviveTable) {
  if constexpr (kConway) {
    const Word three = n.s0 & n.s1 & ~n.s2;
    const Word four = ~n.s0 & ~n.s1 & n.s2;
    return ~n.s3 & (three | (alive & four));
  } else {
    return selectBits(tableLookup(birthTable, n), tableLookup(surviveTable, n), alive);
  }
}

// Mask of the valid bits of word j of a row.
WS_HD Word validBits(int j, const BitGeometry& g) {
  return (j == g.words - 1 && g.tailBits) ? (Word(1) << g.tailBits) - 1 : ~Word(0);
}

// Row r of the grid as its neighbours see it: wrapped on a torus, absent (null) past a dead edge.
WS_HD const Word* rowOrNull(const Word* grid, int r, const BitGeometry& g) {
  if (r < 0 || r >= g.height) {
    if (!g.torus) return nullptr;
    r %= g.height;  // a tile's halo may reach several heights past a short grid's edge
    if (r < 0) r += g.height;
  }
  return grid + static_cast<long long>(r) * g.words;
}

// Advances rows [firstRow, endRow) of word column j by one generation: each row's sums are formed
// once and serve the three output rows around it.
template <bool kConway>
WS_HD void stepWordColumn(const Word* current, Word* next, int j, int firstRow, int endRow,
                          const BitGeometry& g, unsigned birthTable, unsigned surviveTable) {
  const Word mask = validBits(j, g);
  RowSum above = rowSum(loadRowWords(rowOrNull(current, firstRow - 1, g), j, g));
  RowWords mid = loadRowWords(rowOrNull(current, firstRow, g), j, g);
  RowSum midSum = rowSum(mid);
  for (int r = firstRow; r < endRow; ++r) {
    const RowWords below = loadRowWords(rowOrNull(current, r + 1, g), j, g);
    const RowSum belowSum = rowSum(below);
    next[static_cast<long long>(r) * g.words + j] =
        nextState<kConway>(addRows(above, midSum, belowSum), mid.centre, birthTable, surviveTable) &
        mask;
    above = midSum;
    mid = below;
    midSum = belowSum;
  }
}

}  // namespace ws::life
