#pragma once
// The voxel hash module (the source's chapter 4), with two workloads:
// - intersection (the chapter's Figure 4.1): two animated models voxelized, hashed, looked up in
//   each other's tables and flood filled every step, shown in 3-D coloured by class;
// - random keys (the hash lab): random unique keys built into a cuckoo table and queried every
//   step, the table shown as an image; the chapter's build and retrieval rates.
#include <memory>

#include "compute/core/module.h"
#include "compute/views/field.h"
#include "compute/views/plots.h"
#include "compute/views/voxels.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/pipeline.h"

namespace ws::voxhash {

class VoxhashModule final : public Module,
                            public FieldSource,
                            public VoxelSource,
                            public PlotSource {
 public:
  explicit VoxhashModule(Backend backend);

  std::string_view name() const override { return "voxhash"; }
  std::string_view title() const override { return "Voxel hash intersection"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override;
  std::string notes() const override;

  void reset() override;
  void synchronize() override;
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override { return 0; }
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::optional<VoxelScene> voxelScene() const override;
  std::size_t voxelCount() const override;
  void renderVoxels(VoxelImage& voxels) override;
  std::vector<Histogram> histograms() const override;

  std::vector<std::string> tools() const override { return {}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  void edit(const PointerEdit& edit) override;
  std::vector<std::string> actions() const override;
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override;
  void drainTimings() override;
  double bytesPerWorkUnit() const override;
  // The hash lab's integer arithmetic; none for the intersection, a pipeline of six stages.
  std::optional<OpModel> opsPerWorkUnit() const override;
  // The intersection's grids, or the hash lab's key counts.
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override;

  bool intersecting() const { return params().getText("workload") == "intersection"; }
  LabReport labReport() { return lab_->report(); }
  FrameReport frameReport() { return pipeline_->report(); }
  // The last frame's voxel keys and classes, A's then B's (for tests).
  void frameResult(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) {
    pipeline_->result(keys, classes);
  }

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  void buildImplementations();
  // The state the parameters `p` describe at step `step`: the lab's keys and table, or the
  // clouds and the frame at that step. Throws when it cannot be made.
  void rebuild(const ParamSet& p, const std::string& variant, std::uint64_t step);
  // Frames `first` to `last` of the scene `p` describes, the last one kept.
  void runFrames(const ParamSet& p, const std::string& variant, std::uint64_t first,
                 std::uint64_t last);
  // The cuckoo tables' chain statistics of the last step (the lab's, or model A's).
  BuildReport chainReport() const;
  // The model whose cuckoo table the intersection's view shows (0 for A, 1 for B), or -1.
  int shownTable() const;

  std::unique_ptr<HashLab> lab_;
  std::unique_ptr<IntersectionPipeline> pipeline_;
  LabTimings labCpu_, labGpu_;
  PipelineTimings frameCpu_, frameGpu_;
  // The parameters and variant of the state shown, to go back to when a change is refused.
  struct Applied {
    ParamSet params;
    std::string variant;
  } applied_;
};

}  // namespace ws::voxhash
