#pragma once
// Lattice Boltzmann flow (D2Q9 and D3Q19) as a warpscope module.
#include <array>
#include <memory>
#include <optional>

#include "compute/core/module.h"
#include "compute/geometry/isosurface.h"
#include "compute/lbm/lbm_engine.h"
#include "compute/lbm/lbm_obstacles.h"
#include "compute/lbm/lbm_scene.h"
#include "compute/lbm/lbm_series.h"
#include "compute/lbm/lbm_tracers.h"
#include "compute/lbm/lbm_wake.h"
#include "compute/lbm/streamlines.h"
#include "compute/views/field.h"
#include "compute/views/marks.h"
#include "compute/views/plots.h"
#include "compute/views/points.h"
#include "compute/views/surface.h"

namespace ws::lbm {

class LbmModule final : public Module,
                        public FieldSource,
                        public PointSource,
                        public MarkSource,
                        public PlotSource,
                        public SurfaceSource {
 public:
  explicit LbmModule(Backend backend);

  std::string_view name() const override { return "lbm"; }
  std::string_view title() const override { return "Lattice Boltzmann flow"; }
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
  int currentFieldView() const override;
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::size_t pointCount() const override { return tracers_->count(); }
  void renderPoints(PointImage& points) override;
  std::vector<Mark> marks() const override;            // the probe line and the probe points
  std::vector<ViewLabel> viewLabels() const override;  // the probe points' numbers
  // Per step: the main body's force coefficients, each probe's speed.
  std::vector<Curve> curves() const override;
  // The 3-D view's isosurface (parameter display): of the quantity iso_quantity where it is
  // iso_level of its largest value now, coloured by speed, with streamlines (parameter
  // streamlines), the obstacles and the lattice's box.
  std::optional<SurfaceScene> surfaceScene() const override;
  void fixedSurface(std::vector<float>& vertices) override;
  std::size_t surfaceTriangles() override;
  std::size_t surfaceSegments() const override;
  void renderSurface(SurfaceImage& image) override;
  static constexpr std::size_t kMaxSurfaceTriangles = 6'000'000;  // 576 MB of vertices

  std::vector<std::string> tools() const override {
    return {"draw", "erase", "probe", "probe point"};
  }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  void revert(const EditChange& change, bool redo) override;
  std::vector<std::string> actions() const override;
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override;
  void drainTimings() override;
  double bytesPerWorkUnit() const override;
  std::optional<OpModel> opsPerWorkUnit() const override;
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override {
    return *(backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_).step;
  }

  // For the tests and exports.
  LbmEngine& engine() { return *engine_; }
  const FlowSpec& spec() const { return spec_; }
  const Flow& flow() const { return flow_; }
  Plane plane() const;
  const std::vector<std::uint8_t>& flags() const { return flags_; }
  TracerSwarm& tracers() { return *tracers_; }
  // Writes the whole lattice's density, velocity and cell types as VTK image data (ParaView).
  void exportVti(const std::string& path);
  // Writes the moments along the probe line as CSV.
  void exportProbe(const std::string& path);
  // Writes the series (forces and coefficients of every body, the flow at every probe) as CSV.
  void exportSeries(const std::string& path);
  const FlowSeries& series() const { return series_; }
  // The pressure drop across the cylinder scene's first cylinder and its recirculation length, in
  // the plane half-way through the depth (lbm_wake.h); none for other scenes, or a mesh obstacle
  // alone. metrics() shows them as coefficients, dp / (rho U^2) and La / L.
  std::optional<Wake> wake();
  // The bodies the series' forces are of (findObstacles' names), as of the last step.
  const std::vector<std::string>& bodies() const { return bodies_; }
  // The probe line's ends in cells of the plane shown (a, b; b is the lattice's y, up on the
  // screen), held to the plane: the parameter "probe", or the vertical centreline where it is
  // empty.
  std::array<double, 4> probe() const;

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  std::vector<std::pair<std::string, ParamValue>> alongWith(const std::vector<std::string>& changed,
                                                            const ParamSet& before) const override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  // Whether the 3-D view shows the whole lattice (isosurfaces, streamlines) rather than a slice.
  bool showsVolume() const;
  FlowSpec specFromParams() const;
  void buildEngine();
  int splitAxis() const;  // under mpirun (lbm_mpi.h): 0, 1, 2 for x, y, z
  std::string splitNotes(const SplitState& split) const;
  // The grid of ranks asked for (lbm.split_grid), or all 0 for slabs along splitAxis().
  std::array<int, 3> splitGrid() const;
  // After the cell types changed: the monitor is found again, the obstacles' surface made again.
  void cellTypesChanged();
  void keepSnapshot();
  // Makes the cells walls (solid) or fluid at rest; returns those that changed.
  std::vector<std::size_t> setCellTypes(const std::vector<std::size_t>& cells, bool solid);
  TracerField tracerField();
  // The streamlines the parameters ask for on this lattice.
  StreamSpec streamSpec() const;
  void seedTracers();
  std::vector<std::array<float, 2>> probePointsInView() const;
  // Writes the flow of `step` into the VTI series' folder and the index over all its files.
  void writeVtiFrame(std::uint64_t step);
  // Sets a text parameter as an edit: what it held before and after, or null where it is as it was.
  std::unique_ptr<EditChange> changeParam(const std::string& key, const std::string& text);
  // Finds the curved walls' links, the bodies and the probes again; the engine bounces back on
  // the curved links and measures the rest from the next step.
  void updateMonitor();
  // The body whose forces the metrics show: the first obstacle, else the walls.
  std::optional<std::size_t> mainBody() const;
  // The period of the main obstacle's lift, once it sheds vortices; none for the walls.
  std::optional<Period> sheddingPeriod() const;
  double strouhal(const Period& period) const;

  // The obstacle mesh and picture last read, by fileVersion(), so that each is read once per
  // version of its file.
  mutable std::pair<std::string, std::shared_ptr<const io::TriangleMesh>> meshCache_;
  mutable std::pair<std::string, std::shared_ptr<const io::Mask>> imageCache_;
  std::unique_ptr<LbmEngine> engine_;
  std::unique_ptr<TracerSwarm> tracers_;
  std::unique_ptr<geometry::IsosurfaceExtractor> isosurface_;
  std::unique_ptr<StreamlineTracer> streamlines_;
  // The moments surfaceTriangles() got from the engine, which renderSurface() traces the
  // streamlines through; cleared there (they are good only until the engine changes).
  StreamField streamField_;
  LbmTimings cpuTimings_, gpuTimings_;
  TimingScope *cpuTracerTiming_ = nullptr, *gpuTracerTiming_ = nullptr;
  TimingScope *cpuSurfaceTiming_ = nullptr, *gpuSurfaceTiming_ = nullptr;
  TimingScope *cpuStreamTiming_ = nullptr, *gpuStreamTiming_ = nullptr;
  FlowSpec spec_;
  Flow flow_;
  std::vector<std::uint8_t> flags_;  // host copy of the cell types
  // The monitor: bodies and probes are found again before a step once the cell types or the
  // probes have changed.
  bool monitorStale_ = true;
  bool sizeChosen_ = false;  // by setSize (--size): picking the lattice keeps it
  // The cell types' revision, unique across modules: the surface scene's. And the last surface
  // extracted: its triangles, and the level it was at.
  std::uint64_t cellTypesRevision_ = 0;
  std::size_t surfaceTriangles_ = 0;
  float surfaceLevel_ = 0;
  std::vector<std::string> bodies_;
  std::size_t probeCount_ = 0;
  // The VTI series (parameter vti_every): its folder ("" until its first file), the files so far
  // (step, name) and why it stopped, if it did.
  std::string vtiFolder_, vtiStopped_;
  std::vector<std::pair<std::uint64_t, std::string>> vtiFrames_;
  FlowSeries series_;  // columns: 3 per body, 4 per probe
  std::optional<StateBlob> lastGood_;
  double lastSnapshotSeconds_ = -1e9;
  bool diverged_ = false, sawFastFlow_ = false;
  std::string lastExport_;
};

}  // namespace ws::lbm
