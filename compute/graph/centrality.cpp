#include "compute/graph/centrality.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <random>

#include "compute/core/progress.h"

namespace ws::graph {

namespace {

// One source's sweeps, with their scratch arrays.
struct Sweep {
  std::vector<std::int32_t> distance;
  std::vector<double> paths, dependency, suffixes;
  std::vector<std::uint32_t> order;  // vertices in the order reached (by level)
};

}  // namespace

Centrality centralityOnCpu(const Graph& g, const std::vector<std::uint32_t>& sourceList,
                           const std::vector<std::uint8_t>& removed, bool extrapolate) {
  const std::uint32_t n = g.vertices;
  std::vector<std::uint32_t> sources = sourceList;
  if (sources.empty()) {
    sources.resize(n);
    std::iota(sources.begin(), sources.end(), 0u);
  }
  Centrality c;
  c.betweenness.assign(n, 0);
  c.edgeBetweenness.assign(g.edges(), 0);
  c.stress.assign(n, 0);
  c.closeness.assign(n, 0);
  c.graph.assign(n, 0);
  auto present = [&](std::uint32_t arc) { return removed.empty() || !removed[g.arcEdge[arc]]; };
  std::uint64_t arcs = 0;
  // Progress is reported by the calling thread (the team's first); a cancel stops every thread
  // taking new sources, and is raised once the region is left.
  std::atomic<std::size_t> swept{0};
  std::atomic<bool> stop{false};
  const char* const what = "measuring centrality";
  const auto stopping = [&] {
    if (omp_get_thread_num() == 0 && progress::stopRequested(what, swept, sources.size()))
      stop = true;
    return stop.load(std::memory_order_relaxed);
  };
#pragma omp parallel reduction(+ : arcs)
  {
    Sweep s;
    s.distance.resize(n);
    s.paths.resize(n);
    s.dependency.resize(n);
    s.suffixes.resize(n);
    s.order.reserve(n);
    std::vector<double> betweenness(n, 0), stress(n, 0), edges(g.edges(), 0);
#pragma omp for schedule(dynamic, 1)
    for (std::size_t k = 0; k < sources.size(); ++k) {
      if (stopping()) continue;
      ++swept;
      const std::uint32_t source = sources[k];
      std::fill(s.distance.begin(), s.distance.end(), -1);
      std::fill(s.paths.begin(), s.paths.end(), 0.0);
      std::fill(s.dependency.begin(), s.dependency.end(), 0.0);
      std::fill(s.suffixes.begin(), s.suffixes.end(), 0.0);
      s.order.clear();
      s.distance[source] = 0;
      s.paths[source] = 1;
      s.order.push_back(source);
      // Forward: breadth first, counting the shortest paths to each vertex.
      bool abandoned = false;  // a sweep of a large graph takes seconds: a cancel ends it
      for (std::size_t head = 0; head < s.order.size(); ++head) {
        if (head % 65536 == 65535 && (abandoned = stopping())) break;
        const std::uint32_t v = s.order[head];
        for (std::uint32_t a = g.offset[v]; a < g.offset[v + 1]; ++a) {
          ++arcs;
          if (!present(a)) continue;
          const std::uint32_t w = g.arcTo[a];
          if (s.distance[w] < 0) {
            s.distance[w] = s.distance[v] + 1;
            s.order.push_back(w);
          }
          if (s.distance[w] == s.distance[v] + 1) s.paths[w] += s.paths[v];
        }
      }
      if (abandoned) continue;
      double total = 0;
      for (const std::uint32_t v : s.order) total += s.distance[v];
      c.closeness[source] = total > 0 ? 1 / total : 0;
      c.graph[source] = s.distance[s.order.back()] > 0 ? 1.0 / s.distance[s.order.back()] : 0;
      // Backward: each vertex's dependency from its successors, deepest first (the source's
      // own only for its edges: a pair's endpoints are not between them).
      for (std::size_t i = s.order.size(); i-- > 0;) {
        if (i % 65536 == 0 && stopping()) break;  // what the sweep summed is dropped then
        const std::uint32_t v = s.order[i];
        for (std::uint32_t a = g.offset[v]; a < g.offset[v + 1]; ++a) {
          ++arcs;
          if (!present(a)) continue;
          const std::uint32_t w = g.arcTo[a];
          if (s.distance[w] != s.distance[v] + 1) continue;
          const double share = s.paths[v] / s.paths[w] * (1 + s.dependency[w]);
          s.dependency[v] += share;
          s.suffixes[v] += 1 + s.suffixes[w];
          edges[g.arcEdge[a]] += share;
        }
        if (v == source) continue;
        betweenness[v] += s.dependency[v];
        stress[v] += s.paths[v] * s.suffixes[v];
      }
    }
#pragma omp critical
    if (!stop) {
      for (std::uint32_t v = 0; v < n; ++v) {
        c.betweenness[v] += betweenness[v];
        c.stress[v] += stress[v];
      }
      for (std::size_t e = 0; e < g.edges(); ++e) c.edgeBetweenness[e] += edges[e];
    }
  }
  progress::report(what, swept, sources.size());  // throws when cancelled
  c.scalePairSums(pairScale(n, sources.size(), extrapolate));
  c.arcsTraversed = arcs;
  return c;
}

double levelCrossingShare(const Graph& g, const std::vector<std::uint32_t>& sources) {
  if (sources.empty() || g.edges() == 0) return 0;
  std::vector<std::int32_t> level(g.vertices);
  std::vector<std::uint32_t> queue;
  double crossing = 0;
  for (const std::uint32_t source : sources) {
    std::fill(level.begin(), level.end(), -1);
    queue.assign(1, source);
    level[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t v = queue[head];
      for (std::uint32_t a = g.offset[v]; a < g.offset[v + 1]; ++a)
        if (level[g.arcTo[a]] < 0) {
          level[g.arcTo[a]] = level[v] + 1;
          queue.push_back(g.arcTo[a]);
        }
    }
    for (std::size_t e = 0; e < g.edges(); ++e) {
      const std::int32_t a = level[g.ends[2 * e]], b = level[g.ends[2 * e + 1]];
      crossing += a >= 0 && a != b;  // reached, on two levels (one apart)
    }
  }
  return crossing / (double(sources.size()) * double(g.edges()));
}

std::vector<std::uint32_t> sampleSources(std::uint32_t vertices, std::uint32_t count,
                                         std::uint64_t seed) {
  std::vector<std::uint32_t> all(vertices);
  std::iota(all.begin(), all.end(), 0u);
  if (count >= vertices) return all;
  std::mt19937_64 rng(seed);
  for (std::uint32_t i = 0; i < count; ++i) {  // a partial Fisher-Yates shuffle
    std::uniform_int_distribution<std::uint32_t> pick(i, vertices - 1);
    std::swap(all[i], all[pick(rng)]);
  }
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace ws::graph
