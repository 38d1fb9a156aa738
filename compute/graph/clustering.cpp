#include "compute/graph/clustering.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ws::graph {

double modularity(const Graph& g, const std::vector<std::uint32_t>& community) {
  const double m = double(g.edges());
  if (m == 0) return 0;
  const std::uint32_t groups =
      community.empty() ? 0 : *std::max_element(community.begin(), community.end()) + 1;
  std::vector<double> inside(groups, 0), degree(groups, 0);
  for (std::size_t e = 0; e < g.edges(); ++e)
    if (community[g.ends[2 * e]] == community[g.ends[2 * e + 1]])
      ++inside[community[g.ends[2 * e]]];
  for (std::uint32_t v = 0; v < g.vertices; ++v) degree[community[v]] += g.degree(v);
  double q = 0;
  for (std::uint32_t c = 0; c < groups; ++c) q += inside[c] / m - std::pow(degree[c] / (2 * m), 2);
  return q;
}

double normalizedMutualInformation(const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& b) {
  const double n = double(a.size());
  std::map<std::uint32_t, double> pa, pb;
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> joint;
  for (std::size_t i = 0; i < a.size(); ++i) {
    pa[a[i]] += 1 / n;
    pb[b[i]] += 1 / n;
    joint[{a[i], b[i]}] += 1 / n;
  }
  auto entropy = [](const std::map<std::uint32_t, double>& p) {
    double h = 0;
    for (const auto& [k, q] : p) h -= q * std::log(q);
    return h;
  };
  double mutual = 0;
  for (const auto& [k, q] : joint) mutual += q * std::log(q / (pa[k.first] * pb[k.second]));
  const double ha = entropy(pa), hb = entropy(pb);
  return ha + hb > 0 ? 2 * mutual / (ha + hb) : 1;  // two single communities are the same
}

EdgeBetweenness edgeBetweennessOnCpu(const Graph& g) {
  return [&g](const std::vector<std::uint32_t>& sources, const std::vector<std::uint8_t>& removed) {
    return centralityOnCpu(g, sources, removed, false).edgeBetweenness;
  };
}

GirvanNewman::GirvanNewman(const Graph& g, EdgeBetweenness betweenness, std::uint32_t perStep,
                           ComponentLabels labels)
    : g_(g),
      compute_(std::move(betweenness)),
      label_(labels ? std::move(labels)
                    : [&g](const std::vector<std::uint8_t>& removed,
                           std::uint32_t* count) { return components(g, removed, count); }),
      perStep_(std::max(perStep, 1u)),
      removed_(g.edges(), 0),
      betweenness_(g.edges(), 0) {
  component_ = label_(removed_, &components_);
  levels_.push_back({0, components_, modularity(g_, component_)});
  std::vector<std::uint32_t> all(components_);
  for (std::uint32_t c = 0; c < components_; ++c) all[c] = c;
  recompute(all);
}

void GirvanNewman::recompute(const std::vector<std::uint32_t>& touched) {
  std::vector<std::uint8_t> in(components_, 0);
  for (const std::uint32_t c : touched) in[c] = 1;
  std::vector<std::uint32_t> sources;
  for (std::uint32_t v = 0; v < g_.vertices; ++v)
    if (in[component_[v]]) sources.push_back(v);
  if (sources.empty()) return;
  const std::vector<double> fresh = compute_(sources, removed_);
  for (std::size_t e = 0; e < g_.edges(); ++e)
    if (!removed_[e] && in[component_[g_.ends[2 * e]]]) betweenness_[e] = fresh[e];
}

bool GirvanNewman::step() {
  if (done()) return false;
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t k = 0; k < perStep_ && !done(); ++k) {
    // The highest betweenness; values within rounding of it count as ties, to the lowest id, so
    // that the CPU and the GPU (which add in other orders) remove the same edge.
    double top = -1;
    for (std::size_t e = 0; e < g_.edges(); ++e)
      if (!removed_[e]) top = std::max(top, betweenness_[e]);
    std::uint32_t e = 0;
    while (removed_[e] || betweenness_[e] < top * (1 - 1e-9)) ++e;
    removed_[e] = 1;
    betweenness_[e] = 0;
    removals_.push_back(e);
    chosen.push_back(e);
  }
  const std::uint32_t before = components_;
  component_ = label_(removed_, &components_);
  if (components_ > before)
    levels_.push_back({removals_.size(), components_, modularity(g_, component_)});
  // Betweenness changes only in the components the removed edges were in (now one or two each).
  std::vector<std::uint32_t> touched;
  for (const std::uint32_t e : chosen)
    touched.insert(touched.end(), {component_[g_.ends[2 * e]], component_[g_.ends[2 * e + 1]]});
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  recompute(touched);
  return true;
}

std::size_t GirvanNewman::bestLevel() const {
  std::size_t best = 0;
  for (std::size_t l = 1; l < levels_.size(); ++l)
    if (levels_[l].modularity > levels_[best].modularity) best = l;
  return best;
}

std::vector<std::uint32_t> GirvanNewman::communities(std::size_t level) const {
  std::vector<std::uint8_t> removed(g_.edges(), 0);
  for (std::size_t i = 0; i < levels_[level].removals; ++i) removed[removals_[i]] = 1;
  return components(g_, removed);
}

std::uint32_t renumberCommunities(std::vector<std::uint32_t>& community) {
  std::vector<std::uint32_t> number(community.size(), UINT32_MAX);
  std::uint32_t next = 0;
  for (auto& c : community) {
    if (number[c] == UINT32_MAX) number[c] = next++;
    c = number[c];
  }
  return next;
}

std::vector<std::uint32_t> mergeByAffinity(const Graph& g,
                                           const std::vector<std::uint32_t>& community,
                                           std::uint32_t count, std::vector<Merge>* merges) {
  std::vector<std::uint32_t> out = community;
  const std::uint32_t k =
      community.empty() ? 0 : *std::max_element(community.begin(), community.end()) + 1;
  std::vector<double> members(k, 0);
  for (const std::uint32_t c : community) ++members[c];
  // Edges between each pair of communities (smaller number first).
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> between;
  for (std::size_t e = 0; e < g.edges(); ++e) {
    const std::uint32_t a = community[g.ends[2 * e]], b = community[g.ends[2 * e + 1]];
    if (a != b) between[{std::min(a, b), std::max(a, b)}] += 1;
  }
  std::vector<std::uint32_t> into(k);  // where each community went
  for (std::uint32_t c = 0; c < k; ++c) into[c] = c;
  for (std::uint32_t m = 0; m < count && !between.empty(); ++m) {
    auto best = between.begin();
    double bestAffinity = -1;
    for (auto it = between.begin(); it != between.end(); ++it) {
      const double affinity = it->second / (members[it->first.first] * members[it->first.second]);
      if (affinity > bestAffinity) best = it, bestAffinity = affinity;
    }
    const auto [a, b] = best->first;
    if (merges) merges->push_back({a, b, bestAffinity});
    // b joins a: its pairs become a's.
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> next;
    for (const auto& [pair, edges] : between) {
      std::uint32_t x = pair.first == b ? a : pair.first, y = pair.second == b ? a : pair.second;
      if (x != y) next[{std::min(x, y), std::max(x, y)}] += edges;
    }
    between.swap(next);
    members[a] += members[b];
    for (auto& c : into)
      if (c == b) c = a;
  }
  for (auto& c : out) c = into[c];
  renumberCommunities(out);
  return out;
}

}  // namespace ws::graph
