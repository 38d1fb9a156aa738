#include "compute/graph/graph_io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/memory.h"
#include "compute/core/text_tokens.h"

namespace ws::graph {

namespace {

std::uint64_t vertexId(const TextTokens& t, const Token& token) {
  const long long id = t.integer(token, "vertex id");
  if (id < 0) t.fail(token, "vertex id " + token.shown() + " is negative");
  return std::uint64_t(id);
}

// Dense numbers for the ids, in increasing order of id.
Graph fromIds(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& idPairs,
              GraphReport* report) {
  std::vector<std::uint64_t> ids;
  ids.reserve(2 * idPairs.size());
  for (const auto& [a, b] : idPairs) ids.insert(ids.end(), {a, b});
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() > std::numeric_limits<std::uint32_t>::max())
    throw InputError("the graph has more than 2^32 - 1 vertices");
  auto number = [&](std::uint64_t id) {
    return std::uint32_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  pairs.reserve(idPairs.size());
  for (const auto& [a, b] : idPairs) pairs.emplace_back(number(a), number(b));
  Graph g = buildGraph(std::uint32_t(ids.size()), std::move(pairs), report);
  g.labels = std::move(ids);
  return g;
}

}  // namespace

Graph readEdgeList(std::istream& in, const std::string& source, GraphReport* report) {
  TextTokens t(in, source);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  bool weighted = false;
  while (t.nextLine()) {
    Token first;
    if (!t.onLine(first) || first.text[0] == '%') continue;  // blank, or a comment
    Token second, weight, extra;
    if (!t.onLine(second)) t.fail(first, "an edge needs two vertex ids, this line has one");
    pairs.emplace_back(vertexId(t, first), vertexId(t, second));
    if (t.onLine(weight)) {
      t.real(weight, "edge weight");
      weighted = true;
    }
    if (t.onLine(extra))
      t.fail(extra, "an edge is two vertex ids and an optional weight; '" + extra.shown() +
                        "' is one field too many");
  }
  GraphReport counted;
  Graph g = fromIds(pairs, &counted);
  counted.weighted = weighted;
  if (report) *report = counted;
  return g;
}

Graph readMatrixMarket(std::istream& in, const std::string& source, GraphReport* report) {
  TextTokens t(in, source, '%');
  if (!t.nextLine()) t.fail(1, 1, "the file is empty: expected a %%MatrixMarket header");
  const std::string header = t.rest();
  std::string lower = header;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (lower.rfind("%%matrixmarket matrix coordinate", 0) != 0)
    t.fail(1, 1,
           "expected the header '%%MatrixMarket matrix coordinate ...', found '" +
               json_input::brief(header) + "'");
  const bool pattern = lower.find(" pattern") != std::string::npos;
  if (lower.find(" complex") != std::string::npos)
    t.fail(1, 1, "complex matrices are not graphs this program reads");
  const Token rowsToken = t.next("the matrix size");
  const long long rows = t.count(rowsToken, "rows");
  const long long cols = t.count(t.next("the column count"), "columns");
  const long long entries = t.count(t.next("the entry count"), "entries");
  if (rows != cols)
    t.fail(rowsToken, "the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                          ": an adjacency matrix must be square");
  // Every row is a vertex, with or without edges: the header alone can ask for billions.
  if (rows >= std::numeric_limits<std::uint32_t>::max())
    t.fail(rowsToken, "a graph of " + std::to_string(rows) + " vertices: at most 2^32 - 2");
  requireHostMemory(double(rows) * sizeof(std::uint32_t) * 2,
                    "the graph's " + std::to_string(rows) + " vertices");
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  pairs.reserve(std::size_t(std::min<long long>(entries, 1 << 22)));
  for (long long k = 0; k < entries; ++k) {
    const std::string what = "entry " + std::to_string(k + 1) + " of " + std::to_string(entries);
    std::uint32_t ends[2];
    for (std::uint32_t& end : ends) {
      const Token index = t.next(what);
      const long long i = t.integer(index, "row or column");
      if (i < 1 || i > rows)
        t.fail(index,
               "row or column " + index.shown() + " is out of range 1 to " + std::to_string(rows));
      end = std::uint32_t(i - 1);
    }
    if (!pattern) t.real(t.next("the value of " + what), "value");
    Token extra;
    if (t.onLine(extra)) t.fail(extra, "'" + extra.shown() + "' is one field too many");
    pairs.emplace_back(ends[0], ends[1]);
  }
  t.requireEnd("more entries than the " + std::to_string(entries) + " the header declares");
  GraphReport counted;
  Graph g = buildGraph(std::uint32_t(rows), std::move(pairs), &counted);
  counted.weighted = !pattern;
  if (report) *report = counted;
  return g;
}

Graph loadGraph(const std::string& path, GraphReport* report) {
  std::ifstream in = openInputFile(path, "graph file", 4096 * kMiB);
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".mtx" ? readMatrixMarket(in, path, report) : readEdgeList(in, path, report);
}

std::vector<std::string> shippedGraphs() {
  return shippedNames(kGraphs);
}

std::string graphPathOf(const std::string& name) {
  return shippedPath(kGraphs, name).value_or(name);
}

}  // namespace ws::graph
