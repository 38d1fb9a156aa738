#pragma once
// The mesh module's engine on one backend: a loaded mesh, its colour classes and locks, the
// passes that move its vertices, the statistics the module plots and the images it draws. The CPU
// engine runs surface.h's loops with OpenMP, the CUDA engine CudaSurface's kernels; both run the
// same per-vertex code (optimize.h).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/timing.h"
#include "compute/mesh/surface.h"
#include "compute/views/mesh.h"

namespace ws::mesh {

struct MeshTimings {
  TimingScope *pass, *colouring, *statistics, *view;
};

enum class ColouringMethod { FirstFit, JonesPlassmann };

// What one pass moves: the vertices of one colour class, every class in turn (a sweep), or every
// vertex at once against the positions before (no colouring).
struct Pass {
  enum class Kind { Class, Sweep, AllAtOnce } kind = Kind::Sweep;
  std::uint32_t colour = 0;  // for Kind::Class
};

// What the image's values show.
enum class MeshValue { MinAngle, ColourClass, DistanceMoved, OffSurface };

class MeshEngine {
 public:
  virtual ~MeshEngine() = default;

  // Takes the mesh at its start, its locks and the surface it came from; the caller keeps `mesh`
  // and `original` for as long as the engine uses them. Throws OutOfMemoryError, leaving the
  // engine as it was.
  virtual void load(const SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
                    const SurfaceGrid& original) = 0;
  virtual void setLocked(const std::vector<std::uint8_t>& locked) = 0;
  // Colours the mesh (timed); the classes' starts, as Colouring::classStart.
  virtual void colour(ColouringMethod method, std::uint32_t seed) = 0;
  virtual const std::vector<std::uint32_t>& classStart() const = 0;

  // The passes in order, timed as one sample (the module's step(count): the benchmark divides a
  // sample by the steps in it); asynchronous on the GPU. `project` puts moves back onto the
  // original surface.
  virtual void run(const std::vector<Pass>& passes, const OptimizeParams& params, bool project) = 0;
  // What the passes did since the last load or setPositions (waits).
  virtual PassCounts counts() = 0;
  virtual AngleSummary summarize() = 0;  // timed
  virtual std::vector<Vec3> positions() = 0;
  // The positions of a few vertices (waits).
  virtual std::vector<Vec3> positionsOf(const std::vector<std::uint32_t>& vertices) = 0;
  virtual void setPositions(const std::vector<Vec3>& positions) = 0;

  // Positions and values into `image` (timed); distances are in units of `edge`.
  virtual void render(MeshValue value, float edge, MeshImage& image) = 0;

  virtual std::string configuration() const = 0;
  virtual void setBlock(int block) { (void)block; }
  virtual void pollTimings() {}
  virtual void drainTimings() {}
  virtual void synchronize() {}
};

std::unique_ptr<MeshEngine> makeCpuMeshEngine(MeshTimings timings);
std::unique_ptr<MeshEngine> makeCudaMeshEngine(MeshTimings timings, int block);

// The compulsory bytes of one vertex's optimization at degree `degree` (its member entry and
// lock, its lists, its triangles' corners and their positions, its own position read and
// written): the floor against which a pass's bandwidth is measured. A Nelder-Mead pass is far
// from it: arithmetic, not memory, sets its pace.
double bytesPerVertexPass(double degree);

// The least arithmetic of one vertex's visit in a pass, counted in optimize.h's source as the
// bytes are (flops; a division, square root or atan2 counting as one), for a vertex with
// `triangles` triangles and `neighbours` neighbours; `searched` of the visits move a vertex (the
// rest are locked). Nelder-Mead: only its search, in the search's precision: the objective
// evaluated three times to start and at least once an iteration, over `iterations` an average
// visit makes. The smoothing baselines: the whole visit, in FP32.
double flopsPerVertexPass(const OptimizeParams& params, double triangles, double neighbours,
                          double iterations, double searched);

}  // namespace ws::mesh
