#pragma once
// The synchronous Louvain method's arithmetic, shared by its CPU and GPU implementations so that
// both take the same decisions. Edge weights, degrees and community totals are integers (sums of
// unit edges), and gains and modularity are kept scaled by 2m (m: the edges) so that they are
// integers too: exact in any order of addition, so the GPU's atomics decide exactly as the CPU's
// loops do. Needs 2m < 2^31.
#include <cstdint>

#include "compute/core/hd.h"

namespace ws::graph {

// What joining community c gains a node of `degree`, times 2m: its links into c less the share
// chance would put there (c's total degree, the node's own left out, times degree over 2m).
WS_HD std::int64_t joinGain(std::int64_t links, std::int64_t total, std::int64_t degree,
                            std::int64_t m2) {
  return links * m2 - total * degree;
}

// Where a node goes, seeing every node as it was before the sweep: to the best other community
// if it gains strictly more than staying (ties between others go to the lowest number). Two
// singletons would swap into each other's community forever, so a singleton joins another
// singleton only of a lower number (Lu, Halappanavar and Kalyanaraman's minimum-label rule).
WS_HD std::uint32_t chooseCommunity(std::uint32_t own, std::int64_t stayGain, bool anyOther,
                                    std::uint32_t best, std::int64_t bestGain,
                                    std::uint32_t ownSize, std::uint32_t bestSize) {
  if (!anyOther || bestGain <= stayGain) return own;
  if (ownSize == 1 && bestSize == 1 && best > own) return own;
  return best;
}

// Modularity times (2m)^2 from one community's twice-inside weight and total degree.
WS_HD std::int64_t scaledModularityTerm(std::int64_t inside2, std::int64_t total, std::int64_t m2) {
  return inside2 * m2 - total * total;
}

}  // namespace ws::graph
