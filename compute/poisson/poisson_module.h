#pragma once
// The Poisson equation solved live: -lap u = f on the unit square (cube) by Jacobi, coloured
// Gauss-Seidel (red-black, 4 and 8 colours), SOR, an unordered in-place sweep and multigrid, after
// Strobl 2008 (seed 002): a sequential algorithm made parallel by colouring its unknowns.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/module.h"
#include "compute/poisson/poisson_catalog.h"
#include "compute/poisson/poisson_engine.h"
#include "compute/views/field.h"
#include "compute/views/plots.h"

namespace ws::poisson {

class PoissonModule final : public Module, public FieldSource, public PlotSource {
 public:
  explicit PoissonModule(Backend backend);

  std::string_view name() const override { return "poisson"; }
  std::string_view title() const override { return "Poisson (coloured Gauss-Seidel)"; }
  // "256" or "256^2" (2-D), "64^3" or "64x64x64" (3-D): cells a side of the unit square (cube).
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override;
  std::string notes() const override;
  bool applies(const std::string& key) const override;

  void reset() override;
  void synchronize() override { engine_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override;
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::vector<Curve> curves() const override;
  // Each solver's last race from u = 0 on this problem: log10 residual against log10 sweeps and
  // against log10 ms of sweeping at the rate it measured (convergence per second is the lesson).
  std::vector<SeriesPlot> seriesPlots() const override;

  // positive and negative set f to +-strength in a disc of `brush` nodes (in 3-D on the slice
  // shown), erase to 0.
  // "coefficient" sets k to the contrast on the cells under the disc, "coefficient 1" to 1.
  std::vector<std::string> tools() const override {
    return {"positive", "negative", "erase", "coefficient", "coefficient 1"};
  }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  void revert(const EditChange& change, bool redo) override;
  std::vector<std::string> actions() const override { return {"restart from zero"}; }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { engine_->pollTimings(); }
  void drainTimings() override { engine_->drainTimings(); }
  double bytesPerWorkUnit() const override;
  std::optional<OpModel> opsPerWorkUnit() const override;
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override {
    return *(backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_).sweep;
  }

  // For the tests and the UI.
  const PoissonConfig& config() const { return config_; }
  const Grid& grid() const { return engine_->grid(); }
  PoissonEngine& engine() { return *engine_; }
  Norms norms() { return engine_->norms(config_.sweep); }
  // Whether k = 1 on every cell (the Poisson equation), or varies (set up or drawn).
  bool coefficientUniform() const { return uniformK_; }
  // k = 1 everywhere (empty), or the cells' values (grid().cells() of them), into the engine.
  void loadCoefficient(std::vector<double> k);
  // Whether f is still the sine problem's, so that the error against its solution means something.
  bool exactSolutionKnown() const { return exact_; }
  // The residual's fall per sweep over the last step() call (nullopt before two norms).
  std::optional<double> convergenceFactor() const { return factor_; }
  // The sweeps that cut the residual by 10^6 from the record's start (the benchmark):
  // counted where it has fallen that far (at the end of the step() that took it there: step one
  // sweep at a time to count exactly), else predicted at the last factor a sweep; nullopt
  // where it does not fall or the precision's floor lies above the target.
  struct Fall {
    double sweeps = 0;
    bool measured = false;
  };
  std::optional<Fall> fallByAMillion() const;

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  // The sweep as this backend runs it (the CPU has one kernel).
  Sweep sweepAsRun() const;
  void buildEngine();
  // The sweep the variant and the parameters make; throws InputError where they don't fit.
  Sweep sweepFor(const PoissonConfig& config, const std::string& variant) const;
  // The residual the rounding of u to its precision leaves, which no solver gets far below.
  double roundingFloor() const;
  // Milliseconds of sweeping at the measured rate (0 before it is measured).
  double sweepingMs(double sweeps) const;
  void startRecord();
  // The norms after `sweeps` more sweeps, `sweepsNow` in all: the factor, decades, curve and race.
  void record(std::uint64_t sweepsNow, int sweeps);
  void startRace();  // u = 0: the current solver's race starts again
  // f, the grid, the operator or the precision changed: every race ends (and at u = 0 the
  // current solver's starts).
  void newProblem();
  int slice() const;  // the plane z shown and drawn on (0 in 2-D)  // the residual's record starts
                      // again (a new state or right-hand side)
  std::vector<NodeValue> setRightHandSide(const std::vector<NodeValue>& nodes);
  // k at each cell (its index in `node`); returns the values it changed, as they were.
  std::vector<NodeValue> setCoefficient(const std::vector<NodeValue>& cells);
  // The sweep stores its stencils where asked to or where k varies.
  bool storesStencils(const PoissonConfig& config) const {
    return config.storeStencils || !uniformK_;
  }
  void chooseStorage() { config_.sweep.stored = storesStencils(config_); }
  // f or k was drawn: no exact solution, and the record and every race start again.
  void problemEdited();

  PoissonConfig config_;
  std::unique_ptr<PoissonEngine> engine_;
  PoissonTimings cpuTimings_{}, gpuTimings_{};
  bool exact_ = true;
  bool uniformK_ = true;          // see coefficientUniform()
  Norms start_, last_;            // at the start of the record and after the last step()
  std::optional<double> factor_;  // see convergenceFactor()
  std::uint64_t recordFrom_ = 0;  // the sweep count at the start of the record
  // The sweeps the residual took to fall by 10, 100, 1000 ... since the record's start.
  std::vector<std::uint64_t> decades_;
  std::deque<float> residualCurve_;  // log10 of the residual after each step()
  struct Race {
    std::vector<std::pair<double, float>> points;  // (sweeps, log10 residual) after each step()
    double rate = 0;                               // the unknown updates a second it measured
  };
  std::map<std::string, Race> races_;  // by variant
  std::string racing_;                 // the variant recording its race, "" for none
  float raceStart_ = 0;                // log10 of the residual at u = 0, the race's first point
  bool raceFresh_ = false;             // no sweep yet: the first replaces the solver's last race
};

}  // namespace ws::poisson
