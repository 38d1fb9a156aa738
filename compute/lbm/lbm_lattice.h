#pragma once
// The two velocity sets: D2Q9 for 2-D flows and D3Q19 (the source's lattice) for 3-D. Opposite
// directions are neighbours in the numbering (i and i+1 for odd i), as in FluidX3D, so that
// bounce-back and the two-relaxation-time collision work on pairs without a lookup table.
#include "compute/core/hd.h"

namespace ws::lbm {

WS_HD constexpr int opposite(int i) {
  return i == 0 ? 0 : (i & 1) ? i + 1 : i - 1;
}

struct D2Q9 {
  static constexpr int D = 2, Q = 9;
  static constexpr const char* name = "D2Q9";
  WS_HD static constexpr int cx(int i) {
    constexpr int v[Q] = {0, 1, -1, 0, 0, 1, -1, 1, -1};
    return v[i];
  }
  WS_HD static constexpr int cy(int i) {
    constexpr int v[Q] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
    return v[i];
  }
  WS_HD static constexpr int cz(int) { return 0; }
  WS_HD static constexpr float w(int i) {
    return i == 0 ? 4.0f / 9.0f : i < 5 ? 1.0f / 9.0f : 1.0f / 36.0f;
  }
};

struct D3Q19 {
  static constexpr int D = 3, Q = 19;
  static constexpr const char* name = "D3Q19";
  WS_HD static constexpr int cx(int i) {
    constexpr int v[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0};
    return v[i];
  }
  WS_HD static constexpr int cy(int i) {
    constexpr int v[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 1, -1};
    return v[i];
  }
  WS_HD static constexpr int cz(int i) {
    constexpr int v[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, -1, 1, -1, 1};
    return v[i];
  }
  WS_HD static constexpr float w(int i) {
    return i == 0 ? 1.0f / 3.0f : i < 7 ? 1.0f / 18.0f : 1.0f / 36.0f;
  }
};

// The direction c_i mirrored in y: (c_ix, -c_iy, c_iz).
template <typename Lat>
WS_HD constexpr int mirrorY(int i) {
  for (int j = 0; j < Lat::Q; ++j)
    if (Lat::cx(j) == Lat::cx(i) && Lat::cy(j) == -Lat::cy(i) && Lat::cz(j) == Lat::cz(i)) return j;
  return i;
}

}  // namespace ws::lbm
