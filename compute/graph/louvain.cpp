#include "compute/graph/louvain.h"

#include <algorithm>
#include <numeric>

#include "compute/core/errors.h"
#include "compute/core/progress.h"
#include "compute/graph/clustering.h"
#include "compute/graph/louvain_rule.h"

namespace ws::graph {

namespace {

// A level's graph, for both methods: node i's links are to[offset[i] .. offset[i + 1]) with
// their weights (whole numbers: counts of edges), a community's inside edges as the node's own
// weight, counted twice (from both ends), and its degree (links plus that).
struct Integral {
  std::uint32_t n = 0;
  std::vector<std::uint32_t> offset, to, weight;
  std::vector<std::int64_t> inside2, degree;
  std::int64_t m2 = 0;
};

Integral integralOf(const Graph& g) {
  Integral w;
  w.n = g.vertices;
  w.offset = g.offset;
  w.to = g.arcTo;
  w.weight.assign(g.arcs(), 1);
  w.inside2.assign(g.vertices, 0);
  w.degree.resize(g.vertices);
  for (std::uint32_t v = 0; v < g.vertices; ++v) w.degree[v] = g.degree(v);
  w.m2 = 2 * std::int64_t(g.edges());
  return w;
}

// The graph of the communities (numbered 0 .. k - 1): a node each, links summed, the weight inside
// kept as the node's own.
Integral aggregate(const Integral& w, const std::vector<std::uint32_t>& community,
                   std::uint32_t k) {
  Integral out;
  out.n = k;
  out.m2 = w.m2;
  out.inside2.assign(k, 0);
  out.degree.assign(k, 0);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> links;  // (from << 32 | to, weight)
  for (std::uint32_t i = 0; i < w.n; ++i) {
    const std::uint32_t ci = community[i];
    out.inside2[ci] += w.inside2[i];
    out.degree[ci] += w.degree[i];
    for (std::uint32_t a = w.offset[i]; a < w.offset[i + 1]; ++a) {
      const std::uint32_t cj = community[w.to[a]];
      if (cj == ci)
        out.inside2[ci] += w.weight[a];
      else
        links.emplace_back(std::uint64_t(ci) << 32 | cj, w.weight[a]);
    }
  }
  std::sort(links.begin(), links.end());
  out.offset.assign(k + 1, 0);
  for (std::size_t r = 0; r < links.size(); ++r) {
    if (r > 0 && links[r].first == links[r - 1].first) {
      out.weight.back() += links[r].second;
      continue;
    }
    ++out.offset[(links[r].first >> 32) + 1];
    out.to.push_back(std::uint32_t(links[r].first));
    out.weight.push_back(links[r].second);
  }
  for (std::uint32_t c = 0; c < k; ++c) out.offset[c + 1] += out.offset[c];
  return out;
}

// One level's local moving. Returns whether any node moved; `community` per node.
bool moveNodes(const Integral& w, std::vector<std::uint32_t>& community) {
  const double m2 = double(w.m2);
  std::vector<double> degree(w.n), tot(w.n, 0);
  for (std::uint32_t i = 0; i < w.n; ++i) tot[community[i]] += degree[i] = double(w.degree[i]);
  std::vector<double> links(w.n, 0);
  std::vector<std::uint32_t> seen;
  bool movedAny = false;
  for (bool moved = true; moved;) {
    moved = false;
    for (std::uint32_t i = 0; i < w.n; ++i) {
      if (i % 65536 == 0) progress::report("finding communities (Louvain)", i, w.n);
      const std::uint32_t own = community[i];
      // The weight from i to each neighbouring community.
      seen.clear();
      for (std::uint32_t a = w.offset[i]; a < w.offset[i + 1]; ++a) {
        const std::uint32_t c = community[w.to[a]];
        if (links[c] == 0) seen.push_back(c);
        links[c] += w.weight[a];
      }
      tot[own] -= degree[i];
      // The gain of joining c, up to a common factor: links to c less what chance would put there.
      auto gain = [&](std::uint32_t c) { return links[c] - tot[c] * degree[i] / m2; };
      // Stay on a tie; between other tied communities, take the lowest number.
      std::uint32_t best = own;
      double bestGain = gain(own);
      for (const std::uint32_t c : seen) {
        if (c == own) continue;
        const double gc = gain(c);
        if (gc > bestGain + 1e-12 || (best != own && gc > bestGain - 1e-12 && c < best)) {
          best = c;
          bestGain = gc;
        }
      }
      tot[best] += degree[i];
      for (const std::uint32_t c : seen) links[c] = 0;
      links[own] = 0;
      if (best != own) {
        community[i] = best;
        moved = movedAny = true;
      }
    }
  }
  return movedAny;
}

}  // namespace

LouvainResult louvainOnCpu(const Graph& g) {
  LouvainResult result;
  result.community.resize(g.vertices);
  std::iota(result.community.begin(), result.community.end(), 0u);
  Integral w = integralOf(g);
  std::vector<std::uint32_t> level(w.n);
  std::iota(level.begin(), level.end(), 0u);
  while (true) {
    std::iota(level.begin(), level.end(), 0u);
    if (!moveNodes(w, level)) break;
    const std::uint32_t k = renumberCommunities(level);
    for (auto& c : result.community) c = level[c];
    ++result.levels;
    if (k == w.n) break;
    w = aggregate(w, level, k);
    level.resize(k);
  }
  result.communities = renumberCommunities(result.community);
  result.modularity = modularity(g, result.community);
  return result;
}

namespace {

std::int64_t scaledModularity(const Integral& w, const std::vector<std::uint32_t>& community) {
  std::vector<std::int64_t> inside2(w.n, 0), total(w.n, 0);
  for (std::uint32_t i = 0; i < w.n; ++i) {
    inside2[community[i]] += w.inside2[i];
    total[community[i]] += w.degree[i];
    for (std::uint32_t a = w.offset[i]; a < w.offset[i + 1]; ++a)
      if (community[w.to[a]] == community[i]) inside2[community[i]] += w.weight[a];
  }
  std::int64_t q = 0;
  for (std::uint32_t c = 0; c < w.n; ++c) q += scaledModularityTerm(inside2[c], total[c], w.m2);
  return q;
}

// One sweep: every node's move from the communities as they are; returns how many moved.
std::size_t sweep(const Integral& w, const std::vector<std::uint32_t>& community,
                  std::vector<std::uint32_t>& next) {
  std::vector<std::int64_t> total(w.n, 0);
  std::vector<std::uint32_t> size(w.n, 0);
  for (std::uint32_t i = 0; i < w.n; ++i) {
    total[community[i]] += w.degree[i];
    ++size[community[i]];
  }
  std::size_t moved = 0;
#pragma omp parallel reduction(+ : moved)
  {
    std::vector<std::int64_t> links(w.n, 0);
    std::vector<std::uint32_t> seen;
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t node = 0; node < std::int64_t(w.n); ++node) {
      const auto i = std::uint32_t(node);
      const std::uint32_t own = community[i];
      seen.clear();
      for (std::uint32_t a = w.offset[i]; a < w.offset[i + 1]; ++a) {
        const std::uint32_t c = community[w.to[a]];
        if (links[c] == 0) seen.push_back(c);
        links[c] += w.weight[a];
      }
      const std::int64_t stay = joinGain(links[own], total[own] - w.degree[i], w.degree[i], w.m2);
      bool anyOther = false;
      std::uint32_t best = 0;
      std::int64_t bestGain = 0;
      for (const std::uint32_t c : seen) {
        if (c == own) continue;
        const std::int64_t gain = joinGain(links[c], total[c], w.degree[i], w.m2);
        if (!anyOther || gain > bestGain || (gain == bestGain && c < best)) {
          best = c;
          bestGain = gain;
        }
        anyOther = true;
      }
      for (const std::uint32_t c : seen) links[c] = 0;
      next[i] = chooseCommunity(own, stay, anyOther, best, bestGain, size[own],
                                anyOther ? size[best] : 0);
      moved += next[i] != own;
    }
  }
  return moved;
}

// Communities renumbered in order of their number; returns how many.
std::uint32_t compact(std::vector<std::uint32_t>& community) {
  std::vector<std::uint32_t> number(community.size(), 0);
  for (const std::uint32_t c : community) number[c] = 1;
  std::uint32_t next = 0;
  for (auto& k : number) k = k ? next++ : UINT32_MAX;
  for (auto& c : community) c = number[c];
  return next;
}

}  // namespace

LouvainResult louvainSynchronousOnCpu(const Graph& g) {
  if (2 * double(g.edges()) >= 2147483648.0)
    throw InputError("the synchronous Louvain method takes fewer than 2^30 edges");
  LouvainResult result;
  result.community.resize(g.vertices);
  std::iota(result.community.begin(), result.community.end(), 0u);
  Integral w = integralOf(g);
  for (int level = 0; level < kLouvainMaxLevels && w.m2 > 0; ++level) {
    std::vector<std::uint32_t> community(w.n), next(w.n);
    std::iota(community.begin(), community.end(), 0u);
    std::int64_t q = scaledModularity(w, community);
    const auto enough = std::int64_t(1e-6 * double(w.m2) * double(w.m2));
    bool improved = false;
    for (int s = 0; s < kLouvainMaxSweeps; ++s) {
      ++result.sweeps;
      if (sweep(w, community, next) == 0) break;
      const std::int64_t after = scaledModularity(w, next);
      if (after <= q) break;  // the sweep is undone
      community.swap(next);
      improved = true;
      const bool small = after - q < enough;
      q = after;
      if (small) break;
    }
    if (!improved) break;
    const std::uint32_t k = compact(community);
    for (auto& c : result.community) c = community[c];
    ++result.levels;
    if (k == w.n) break;
    w = aggregate(w, community, k);
  }
  result.communities = renumberCommunities(result.community);
  result.modularity = modularity(g, result.community);
  return result;
}

}  // namespace ws::graph
