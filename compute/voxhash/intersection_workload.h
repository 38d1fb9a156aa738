#pragma once
// The intersection's workload (the chapter's Figure 4.1): two animated models voxelized, hashed,
// looked up in each other's tables and flood filled every step (pipeline.h), shown in 3-D
// coloured by class, or one model's cuckoo table as an image.
#include "compute/voxhash/scene.h"
#include "compute/voxhash/workload.h"

namespace ws::voxhash {

class IntersectionWorkload final : public Workload {
 public:
  IntersectionWorkload(Backend backend, PipelineTimings timings, int block);
  // The parameters only this workload reads: the scene, the grid, and what is shown.
  static void declareParams(ParamSet& p, bool gpu);

  void rebuild(const ParamSet& p, const std::string& variant, std::uint64_t step) override;
  bool rebuildsFor(const std::string& key) const override;
  void restyle(const ParamSet& p) override;
  void advance(std::uint64_t first, int count) override;
  void synchronize() override { pipeline_->synchronize(); }

  std::string configuration() const override;
  std::vector<Metric> metrics() override;
  std::string notes() const override;
  std::vector<Histogram> histograms() const override;
  WorldBox world() const override;
  std::string sizeText() const override;
  std::vector<std::string> sweepSizes() const override;

  // One model's table, while the view shows it (the voxels are 3-D: renderField refuses them).
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::optional<VoxelScene> voxelScene() const override;
  std::size_t voxelCount() const override { return pipeline_->voxelCount(); }
  void renderVoxels(VoxelImage& voxels) override { pipeline_->renderVoxels(voxels); }

  const TimingScope& stepTiming() const override { return *timings_.frame; }
  double bytesPerWorkUnit() const override;
  void pollTimings() override { pipeline_->pollTimings(); }
  void drainTimings() override { pipeline_->drainTimings(); }

  FrameReport report() const { return pipeline_->report(); }
  // The last frame's voxel keys and classes, A's then B's (for tests).
  void result(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) const {
    pipeline_->result(keys, classes);
  }

 private:
  // Frames `first` to `last` of the scene, the last one kept.
  void runFrames(std::uint64_t first, std::uint64_t last);

  struct Config {
    Path path = Path::Orbit;
    Deformation deformation = Deformation::None;
    double speed = 1;
    float sizeB = kDefaultSizeB;
    int resolution = 0;
    std::string variant;  // the lookup structure's name
    LookupStructure structure = LookupStructure::Cuckoo;
    CuckooParams cuckoo;
    std::uint64_t seed = 0;
  } config_;
  // What is drawn: the classes shown (bit c for class c), and the model whose table is shown
  // (0 for A, 1 for B) or -1 for the voxels.
  struct Look {
    unsigned visibleClasses = 0;
    int table = -1;
  } look_;
  PipelineTimings timings_;
  bool gpu_;
  int block_;
  std::unique_ptr<IntersectionPipeline> pipeline_;
};

}  // namespace ws::voxhash
