#pragma once
// The CPU implementations of Life, with OpenMP: the reference (one byte per cell, the oracle every
// other variant is tested against) and the bit-packed fast path (64 cells per word, the same
// bit-sliced arithmetic as the CUDA kernel).
#include "compute/life/life_engine.h"

namespace ws::life {

// One generation on a host grid, straight from the rule's definition. The tests' oracle.
void referenceStep(const LifeGrid& current, LifeGrid& next, const LifeRule& rule,
                   Boundary boundary);

}  // namespace ws::life
