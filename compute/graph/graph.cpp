#include "compute/graph/graph.h"

#include <algorithm>
#include <numeric>

namespace ws::graph {

std::string GraphReport::summary() const {
  std::string text;
  if (selfLoops) text += std::to_string(selfLoops) + " self-loops dropped";
  if (duplicates)
    text += (text.empty() ? "" : ", ") + std::to_string(duplicates) + " duplicate edges merged";
  if (weighted) text += (text.empty() ? "" : ", ") + std::string("weights read and ignored");
  return text.empty() ? "no self-loops or duplicate edges" : text;
}

std::uint32_t Graph::maxDegree() const {
  std::uint32_t most = 0;
  for (std::uint32_t v = 0; v < vertices; ++v) most = std::max(most, degree(v));
  return most;
}

Graph buildGraph(std::uint32_t vertices, std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs,
                 GraphReport* report) {
  GraphReport counted;
  for (auto& [a, b] : pairs)
    if (a > b) std::swap(a, b);
  const auto loops =
      std::remove_if(pairs.begin(), pairs.end(), [](const auto& p) { return p.first == p.second; });
  counted.selfLoops = std::size_t(pairs.end() - loops);
  pairs.erase(loops, pairs.end());
  std::sort(pairs.begin(), pairs.end());
  const auto repeats = std::unique(pairs.begin(), pairs.end());
  counted.duplicates = std::size_t(pairs.end() - repeats);
  pairs.erase(repeats, pairs.end());
  if (report) {
    report->selfLoops = counted.selfLoops;
    report->duplicates = counted.duplicates;
  }

  Graph g;
  g.vertices = vertices;
  g.ends.reserve(2 * pairs.size());
  g.offset.assign(std::size_t(vertices) + 1, 0);
  for (const auto& [a, b] : pairs) {
    g.ends.push_back(a);
    g.ends.push_back(b);
    ++g.offset[a + 1];
    ++g.offset[b + 1];
  }
  std::partial_sum(g.offset.begin(), g.offset.end(), g.offset.begin());
  g.arcFrom.resize(2 * pairs.size());
  g.arcTo.resize(2 * pairs.size());
  g.arcEdge.resize(2 * pairs.size());
  std::vector<std::uint32_t> fill(g.offset.begin(), g.offset.end() - 1);
  // Edges in increasing order fill each row in increasing order of neighbour: a row's smaller
  // neighbours come from edges (u, v) sorted by u, its larger ones from edges (v, w) sorted by w,
  // and every (u, v) with u < v sorts before every (v, w).
  for (std::uint32_t e = 0; e < pairs.size(); ++e) {
    const auto [a, b] = pairs[e];
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      const std::uint32_t arc = fill[from]++;
      g.arcFrom[arc] = from;
      g.arcTo[arc] = to;
      g.arcEdge[arc] = e;
    }
  }
  return g;
}

std::vector<std::uint32_t> components(const Graph& g, const std::vector<std::uint8_t>& removed,
                                      std::uint32_t* count) {
  std::vector<std::uint32_t> parent(g.vertices);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (std::size_t e = 0; e < g.edges(); ++e) {
    if (!removed.empty() && removed[e]) continue;
    const std::uint32_t a = find(g.ends[2 * e]), b = find(g.ends[2 * e + 1]);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the smaller vertex stays the root
  }
  std::vector<std::uint32_t> component(g.vertices);
  std::vector<std::uint32_t> number(g.vertices, UINT32_MAX);
  std::uint32_t next = 0;
  for (std::uint32_t v = 0; v < g.vertices; ++v) {
    const std::uint32_t root = find(v);
    if (number[root] == UINT32_MAX) number[root] = next++;
    component[v] = number[root];
  }
  if (count) *count = next;
  return component;
}

}  // namespace ws::graph
