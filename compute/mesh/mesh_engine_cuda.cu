#include <algorithm>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.h"
#include "compute/mesh/mesh_engine.h"
#include "compute/mesh/optimize_cuda.h"

namespace ws::mesh {

namespace {

__global__ void scaleKernel(float* values, std::size_t n, float factor) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) values[i] *= factor;
}

class CudaMeshEngine final : public MeshEngine {
 public:
  CudaMeshEngine(MeshTimings timings, int block) : timings_(timings), block_(block) {}

  void load(const SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
            const SurfaceGrid& original) override {
    const double n = double(mesh.positions.size()), t = double(mesh.triangles());
    const double bytes =
        n * (3 * sizeof(Vec3) + 4 * 4 + 1) + t * 3 * 4 * 2 +
        double(mesh.topology.neighbourOf.size() + mesh.topology.triangleOf.size()) * 4 +
        double(original.cellStart.size() + original.cellTriangles.size()) * 4;
    requireDeviceMemory(bytes, surface_ ? lastBytes_ : 0,
                        "a mesh of " + std::to_string(mesh.positions.size()) + " vertices");
    auto surface = std::make_unique<CudaSurface>(mesh, locked, &original, block_);
    auto start = toDevice(mesh.positions);
    surface_ = std::move(surface);
    start_ = std::move(start);
    topology_ = &mesh.topology;
    degree_ = mesh.topology.meanDegree();
    lastBytes_ = bytes;
  }
  void setLocked(const std::vector<std::uint8_t>& locked) override { surface_->setLocked(locked); }

  void colour(ColouringMethod method, std::uint32_t seed) override {
    // Timed on the host: both ways wait for their result (the classes' sizes come back).
    const CpuStopwatch watch;
    if (method == ColouringMethod::JonesPlassmann)
      surface_->colourJonesPlassmann(seed);
    else  // the chapter's way: first fit on the CPU, the classes copied to the device
      surface_->setColouring(firstFitColouring(*topology_));
    WS_CUDA_CHECK(cudaDeviceSynchronize());
    timings_.colouring->record(watch.elapsedMs(), double(surface_->vertices()), 0);
  }
  const std::vector<std::uint32_t>& classStart() const override { return surface_->classStart(); }

  void run(const std::vector<Pass>& passes, const OptimizeParams& params, bool project) override {
    surface_->setProjection(project);
    double vertices = 0;
    passRing_.start();
    for (const Pass& pass : passes) {
      switch (pass.kind) {
        case Pass::Kind::Class:
          surface_->optimizeClass(pass.colour, params);
          vertices += classStart()[pass.colour + 1] - classStart()[pass.colour];
          break;
        case Pass::Kind::Sweep:
          surface_->sweep(params);
          vertices += double(surface_->vertices());
          break;
        case Pass::Kind::AllAtOnce:
          surface_->optimizeAllAtOnce(params);
          vertices += double(surface_->vertices());
          break;
      }
    }
    passRing_.stop(vertices, vertices * bytesPerVertexPass(degree_));
  }
  PassCounts counts() override { return surface_->counts(); }

  AngleSummary summarize() override {
    statisticsRing_.start();
    const AngleSummary s = surface_->summarizeAngles();
    statisticsRing_.stop(double(surface_->triangles()), 0);
    return s;
  }
  std::vector<Vec3> positions() override { return surface_->positionsOnHost(); }
  std::vector<Vec3> positionsOf(const std::vector<std::uint32_t>& vertices) override {
    std::vector<Vec3> out(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i)
      WS_CUDA_CHECK(cudaMemcpy(&out[i], surface_->positions() + vertices[i], sizeof(Vec3),
                               cudaMemcpyDeviceToHost));
    return out;
  }
  void setPositions(const std::vector<Vec3>& positions) override {
    surface_->setPositions(positions);
  }

  void render(MeshValue value, float edge, MeshImage& image) override {
    float* positions =
        positionsOut_.prepare(image.positions, 3 * surface_->vertices(), image.onDevice);
    float* values = valuesOut_.prepare(image.values, image.valueCount, image.onDevice);
    viewRing_.start();
    WS_CUDA_CHECK(cudaMemcpyAsync(positions, surface_->positions(),
                                  surface_->vertices() * sizeof(Vec3), cudaMemcpyDeviceToDevice));
    switch (value) {
      case MeshValue::MinAngle:
        surface_->writeTriangleAngles(values);
        break;
      case MeshValue::ColourClass:
        surface_->writeVertexColours(values);
        break;
      case MeshValue::DistanceMoved:
        surface_->writeDistances(start_.data(), values);
        break;
      case MeshValue::OffSurface:
        surface_->writeSurfaceDistances(values);
        break;
    }
    if (value == MeshValue::DistanceMoved || value == MeshValue::OffSurface)
      if (image.valueCount)
        scaleKernel<<<blocksFor(image.valueCount, 256), 256>>>(values, image.valueCount, 1 / edge);
    WS_CUDA_CHECK(cudaGetLastError());
    viewRing_.stop(double(image.valueCount), 0);
    positionsOut_.deliver();
    valuesOut_.deliver();
  }

  std::string configuration() const override {
    return "one thread per vertex of a pass, blocks of " + std::to_string(block_);
  }
  void setBlock(int block) override {
    block_ = block;
    if (surface_) surface_->setBlock(block);
  }
  void pollTimings() override {
    passRing_.collect(*timings_.pass);
    statisticsRing_.collect(*timings_.statistics);
    viewRing_.collect(*timings_.view);
  }
  void drainTimings() override {
    passRing_.drain(*timings_.pass);
    statisticsRing_.drain(*timings_.statistics);
    viewRing_.drain(*timings_.view);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

 private:
  MeshTimings timings_;
  int block_;
  std::unique_ptr<CudaSurface> surface_;
  const Topology* topology_ = nullptr;  // the caller's, for first fit
  DeviceBuffer<Vec3> start_;
  double degree_ = 0, lastBytes_ = 0;
  DeviceOutput<float> positionsOut_, valuesOut_;
  GpuTimerRing passRing_, statisticsRing_, viewRing_;
};

}  // namespace

std::unique_ptr<MeshEngine> makeCudaMeshEngine(MeshTimings timings, int block) {
  return std::make_unique<CudaMeshEngine>(timings, block);
}

}  // namespace ws::mesh
