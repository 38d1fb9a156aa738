#include <algorithm>
#include <cstring>

#include "compute/core/memory.h"
#include "compute/mesh/mesh_engine.h"

namespace ws::mesh {

double bytesPerVertexPass(double degree) {
  const double index = sizeof(std::uint32_t), position = sizeof(Vec3);
  return index + 1                   // member entry and lock
         + 4 * index                 // its starts in both lists
         + degree * (index + index)  // its triangles and neighbours
         + degree * 3 * index        // the triangles' corners
         + (degree + 1) * position   // the neighbours' positions and its own
         + position;                 // written
}

double flopsPerVertexPass(const OptimizeParams& p, double triangles, double neighbours,
                          double iterations, double searched) {
  // minAngle: three sides, their squared lengths, a cross product, its length, a dot, an atan2.
  constexpr double kMinAngle = 9 + 15 + 9 + 6 + 5 + 1;
  constexpr double kTurnedOver = 2 * (6 + 9) + 5;  // two normals and their dot
  if (p.method == Method::NelderMead) {
    // fanQuality per triangle: three sides, a cross, three squared lengths, a dot for the
    // corner, the squared area, sin^2's denominator, the compare's two multiplies; with the fold
    // guard a second cross and a dot.
    const double perTriangle = 9 + 9 + 15 + 5 + 5 + 2 + 2 + (p.rejectFolds ? 9 + 5 : 0);
    // The objective around it: the disk test (3), the place in 3-D (9), the final division.
    const double evaluation = 13 + triangles * perTriangle;
    // An iteration besides its evaluations: the centroid (4), two places along the line (12),
    // the tolerance test.
    const double iteration = 4 + 12 + 1;
    return 3 * searched * evaluation + iterations * (evaluation + iteration);
  }
  // The smallest angle before; the centroid (a sum, a division, three multiplies, the step); the
  // guards' smallest angle and fold test after.
  double visit = triangles * kMinAngle + 3 * neighbours + 7 + triangles * (kTurnedOver + kMinAngle);
  if (p.method == Method::Tangential)   // the normal (a cross and a sum per triangle), normalised,
    visit += triangles * 18 + 10 + 11;  // and the step's part along it taken away
  return searched * visit;
}

namespace {

class CpuMeshEngine final : public MeshEngine {
 public:
  explicit CpuMeshEngine(MeshTimings timings) : timings_(timings) {}

  void load(const SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
            const SurfaceGrid& original) override {
    requireHostMemory(double(mesh.positions.size()) * 2 * sizeof(Vec3), "the mesh's copies");
    mesh_ = std::make_unique<SurfaceMesh>(mesh);
    start_ = mesh.positions;
    locked_ = locked;
    original_ = &original;
    colouring_ = Colouring{};
    colouring_.classStart = {0};
    counts_ = {};
  }
  void setLocked(const std::vector<std::uint8_t>& locked) override { locked_ = locked; }

  void colour(ColouringMethod method, std::uint32_t seed) override {
    const CpuStopwatch watch;
    colouring_ = method == ColouringMethod::JonesPlassmann
                     ? jonesPlassmannColouring(mesh_->topology, seed)
                     : firstFitColouring(mesh_->topology);
    const double n = double(mesh_->positions.size());
    timings_.colouring->record(watch.elapsedMs(), n, 0);
  }
  const std::vector<std::uint32_t>& classStart() const override { return colouring_.classStart; }

  void run(const std::vector<Pass>& passes, const OptimizeParams& params, bool project) override {
    const SurfaceGrid* surface = project ? original_ : nullptr;
    const CpuStopwatch watch;
    double vertices = 0;
    auto optimize = [&](std::uint32_t colour) {
      counts_.moved +=
          optimizeClass(*mesh_, colouring_, colour, locked_, params, surface, &counts_.iterations);
      vertices += colouring_.classStart[colour + 1] - colouring_.classStart[colour];
    };
    for (const Pass& pass : passes) {
      switch (pass.kind) {
        case Pass::Kind::Class:
          optimize(pass.colour);
          break;
        case Pass::Kind::Sweep:
          for (std::uint32_t c = 0; c < colouring_.colours; ++c) optimize(c);
          break;
        case Pass::Kind::AllAtOnce:
          counts_.moved += optimizeAllAtOnce(*mesh_, locked_, params, surface, &counts_.iterations);
          vertices += double(mesh_->positions.size());
          break;
      }
    }
    timings_.pass->record(watch.elapsedMs(), vertices,
                          vertices * bytesPerVertexPass(mesh_->topology.meanDegree()));
  }
  PassCounts counts() override { return counts_; }

  AngleSummary summarize() override {
    const CpuStopwatch watch;
    const AngleSummary s = summarizeAngles(*mesh_);
    timings_.statistics->record(watch.elapsedMs(), double(mesh_->triangles()), 0);
    return s;
  }
  std::vector<Vec3> positions() override { return mesh_->positions; }
  std::vector<Vec3> positionsOf(const std::vector<std::uint32_t>& vertices) override {
    std::vector<Vec3> out;
    for (const std::uint32_t v : vertices) out.push_back(mesh_->positions[v]);
    return out;
  }
  void setPositions(const std::vector<Vec3>& positions) override {
    mesh_->positions = positions;
    counts_ = {};
  }

  void render(MeshValue value, float edge, MeshImage& image) override {
    const CpuStopwatch watch;
    const SurfaceMesh& m = *mesh_;
    const MeshView view = mesh_->view();
    std::memcpy(image.positions, m.positions.data(), m.positions.size() * sizeof(Vec3));
    const std::int64_t n = std::int64_t(image.valueCount);
    float* out = image.values;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      switch (value) {
        case MeshValue::MinAngle:  // signed: an inverted triangle's is negative
          out[i] = signedMinAngle(view, std::uint32_t(i)) * kDegreesPerRadian;
          break;
        case MeshValue::ColourClass:
          out[i] = colouring_.colour.empty() ? 0.0f : float(colouring_.colour[i]);
          break;
        case MeshValue::DistanceMoved:
          out[i] = length(m.positions[i] - start_[i]) / edge;
          break;
        case MeshValue::OffSurface: {
          float d = 0;
          closestPointOnSurface(original_->view(), m.positions[i], &d);
          out[i] = d / edge;
          break;
        }
      }
    }
    timings_.view->record(watch.elapsedMs(), double(n), 0);
  }

  std::string configuration() const override {
    return "OpenMP over the vertices of a pass";
  }

 private:
  MeshTimings timings_;
  std::unique_ptr<SurfaceMesh> mesh_;
  std::vector<Vec3> start_;
  std::vector<std::uint8_t> locked_;
  const SurfaceGrid* original_ = nullptr;
  Colouring colouring_;
  PassCounts counts_;
};

}  // namespace

std::unique_ptr<MeshEngine> makeCpuMeshEngine(MeshTimings timings) {
  return std::make_unique<CpuMeshEngine>(timings);
}

}  // namespace ws::mesh
