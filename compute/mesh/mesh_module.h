#pragma once
// The surface mesh optimization module (the source's chapter 13): a triangle mesh, generated or
// loaded, whose vertices move to raise the smallest angle of their triangles, one colour class
// at a time, on the CPU or the GPU. Shown in 3-D, coloured by the triangles' smallest angles, the
// colour classes, how far each vertex moved, or how far it left the surface it came from.
#include <memory>

#include "compute/core/module.h"
#include "compute/mesh/inspect.h"
#include "compute/mesh/mesh_engine.h"
#include "compute/views/mesh.h"
#include "compute/views/plots.h"

namespace ws::mesh {

class MeshModule final : public Module, public MeshSource, public PlotSource {
 public:
  explicit MeshModule(Backend backend);

  std::string_view name() const override { return "mesh"; }
  std::string_view title() const override { return "Surface mesh optimization"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;
  std::string configuration() const override;
  std::string notes() const override;

  void reset() override;
  void synchronize() override { engine_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::string sizeText() const override;
  std::optional<MeshScene> meshScene() const override;
  void meshTopology(std::vector<std::uint32_t>& corners, std::vector<float>& start) const override;
  void renderMesh(MeshImage& image) override;
  std::vector<Histogram> histograms() const override;
  // The smallest and the mean smallest angle after each step() (one pass, a sweep or a class, at
  // one step a frame), the last kCurveLength of them.
  std::vector<Curve> curves() const override { return {minPerPass_, meanPerPass_}; }
  static constexpr std::size_t kCurveLength = 600;

  // "inspect": a click picks the vertex whose next move the inspector lays open (a click that
  // misses the mesh lets it go).
  std::vector<std::string> tools() const override { return {"inspect"}; }
  std::vector<std::string> toolItems(const std::string&) const override { return {}; }
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  // "save mesh": the mesh as it is now, to the file the parameter save_as names.
  std::vector<std::string> actions() const override { return {"save mesh"}; }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { engine_->pollTimings(); }
  void drainTimings() override { engine_->drainTimings(); }
  double bytesPerWorkUnit() const override;
  // From the Nelder-Mead iterations the passes since the last reset made (waits for the GPU).
  std::optional<OpModel> opsPerWorkUnit() const override;
  // A procedural mesh's sizes (the sphere's steps of 4x); none for a mesh from a file.
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override;

  // The mesh as it is now, and as it started (for tests).
  std::vector<Vec3> positions() { return engine_->positions(); }
  // The inspected vertex's next move, when one is inspected.
  const Inspection* inspection() const;
  const SurfaceMesh& startMesh() const { return *start_; }

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  // The mesh the parameters `p` describe, loaded into the engine with its locks and colours.
  // Throws (InputError, OutOfMemoryError) leaving the module as it was.
  void rebuild(const ParamSet& p);
  void makeEngine();
  void countLocks();    // lockedCount_ from locked_
  void colour();        // the engine's colour classes, by the colouring parameter
  void forgetCounts();  // after the engine's counts start again
  // plan_ from the parameters and the variant, after each change of them.
  void readPlan();
  const AngleSummary& summary() const;  // of the positions now, computed when due
  void changed();                       // the positions or the parameters: recompute what is due
  // The untangling phase: on while it is asked for, triangles are inverted and its last pass
  // moved a vertex (at most kMaxUntanglePasses passes). One step of it is one pass.
  bool untangling() const;
  void untangleStep();
  void recordPass();   // the curves' values after a step
  void startPhases();  // at the start, or the positions set anew
  static constexpr int kMaxUntanglePasses = 100;
  int untanglePasses_ = 0;
  bool untangleStuck_ = false;
  std::vector<std::uint32_t> tangledVertices_;  // when stuck: vertices of inverted triangles

  // What a step reads of the parameters and the variant, read once when they change.
  struct StepPlan {
    OptimizeParams optimize;
    bool untangle = true;  // the untangling phase first, while triangles are inverted
    bool project = false;
    bool coloured = false;      // colour class by colour class, else all vertices at once
    bool classByClass = false;  // coloured: a step is one class, else a sweep of them all
  } plan_;
  std::unique_ptr<MeshEngine> engine_;
  Backend engineBackend_ = Backend::Cpu;  // the backend engine_ runs on
  std::unique_ptr<SurfaceMesh> start_;
  std::unique_ptr<SurfaceGrid> original_;
  std::vector<std::uint8_t> locked_;
  std::size_t lockedCount_ = 0;
  std::string source_;  // what the mesh is, in words
  std::string saved_;   // the file the mesh was last saved to
  float edge_ = 1;      // the start's mean edge length
  float centre_[3] = {0, 0, 0}, extent_ = 1;
  std::uint64_t revision_ = 0;
  std::uint32_t nextClass_ = 0;
  AngleSummary startSummary_;
  mutable AngleSummary summary_;
  mutable bool summaryDue_ = true;
  std::optional<std::uint32_t> inspected_;
  mutable std::optional<Inspection> inspection_;  // of inspected_, computed when due
  mutable std::vector<Vec3> inspectedPositions_;  // the ring of inspected_ as it is now
  // The engine's counts and the vertices visited, at the last metrics() call.
  PassCounts atLastMetrics_;
  std::uint64_t visited_ = 0, visitedAtLastMetrics_ = 0, stepsAtLastMetrics_ = 0;
  double movesPerStep_ = 0, iterationsPerVertex_ = 0;
  double colouringMs_ = 0;  // the last colouring, host clock (it waits for the GPU)
  Curve minPerPass_{"smallest angle (degrees)", "pass", {}},
      meanPerPass_{"mean smallest angle (degrees)", "pass", {}};
  void startCurves();  // from the summary now
  MeshTimings cpu_, gpu_;
};

}  // namespace ws::mesh
