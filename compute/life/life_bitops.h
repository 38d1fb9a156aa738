#pragma once
// Bit-sliced Life arithmetic on 64 cells at once, shared by the CPU fast path and the CUDA
// bit-packed kernel. Bit b of a word is cell x = 64*j + b of its row. Each row's horizontal
// sums (west + centre + east, 0..3) are two bit planes; three of them add to the 3x3 block count
// (0..9), as far as the rule needs it: Conway's in ten logic operations, any other rule as four bit
// planes and a lookup on them.
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

// f(a, b, c) bit by bit, for a captureless f of three words. On the GPU each 32-bit half is one
// LOP3 instruction, whose truth table is f of the operands' own (0xF0, 0xCC, 0xAA): the compiler
// makes LOP3s of logic expressions too, but not always as few (run 95's SASS: 12 a half-word
// where these take 10). Elsewhere, the expression itself.
template <typename F>
WS_HD Word logic3(Word a, Word b, Word c, F f) {
#ifdef __CUDA_ARCH__
  constexpr unsigned table = F{}(0xF0u, 0xCCu, 0xAAu) & 0xFFu;
  unsigned lo, hi;
  asm("lop3.b32 %0, %1, %2, %3, %4;"
      : "=r"(lo)
      : "r"(unsigned(a)), "r"(unsigned(b)), "r"(unsigned(c)), "n"(table));
  asm("lop3.b32 %0, %1, %2, %3, %4;"
      : "=r"(hi)
      : "r"(unsigned(a >> 32)), "r"(unsigned(b >> 32)), "r"(unsigned(c >> 32)), "n"(table));
  return Word(hi) << 32 | lo;
#else
  return f(a, b, c);
#endif
}

// Per bit: a + b + c as two bit planes (a full adder: the sum's low bit and its carry).
WS_HD RowSum addThree(Word a, Word b, Word c) {
  return {logic3(a, b, c, [](auto x, auto y, auto z) { return x ^ y ^ z; }),
          logic3(a, b, c, [](auto x, auto y, auto z) { return (x & y) | (x & z) | (y & z); })};
}

// Per bit: west + centre + east of the row, as two bit planes.
WS_HD RowSum rowSum(const RowWords& w) {
  const Word west = (w.centre << 1) | (w.left >> 63);
  const Word east = (w.centre >> 1) | (w.right << 63);
  return addThree(west, w.centre, east);
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

// The next state of 64 cells from the sums of their row and the rows above and below. Conway's
// rule needs only whether the 3x3 block count is 3, or 4 with the cell alive: eight three-input
// logic operations (LOP3) a word decide it, ten with the two of the row's own sums, made once for
// the three rows they serve (binary-banter's count). The count is s0 + 2 w, where s0 and the carry
// c0 are the three rows' `lo` bits added, and w = p + c0 + 2 q with p and q their `hi` bits added:
// count 3 is s0 with w = 1, count 4 no s0 with w = 2, and a count past 4 has w > 2. Any other rule
// adds the count up to its four planes (addRows) and looks it up.
template <bool kConway>
WS_HD Word nextState(const RowSum& above, const RowSum& own, const RowSum& below, Word alive,
                     unsigned birthTable, unsigned surviveTable) {
  if constexpr (kConway) {
    const auto [s0, c0] = addThree(above.lo, own.lo, below.lo);
    const auto [p, q] = addThree(above.hi, own.hi, below.hi);
    const Word wIsOne = logic3(q, p, c0, [](auto q, auto p, auto c0) { return ~q & (p ^ c0); });
    const Word wIsTwo =
        logic3(q, p, c0, [](auto q, auto p, auto c0) { return (q & ~p & ~c0) | (~q & p & c0); });
    const Word keptAtFour =
        logic3(s0, alive, wIsTwo, [](auto s0, auto alive, auto two) { return ~s0 & alive & two; });
    return logic3(s0, wIsOne, keptAtFour,
                  [](auto s0, auto one, auto four) { return (s0 & one) | four; });
  } else {
    const BlockCount n = addRows(above, own, below);
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
        nextState<kConway>(above, midSum, belowSum, mid.centre, birthTable, surviveTable) & mask;
    above = midSum;
    mid = below;
    midSum = belowSum;
  }
}

}  // namespace ws::life
