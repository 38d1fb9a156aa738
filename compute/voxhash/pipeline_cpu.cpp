// The intersection pipeline on the CPU: the reference the GPU pipeline is compared with, built
// from the CPU steps of intersect.h.
#include <algorithm>
#include <numeric>

#include "compute/core/errors.h"
#include "compute/voxhash/cuckoo_cpu.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/pipeline.h"
#include "compute/voxhash/pipeline_model.h"

namespace ws::voxhash {

namespace {

// One model's voxels in the structure the variant names, and lookups in it: found[i] is the
// index of keys[i] among the model's voxels, or kNotFound.
class CpuVoxelSet {
 public:
  void build(const std::vector<std::uint32_t>& voxels, const VoxelGrid& grid,
             LookupStructure structure, const CuckooParams& params, std::uint64_t seed,
             BuildReport& report) {
    structure_ = structure;
    table_ = CpuCuckooTable();
    grid_ = grid;
    voxels_ = &voxels;
    if (structure == LookupStructure::Cuckoo) {
      ids_.resize(voxels.size());
      std::iota(ids_.begin(), ids_.end(), 0u);
      report = table_.build(voxels, ids_, params, seed);
    } else if (structure == LookupStructure::BitGrid) {
      bits_.assign((grid.cells() + 63) / 64, 0);
      for (std::uint32_t key : voxels) {
        const std::size_t c = cellOf(grid, key);
        bits_[c / 64] |= std::uint64_t(1) << (c % 64);
      }
    }  // the sorted array is the voxel list itself
  }

  // The cuckoo table (empty for the other structures), for the view.
  CpuCuckooTable& table() { return table_; }

  void query(const std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& found) const {
    switch (structure_) {
      case LookupStructure::Cuckoo:
        table_.query(keys, found);
        return;
      case LookupStructure::SortedArray:
        found.resize(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) {
          const auto at = std::lower_bound(voxels_->begin(), voxels_->end(), keys[i]);
          found[i] = at != voxels_->end() && *at == keys[i] ? std::uint32_t(at - voxels_->begin())
                                                            : kNotFound;
        }
        return;
      case LookupStructure::BitGrid:
        found.resize(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) {
          const std::size_t c = cellOf(grid_, keys[i]);
          found[i] = bits_[c / 64] >> (c % 64) & 1 ? 1u : kNotFound;
        }
        return;
    }
  }

 private:
  LookupStructure structure_ = LookupStructure::Cuckoo;
  VoxelGrid grid_;
  const std::vector<std::uint32_t>* voxels_ = nullptr;
  CpuCuckooTable table_;
  std::vector<std::uint32_t> ids_;
  std::vector<std::uint64_t> bits_;
};

class CpuPipeline final : public IntersectionPipeline {
 public:
  explicit CpuPipeline(PipelineTimings timings) : timings_(timings) {}

  void setClouds(const std::vector<Point>& a, const std::vector<Point>& b) override {
    clouds_[0] = a;
    clouds_[1] = b;
  }

  void frames(const std::vector<FramePoses>& frames, const VoxelGrid& grid,
              LookupStructure structure, const CuckooParams& params) override {
    CpuStopwatch total;
    for (const FramePoses& f : frames) frame(f.a, f.b, grid, structure, params, f.seed);
    timings_.frame->record(total.elapsedMs(),
                           double(report_.voxels[0] + report_.voxels[1]) * double(frames.size()),
                           0);
  }

 private:
  void frame(const ModelPose& poseA, const ModelPose& poseB, const VoxelGrid& grid,
             LookupStructure structure, const CuckooParams& params, std::uint64_t seed) {
    Model next[2];
    FrameReport report;
    CpuStopwatch watch;
    const ModelPose* poses[2] = {&poseA, &poseB};
    for (int m = 0; m < 2; ++m) {
      std::vector<Point> moved(clouds_[m].size());
      for (std::size_t i = 0; i < moved.size(); ++i) moved[i] = animate(clouds_[m][i], *poses[m]);
      next[m].voxels = voxelize(moved, grid);
      report.points[m] = moved.size();
      report.voxels[m] = next[m].voxels.size();
    }
    const double points = double(report.points[0] + report.points[1]);
    const double voxels = double(report.voxels[0] + report.voxels[1]);
    timings_.voxelize->record(watch.elapsedMs(), voxels, points * kVoxelizeBytesPerPoint);

    watch = CpuStopwatch();
    for (int m = 0; m < 2; ++m)
      next[m].set.build(next[m].voxels, grid, structure, params, seed + m, report.builds[m]);
    timings_.build->record(watch.elapsedMs(), voxels,
                           buildBytes(structure, voxels, grid, params.sizeFactor));

    watch = CpuStopwatch();
    std::vector<std::uint32_t> found[2];
    for (int m = 0; m < 2; ++m) next[1 - m].set.query(next[m].voxels, found[m]);
    timings_.query->record(watch.elapsedMs(), voxels, voxels * kQueryBytesPerKey);

    watch = CpuStopwatch();
    for (int m = 0; m < 2; ++m) next[m].outside = outsideOf(next[m].voxels, grid);
    timings_.fill->record(watch.elapsedMs(), double(grid.cells()) * 2,
                          double(grid.cells()) * 2 * kSearchBytesPerCell);

    watch = CpuStopwatch();
    const VoxelClass only[2] = {kOnlyA, kOnlyB}, inside[2] = {kAInsideB, kBInsideA};
    for (int m = 0; m < 2; ++m) {
      const std::vector<std::uint8_t>& otherOutside = next[1 - m].outside;
      next[m].classes.resize(next[m].voxels.size());
      for (std::size_t i = 0; i < next[m].voxels.size(); ++i)
        next[m].classes[i] =
            classOf(found[m][i] != kNotFound, otherOutside[cellOf(grid, next[m].voxels[i])] != 0,
                    only[m], inside[m]);
    }
    timings_.classify->record(watch.elapsedMs(), voxels, voxels * kClassifyBytesPerKey);

    report.contact = std::size_t(
        std::count(next[0].classes.begin(), next[0].classes.end(), std::uint8_t(kContact)));
    report.aInsideB = std::size_t(
        std::count(next[0].classes.begin(), next[0].classes.end(), std::uint8_t(kAInsideB)));
    report.bInsideA = std::size_t(
        std::count(next[1].classes.begin(), next[1].classes.end(), std::uint8_t(kBInsideA)));
    for (int m = 0; m < 2; ++m) {
      models_[m].voxels = std::move(next[m].voxels);
      models_[m].classes = std::move(next[m].classes);
      models_[m].table = std::move(next[m].set.table());
    }
    report_ = report;
  }

 public:
  FrameReport report() override { return report_; }
  std::size_t voxelCount() const override {
    return models_[0].voxels.size() + models_[1].voxels.size();
  }

  void renderVoxels(VoxelImage& image) override {
    CpuStopwatch watch;
    std::size_t at = 0;
    for (int m = 0; m < 2 && at < image.count; ++m)
      for (std::size_t i = 0; i < models_[m].voxels.size() && at < image.count; ++i, ++at) {
        image.data[2 * at] = models_[m].voxels[i];
        image.data[2 * at + 1] = shownClass(m, models_[m].classes[i]);
      }
    timings_.view->record(watch.elapsedMs(), double(at), double(at) * 13);
  }

  std::uint32_t tableSlots(int model) const override {
    return std::uint32_t(models_[model].table.slots().size());
  }
  void renderTable(int model, const FieldRequest& request, FieldImage& image) override {
    CpuStopwatch watch;
    const CpuCuckooTable& table = models_[model].table;
    renderTableOnHost(table.slots().empty() ? nullptr : table.slots().data(), table.functions(),
                      request, image);
    const double pixels = double(image.width) * image.height;
    timings_.view->record(watch.elapsedMs(), pixels, pixels * sizeof(float));
  }

  void result(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) override {
    keys = models_[0].voxels;
    keys.insert(keys.end(), models_[1].voxels.begin(), models_[1].voxels.end());
    classes = models_[0].classes;
    classes.insert(classes.end(), models_[1].classes.begin(), models_[1].classes.end());
  }

 private:
  struct Model {
    std::vector<std::uint32_t> voxels;
    std::vector<std::uint8_t> outside, classes;
    CpuVoxelSet set;
  };
  PipelineTimings timings_;
  std::vector<Point> clouds_[2];
  struct Shown {
    std::vector<std::uint32_t> voxels;
    std::vector<std::uint8_t> classes;
    CpuCuckooTable table;
  } models_[2];
  FrameReport report_;
};

}  // namespace

std::unique_ptr<IntersectionPipeline> makeCpuPipeline(PipelineTimings timings) {
  return std::make_unique<CpuPipeline>(timings);
}

}  // namespace ws::voxhash
