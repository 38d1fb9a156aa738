#pragma once
// Community detection by Girvan and Newman's divisive method (the source's chapter 2, line 994):
// remove the edge of highest betweenness, recompute betweenness in the component it was in,
// repeat; every split of a component is a level of the dendrogram, scored by its modularity on
// the original graph. And the measures that judge a partition.
#include <cstdint>
#include <functional>
#include <vector>

#include "compute/graph/centrality.h"

namespace ws::graph {

// Newman's modularity of a partition (`community` per vertex) of g: the fraction of edges inside
// communities less what a random graph of the same degrees would have there. Edges removed
// since do not matter: it judges the partition on the whole graph.
double modularity(const Graph& g, const std::vector<std::uint32_t>& community);

// Normalized mutual information of two partitions of the same vertices (1: the same, 0:
// independent), normalized by the mean of their entropies.
double normalizedMutualInformation(const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& b);

// Edge betweenness of g with `removed` edges absent, from exactly `sources` (not extrapolated):
// centralityOnCpu, or a GPU's.
using EdgeBetweenness = std::function<std::vector<double>(
    const std::vector<std::uint32_t>& sources, const std::vector<std::uint8_t>& removed)>;
EdgeBetweenness edgeBetweennessOnCpu(const Graph& g);

// Connected components of g with `removed` edges absent, numbered as components() numbers them:
// the CPU's union-find (when empty), or a GPU's.
using ComponentLabels = std::function<std::vector<std::uint32_t>(
    const std::vector<std::uint8_t>& removed, std::uint32_t* count)>;

// The merge step after the split (the source's chapter 2, line 994): in the quotient graph of the
// communities, the pair of highest affinity (edges between them per pair of their members) joins,
// `count` times or until no two communities share an edge; ties go to the lowest pair of numbers.
// Returns the communities after the merges, numbered from 0 in order of first vertex; `merges`
// (when given) gets each merge's pair, as numbered before the first, and its affinity.
struct Merge {
  std::uint32_t a, b;
  double affinity;
};
std::vector<std::uint32_t> mergeByAffinity(const Graph& g,
                                           const std::vector<std::uint32_t>& community,
                                           std::uint32_t count,
                                           std::vector<Merge>* merges = nullptr);

// Communities numbered 0 .. k - 1 in order of first vertex; returns k.
std::uint32_t renumberCommunities(std::vector<std::uint32_t>& community);

struct DendrogramLevel {
  std::size_t removals;  // edges removed when this level began (its split's last removal)
  std::uint32_t components;
  double modularity;
};

class GirvanNewman {
 public:
  // `perStep`: edges removed per step (the speed knob; 1 is the method as published).
  GirvanNewman(const Graph& g, EdgeBetweenness betweenness, std::uint32_t perStep = 1,
               ComponentLabels labels = {});

  // Removes the next perStep edges of highest betweenness (ties to the lowest edge id), then
  // recomputes betweenness in the components they were in. False when no edge is left.
  bool step();
  bool done() const { return removals_.size() == g_.edges(); }

  const std::vector<std::uint32_t>& removals() const { return removals_; }  // edge ids, in order
  const std::vector<DendrogramLevel>& levels() const {
    return levels_;
  }                               // the first: nothing removed
  std::size_t bestLevel() const;  // of highest modularity
  // The communities at a level (components after its removals), numbered from 0.
  std::vector<std::uint32_t> communities(std::size_t level) const;
  const std::vector<std::uint32_t>& communitiesNow() const { return component_; }
  const std::vector<double>& edgeBetweenness() const { return betweenness_; }
  const std::vector<std::uint8_t>& removed() const { return removed_; }

 private:
  void recompute(const std::vector<std::uint32_t>& touched);  // components, by number

  const Graph& g_;
  EdgeBetweenness compute_;
  ComponentLabels label_;
  std::uint32_t perStep_;
  std::vector<std::uint8_t> removed_;
  std::vector<double> betweenness_;
  std::vector<std::uint32_t> component_, removals_;
  std::uint32_t components_ = 0;
  std::vector<DendrogramLevel> levels_;
};

}  // namespace ws::graph
