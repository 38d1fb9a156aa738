#pragma once
// The voxel hash module (the source's chapter 4). So far it holds the hash lab: random unique
// keys built into a cuckoo table and queried every step, with the table shown as an image. The
// voxelized models, their intersection and flood fill are still to come (issue 4).
#include <memory>

#include "compute/core/module.h"
#include "compute/voxhash/hash_lab.h"

namespace ws::voxhash {

class VoxhashModule final : public Module {
 public:
  explicit VoxhashModule(Backend backend);

  std::string_view name() const override { return "voxhash"; }
  std::string_view title() const override { return "Voxel hash (cuckoo hashing lab)"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string defaultVariant(Backend) const override { return "cuckoo"; }
  std::string configuration() const override { return lab_->configuration(); }
  std::string notes() const override;

  void reset() override;
  void step(int count) override;
  void synchronize() override { lab_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override { return 0; }
  void renderField(const FieldRequest& request, FieldImage& image) override;

  std::vector<std::string> tools() const override { return {}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  void edit(const PointerEdit& edit) override;
  std::vector<std::string> actions() const override { return {"new keys"}; }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { lab_->pollTimings(); }
  void drainTimings() override { lab_->drainTimings(); }
  double bytesPerWorkUnit() const override;
  const TimingScope& stepTiming() const override {
    return *(backend_ == Backend::Cuda ? gpuTimings_ : cpuTimings_).total;
  }

  LabReport report() { return lab_->report(); }

 protected:
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  CuckooParams cuckooParams() const;
  void buildLab();

  std::unique_ptr<HashLab> lab_;
  LabTimings cpuTimings_, gpuTimings_;
  struct Built {
    CuckooParams params;
    std::size_t keys = 0;
    std::uint32_t seed = 0;
  } built_;  // what the last reset built, to go back to when a change is refused
};

}  // namespace ws::voxhash
