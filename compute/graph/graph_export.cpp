#include "compute/graph/graph_export.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "compute/core/output_file.h"

namespace ws::graph {

namespace {

// A value as its column writes it: a whole number plainly, a real with 9 significant digits;
// NaN (a centrality not computed for that node) as an empty cell or attribute.
std::string text(const Attribute& column, std::size_t i) {
  const double v = column.values[i];
  if (!std::isfinite(v)) return "";
  char out[40];
  if (column.integer)
    std::snprintf(out, sizeof out, "%lld", static_cast<long long>(v));
  else
    std::snprintf(out, sizeof out, "%.9g", v);
  return out;
}

std::string label(const GraphTable& t, std::uint32_t v) {
  return std::to_string(t.graph->label(v));
}

// Attribute names in XML: what they are, escaped (our names are plain words; a file's are not).
std::string xmlEscaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

void writeNodesCsv(const std::string& path, const GraphTable& t) {
  std::ostringstream out;
  out << "id,x,y";
  for (const Attribute& a : t.nodes) out << ',' << a.name;
  out << '\n';
  for (std::uint32_t v = 0; v < t.graph->vertices; ++v) {
    out << label(t, v) << ',' << t.positions[2 * v] << ',' << t.positions[2 * v + 1];
    for (const Attribute& a : t.nodes) out << ',' << text(a, v);
    out << '\n';
  }
  writeWholeFile(path, out.str(), "nodes CSV");
}

void writeEdgesCsv(const std::string& path, const GraphTable& t) {
  std::ostringstream out;
  out << "source,target";
  for (const Attribute& a : t.edges) out << ',' << a.name;
  out << '\n';
  for (std::size_t e = 0; e < t.graph->edges(); ++e) {
    out << label(t, t.graph->ends[2 * e]) << ',' << label(t, t.graph->ends[2 * e + 1]);
    for (const Attribute& a : t.edges) out << ',' << text(a, e);
    out << '\n';
  }
  writeWholeFile(path, out.str(), "edges CSV");
}

void writeGraphMl(const std::string& path, const GraphTable& t) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
         "  <key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"float\"/>\n"
         "  <key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"float\"/>\n";
  const auto keys = [&](const std::vector<Attribute>& columns, const char* kind, char prefix) {
    for (std::size_t k = 0; k < columns.size(); ++k)
      out << "  <key id=\"" << prefix << k << "\" for=\"" << kind << "\" attr.name=\""
          << xmlEscaped(columns[k].name) << "\" attr.type=\""
          << (columns[k].integer ? "long" : "double") << "\"/>\n";
  };
  keys(t.nodes, "node", 'n');
  keys(t.edges, "edge", 'e');
  out << "  <graph id=\"G\" edgedefault=\"undirected\">\n";
  const auto data = [&](const std::vector<Attribute>& columns, char prefix, std::size_t i) {
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (const std::string value = text(columns[k], i); !value.empty())
        out << "      <data key=\"" << prefix << k << "\">" << value << "</data>\n";
  };
  for (std::uint32_t v = 0; v < t.graph->vertices; ++v) {
    out << "    <node id=\"" << label(t, v) << "\">\n"
        << "      <data key=\"x\">" << t.positions[2 * v] << "</data>\n"
        << "      <data key=\"y\">" << t.positions[2 * v + 1] << "</data>\n";
    data(t.nodes, 'n', v);
    out << "    </node>\n";
  }
  for (std::size_t e = 0; e < t.graph->edges(); ++e) {
    out << "    <edge source=\"" << label(t, t.graph->ends[2 * e]) << "\" target=\""
        << label(t, t.graph->ends[2 * e + 1]) << "\">\n";
    data(t.edges, 'e', e);
    out << "    </edge>\n";
  }
  out << "  </graph>\n</graphml>\n";
  writeWholeFile(path, out.str(), "GraphML");
}

void writeGexf(const std::string& path, const GraphTable& t) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<gexf xmlns=\"http://gexf.net/1.3\" xmlns:viz=\"http://gexf.net/1.3/viz\" "
         "version=\"1.3\">\n"
         "  <meta><creator>warpscope</creator></meta>\n"
         "  <graph defaultedgetype=\"undirected\" mode=\"static\">\n";
  const auto attributes = [&](const std::vector<Attribute>& columns, const char* kind) {
    out << "    <attributes class=\"" << kind << "\">\n";
    for (std::size_t k = 0; k < columns.size(); ++k)
      out << "      <attribute id=\"" << k << "\" title=\"" << xmlEscaped(columns[k].name)
          << "\" type=\"" << (columns[k].integer ? "long" : "double") << "\"/>\n";
    out << "    </attributes>\n";
  };
  attributes(t.nodes, "node");
  attributes(t.edges, "edge");
  const auto values = [&](const std::vector<Attribute>& columns, std::size_t i) {
    out << "        <attvalues>\n";
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (const std::string value = text(columns[k], i); !value.empty())
        out << "          <attvalue for=\"" << k << "\" value=\"" << value << "\"/>\n";
    out << "        </attvalues>\n";
  };
  out << "    <nodes>\n";
  for (std::uint32_t v = 0; v < t.graph->vertices; ++v) {
    out << "      <node id=\"" << label(t, v) << "\" label=\"" << label(t, v) << "\">\n";
    values(t.nodes, v);
    // Gephi's y grows upwards; the layout's grows downwards, as on the screen.
    out << "        <viz:position x=\"" << t.positions[2 * v] << "\" y=\""
        << -t.positions[2 * v + 1] << "\" z=\"0.0\"/>\n"
        << "      </node>\n";
  }
  out << "    </nodes>\n    <edges>\n";
  for (std::size_t e = 0; e < t.graph->edges(); ++e) {
    out << "      <edge id=\"" << e << "\" source=\"" << label(t, t.graph->ends[2 * e])
        << "\" target=\"" << label(t, t.graph->ends[2 * e + 1]) << "\">\n";
    values(t.edges, e);
    out << "      </edge>\n";
  }
  out << "    </edges>\n  </graph>\n</gexf>\n";
  writeWholeFile(path, out.str(), "GEXF");
}

}  // namespace ws::graph
