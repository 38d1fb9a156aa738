#pragma once
// Vertex colourings for the optimizer: no edge joins two vertices of one colour, so no two
// vertices of a colour share a triangle and all of them can move at once. The chapter's first-fit
// colouring: vertices in order, each takes the smallest colour none of its neighbours has. It uses
// at most max degree + 1 colours (not "the maximum degree", as the chapter says: an odd cycle of
// degree 2 needs 3).
#include <cstdint>
#include <string>
#include <vector>

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

// Fills the class lists from the colours.
void groupClasses(Colouring& colouring);

// "" when no edge joins two vertices of one colour and the classes list every vertex once under
// its colour, else what is wrong.
std::string checkColouring(const Topology& topology, const Colouring& colouring);

}  // namespace ws::mesh
