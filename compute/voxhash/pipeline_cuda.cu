// The intersection pipeline on the GPU. Clouds, keys, structures, fills and classes stay in
// device memory; per frame the host reads back the models' voxel counts and boxes (to size the
// launches that follow, one copy for both) and each cuckoo build's status.
#include <array>
#include <utility>

#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/voxhash/cuckoo_cuda.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/intersect_cuda.h"
#include "compute/voxhash/pipeline.h"
#include "compute/voxhash/pipeline_model.h"

namespace ws::voxhash {

namespace {

__global__ void iotaKernel(std::uint32_t* ids, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) ids[i] = std::uint32_t(i);
}

__global__ void setBitsKernel(const std::uint32_t* keys, std::size_t n, VoxelGrid grid,
                              unsigned* bits) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::size_t c = cellOf(grid, keys[i]);
  atomicOr(bits + c / 32, 1u << (c % 32));
}

__global__ void testBitsKernel(const std::uint32_t* keys, std::size_t n, VoxelGrid grid,
                               const unsigned* bits, std::uint32_t* found) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::size_t c = cellOf(grid, keys[i]);
  found[i] = bits[c / 32] >> (c % 32) & 1u ? 1u : kNotFound;
}

// found[i]: the index of keys[i] in the sorted array `sorted` of m keys, or kNotFound.
__global__ void binarySearchKernel(const std::uint32_t* keys, std::size_t n,
                                   const std::uint32_t* sorted, std::size_t m,
                                   std::uint32_t* found) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t key = keys[i];
  std::size_t low = 0, high = m;  // the first element not below key lies in [low, high]
  while (low < high) {
    const std::size_t middle = (low + high) / 2;
    if (sorted[middle] < key)
      low = middle + 1;
    else
      high = middle;
  }
  found[i] = low < m && sorted[low] == key ? std::uint32_t(low) : kNotFound;
}

__global__ void countClassesKernel(const std::uint8_t* classes, std::size_t n, std::uint8_t wanted,
                                   unsigned long long* count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned votes = __ballot_sync(0xffffffffu, i < n && classes[i] == wanted);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(count, (unsigned long long)__popc(votes));
}

__global__ void packVoxelsKernel(const std::uint32_t* keys, const std::uint8_t* classes,
                                 std::size_t n, int model, unsigned* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i] = keys[i];
  out[2 * i + 1] = shownClass(model, classes[i]);
}

// One model's device state.
struct Model {
  DeviceBuffer<Point> cloud;
  std::size_t points = 0, voxels = 0;
  VoxelBox box;
  DeviceBuffer<std::uint32_t> keys, found;
  DeviceBuffer<std::uint8_t> classes;
  CudaVoxelizer voxelizer;
  CudaCuckooTable table;
  DeviceBuffer<unsigned> bits;
};

class CudaPipeline final : public IntersectionPipeline {
 public:
  CudaPipeline(PipelineTimings timings, int block) : timings_(timings), counts_(3), summaries_(2) {
    for (Model& m : models_) m.table.setBlock(block);
  }

  void setClouds(const std::vector<Point>& a, const std::vector<Point>& b) override {
    requireDeviceMemory(double(a.size() + b.size()) * sizeof(Point),
                        double(models_[0].cloud.bytes() + models_[1].cloud.bytes()),
                        "the models' point clouds");
    const std::vector<Point>* clouds[2] = {&a, &b};
    for (int m = 0; m < 2; ++m) {
      models_[m].cloud.allocate(std::max<std::size_t>(clouds[m]->size(), 1));
      WS_CUDA_CHECK(cudaMemcpy(models_[m].cloud.data(), clouds[m]->data(),
                               clouds[m]->size() * sizeof(Point), cudaMemcpyHostToDevice));
      models_[m].points = clouds[m]->size();
      models_[m].voxels = 0;
    }
  }

  void frames(const std::vector<FramePoses>& frames, const VoxelGrid& grid,
              LookupStructure structure, const CuckooParams& params) override {
    frameRing_.start();
    for (const FramePoses& f : frames) frame(f.a, f.b, grid, structure, params, f.seed);
    frameRing_.stop(double(models_[0].voxels + models_[1].voxels) * double(frames.size()), 0);
    structure_ = structure;
    reportDue_ = true;
  }

 private:
  void frame(const ModelPose& poseA, const ModelPose& poseB, const VoxelGrid& grid,
             LookupStructure structure, const CuckooParams& params, std::uint64_t seed) {
    const ModelPose* poses[2] = {&poseA, &poseB};
    voxelizeRing_.start();
    for (int m = 0; m < 2; ++m)
      models_[m].voxelizer.enqueue(models_[m].cloud.data(), models_[m].points, *poses[m], grid,
                                   models_[m].keys, summaries_.data() + m);
    const std::vector<VoxelSummary> summaries = toHost(summaries_.data(), 2);
    for (int m = 0; m < 2; ++m) {
      Model& model = models_[m];
      model.voxels = summaries[m].voxels();
      model.box = summaries[m].box;
      if (model.found.size() < model.keys.size()) {
        model.found.allocate(model.keys.size());
        model.classes.allocate(model.keys.size());
      }
    }
    const double points = double(models_[0].points + models_[1].points);
    const double voxels = double(models_[0].voxels + models_[1].voxels);
    voxelizeRing_.stop(voxels, points * kVoxelizeBytesPerPoint);

    buildRing_.start();
    for (int m = 0; m < 2; ++m) build(models_[m], grid, structure, params, seed + m, m);
    buildRing_.stop(voxels, buildBytes(structure, voxels, grid, params.sizeFactor));

    queryRing_.start();
    for (int m = 0; m < 2; ++m) query(models_[1 - m], models_[m], grid, structure);
    queryRing_.stop(voxels, voxels * kQueryBytesPerKey);

    fillRing_.start();
    const std::uint32_t* shells[2] = {models_[0].keys.data(), models_[1].keys.data()};
    const std::size_t counts[2] = {models_[0].voxels, models_[1].voxels};
    const VoxelBox boxes[2] = {models_[0].box, models_[1].box};
    fill_.run(2, shells, counts, boxes);
    const double cells = boxCells(boxes[0]) + boxCells(boxes[1]);
    fillRing_.stop(cells, cells * kFillBytesPerCell);

    classifyRing_.start();
    const VoxelClass only[2] = {kOnlyA, kOnlyB}, inside[2] = {kAInsideB, kBInsideA};
    for (int m = 0; m < 2; ++m)
      classifyCuda(models_[m].keys.data(), models_[m].voxels, models_[m].found.data(),
                   fill_.outside(1 - m), only[m], inside[m], models_[m].classes.data());
    classifyRing_.stop(voxels, voxels * kClassifyBytesPerKey);
    WS_CUDA_CHECK(cudaGetLastError());
  }

 public:
  FrameReport report() override {
    if (reportDue_) {
      counts_.zero();
      const std::pair<int, VoxelClass> wanted[3] = {{0, kContact}, {0, kAInsideB}, {1, kBInsideA}};
      for (int c = 0; c < 3; ++c) {
        const Model& model = models_[wanted[c].first];
        if (model.voxels)
          recordedLaunch("countClassesKernel", countClassesKernel, blocksFor(model.voxels, 256),
                         256)(model.classes.data(), model.voxels, wanted[c].second,
                              counts_.data() + c);
      }
      WS_CUDA_CHECK(cudaGetLastError());
      unsigned long long counts[3];
      WS_CUDA_CHECK(cudaMemcpy(counts, counts_.data(), sizeof counts, cudaMemcpyDeviceToHost));
      report_.contact = counts[0];
      report_.aInsideB = counts[1];
      report_.bInsideA = counts[2];
      for (int m = 0; m < 2; ++m) {
        report_.points[m] = models_[m].points;
        report_.voxels[m] = models_[m].voxels;
        report_.builds[m] = structure_ == LookupStructure::Cuckoo ? builds_[m] : BuildReport{};
      }
      if (structure_ == LookupStructure::Cuckoo)
        models_[0].table.chainStatistics(report_.builds[0]);
      report_.fillPasses = fill_.passes();
      reportDue_ = false;
    }
    return report_;
  }

  std::size_t voxelCount() const override { return models_[0].voxels + models_[1].voxels; }

  void renderVoxels(VoxelImage& image) override {
    unsigned* out = output_.prepare(image.data, 2 * image.count, image.onDevice);
    viewRing_.start();
    std::size_t at = 0;
    for (int m = 0; m < 2; ++m) {
      const std::size_t n = std::min(models_[m].voxels, image.count - at);
      if (n)
        recordedLaunch("packVoxelsKernel", packVoxelsKernel, blocksFor(n, 256), 256)(
            models_[m].keys.data(), models_[m].classes.data(), n, m, out + 2 * at);
      at += n;
    }
    WS_CUDA_CHECK(cudaGetLastError());
    viewRing_.stop(double(at), double(at) * 13);
    output_.deliver();
  }

  std::uint32_t tableSlots(int model) const override {
    const CudaCuckooTable& table = models_[model].table;
    return structure_ == LookupStructure::Cuckoo && table.slots() ? table.functions().slots : 0;
  }
  void renderTable(int model, const FieldRequest& request, FieldImage& image) override {
    float* out =
        tableOutput_.prepare(image.pixels, std::size_t(image.width) * image.height, image.onDevice);
    const CudaCuckooTable& table = models_[model].table;
    viewRing_.start();
    renderTableOnDevice(tableSlots(model) ? table.slots() : nullptr, table.functions(), request,
                        image, out);
    const double pixels = double(image.width) * image.height;
    viewRing_.stop(pixels, pixels * sizeof(float));
    tableOutput_.deliver();
  }

  void result(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) override {
    keys.clear();
    classes.clear();
    for (const Model& model : models_) {
      const std::size_t n = model.voxels, at = keys.size();
      keys.resize(at + n);
      classes.resize(at + n);
      if (!n) continue;
      WS_CUDA_CHECK(cudaMemcpy(keys.data() + at, model.keys.data(), n * sizeof(std::uint32_t),
                               cudaMemcpyDeviceToHost));
      WS_CUDA_CHECK(
          cudaMemcpy(classes.data() + at, model.classes.data(), n, cudaMemcpyDeviceToHost));
    }
  }

  void pollTimings() override {
    for (auto [ring, scope] : rings()) ring->collect(*scope);
  }
  void drainTimings() override {
    for (auto [ring, scope] : rings()) ring->drain(*scope);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

  void build(Model& model, const VoxelGrid& grid, LookupStructure structure,
             const CuckooParams& params, std::uint64_t seed, int m) {
    switch (structure) {
      case LookupStructure::Cuckoo:
        if (ids_.size() < model.voxels) {
          ids_.allocate(model.keys.size());
          recordedLaunch("iotaKernel", iotaKernel, blocksFor(ids_.size(), 256), 256)(ids_.data(),
                                                                                     ids_.size());
        }
        builds_[m] =
            model.table.build(model.keys.data(), ids_.data(), model.voxels, params, seed, true);
        break;
      case LookupStructure::SortedArray:
        break;  // the sorted keys are the structure
      case LookupStructure::BitGrid: {
        const std::size_t words = (grid.cells() + 31) / 32;
        if (model.bits.size() != words) model.bits.allocate(words);
        model.bits.zero();
        if (model.voxels)
          recordedLaunch("setBitsKernel", setBitsKernel, blocksFor(model.voxels, 256), 256)(
              model.keys.data(), model.voxels, grid, model.bits.data());
        break;
      }
    }
  }

  // mine.found[i] becomes the lookup of mine's voxel i in the other model's structure.
  void query(Model& other, Model& mine, const VoxelGrid& grid, LookupStructure structure) {
    const std::size_t n = mine.voxels;
    if (!n) return;
    switch (structure) {
      case LookupStructure::Cuckoo:
        other.table.query(mine.keys.data(), n, mine.found.data());
        break;
      case LookupStructure::SortedArray:
        recordedLaunch("binarySearchKernel", binarySearchKernel, blocksFor(n, 256), 256)(
            mine.keys.data(), n, other.keys.data(), other.voxels, mine.found.data());
        break;
      case LookupStructure::BitGrid:
        recordedLaunch("testBitsKernel", testBitsKernel, blocksFor(n, 256), 256)(
            mine.keys.data(), n, grid, other.bits.data(), mine.found.data());
        break;
    }
  }

  PipelineTimings timings_;
  std::array<Model, 2> models_;
  DeviceBuffer<std::uint32_t> ids_;
  DeviceBuffer<unsigned long long> counts_;
  DeviceBuffer<VoxelSummary> summaries_;
  CudaShellFill fill_;
  DeviceOutput<unsigned> output_;
  DeviceOutput<float> tableOutput_;
  LookupStructure structure_ = LookupStructure::Cuckoo;
  BuildReport builds_[2];
  FrameReport report_;
  bool reportDue_ = false;
  GpuTimerRing frameRing_, voxelizeRing_, buildRing_, queryRing_, fillRing_, classifyRing_,
      viewRing_;
  std::array<std::pair<GpuTimerRing*, TimingScope*>, 7> rings() {
    return {{{&frameRing_, timings_.frame},
             {&voxelizeRing_, timings_.voxelize},
             {&buildRing_, timings_.build},
             {&queryRing_, timings_.query},
             {&fillRing_, timings_.fill},
             {&classifyRing_, timings_.classify},
             {&viewRing_, timings_.view}}};
  }
};

}  // namespace

std::unique_ptr<IntersectionPipeline> makeCudaPipeline(PipelineTimings timings, int block) {
  return std::make_unique<CudaPipeline>(timings, block);
}

}  // namespace ws::voxhash
