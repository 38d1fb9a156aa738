#include <algorithm>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <type_traits>

#include "compute/core/cuda_check.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/mesh/optimize_cuda.h"

namespace ws::mesh {

namespace {

constexpr std::uint32_t kUncoloured = 0xFFFFFFFFu;

__device__ void countMoved(bool moved, unsigned long long* count) {
  // One atomic per warp: the lanes that moved, counted by their leader.
  const unsigned lanes = __ballot_sync(__activemask(), moved);
  if (moved && (threadIdx.x & 31) == __ffs(lanes) - 1) atomicAdd(count, __popc(lanes));
}

// counts[0] += vertices moved, counts[1] += Nelder-Mead iterations used, one atomic each per
// warp where the hardware sums across a warp (sm_80 on), else one per thread for the second.
__device__ void countMove(const VertexMove& move, unsigned long long* counts) {
  countMoved(move.moved, counts);
#if __CUDA_ARCH__ >= 800
  const unsigned lanes = __activemask();
  const unsigned used = __reduce_add_sync(lanes, unsigned(move.iterations));
  if ((threadIdx.x & 31) == __ffs(lanes) - 1) atomicAdd(counts + 1, used);
#else
  if (move.iterations) atomicAdd(counts + 1, (unsigned long long)move.iterations);
#endif
}

// A thread's move of its vertex: the method's, or with Untangle the untangling phase's, each in
// kernels of its own (the optimizing kernels then carry none of the untangling's registers).
template <typename Real, bool Untangle>
__device__ VertexMove threadMove(const MeshView& m, std::uint32_t v, const OptimizeParams& params,
                                 const SurfaceProjection& project) {
  if constexpr (Untangle)
    return untangleVertex<Real>(m, v, params, project, NoVisit{});
  else
    return moveVertex<Real>(m, v, params, project, NoVisit{});
}

// One thread per vertex of a colour class: no two of them share a triangle, so each reads its
// neighbours as they were before the launch and writes only its own position. Real: the
// precision of the search.
template <typename Real, bool Untangle>
__device__ __forceinline__ void optimizeClassMember(
    const MeshView& mesh, const std::uint32_t* members, std::uint32_t n, const std::uint8_t* locked,
    const OptimizeParams& params, const SurfaceProjection& project, unsigned long long* counts) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t v = members[i];
  VertexMove move{};
  if (!locked[v]) {
    move = threadMove<Real, Untangle>(mesh, v, params, project);
    if (move.moved) mesh.positions[v] = move.to;
  }
  countMove(move, counts);
}

template <typename Real, bool Untangle>
__global__ void optimizeClassKernel(MeshView mesh, const std::uint32_t* members, std::uint32_t n,
                                    const std::uint8_t* locked, OptimizeParams params,
                                    SurfaceProjection project, unsigned long long* counts) {
  optimizeClassMember<Real, Untangle>(mesh, members, n, locked, params, project, counts);
}

// The float search (no untangling), held to 64 registers where it would take 72, so that 32 warps
// fit an SM where 28 did, for 92 bytes spilled: 2.5-2.8% faster sweeps on an H200 (the 3.6M
// torus, runs 111-112 of 2026-12-02; 56 registers 1.6-2.1% faster, 48 1.1% slower).
__global__ void __maxnreg__(64)
    optimizeClassFloatKernel(MeshView mesh, const std::uint32_t* members, std::uint32_t n,
                             const std::uint8_t* locked, OptimizeParams params,
                             SurfaceProjection project, unsigned long long* counts) {
  optimizeClassMember<float, false>(mesh, members, n, locked, params, project, counts);
}

// Every vertex at once: reads `mesh` (the positions before the pass), writes `to`.
template <typename Real, bool Untangle>
__global__ void optimizeAllKernel(MeshView mesh, std::uint32_t n, const std::uint8_t* locked,
                                  OptimizeParams params, SurfaceProjection project, Vec3* to,
                                  unsigned long long* counts) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  VertexMove move{};
  if (!locked[v]) {
    move = threadMove<Real, Untangle>(mesh, v, params, project);
    if (move.moved) to[v] = move.to;
  }
  countMove(move, counts);
}

// One Jones-Plassmann round. An uncoloured vertex that beats all its uncoloured neighbours takes
// the smallest colour its coloured neighbours lack. A neighbour may colour itself during the
// round; v then reads either kUncoloured (and that neighbour beats v, so v waits) or its colour
// (and avoids it): both give first fit in priority order, the same colours as the CPU's.
__global__ void jonesPlassmannRound(const std::uint32_t* neighbourStart,
                                    const std::uint32_t* neighbourOf, std::uint32_t n,
                                    std::uint32_t seed, volatile std::uint32_t* colour,
                                    unsigned long long* coloured) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  bool took = false;
  if (v < n && colour[v] == kUncoloured) {
    const std::uint32_t first = neighbourStart[v], last = neighbourStart[v + 1];
    bool wins = true;
    for (std::uint32_t i = first; i < last && wins; ++i) {
      const std::uint32_t u = neighbourOf[i];
      wins = colour[u] != kUncoloured || !priorityBeats(u, v, seed);
    }
    // The smallest free colour, 32 candidates at a time.
    for (std::uint32_t base = 0; wins && !took; base += 32) {
      std::uint32_t used = 0;
      for (std::uint32_t i = first; i < last; ++i) {
        const std::uint32_t c = colour[neighbourOf[i]];
        if (c != kUncoloured && c - base < 32) used |= 1u << (c - base);
      }
      if (used != 0xFFFFFFFFu) {
        colour[v] = base + std::uint32_t(__ffs(~used) - 1);
        took = true;
      }
    }
  }
  countMoved(took, coloured);
}

__global__ void sequenceKernel(std::uint32_t* out, std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

// start[c] = the first position of colour c in the sorted colours (colours without vertices
// start where the next one does).
__global__ void classStartKernel(const std::uint32_t* sorted, std::uint32_t n,
                                 std::uint32_t* start) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t from = i == 0 ? 0 : sorted[i - 1] + 1;
  for (std::uint32_t c = from; c <= sorted[i]; ++c) start[c] = i;
}

// Signed: an inverted triangle's is negative (signedMinAngle).
__device__ float triangleMinDegrees(const MeshView& m, std::uint32_t t) {
  return signedMinAngle(m, t) * kDegreesPerRadian;
}

// A float's bits as an int that orders as the floats do, negative ones too, and back.
__device__ int orderedBits(float f) {
  const int i = __float_as_int(f);
  return i >= 0 ? i : i ^ 0x7FFFFFFF;
}
__host__ __device__ float fromOrderedBits(int i) {
  const int bits = i >= 0 ? i : i ^ 0x7FFFFFFF;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

__global__ void triangleAnglesKernel(MeshView mesh, std::uint32_t n, float* out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = triangleMinDegrees(mesh, t);
}

// The summary through the block's shared histogram, then one set of atomics per block. The
// smallest angle goes through orderedBits (an inverted triangle's is negative): s->minDegrees
// holds those bits until the host turns them back.
__global__ void summaryKernel(MeshView mesh, std::uint32_t n, AngleSummary* s) {
  __shared__ std::uint32_t bins[kAngleBins];
  __shared__ int blockMin;
  __shared__ double blockSum;
  __shared__ std::uint32_t blockInverted;
  if (threadIdx.x < kAngleBins) bins[threadIdx.x] = 0;
  if (threadIdx.x == 0) blockMin = orderedBits(180), blockSum = 0, blockInverted = 0;
  __syncthreads();
  float least = 180, sum = 0;
  std::uint32_t inverted = 0;
  for (std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < n;
       t += gridDim.x * blockDim.x) {
    const float degrees = triangleMinDegrees(mesh, t);
    least = fminf(least, degrees);
    sum += degrees;
    inverted += invertedTriangle(mesh, t);
    atomicAdd(&bins[angleBin(degrees)], 1u);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    least = fminf(least, __shfl_down_sync(0xFFFFFFFFu, least, offset));
    sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    inverted += __shfl_down_sync(0xFFFFFFFFu, inverted, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&blockMin, orderedBits(least));
    atomicAdd(&blockSum, double(sum));
    atomicAdd(&blockInverted, inverted);
  }
  __syncthreads();
  if (threadIdx.x < kAngleBins) atomicAdd(&s->histogram[threadIdx.x], bins[threadIdx.x]);
  if (threadIdx.x == 0) {
    atomicMin(reinterpret_cast<int*>(&s->minDegrees), blockMin);
    atomicAdd(&s->meanDegrees, blockSum);  // the sum; the host divides
    atomicAdd(&s->inverted, blockInverted);
  }
}

__global__ void vertexColoursKernel(const std::uint32_t* colour, std::uint32_t n, float* out) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) out[v] = float(colour[v]);
}

__global__ void distancesKernel(const Vec3* start, const Vec3* now, std::uint32_t n, float* out) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) out[v] = length(now[v] - start[v]);
}

__global__ void surfaceDistancesKernel(SurfaceGridView surface, const Vec3* now, std::uint32_t n,
                                       float* out) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float d = 0;
  closestPointOnSurface(surface, now[v], &d);
  out[v] = d;
}

__global__ void circlePullKernel(const Point2* starts, std::uint32_t n, float radius,
                                 NelderMeadOptions options, Point2* ends) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ends[i] = circlePull(starts[i], radius, options);
}

}  // namespace

std::vector<Point2> circlePullOnGpu(const std::vector<Point2>& starts, float radius,
                                    const NelderMeadOptions& options) {
  const auto in = toDevice(starts);
  DeviceBuffer<Point2> out(std::max<std::size_t>(starts.size(), 1));
  if (!starts.empty())
    recordedLaunch("circlePullKernel", circlePullKernel, blocksFor(starts.size(), 128), 128)(
        in.data(), std::uint32_t(starts.size()), radius, options, out.data());
  WS_CUDA_CHECK(cudaGetLastError());
  return toHost(out.data(), starts.size());
}

CudaSurface::CudaSurface(const SurfaceMesh& mesh, const std::vector<std::uint8_t>& locked,
                         const SurfaceGrid* original, int block)
    : block_(block),
      vertices_(mesh.positions.size()),
      triangles_(mesh.triangles()),
      positions_(toDevice(mesh.positions)),
      before_(std::max<std::size_t>(vertices_, 1)),
      corners_(toDevice(mesh.corners)),
      triangleStart_(toDevice(mesh.topology.triangleStart)),
      triangleOf_(toDevice(mesh.topology.triangleOf)),
      neighbourStart_(toDevice(mesh.topology.neighbourStart)),
      neighbourOf_(toDevice(mesh.topology.neighbourOf)),
      reference_(toDevice(mesh.reference)),
      colour_(std::max<std::size_t>(vertices_, 1)),
      members_(std::max<std::size_t>(vertices_, 1)),
      locked_(toDevice(locked)),
      counts_(2),
      summary_(1) {
  if (original) {
    gridStart_ = toDevice(original->cellStart);
    gridTriangles_ = toDevice(original->cellTriangles);
    originalPositions_ = toDevice(original->positions);
    originalCorners_ = toDevice(original->corners);
    surface_ = original->view();
    surface_.cellStart = gridStart_.data();
    surface_.cellTriangles = gridTriangles_.data();
    surface_.positions = originalPositions_.data();
    surface_.corners = originalCorners_.data();
    projection_.surface = surface_;
  }
  counts_.zero();
  view_ = {positions_.data(),      corners_.data(),     triangleStart_.data(), triangleOf_.data(),
           neighbourStart_.data(), neighbourOf_.data(), reference_.data()};
}

void CudaSurface::setColouring(const Colouring& colouring) {
  WS_CUDA_CHECK(cudaMemcpy(colour_.data(), colouring.colour.data(),
                           vertices_ * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemcpy(members_.data(), colouring.members.data(),
                           vertices_ * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  classStart_ = colouring.classStart;
}

void CudaSurface::colourJonesPlassmann(std::uint32_t seed) {
  const auto n = std::uint32_t(vertices_);
  classStart_ = {0};
  if (n == 0) return;
  WS_CUDA_CHECK(cudaMemset(colour_.data(), 0xFF, vertices_ * sizeof(std::uint32_t)));
  // The count of coloured vertices lives in device memory and comes back after each round (in
  // mapped host memory, every warp's atomic crossed PCIe: 1 s for 3.6M vertices on an H200).
  DeviceBuffer<unsigned long long> coloured(1);
  coloured.zero();
  for (unsigned long long done = 0; done < n;) {
    const unsigned long long before = done;
    recordedLaunch("jonesPlassmannRound", jonesPlassmannRound, blocksFor(n, 256), 256)(
        neighbourStart_.data(), neighbourOf_.data(), n, seed, colour_.data(), coloured.data());
    WS_CUDA_CHECK(cudaGetLastError());
    done = toHost(coloured.data(), 1)[0];
    if (done == before) throw std::logic_error("Jones-Plassmann colouring made no progress");
  }
  // The classes: vertex numbers sorted by colour (stably, so each class in increasing order).
  DeviceBuffer<std::uint32_t> order(n), sorted(n);
  recordedLaunch("sequenceKernel", sequenceKernel, blocksFor(n, 256), 256)(order.data(), n);
  std::size_t scratchBytes = 0;
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratchBytes, colour_.data(),
                                                sorted.data(), order.data(), members_.data(), n));
  DeviceBuffer<std::uint8_t> scratch(scratchBytes);
  WS_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), scratchBytes, colour_.data(),
                                                sorted.data(), order.data(), members_.data(), n));
  std::uint32_t last = 0;
  WS_CUDA_CHECK(cudaMemcpy(&last, sorted.data() + n - 1, sizeof last, cudaMemcpyDeviceToHost));
  DeviceBuffer<std::uint32_t> start(last + 1);
  recordedLaunch("classStartKernel", classStartKernel, blocksFor(n, 256), 256)(sorted.data(), n,
                                                                               start.data());
  WS_CUDA_CHECK(cudaGetLastError());
  classStart_ = toHost(start.data(), last + 1);
  classStart_.push_back(n);
}

Colouring CudaSurface::colouringOnHost() const {
  Colouring c;
  c.colour = toHost(colour_.data(), vertices_);
  c.members = toHost(members_.data(), vertices_);
  c.classStart = classStart_;
  c.colours = colours();
  return c;
}

void CudaSurface::optimizeClass(std::uint32_t colour, const OptimizeParams& params) {
  const std::uint32_t first = classStart_[colour], n = classStart_[colour + 1] - first;
  if (n)
    withPrecision(params.precision, [&](auto real) {
      using Real = decltype(real);
      const bool untangle = params.method == Method::Untangle;
      const bool fp64 = sizeof(Real) == 8;
      const auto kernel = [untangle] {
        if constexpr (std::is_same_v<Real, float>)
          return untangle ? optimizeClassKernel<float, true> : optimizeClassFloatKernel;
        else
          return untangle ? optimizeClassKernel<Real, true> : optimizeClassKernel<Real, false>;
      }();
      recordedLaunch(untangle ? (fp64 ? "optimizeClassKernel<double, untangle>"
                                      : "optimizeClassKernel<float, untangle>")
                              : (fp64 ? "optimizeClassKernel<double>" : "optimizeClassFloatKernel"),
                     kernel, blocksFor(n, block_), block_)(
          view_, members_.data() + first, n, locked_.data(), params, projection_, counts_.data());
    });
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaSurface::sweep(const OptimizeParams& params) {
  for (std::uint32_t c = 0; c < colours(); ++c) optimizeClass(c, params);
}

void CudaSurface::optimizeAllAtOnce(const OptimizeParams& params) {
  if (vertices_ == 0) return;
  WS_CUDA_CHECK(cudaMemcpyAsync(before_.data(), positions_.data(), vertices_ * sizeof(Vec3),
                                cudaMemcpyDeviceToDevice));
  MeshView before = view_;
  before.positions = before_.data();
  withPrecision(params.precision, [&](auto real) {
    using Real = decltype(real);
    const bool untangle = params.method == Method::Untangle;
    const bool fp64 = sizeof(Real) == 8;
    recordedLaunch(untangle ? (fp64 ? "optimizeAllKernel<double, untangle>"
                                    : "optimizeAllKernel<float, untangle>")
                            : (fp64 ? "optimizeAllKernel<double>" : "optimizeAllKernel<float>"),
                   untangle ? optimizeAllKernel<Real, true> : optimizeAllKernel<Real, false>,
                   blocksFor(vertices_, block_),
                   block_)(before, std::uint32_t(vertices_), locked_.data(), params, projection_,
                           positions_.data(), counts_.data());
  });
  WS_CUDA_CHECK(cudaGetLastError());
}

PassCounts CudaSurface::counts() {
  const std::vector<unsigned long long> c = toHost(counts_.data(), 2);
  return {c[0], c[1]};
}

AngleSummary CudaSurface::summarizeAngles() {
  AngleSummary s;  // minDegrees 180: a positive float's bits are its ordered bits
  s.meanDegrees = 0;
  WS_CUDA_CHECK(cudaMemcpy(summary_.data(), &s, sizeof s, cudaMemcpyHostToDevice));
  if (triangles_)
    recordedLaunch("summaryKernel", summaryKernel, std::min(blocksFor(triangles_, 256), 1024u),
                   256)(view_, std::uint32_t(triangles_), summary_.data());
  WS_CUDA_CHECK(cudaGetLastError());
  s = toHost(summary_.data(), 1)[0];
  int bits;
  std::memcpy(&bits, &s.minDegrees, sizeof bits);
  s.minDegrees = fromOrderedBits(bits);
  s.meanDegrees = triangles_ ? s.meanDegrees / double(triangles_) : 0;
  return s;
}

void CudaSurface::setPositions(const std::vector<Vec3>& positions) {
  WS_CUDA_CHECK(cudaMemcpy(positions_.data(), positions.data(), vertices_ * sizeof(Vec3),
                           cudaMemcpyHostToDevice));
  counts_.zero();
}

std::vector<Vec3> CudaSurface::positionsOnHost() const {
  return toHost(positions_.data(), vertices_);
}

void CudaSurface::writeTriangleAngles(float* out) const {
  if (triangles_)
    recordedLaunch("triangleAnglesKernel", triangleAnglesKernel, blocksFor(triangles_, 256), 256)(
        view_, std::uint32_t(triangles_), out);
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaSurface::writeVertexColours(float* out) const {
  if (vertices_)
    recordedLaunch("vertexColoursKernel", vertexColoursKernel, blocksFor(vertices_, 256), 256)(
        colour_.data(), std::uint32_t(vertices_), out);
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaSurface::writeDistances(const Vec3* start, float* out) const {
  if (vertices_)
    recordedLaunch("distancesKernel", distancesKernel, blocksFor(vertices_, 256), 256)(
        start, positions_.data(), std::uint32_t(vertices_), out);
  WS_CUDA_CHECK(cudaGetLastError());
}

void CudaSurface::setLocked(const std::vector<std::uint8_t>& locked) {
  WS_CUDA_CHECK(cudaMemcpy(locked_.data(), locked.data(), vertices_, cudaMemcpyHostToDevice));
}

void CudaSurface::writeSurfaceDistances(float* out) const {
  if (vertices_ && surface_.cellStart)
    recordedLaunch("surfaceDistancesKernel", surfaceDistancesKernel, blocksFor(vertices_, 128),
                   128)(surface_, positions_.data(), std::uint32_t(vertices_), out);
  WS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace ws::mesh
