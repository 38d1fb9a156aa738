#include "compute/graph/generators.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "compute/core/errors.h"
#include "compute/core/progress.h"

namespace ws::graph {

namespace {

using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Calls f(i, j) for each pair i < j < n with probability p, skipping ahead by geometric draws:
// O(n + pairs chosen), not O(n^2).
template <typename F>
void forRandomPairs(std::uint32_t n, double p, std::mt19937_64& rng, F&& f) {
  if (p <= 0 || n < 2) return;
  std::uniform_real_distribution<double> uniform(0, 1);
  const double logMiss = std::log1p(-std::min(p, 1 - 1e-16));
  std::uint64_t i = 0, j = 1;
  while (true) {
    // Pairs passed over before the next one chosen.
    const double draw = std::floor(std::log1p(-uniform(rng)) / logMiss);
    std::uint64_t skip = p >= 1 ? 0 : std::uint64_t(std::min(draw, 1e18));
    while (i < n && j + skip >= n) {
      skip -= n - j;
      ++i;
      j = i + 1;
    }
    if (i + 1 >= n) return;
    j += skip;
    f(std::uint32_t(i), std::uint32_t(j));
    if (++j >= n) {
      ++i;
      j = i + 1;
    }
  }
}

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

}  // namespace

Graph wattsAlpha(std::uint32_t n, std::uint32_t k, double alpha, double p, std::uint64_t seed) {
  require(n >= 3 && n <= 20000, "the alpha-model takes 3 to 20,000 vertices (it is O(n) an edge)");
  require(k >= 1 && k < n, "the alpha-model's mean degree k must be between 1 and n - 1");
  require(alpha >= 0 && p > 0 && p <= 1, "the alpha-model needs alpha >= 0 and 0 < p <= 1");
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint32_t>> adjacent(n);
  std::vector<std::uint32_t> shared(n);
  std::vector<double> propensity(n);
  std::uniform_int_distribution<std::uint32_t> anyVertex(0, n - 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  Pairs pairs;
  const std::size_t wanted = std::size_t(n) * k / 2;
  while (pairs.size() < wanted) {
    const std::uint32_t i = anyVertex(rng);
    if (adjacent[i].size() + 1 >= n) continue;
    // Neighbours in common with each other vertex.
    std::fill(shared.begin(), shared.end(), 0u);
    for (const std::uint32_t u : adjacent[i])
      for (const std::uint32_t w : adjacent[u]) ++shared[w];
    double total = 0;
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint32_t m = shared[j];
      double r = m >= k ? 1.0 : m == 0 ? p : std::pow(double(m) / k, alpha) * (1 - p) + p;
      if (j == i) r = 0;
      propensity[j] = r;
      total += r;
    }
    for (const std::uint32_t u : adjacent[i]) total -= propensity[u], propensity[u] = 0;
    double pick = uniform(rng) * total;
    std::uint32_t j = 0;
    while (j + 1 < n && (propensity[j] == 0 || pick >= propensity[j])) pick -= propensity[j++];
    if (propensity[j] == 0) continue;  // rounding at the end of the scan
    adjacent[i].push_back(j);
    adjacent[j].push_back(i);
    pairs.emplace_back(i, j);
  }
  return buildGraph(n, std::move(pairs));
}

Graph wattsStrogatz(std::uint32_t n, std::uint32_t k, double beta, std::uint64_t seed) {
  require(n >= 3, "a small world needs at least 3 vertices");
  require(k >= 2 && k % 2 == 0 && k < n, "the small world's degree k must be even and below n");
  require(beta >= 0 && beta <= 1, "the rewiring probability beta must be in [0, 1]");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::uniform_int_distribution<std::uint32_t> anyVertex(0, n - 1);
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  auto key = [](std::uint32_t a, std::uint32_t b) {
    return std::pair{std::min(a, b), std::max(a, b)};
  };
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t d = 1; d <= k / 2; ++d) edges.insert(key(v, (v + d) % n));
  for (std::uint32_t d = 1; d <= k / 2; ++d)
    for (std::uint32_t v = 0; v < n; ++v) {
      if (v % 65536 == 0)
        progress::report("rewiring the graph", double(d - 1) * n + v, k / 2 * double(n));
      if (uniform(rng) >= beta) continue;
      const auto old = key(v, (v + d) % n);
      if (!edges.count(old)) continue;  // already rewired away
      // A new far end: not v itself, not already a neighbour (give up after a few tries).
      for (int attempt = 0; attempt < 32; ++attempt) {
        const std::uint32_t w = anyVertex(rng);
        if (w == v || edges.count(key(v, w))) continue;
        edges.erase(old);
        edges.insert(key(v, w));
        break;
      }
    }
  return buildGraph(n, Pairs(edges.begin(), edges.end()));
}

Graph barabasiAlbert(std::uint32_t n, std::uint32_t m, std::uint64_t seed) {
  require(m >= 1 && n > m, "a scale-free graph needs m >= 1 edges per new vertex and n > m");
  std::mt19937_64 rng(seed);
  Pairs pairs;
  pairs.reserve(std::size_t(n) * m);
  // Every edge's two ends: drawing from it picks a vertex with probability proportional to degree.
  std::vector<std::uint32_t> ends;
  ends.reserve(2 * std::size_t(n) * m);
  for (std::uint32_t a = 0; a <= m; ++a)
    for (std::uint32_t b = a + 1; b <= m; ++b) {
      pairs.emplace_back(a, b);
      ends.insert(ends.end(), {a, b});
    }
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t v = m + 1; v < n; ++v) {
    if (v % 65536 == 0) progress::report("generating the graph", v, n);
    chosen.clear();
    std::uniform_int_distribution<std::size_t> anyEnd(0, ends.size() - 1);
    while (chosen.size() < m) {
      const std::uint32_t w = ends[anyEnd(rng)];
      if (std::find(chosen.begin(), chosen.end(), w) == chosen.end()) chosen.push_back(w);
    }
    for (const std::uint32_t w : chosen) {
      pairs.emplace_back(w, v);
      ends.insert(ends.end(), {w, v});
    }
  }
  return buildGraph(n, std::move(pairs));
}

Graph plantedPartition(std::uint32_t groups, std::uint32_t size, double pIn, double pOut,
                       std::uint64_t seed, std::vector<std::uint32_t>* community) {
  require(groups >= 1 && size >= 1, "a planted partition needs at least one group of one vertex");
  require(std::uint64_t(groups) * size <= std::numeric_limits<std::uint32_t>::max(),
          "the planted partition has too many vertices");
  require(pIn >= 0 && pIn <= 1 && pOut >= 0 && pOut <= 1,
          "the planted partition's probabilities must be in [0, 1]");
  const std::uint32_t n = groups * size;
  std::mt19937_64 rng(seed);
  Pairs pairs;
  for (std::uint32_t g = 0; g < groups; ++g) {
    progress::report("generating the graph's groups", g, groups);
    forRandomPairs(size, pIn, rng, [&](std::uint32_t i, std::uint32_t j) {
      pairs.emplace_back(g * size + i, g * size + j);
    });
  }
  // Row i of the pairs has n - i - 1 of them: the share done once rows 0 to i are is
  // 1 - ((n - i) / n)^2.
  std::uint32_t reported = 0;
  forRandomPairs(n, pOut, rng, [&](std::uint32_t i, std::uint32_t j) {
    if (i >= reported + 65536) {
      reported = i;
      progress::report("joining the graph's groups", double(n) * n - double(n - i) * (n - i),
                       double(n) * n);
    }
    if (i / size != j / size) pairs.emplace_back(i, j);
  });
  if (community) {
    community->resize(n);
    for (std::uint32_t v = 0; v < n; ++v) (*community)[v] = v / size;
  }
  return buildGraph(n, std::move(pairs));
}

Graph grid(std::uint32_t width, std::uint32_t height) {
  require(width >= 1 && height >= 1 && std::uint64_t(width) * height <= (1u << 31),
          "a grid needs 1 to 2^31 vertices");
  Pairs pairs;
  pairs.reserve(2 * std::size_t(width) * height);
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::uint32_t v = y * width + x;
      if (x + 1 < width) pairs.emplace_back(v, v + 1);
      if (y + 1 < height) pairs.emplace_back(v, v + width);
    }
  return buildGraph(width * height, std::move(pairs));
}

}  // namespace ws::graph
