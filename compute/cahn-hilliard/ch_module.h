#pragma once
// The Cahn-Hilliard equation as a warpscope module: a binary mixture separating into its phases
// (spinodal decomposition into labyrinths from a 50/50 mix, droplets from a 25/75 one), after
// Leist, Playne and Hawick 2009 section 3, with their kernels A-D over global, shared and texture
// memory.
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "compute/cahn-hilliard/ch_catalog.h"
#include "compute/cahn-hilliard/ch_engine.h"
#include "compute/core/module.h"
#include "compute/geometry/isosurface.h"
#include "compute/views/field.h"
#include "compute/views/plots.h"
#include "compute/views/surface.h"

namespace ws::ch {

class ChModule final : public Module, public FieldSource, public PlotSource, public SurfaceSource {
 public:
  explicit ChModule(Backend backend);

  std::string_view name() const override { return "cahn-hilliard"; }
  std::string_view title() const override { return "Cahn-Hilliard phase separation"; }
  // "1024" or "1024x512" (2-D), "128x128x128" (3-D).
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override { return engine_->configuration(); }
  std::string notes() const override;
  bool applies(const std::string& key) const override;

  void reset() override;
  void synchronize() override { engine_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override { return 0; }
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::vector<Curve> curves() const override;
  // In 3-D with display = isosurface: the interfaces, phi = 0, coloured by the Laplacian of phi
  // (their curvature, which drives the coarsening), in the box of the grid.
  std::optional<SurfaceScene> surfaceScene() const override;
  void fixedSurface(std::vector<float>& vertices) override { vertices.clear(); }
  std::size_t surfaceTriangles() override;
  void renderSurface(SurfaceImage& image) override;
  static constexpr std::size_t kMaxSurfaceTriangles = 6'000'000;  // 576 MB of vertices

  // draw sets phi to +1 (the first phase) along the stroke, erase to -1, a disc of `brush` cells
  // (in 3-D on the slice shown).
  std::vector<std::string> tools() const override { return {"draw", "erase"}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  void revert(const EditChange& change, bool redo) override;
  std::vector<std::string> actions() const override { return {"new noise"}; }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override;
  void drainTimings() override;
  double bytesPerWorkUnit() const override { return ChEngine::bytesPerCell(config_.integrator); }
  std::optional<OpModel> opsPerWorkUnit() const override;
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override {
    return *(backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_).step;
  }

  // For the tests and the UI.
  const ChConfig& config() const { return config_; }
  std::vector<float> field() { return engine_->save(); }
  void loadField(const std::vector<float>& phi);  // shape().cells() values
  Totals totals() { return engine_->totals(config_.k); }
  double time() const { return time_; }
  // The fitted exponent of domain size against time over the last decade recorded (nullopt until
  // there are enough points).
  std::optional<double> coarseningExponent() const;

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  void buildEngine();
  bool showsSurface() const;  // 3-D, with display = isosurface
  void applyConfig(const std::vector<std::string>& changed);
  void startRecord();  // the coarsening record starts again (a new state)
  void recordDomainSize();
  std::vector<CellValue> setCells(std::vector<CellValue> cells);

  ChConfig config_;
  std::unique_ptr<ChEngine> engine_;
  ChTimings cpuTimings_, gpuTimings_;
  TimingScope *cpuSurfaceTiming_ = nullptr, *gpuSurfaceTiming_ = nullptr;
  std::unique_ptr<geometry::IsosurfaceExtractor> isosurface_;  // the backend's
  std::uint64_t boxRevision_ = newSurfaceRevision();
  std::size_t surfaceTriangles_ = 0;  // the last extraction's, before the view's cap
  double time_ = 0;                   // simulated time: the sum of the steps' dt
  double initialMass_ = 0;            // sum(phi) at the start, for the drift
  int nextMark_ = 0;                  // the next recorded time is 10^(nextMark_/10)
  // (log10 t, log10 domain size) at the end of each step() that passed a recorded time: ten a
  // decade, fewer where one call passes several.
  std::vector<std::pair<double, double>> coarsening_;
  std::deque<float> sizeCurve_;
  Totals lastTotals_;  // of the last metrics() (or the start), for the notes
};

}  // namespace ws::ch
