#pragma once
// The reduction and scan lab as a warpscope module: one array, summed or prefix-summed by the
// kernel the user picks, every run checked against the CPU reference, and the picked kernel's
// shared-memory tree drawn thread by thread (who adds, which warps diverge, which banks conflict).
#include <memory>

#include "compute/core/module.h"
#include "compute/reduce/reduce_lab.h"
#include "compute/reduce/tree_pattern.h"
#include "compute/views/field.h"

namespace ws::reduce {

class ReduceModule final : public Module, public FieldSource {
 public:
  explicit ReduceModule(Backend backend);

  std::string_view name() const override { return "reduce"; }
  std::string_view title() const override { return "Reduction and scan lab"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override { return engine_->configuration(); }
  std::string notes() const override;

  void reset() override;
  void synchronize() override { engine_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  // The threads and banks views: "step" down the left, "thread" (banks: "warp") along the top,
  // and what the thread under the pointer does at that step.
  std::vector<ViewLabel> viewLabels() const override;
  std::string describeAt(double x, double y) const override;
  // The tree views' rows are this many world units tall, so that a block's few steps fill a view
  // about as tall as half its width (a row a unit tall would be a thin band).
  double rowHeight() const;
  std::string sizeText() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override;
  void renderField(const FieldRequest& request, FieldImage& image) override;

  std::vector<std::string> tools() const override { return {}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  std::vector<std::string> actions() const override { return {"new input"}; }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { engine_->pollTimings(); }
  void drainTimings() override { engine_->drainTimings(); }
  double bytesPerWorkUnit() const override { return bytesPerElement(operation()); }
  // One add per element is all a reduction or a scan needs (the tree kernels do about as many).
  std::optional<OpModel> opsPerWorkUnit() const override { return OpModel{1.0, OpKind::Int32}; }
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override {
    return *(backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_).step;
  }

  // The lab's own, for the tests and the launch readouts.
  std::vector<std::uint32_t> input() { return engine_->input(); }
  std::vector<std::uint32_t> output() { return engine_->output(); }
  std::size_t mismatches();
  const TreePattern& pattern() const { return pattern_; }

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  Operation operation() const;
  LabConfig config() const;
  Kernel treeKernel() const;  // whose tree the threads and banks views draw
  // A new engine for the current parameters and selection, with its input; throws (changing
  // nothing) when the array does not fit.
  void rebuild();
  void loadInput(ReduceEngine& engine);  // the input and the reference answer for it
  void startOver();                      // step 0, timings and checks cleared

  std::unique_ptr<ReduceEngine> engine_;
  LabTimings cpuTimings_, gpuTimings_;
  TreePattern pattern_;
  // The CPU reference's answer for an input, kept across switches of kernel and backend.
  struct ReferenceKey {
    std::size_t size = 0;
    std::uint32_t seed = 0, maxValue = 0;
    Operation operation{};
    bool operator==(const ReferenceKey&) const = default;
  };
  struct {
    ReferenceKey key;
    std::vector<std::uint32_t> values;  // empty: none yet
  } reference_;
  std::uint32_t expected_ = 0;  // the reference's result
  long long mismatches_ = -1;   // of the last run, counted once per run; -1: not yet
};

}  // namespace ws::reduce
