// The graph module's views: the graph scene (or its communities' quotient graph), the node and
// edge styles it draws with, and the plots (the dendrogram; the curves are kept by advance()).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "compute/core/memory.h"
#include "compute/graph/graph_module.h"

namespace ws::graph {

namespace {

// The values of `measure` scaled to 0 .. 1 by the largest.
std::vector<float> normalized(const std::vector<double>& measure) {
  double top = 0;
  for (const double m : measure) top = std::max(top, m);
  std::vector<float> out(measure.size(), 0);
  for (std::size_t i = 0; i < measure.size(); ++i) out[i] = top > 0 ? float(measure[i] / top) : 0;
  return out;
}

}  // namespace

std::vector<std::uint32_t> GraphModule::shownCommunities(std::vector<Merge>* merges) const {
  std::vector<std::uint32_t> community;
  if (plan_.louvain || !gn_) {
    if (louvain_) community = louvain_->community;
  } else {
    const std::int64_t level = params().getInt("level");
    const std::size_t levels = gn_->levels().size();
    community = gn_->communities(level < 0 ? gn_->bestLevel()
                                           : std::min<std::size_t>(std::size_t(level), levels - 1));
  }
  if (community.empty()) community.assign(graph_->vertices, 0);
  const auto count = std::uint32_t(params().getInt("merges"));
  return count ? mergeByAffinity(*graph_, community, count, merges) : community;
}

std::optional<Dendrogram> GraphModule::dendrogram() const {
  if (!gn_ || plan_.louvain) return std::nullopt;
  const std::size_t available = gn_->levels().size();
  if (!dendrogram_ || dendrogramLevels_ != available) {
    // The levels' partitions, each a refinement of the one before, while they stay few.
    std::vector<std::vector<std::uint32_t>> parts;
    std::vector<std::uint32_t> counts;
    for (std::size_t l = 0; l < available; ++l) {
      if (gn_->levels()[l].components > kDendrogramLeaves && !parts.empty()) break;
      parts.push_back(gn_->communities(l));
      counts.push_back(gn_->levels()[l].components);
    }
    const std::size_t depth = parts.size() - 1;
    // Each community's children one level down (itself when it did not split).
    std::vector<std::vector<std::vector<std::uint32_t>>> children(parts.size());
    for (std::size_t l = 0; l < depth; ++l) {
      children[l].resize(counts[l]);
      std::vector<std::uint8_t> seen(counts[l + 1], 0);
      for (std::uint32_t v = 0; v < graph_->vertices; ++v)
        if (!seen[parts[l + 1][v]]) {
          seen[parts[l + 1][v]] = 1;
          children[l][parts[l][v]].push_back(parts[l + 1][v]);
        }
    }
    // Leaves in depth-first order, so that siblings sit side by side; a parent above the middle
    // of its children.
    std::vector<std::vector<float>> x(parts.size());
    for (std::size_t l = 0; l <= depth; ++l) x[l].assign(counts[l], 0);
    float leaves = 0;
    auto place = [&](auto&& self, std::size_t l, std::uint32_t c) -> float {
      if (l == depth) return x[l][c] = leaves++;
      float sum = 0;
      for (const std::uint32_t child : children[l][c]) sum += self(self, l + 1, child);
      return x[l][c] = sum / float(children[l][c].size());
    };
    for (std::uint32_t root = 0; root < counts[0]; ++root) place(place, 0, root);
    Dendrogram tree;
    tree.name = "Girvan-Newman dendrogram";
    const float rows = float(std::max<std::size_t>(depth, 1));
    auto across = [&](float position) { return (position + 0.5f) / std::max(leaves, 1.0f); };
    for (std::size_t l = 0; l < depth; ++l)
      for (std::uint32_t c = 0; c < counts[l]; ++c) {
        float lo = x[l][c], hi = x[l][c];
        for (const std::uint32_t child : children[l][c]) {
          lo = std::min(lo, x[l + 1][child]);
          hi = std::max(hi, x[l + 1][child]);
          tree.segments.insert(tree.segments.end(), {across(x[l + 1][child]), float(l) / rows,
                                                     across(x[l + 1][child]), float(l + 1) / rows});
        }
        if (hi > lo)
          tree.segments.insert(tree.segments.end(),
                               {across(lo), float(l) / rows, across(hi), float(l) / rows});
      }
    std::ostringstream caption;
    caption << depth << " splits drawn (of " << available - 1 << ")";
    tree.caption = caption.str();
    dendrogram_ = tree;
    dendrogramLevels_ = available;
    dendrogramDepth_ = depth;
  }
  Dendrogram tree = *dendrogram_;
  const std::size_t rows = std::max<std::size_t>(dendrogramDepth_, 1);
  if (std::size_t(shownLevel_) <= dendrogramDepth_) tree.marked = float(shownLevel_) / float(rows);
  std::ostringstream caption;
  caption << tree.caption << "; level " << shownLevel_ << " shown, Q "
          << gn_->levels()[std::min<std::size_t>(shownLevel_, available - 1)].modularity;
  tree.caption = caption.str();
  return tree;
}

std::vector<double> GraphModule::nodeMeasure() const {
  const std::string& by = params().getText("size_by");
  if (by == "closeness") return centrality_.closeness;
  if (by == "stress") return centrality_.stress;
  if (by == "graph") return centrality_.graph;
  if (by == "degree") {
    std::vector<double> d(graph_->vertices);
    for (std::uint32_t v = 0; v < graph_->vertices; ++v) d[v] = graph_->degree(v);
    return d;
  }
  return centrality_.betweenness;
}

void GraphModule::restyle(std::uint64_t step) {
  const std::uint32_t n = graph_->vertices;
  const std::size_t m = graph_->edges();
  const std::vector<float> measure = normalized(nodeMeasure());
  const std::string& colourBy = params().getText("colour_by");
  merges_.clear();
  std::vector<std::uint32_t> community = shownCommunities(&merges_);
  // Kept for the notes, which the GUI asks for every frame.
  plantedAgreement_ =
      planted_.empty() ? 0 : std::max(0.0, normalizedMutualInformation(community, planted_));
  shownCommunities_ = community.empty() ? 0 : renumberCommunities(community);
  if (gn_) {
    const std::int64_t level = params().getInt("level");
    shownLevel_ =
        int(level < 0 ? gn_->bestLevel() : std::min<std::size_t>(level, gn_->levels().size() - 1));
  }
  const float k = float(params().getFloat("spacing"));
  nodeStyle_.resize(2 * std::size_t(n));
  for (std::uint32_t v = 0; v < n; ++v) {
    nodeStyle_[2 * v] = k * (0.08f + 0.3f * std::sqrt(measure[v]));
    nodeStyle_[2 * v + 1] = colourBy == "centrality" ? measure[v]
                            : colourBy == "planted group" && !planted_.empty()
                                ? float(planted_[v])
                                : float(community[v]);
  }
  const std::vector<float> value =
      normalized(gn_ ? gn_->edgeBetweenness() : centrality_.edgeBetweenness);
  const float now = float(step);
  edgeStyle_.resize(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    const bool removed = removedAt_[e] != ~0u;
    edgeStyle_[2 * e] = removed ? 1.0f : value[e];
    edgeStyle_[2 * e + 1] =
        removed ? std::max(0.0f, 1 - (now - float(removedAt_[e])) / kFadeSteps) : 1.0f;
  }
  ++styleRevision_;
}

std::optional<GraphScene> GraphModule::graphScene() const {
  GraphScene scene;
  const bool grouped = quotientView();
  scene.nodes = grouped ? shownCommunities_ : graph_->vertices;
  scene.revision = grouped ? revision_ * 1000003 + styleRevision_ : revision_;
  const std::string& colourBy = params().getText("colour_by");
  if (colourBy == "centrality" && !grouped) {
    scene.nodeValue = {"centrality", params().getText("size_by") + " (of the largest)", 0, 1,
                       "viridis"};
  } else {
    const std::uint32_t groups = colourBy == "planted group" && !planted_.empty() && !grouped
                                     ? *std::max_element(planted_.begin(), planted_.end()) + 1
                                     : shownCommunities_;
    scene.nodeValue = {"community", "community", 0, float(std::max(groups, 1u)), "viridis"};
    scene.categories = int(std::max(groups, 1u));
  }
  if (grouped) {
    scene.edges = quotient().edges.size() / 2;
    scene.edgeValue = {"affinity", "affinity (of the largest)", 0, 1, "inferno"};
  } else {
    scene.edges = graph_->edges();
    scene.edgeValue = {"edge betweenness", "edge betweenness (of the largest)", 0, 1, "inferno"};
    scene.picked = picked_;
  }
  return scene;
}

const GraphModule::Quotient& GraphModule::quotient() const {
  if (quotient_.style == styleRevision_) return quotient_;
  Quotient& q = quotient_;
  q.community = shownCommunities();
  const std::uint32_t k = renumberCommunities(q.community);
  q.members.assign(k, 0);
  for (const std::uint32_t c : q.community) ++q.members[c];
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> between;
  for (std::size_t e = 0; e < graph_->edges(); ++e) {
    const std::uint32_t a = q.community[graph_->ends[2 * e]],
                        b = q.community[graph_->ends[2 * e + 1]];
    if (a != b) between[{std::min(a, b), std::max(a, b)}] += 1;
  }
  std::vector<double> affinity;
  q.ends.clear();
  for (const auto& [pair, count] : between) {
    affinity.push_back(count / (q.members[pair.first] * q.members[pair.second]));
    q.ends.insert(q.ends.end(), {pair.first, pair.second});
  }
  q.edges.clear();
  for (const float a : normalized(affinity)) q.edges.insert(q.edges.end(), {a, 0.35f + 0.65f * a});
  q.style = styleRevision_;
  return q;
}

std::vector<float> GraphModule::quotientNodes() const {
  const Quotient& q = quotient();
  const auto k = std::uint32_t(q.members.size());
  const std::vector<float> p = positions();
  std::vector<double> x(k, 0), y(k, 0);
  for (std::uint32_t v = 0; v < graph_->vertices; ++v) {
    x[q.community[v]] += p[2 * v];
    y[q.community[v]] += p[2 * v + 1];
  }
  const float spacing = float(params().getFloat("spacing"));
  std::vector<float> nodes(4 * std::size_t(k), 0);
  for (std::uint32_t c = 0; c < k; ++c) {
    nodes[4 * c] = float(x[c] / q.members[c]);
    nodes[4 * c + 1] = float(y[c] / q.members[c]);
    nodes[4 * c + 2] = spacing * 0.2f * float(std::sqrt(q.members[c]));
    nodes[4 * c + 3] = float(c);
  }
  return nodes;
}

void GraphModule::graphTopology(std::vector<std::uint32_t>& ends) const {
  ends.clear();
  if (quotientView()) {
    ends = quotient().ends;
    return;
  }
  ends = graph_->ends;
}

void GraphModule::renderGraph(GraphImage& image) {
  // The communities' graph is made on the host, whatever the backend.
  auto copy = [&](float* to, const std::vector<float>& from, std::size_t most) {
    const std::size_t count = std::min(from.size(), most);
    if (count == 0) return;  // an empty graph: its vectors may have no storage at all
    copyToView(to, from.data(), count * sizeof(float), image.onDevice);
  };
  if (quotientView()) {
    copy(image.nodes, quotientNodes(), 4 * image.nodeCount);
    copy(image.edges, quotient().edges, 2 * image.edgeCount);
    return;
  }
  engine_->render(nodeStyle_, edgeStyle_, styleRevision_, image);
}

}  // namespace ws::graph
