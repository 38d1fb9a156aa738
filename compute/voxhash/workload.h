#pragma once
// The voxel hash module's two workloads, each behind this interface, so that the module asks which
// one runs only when the workload parameter changes:
// - IntersectionWorkload (intersection_workload.h): the chapter's Figure 4.1, two animated models
//   voxelized, hashed and intersected every step, shown in 3-D;
// - KeysWorkload (keys_workload.h): the hash lab, random keys built into a cuckoo table and
//   queried every step, the table shown as an image.
// A workload reads the module's parameters once, when they change, into its typed configuration;
// it declares the parameters only it reads.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/backend.h"
#include "compute/core/catalog.h"
#include "compute/core/module.h"
#include "compute/core/params.h"
#include "compute/core/roofline.h"
#include "compute/views/field.h"
#include "compute/views/plots.h"
#include "compute/views/voxels.h"
#include "compute/voxhash/cuckoo.h"
#include "compute/voxhash/hash_lab.h"
#include "compute/voxhash/pipeline.h"

namespace ws::voxhash {

// The module's variants: the lookup structures the intersection puts each model's voxels in (the
// hash lab offers the first, the cuckoo table, alone).
VariantCatalog<LookupStructure> lookupCatalog(Backend backend);

enum class WorkloadKind { Intersection, Keys };
inline constexpr const char* kWorkloadNames[] = {"intersection", "random keys"};
WorkloadKind workloadOf(const ParamSet& p);

class Workload {
 public:
  virtual ~Workload() = default;

  // Reads `p` and `variant` and makes the state they describe at step `step`. Throws InputError or
  // OutOfMemoryError when it cannot; the module then rebuilds the state it showed before.
  virtual void rebuild(const ParamSet& p, const std::string& variant, std::uint64_t step) = 0;
  // Whether a change of the parameter `key` changes the state (a rebuild); a parameter that does
  // not is either not this workload's or changes only what is drawn, which restyle reads.
  virtual bool rebuildsFor(const std::string& key) const = 0;
  virtual void restyle(const ParamSet&) {}
  // Steps `first` to `first + count - 1`, after the state shown.
  virtual void advance(std::uint64_t first, int count) = 0;
  virtual void synchronize() = 0;

  virtual std::string configuration() const = 0;
  virtual std::vector<Metric> metrics() = 0;
  virtual std::string notes() const = 0;
  virtual std::vector<Histogram> histograms() const = 0;
  virtual WorldBox world() const = 0;
  virtual std::string sizeText() const = 0;
  // Sizes for a sweep, in the module's --size notation.
  virtual std::vector<std::string> sweepSizes() const = 0;

  virtual void renderField(const FieldRequest& request, FieldImage& image) = 0;
  virtual std::optional<VoxelScene> voxelScene() const { return std::nullopt; }
  virtual std::size_t voxelCount() const { return 0; }
  virtual void renderVoxels(VoxelImage&) {}

  virtual const TimingScope& stepTiming() const = 0;
  virtual double bytesPerWorkUnit() const = 0;
  virtual std::optional<OpModel> opsPerWorkUnit() const { return std::nullopt; }
  virtual void pollTimings() = 0;
  virtual void drainTimings() = 0;
};

// The cuckoo table parameters both workloads read (declared by the module).
void declareCuckooParams(ParamSet& p);
CuckooParams cuckooParamsOf(const ParamSet& p);
bool isCuckooParam(const std::string& key);

// What both workloads tell of a cuckoo table's build: its metrics, a line of notes, and its
// eviction chains as a histogram titled `title`.
std::vector<Metric> chainMetrics(const BuildReport& build);
std::string chainNotes(const BuildReport& build);
Histogram chainHistogram(const BuildReport& build, std::string title);

}  // namespace ws::voxhash
