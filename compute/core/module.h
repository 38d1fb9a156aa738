#pragma once
// The module contract. A module is one simulation (Life, LBM, voxel hashing, mesh optimisation,
// graph clustering) behind one interface that the GUI, the headless runner, the benchmark and the
// tests drive alike. It owns its state on one backend (CPU or CUDA) and never touches GL or ImGui:
// it offers parameters, kernel variants, timings, and views the renderer draws (by implementing
// the small interfaces of compute/views/).
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compute/core/backend.h"
#include "compute/core/errors.h"
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
  // The backend's default, where it is not the first in the list.
  bool isDefault = false;
};

// An axis-aligned box in world coordinates (the camera frames it).
struct WorldBox {
  double minX = 0, minY = 0, maxX = 1, maxY = 1;
};

// A scalar the module reports each frame (population, mass, restarts); plotted over time, frame
// by frame, unless the module plots it itself (a Curve of plots.h, step by step).
struct Metric {
  std::string name;
  double value = 0;
  bool plotted = true;
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
  // The first event of a drag (the press). Later ones continue it, even where the mouse stood
  // still (from == to): a tool that draws a line from where the drag began (LBM's probe) or holds
  // what the press took (a dragged node) tells them apart by this, not by the positions.
  bool start = true;
  // How a placed item is turned: quarter turns clockwise (0 to 3), after a left-right mirror when
  // 4 is added (0 to 7).
  int orientation = 0;
};

// An orientation (PointerEdit's) then turned `quarters` more clockwise; or then mirrored left to
// right and turned `quarters` (a mirror after r turns is -r turns after a mirror).
inline int turnedOrientation(int orientation, int quarters) {
  return (orientation & 4) | ((orientation + quarters) & 3);
}
inline int mirroredOrientation(int orientation, int quarters) {
  return ((orientation & 4) ^ 4) | ((4 - (orientation & 3) + quarters) & 3);
}

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

// What one edit changed (Module::edit returns it), for the lab's undo history (app/undo.h): the
// cells a stroke set and what they held before, a node's place before a drag. Never the world:
// only the module that made it reads it, to put it back (undo) or make it again (redo).
class EditChange {
 public:
  virtual ~EditChange() = default;
  virtual std::size_t bytes() const = 0;  // what it holds, for the history's bound
};

// The most steps a frame may run, as the lab's speed control allows.
constexpr int kMostStepsPerFrame = 1024;

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

  // Presets: {"module": name, "params": {...}}, optionally with
  //   "cpu": {...}     parameters that replace some of "params" on the CPU backend (a preset
  //                    sized for a GPU, scaled down so that the CPU runs it at interactive rates),
  //   "variant": name  the kernel that shows the preset's point, where the backend offers it,
  //   "paused": bool   whether the lab starts paused (app/lab.h reads it),
  //   "steps_per_frame": n  the steps the lab runs each frame (1 to kMostStepsPerFrame; app/lab.h
  //                    reads it): where the preset's point shows only over many steps.
  // Loading checks all before changing any; it returns what the CPU's parameters changed
  // ("width 2048 -> 512, height 1024 -> 256"), or "" where nothing was scaled.
  nlohmann::json preset() const;
  std::string loadPreset(const nlohmann::json& preset);

  Backend backend() const { return backend_; }
  // The current variant: the backend's default until one is selected.
  const std::string& variant() const;
  virtual std::vector<KernelVariant> variants(Backend backend) const = 0;
  // Whether the backend offers a variant of this name.
  bool offers(Backend backend, const std::string& variant) const;
  // The variant marked as the backend's default, else its first.
  std::string defaultVariant(Backend backend) const;
  KernelVariant currentVariant() const;
  // How the current variant is launched, in words ("block 64x4, 2 cells/thread").
  virtual std::string configuration() const = 0;
  // The kernels the last step launched, for the launch readouts (empty on the CPU).
  const std::vector<KernelLaunch>& launches() const { return launches_; }
  // What the user should know about the current state, one item per line: derived quantities,
  // warnings (lines starting "warning:"), where the last export went. Empty for none.
  virtual std::string notes() const { return ""; }
  // Whether the parameter `key` means something as the module now runs (the panel hides those
  // that do not: a 3-D lattice's depth on a 2-D one, the models of a workload of random keys).
  // Each can still be set; it applies when it comes to mean something.
  virtual bool applies(const std::string& key) const { return !key.empty(); }
  // What is at the world point (x, y) of a 2-D view, in a few words, for the pointer's tooltip and
  // the status bar ("node 33: degree 12, community 2"); "" where there is nothing to say.
  virtual std::string describeAt(double, double) const { return ""; }
  // Words to draw over a 2-D view at world points (the graph's picked node's id).
  struct ViewLabel {
    double x = 0, y = 0;
    std::string text;
  };
  virtual std::vector<ViewLabel> viewLabels() const { return {}; }
  // The clipboard. copyText: what Ctrl+C copies ("" for nothing: Life copies its selection, or its
  // live cells, as RLE). pasteItem: what pasted text becomes, an item the place tool places
  // (Life keeps an RLE pattern as a file in the output folder, so that sessions can name it);
  // throws InputError for text it cannot take, changing nothing.
  virtual std::string copyText() { return ""; }
  virtual std::string pasteItem(const std::string&) {
    throw InputError("there is nothing to paste into in module '" + std::string(name()) + "'");
  }
  // Switches implementation and keeps the simulation state; throws (changing nothing) when the
  // backend is unavailable or the variant unknown. An empty variant keeps the current one if the
  // backend offers it, else takes the backend's default.
  void select(Backend backend, const std::string& variant);

  virtual void reset() = 0;  // the initial state that the parameters describe
  // Advances `count` steps (the module's advance()), recording the kernels launched and counting
  // the steps once advance() returns.
  void step(int count);
  std::uint64_t stepCount() const { return steps_; }
  // Counts the times the state started again (restart()): the undo history lets go of the changes
  // made to an older one.
  std::uint64_t stateGeneration() const { return generation_; }
  virtual void synchronize() {}
  virtual std::vector<Metric> metrics() = 0;

  virtual WorldBox world() const = 0;
  // The simulated world's size for tables and reports ("4096x4096", "256x256x256"); by default
  // the world box's.
  virtual std::string sizeText() const;
  // The views the module offers: the interfaces of compute/views/ it implements (FieldSource,
  // MeshSource...), or null. The scene draws a module through what it offers.
  template <class View>
  View* view() {
    return dynamic_cast<View*>(this);
  }
  template <class View>
  const View* view() const {
    return dynamic_cast<const View*>(this);
  }

  virtual std::vector<std::string> tools() const = 0;
  // What a tool can place (Life: the shipped patterns); empty for tools that place nothing.
  virtual std::vector<std::string> toolItems(const std::string& tool) const = 0;
  // Returns what the edit changed, for undo; null where it changed nothing undo keeps (a pick, a
  // selection, an edit that met nothing to change).
  virtual std::unique_ptr<EditChange> edit(const PointerEdit& edit) = 0;
  // Puts a change this module's edit() returned back as it was before (undo) or as the edit left
  // it (redo), over the state as it is now: what grew from an edit since stays. Parts that no
  // longer exist (a node of another graph) are passed over.
  virtual void revert(const EditChange&, bool /*redo*/) {}
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
  // The work of step(): `count` steps from stepCount(); throw to stop (nothing is counted).
  virtual void advance(int count) = 0;
  // Apply changed parameters to the state; throw to refuse (the old values are then restored).
  // Where the change leaves the current variant unoffered (another operation), the backend's
  // default is current when this runs.
  virtual void applyParams(const std::vector<std::string>& changedKeys) = 0;
  // Values that change with the ones a call of setParams() changes (`changed`, from `before`),
  // set in the same call: a lattice's own default size when the lattice changes at its old
  // default size. Keys that call named itself are left as it set them.
  virtual std::vector<std::pair<std::string, ParamValue>> alongWith(
      const std::vector<std::string>& /*changed*/, const ParamSet& /*before*/) const {
    return {};
  }
  // Rebuild the implementation for backend()/variant(), moving `state` into it; throw to refuse.
  virtual void applySelection(Backend previous, const StateBlob& state) = 0;

  // `warmupSamples`: the first samples after a clear that are not counted (0 for work done once
  // per reset, such as a colouring).
  TimingScope& addTiming(std::string name, std::string rateUnit, bool onGpu, int warmupSamples = 2);
  void setStepCount(std::uint64_t steps) { steps_ = steps; }  // a restored state's
  // The state starts again (a reset, a clear, a new mesh or graph) at step 0.
  void restart() {
    steps_ = 0;
    ++generation_;
  }
  // Steps that ran though advance() then throws (they are not counted otherwise).
  void countSteps(std::uint64_t steps) { steps_ += steps; }

 private:
  Backend backend_;
  mutable std::string variant_;  // empty: the default, chosen on first use
  std::vector<KernelLaunch> launches_;
  ParamSet params_;
  std::vector<std::unique_ptr<TimingScope>> timings_;
  std::uint64_t steps_ = 0;
  std::uint64_t generation_ = 0;
};

// Whether any of `keys` is among the changed parameter keys (for applyParams).
bool anyOf(const std::vector<std::string>& changedKeys, std::initializer_list<const char*> keys);

// The registry of modules, by name (Golly's algorithm list, Ready's RD systems): generated from
// each module's ws_module() call (compute/CMakeLists.txt).
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
