#pragma once
// Exports of a graph with what was computed on it, for spreadsheets and for Gephi: CSV (a nodes
// file and an edges file), GraphML and GEXF 1.3 (node and edge attributes declared and typed,
// positions as GEXF's viz:position).
#include <string>
#include <vector>

#include "compute/graph/graph.h"

namespace ws::graph {

// One column of values, a value per node or per edge.
struct Attribute {
  std::string name;
  bool integer = false;  // whole numbers (a community); else real numbers
  std::vector<double> values;
};

struct GraphTable {
  const Graph* graph = nullptr;
  std::vector<float> positions;  // x, y per node
  std::vector<Attribute> nodes, edges;
};

// Each throws InputError naming the file where it cannot be written whole.
void writeNodesCsv(const std::string& path, const GraphTable& table);
void writeEdgesCsv(const std::string& path, const GraphTable& table);
void writeGraphMl(const std::string& path, const GraphTable& table);
void writeGexf(const std::string& path, const GraphTable& table);

}  // namespace ws::graph
