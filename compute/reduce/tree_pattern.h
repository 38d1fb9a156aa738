#pragma once
// What the threads of one block do at each step of a shared-memory tree (reductions #1 to #3,
// the Hillis-Steele and Blelloch scans), worked out from the kernels' own index arithmetic: which
// threads add, which warps diverge, and how many ways each warp's shared-memory access conflicts.
// The lab draws it; nothing here is measured.
#include <string>
#include <vector>

#include "compute/reduce/reduce_lab.h"

namespace ws::reduce {

struct TreePattern {
  int threads = 0, steps = 0;          // steps == 0: the kernel has no shared-memory tree
  std::vector<std::string> stepNames;  // "s = 4", "up d = 64"
  // steps x threads, row-major. activity: 1 the thread adds, 0.5 it waits in a warp where others
  // add (divergence), 0 its whole warp is idle (skipped, free). conflicts: the ways of its warp's
  // worst bank conflict (1: none) where the thread adds, else 0.
  std::vector<float> activity, conflicts;
  // Totals over the steps, in warp-steps: warps that run, warps that diverge, and the shared-memory
  // access cycles the running warps spend (one per way of their worst conflict, per access).
  int busyWarps = 0, divergentWarps = 0, accessCycles = 0;
};

TreePattern treePattern(Kernel kernel, int block, bool padded);

}  // namespace ws::reduce
