#pragma once
// The module contract. A module is one simulation (Life, LBM, voxel hashing, mesh optimisation,
// graph clustering) behind one interface that the GUI, the headless runner, the benchmark and the
// tests drive alike. It owns its state on one backend (CPU or CUDA) and never touches GL or ImGui:
// it offers parameters, kernel variants, timings, and views the renderer draws.
#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compute/core/backend.h"
#include "compute/core/field.h"
#include "compute/core/launch.h"
#include "compute/core/params.h"
#include "compute/core/roofline.h"
#include "compute/core/timing.h"

namespace ws {

// One implementation of the module's step, and the lesson it teaches.
struct KernelVariant {
  std::string name;                  // command-line name, e.g. "bitpacked"
  std::string title;                 // menu text, e.g. "(6) bit-packed, bit-sliced adders"
  std::string explanation;           // one paragraph: what it does and what it shows
  std::vector<std::string> tunedBy;  // parameters that shape it (block shape, rows per thread)
  // What the source measured for it, with the hardware and year ("Harris 2007, G80: 2.08 GB/s"),
  // shown beside the live figure; empty where the source gives none.
  std::string historical = {};
};

// An axis-aligned box in world coordinates (the camera frames it).
struct WorldBox {
  double minX = 0, minY = 0, maxX = 1, maxY = 1;
};

// A scalar quantity the module can show as a 2-D image through a colour map.
struct FieldView {
  std::string name;   // "alive", "age", "vorticity"
  std::string label;  // for the colour bar
  float minValue = 0, maxValue = 1;
  std::string colormap;  // default colour map
};

// A 3-D view of voxels on a grid (the voxel hash module's models), drawn as instanced boxes
// coloured by class; a module that offers one is shown through it instead of its 2-D field.
struct VoxelScene {
  float origin[3] = {0, 0, 0};  // world position of the grid's corner cell's corner
  float voxel = 1;              // a cell's edge length
  float extent = 1;             // the scene's half-width around its centre, for the camera
  std::vector<std::string> classNames;
  std::vector<std::array<float, 3>> classColours;  // RGB in [0, 1], by class
  unsigned visibleClasses = ~0u;                   // bit c set: class c is drawn
};

// A triangle mesh drawn in 3-D (the mesh module), shaded, coloured through a colour map by a value
// per triangle or per vertex, with its wireframe and each vertex's path from where it started
// when asked. The corners and the start positions change only with `revision`, which no other
// mesh, of this module or another, ever has; the module writes the positions and values every
// frame (renderMesh).
// Lines drawn over a 3-D scene (the vertex inspector's disk and search), in one colour.
struct SceneLines {
  std::vector<float> points;  // x, y, z of each segment's two ends
  float colour[3] = {1, 1, 1};
};

struct MeshScene {
  std::size_t vertices = 0, triangles = 0;
  std::uint64_t revision = 0;
  float centre[3] = {0, 0, 0};
  float extent = 1;  // the mesh's half-width around its centre, for the camera
  FieldView value;   // what the colour shows, and its range
  enum class Values { PerTriangle, PerVertex, PerVertexRegion } values = Values::PerTriangle;
  bool wireframe = false, paths = false;
  // When value.name is a category (colour classes): the number of categories.
  int categories = 0;
  std::vector<SceneLines> lines;  // drawn over the mesh, not hidden by it
};

// A graph drawn in 2-D through the field's camera (the graph module): nodes as discs, edges as
// bands. The edges' ends change only with `revision`, unique across modules; the module writes
// node positions, sizes and values and edge values every frame (renderGraph).
struct GraphScene {
  std::size_t nodes = 0, edges = 0;
  std::uint64_t revision = 0;
  FieldView nodeValue;  // what a node's colour shows, and its range
  int categories = 0;   // when nodes show categories (communities): their number, else 0
  FieldView edgeValue;  // what an edge's colour and width show (values 0 to 1)
  long picked = -1;     // the node picked, drawn with a ring, or -1
};

// Counts in labelled bins (the cuckoo tables' eviction chain lengths), drawn as a bar chart; with
// a reference (the same bins at the start), both on one scale.
struct Histogram {
  std::string name;
  std::vector<std::string> labels;
  std::vector<float> values;
  std::string referenceName;
  std::vector<float> reference;
};

// A series the module records itself, one value per step() call that ran (the mesh's smallest
// angle per pass), where a per-frame plot would also count paused frames. `x` says what a point
// is ("pass").
struct Curve {
  std::string name, x;
  std::deque<float> values;
};

// A tree drawn as line segments in the unit square (Girvan-Newman's dendrogram: x across the
// communities, y down the splits), with one level marked (the one shown).
struct Dendrogram {
  std::string name;
  std::vector<float> segments;  // x0, y0, x1, y1 per segment, in [0, 1], y growing downwards
  float marked = -1;            // y of the marked level, or -1
  std::string caption;
};

// A scalar the module reports each frame (population, mass, restarts); plotted over time.
struct Metric {
  std::string name;
  double value = 0;
};

// A mouse action in world coordinates, for the tool the user picked.
struct PointerEdit {
  std::string tool;  // one of tools(): "draw", "erase", "place", "inspect"
  double x = 0, y = 0;
  double fromX = 0, fromY = 0;  // previous position during a drag (== x, y on the first event)
  std::string item;             // what to place, for "place" (a pattern name)
  // In a 3-D scene, a click instead: the ray through the pointer, in world coordinates.
  bool hasRay = false;
  float origin[3] = {0, 0, 0}, direction[3] = {0, 0, 1};
};

// A module's complete state, to restore later or move between backends.
struct StateBlob {
  nlohmann::json meta;
  std::vector<std::uint8_t> data;
  // Where the data's 32-bit floats begin (the bytes before are flags or bits); npos: bytes only.
  // Only comparing two states reads it.
  std::size_t floatsFrom = std::string::npos;
};

// How two states of a module, at the same step, differ (the A/B view's agreement): the bytes
// before floatsFrom one by one, the floats after it by value.
struct StateDifference {
  bool comparable = true;  // the same size and layout
  std::size_t bytes = 0, floats = 0;
  std::size_t differingBytes = 0, differingFloats = 0;
  double largest = 0;  // the largest |a - b| between two floats (infinity where one is NaN)
  bool exact() const { return comparable && differingBytes == 0 && differingFloats == 0; }
};
StateDifference compareStates(const StateBlob& a, const StateBlob& b);

class Module {
 public:
  virtual ~Module() = default;

  virtual std::string_view name() const = 0;
  virtual std::string_view title() const = 0;

  // Parameters. Every change is checked and applied whole: when the module cannot apply it (a
  // size that does not fit in memory, say) it throws and everything stays as it was.
  const ParamSet& params() const { return params_; }
  void setParam(const std::string& key, const ParamValue& value);
  void setParamText(const std::string& key, const std::string& text);
  void setParams(const std::vector<std::pair<std::string, ParamValue>>& values);
  // `--size` on the command line: the module says which parameters it means ("4096", "800x600").
  virtual void setSize(const std::string& text) = 0;

  // Presets: {"module": name, "params": {...}}. Loading checks all before changing any.
  nlohmann::json preset() const;
  void loadPreset(const nlohmann::json& preset);

  Backend backend() const { return backend_; }
  const std::string& variant() const { return variant_; }
  virtual std::vector<KernelVariant> variants(Backend backend) const = 0;
  virtual std::string defaultVariant(Backend backend) const = 0;
  KernelVariant currentVariant() const;
  // How the current variant is launched, in words ("block 64x4, 2 cells/thread").
  virtual std::string configuration() const = 0;
  // The kernels the last step launched, for the launch readouts (empty where the module does not
  // record them, and on the CPU).
  virtual std::vector<KernelLaunch> launches() const { return {}; }
  // What the user should know about the current state, one item per line: derived quantities,
  // warnings (lines starting "warning:"), where the last export went. Empty for none.
  virtual std::string notes() const { return ""; }
  // Switches implementation and keeps the simulation state; throws (changing nothing) when the
  // backend is unavailable or the variant unknown. An empty variant keeps the current one if the
  // backend offers it, else takes the backend's default.
  void select(Backend backend, const std::string& variant);

  virtual void reset() = 0;  // the initial state that the parameters describe
  virtual void step(int count) = 0;
  std::uint64_t stepCount() const { return steps_; }
  virtual void synchronize() {}
  virtual std::vector<Metric> metrics() = 0;

  virtual WorldBox world() const = 0;
  // The simulated world's size for tables and reports ("4096x4096", "256x256x256"); by default
  // the world box's.
  virtual std::string sizeText() const;
  virtual std::vector<FieldView> fieldViews() const = 0;
  virtual int currentFieldView() const = 0;
  virtual void renderField(const FieldRequest& request, FieldImage& image) = 0;
  // Points to draw over the field this frame (none by default), and writing them: exactly
  // pointCount() of them into `points`.
  virtual std::size_t pointCount() const { return 0; }
  virtual void renderPoints(PointImage& points) { (void)points; }
  // The 3-D voxel view, when the module shows one, and its voxels: exactly voxelCount() of them.
  virtual std::optional<VoxelScene> voxelScene() const { return std::nullopt; }
  virtual std::size_t voxelCount() const { return 0; }
  virtual void renderVoxels(VoxelImage& voxels) { (void)voxels; }
  // The 3-D mesh view, when the module shows one: its corners (three per triangle) and start
  // positions (three floats per vertex) for the current revision, and each frame's image.
  virtual std::optional<MeshScene> meshScene() const { return std::nullopt; }
  virtual void meshTopology(std::vector<std::uint32_t>& corners, std::vector<float>& start) const {
    (void)corners, (void)start;
  }
  virtual void renderMesh(MeshImage& image) { (void)image; }
  // The 2-D graph view, when the module shows one: each edge's two node numbers for the current
  // revision, and each frame's image.
  virtual std::optional<GraphScene> graphScene() const { return std::nullopt; }
  virtual void graphTopology(std::vector<std::uint32_t>& ends) const { (void)ends; }
  virtual void renderGraph(GraphImage& image) { (void)image; }
  virtual std::vector<Histogram> histograms() const { return {}; }
  virtual std::vector<Curve> curves() const { return {}; }
  virtual std::optional<Dendrogram> dendrogram() const { return std::nullopt; }

  virtual std::vector<std::string> tools() const = 0;
  // What a tool can place (Life: the shipped patterns); empty for tools that place nothing.
  virtual std::vector<std::string> toolItems(const std::string& tool) const = 0;
  virtual void edit(const PointerEdit& edit) = 0;
  // One-shot commands the UI shows as buttons ("clear", "random soup").
  virtual std::vector<std::string> actions() const = 0;
  virtual void runAction(const std::string& action) = 0;

  virtual StateBlob saveState() = 0;
  virtual void restoreState(const StateBlob& state) = 0;

  // Timing scopes, in display order; GPU scopes collect their finished events in pollTimings().
  const std::vector<std::unique_ptr<TimingScope>>& timings() const { return timings_; }
  virtual void pollTimings() {}
  virtual void drainTimings() { pollTimings(); }
  void clearTimings();
  // Bytes one unit of work moves at least (the floor that % of bandwidth is measured against).
  virtual double bytesPerWorkUnit() const = 0;
  // The arithmetic one unit of work needs at least, for the roofline; none where the module has
  // no operation model.
  virtual std::optional<OpModel> opsPerWorkUnit() const { return std::nullopt; }
  // Sizes (for setSize) to sweep from small to large, for the scaling plot; empty: not swept.
  virtual std::vector<std::string> sweepSizes() const { return {}; }
  // The scope that times step() on the current backend (the benchmark reads it).
  virtual const TimingScope& stepTiming() const = 0;

 protected:
  explicit Module(Backend backend) : backend_(backend) {}
  ParamSet& declare() { return params_; }
  // Apply changed parameters to the state; throw to refuse (the old values are then restored).
  virtual void applyParams(const std::vector<std::string>& changedKeys) = 0;
  // Rebuild the implementation for backend_/variant_, moving `state` into it; throw to refuse.
  virtual void applySelection(Backend previous, const StateBlob& state) = 0;

  // `warmupSamples`: the first samples after a clear that are not counted (0 for work done once
  // per reset, such as a colouring).
  TimingScope& addTiming(std::string name, std::string rateUnit, bool onGpu, int warmupSamples = 2);
  void countSteps(int count) { steps_ += static_cast<std::uint64_t>(count); }
  void setStepCount(std::uint64_t steps) { steps_ = steps; }

  Backend backend_;
  std::string variant_;

 private:
  ParamSet params_;
  std::vector<std::unique_ptr<TimingScope>> timings_;
  std::uint64_t steps_ = 0;
};

// Whether any of `keys` is among the changed parameter keys (for applyParams).
bool anyOf(const std::vector<std::string>& changedKeys, std::initializer_list<const char*> keys);

// The registry of modules, by name (Golly's algorithm list, Ready's RD systems).
struct ModuleEntry {
  std::string name;
  std::string title;
  std::unique_ptr<Module> (*create)(Backend backend);
};
const std::vector<ModuleEntry>& moduleRegistry();
std::unique_ptr<Module> createModule(const std::string& name, Backend backend);

// The backend to use when the user did not choose: CUDA where a device is usable.
Backend defaultBackend();

}  // namespace ws
