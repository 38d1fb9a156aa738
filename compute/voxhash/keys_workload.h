#pragma once
// The hash lab's workload: n random unique keys built into a cuckoo table and queried every step
// (hash_lab.h), the table shown as an image; the chapter's build and retrieval rates.
#include "compute/voxhash/workload.h"

namespace ws::voxhash {

class KeysWorkload final : public Workload {
 public:
  KeysWorkload(Backend backend, LabTimings timings, int block);
  // The parameters only this workload reads ("keys", "key_pattern").
  static void declareParams(ParamSet& p, bool gpu);

  void rebuild(const ParamSet& p, const std::string& variant, std::uint64_t step) override;
  bool rebuildsFor(const std::string& key) const override {
    return key == "keys" || key == "key_pattern" || key == "seed" || isCuckooParam(key);
  }
  void advance(std::uint64_t first, int count) override;
  void synchronize() override { lab_->synchronize(); }

  std::string configuration() const override { return lab_->configuration(); }
  std::vector<Metric> metrics() override;
  std::string notes() const override;
  std::vector<Histogram> histograms() const override;
  WorldBox world() const override;
  std::string sizeText() const override { return std::to_string(config_.keys); }
  std::vector<std::string> sweepSizes() const override;

  void renderField(const FieldRequest& request, FieldImage& image) override {
    lab_->render(request, image);
  }

  const TimingScope& stepTiming() const override { return *timings_.total; }
  double bytesPerWorkUnit() const override;
  std::optional<OpModel> opsPerWorkUnit() const override;
  void pollTimings() override { lab_->pollTimings(); }
  void drainTimings() override { lab_->drainTimings(); }

  LabReport report() const { return lab_->report(); }

 private:
  struct Config {
    std::size_t keys = 0;
    CuckooParams cuckoo;
    std::uint64_t seed = 0;
  } config_;
  LabTimings timings_;
  std::unique_ptr<HashLab> lab_;
};

}  // namespace ws::voxhash
