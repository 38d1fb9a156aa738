#pragma once
// Graphs from files: edge lists (whitespace-separated pairs of vertex ids and an optional
// weight, `#` or `%` comments, as the SNAP collection writes them) and Matrix Market coordinate
// files (.mtx). Ids may be any non-negative integers: they become 0 .. n - 1 in increasing order
// and stay as the graph's labels. A line that cannot be read is a ParseError naming the file,
// line and column, and no graph is returned.
#include <iosfwd>
#include <string>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

// By extension: .mtx is Matrix Market, anything else an edge list.
Graph loadGraph(const std::string& path, GraphReport* report = nullptr);
Graph readEdgeList(std::istream& in, const std::string& source, GraphReport* report = nullptr);
Graph readMatrixMarket(std::istream& in, const std::string& source, GraphReport* report = nullptr);

// The graphs shipped in assets/graphs, by name without extension, and the file a name refers
// to: a shipped graph by that name, else the name itself as a path.
std::vector<std::string> shippedGraphs();
std::string graphPathOf(const std::string& name);

}  // namespace ws::graph
