#pragma once
// Vertex colourings for the optimizer: no edge joins two vertices of one colour, so no two
// vertices of a colour share a triangle and all of them can move at once. The chapter's first-fit
// colouring: vertices in order, each takes the smallest colour none of its neighbours has. It uses
// at most max degree + 1 colours (not "the maximum degree", as the chapter says: an odd cycle of
// degree 2 needs 3).
#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/hd.h"
#include "compute/mesh/topology.h"

namespace ws::mesh {

struct Colouring {
  std::vector<std::uint32_t> colour;  // per vertex
  std::uint32_t colours = 0;
  // The vertices of colour c are members[classStart[c]] to members[classStart[c + 1] - 1], in
  // increasing order: one launch (or one parallel loop) per class.
  std::vector<std::uint32_t> classStart, members;
};

Colouring firstFitColouring(const Topology& topology);

// Jones-Plassmann (the parallel colouring the chapter cites as future work): every vertex draws a
// random priority; in each round, each uncoloured vertex whose priority beats all its uncoloured
// neighbours' takes the smallest colour its coloured neighbours lack. No two neighbours colour in
// one round, so a round is one parallel pass. The result is first fit in priority order, so this
// sequential version and the GPU's give the same colours; at most max degree + 1 of them.
Colouring jonesPlassmannColouring(const Topology& topology, std::uint32_t seed);

// Vertex v's priority: a hash of v and the seed, ties broken by v (priorityBeats).
WS_HD std::uint32_t colourPriority(std::uint32_t v, std::uint32_t seed) {
  std::uint32_t h = v * 0x9E3779B1u ^ seed * 0x85EBCA77u;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  return h ^ (h >> 16);
}
WS_HD bool priorityBeats(std::uint32_t u, std::uint32_t v, std::uint32_t seed) {
  const std::uint32_t pu = colourPriority(u, seed), pv = colourPriority(v, seed);
  return pu > pv || (pu == pv && u > v);
}

// Fills the class lists from the colours.
void groupClasses(Colouring& colouring);

// "" when no edge joins two vertices of one colour and the classes list every vertex once under
// its colour, else what is wrong.
std::string checkColouring(const Topology& topology, const Colouring& colouring);

}  // namespace ws::mesh
