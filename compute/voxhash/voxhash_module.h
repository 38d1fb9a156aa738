#pragma once
// The voxel hash module (the source's chapter 4), with two workloads (workload.h): the
// intersection of two animated models (the chapter's Figure 4.1), and the hash lab's random keys.
// The module declares the parameters, keeps the state to go back to, and hands everything else
// to the workload the parameters name.
#include <map>
#include <memory>

#include "compute/core/module.h"
#include "compute/views/field.h"
#include "compute/views/plots.h"
#include "compute/views/voxels.h"
#include "compute/voxhash/workload.h"

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
  std::string notes() const override { return workload_->notes(); }
  bool applies(const std::string& key) const override;

  void reset() override;
  void synchronize() override { workload_->synchronize(); }
  std::vector<Metric> metrics() override { return workload_->metrics(); }

  WorldBox world() const override { return workload_->world(); }
  std::string sizeText() const override { return workload_->sizeText(); }
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override { return 0; }
  void renderField(const FieldRequest& request, FieldImage& image) override {
    workload_->renderField(request, image);
  }
  std::optional<VoxelScene> voxelScene() const override { return workload_->voxelScene(); }
  std::size_t voxelCount() const override { return workload_->voxelCount(); }
  void renderVoxels(VoxelImage& voxels) override { workload_->renderVoxels(voxels); }
  std::vector<Histogram> histograms() const override { return workload_->histograms(); }

  std::vector<std::string> tools() const override { return {}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  std::vector<std::string> actions() const override;
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { workload_->pollTimings(); }
  void drainTimings() override { workload_->drainTimings(); }
  double bytesPerWorkUnit() const override { return workload_->bytesPerWorkUnit(); }
  // The hash lab's integer arithmetic; none for the intersection, a pipeline of six stages.
  std::optional<OpModel> opsPerWorkUnit() const override { return workload_->opsPerWorkUnit(); }
  // The intersection's grids, or the hash lab's key counts.
  std::vector<std::string> sweepSizes() const override { return workload_->sweepSizes(); }
  const TimingScope& stepTiming() const override { return workload_->stepTiming(); }

  // What the running workload saw last (for tests; each throws std::logic_error under the other).
  LabReport labReport() const;
  FrameReport frameReport() const;
  // The last frame's voxel keys and classes, A's then B's.
  void frameResult(std::vector<std::uint32_t>& keys, std::vector<std::uint8_t>& classes) const;

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  // The engine a workload runs on: rebuilt when one of these changes.
  struct Engine {
    WorkloadKind kind;
    Backend backend;
    int block;
    bool operator==(const Engine&) const = default;
  };
  // Makes the state the parameters `p` describe at step `step` (a new workload first where `p`
  // asks for another engine), and keeps it as the state to go back to. Throws when it cannot,
  // leaving the workload to be rebuilt.
  void show(const ParamSet& p, const std::string& variant, std::uint64_t step);
  // show(), and on a refusal the state shown before.
  void showOrGoBack(const ParamSet& p, const std::string& variant, std::uint64_t step);

  std::unique_ptr<Workload> workload_;
  std::optional<Engine> engine_;
  LabTimings labCpu_, labGpu_;
  PipelineTimings frameCpu_, frameGpu_;
  // The parameters and variant of the state shown, to go back to when a change is refused.
  struct Applied {
    ParamSet params;
    std::string variant;
  } applied_;
  std::map<std::string, WorkloadKind> onlyFor_;  // parameters one workload alone reads
};

}  // namespace ws::voxhash
