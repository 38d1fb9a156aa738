// The CUDA engine: one thread per cell runs the fused stream-collide of lbm_cell.h, the same code
// as the CPU engine. Consecutive threads take consecutive cells along x, so with the SoA layout
// each population is a coalesced row (the source's section 14.2.1). Blocks are rows of cells (or
// several short rows), so a thread finds its coordinates without dividing.
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/lbm/lbm_cuda.h"

namespace ws::lbm {

namespace {

constexpr int kReduceBlock = 256;

// A stream-collide launch over a box of cells (the whole lattice, or a piece of a step that a split
// lattice takes in pieces, LbmEngine::stepBox). Threads along x (each taking `cellsPerThread`
// neighbouring cells of a row), block rows along y, one block layer per z.
struct LaunchShape {
  dim3 grid, block;
  LaunchShape(const CellBox& box, int threads, int cellsPerThread) {
    const int columns = (box.extent(0) + cellsPerThread - 1) / cellsPerThread;
    const int width = std::min(threads, (columns + 31) / 32 * 32);
    block = dim3(width, threads / width);
    grid = dim3(blocksFor(columns, block.x), blocksFor(box.extent(1), block.y), box.extent(2));
  }
};

template <typename Lat, typename T, Layout L, Propagation P, bool kOdd, bool kForce>
__global__ void __launch_bounds__(1024)
    streamCollideKernel(Grid g, CellBox box, const std::uint8_t* __restrict__ flags,
                        Store<T, Lat::Q, L> src, Store<T, Lat::Q, L> dst, StepParams p,
                        std::uint32_t* status) {
  const int x = box.lo[0] + blockIdx.x * blockDim.x + threadIdx.x;
  const int y = box.lo[1] + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= box.hi[0] || y >= box.hi[1]) return;
  const Neighbourhood nb(g, x, y, box.lo[2] + int(blockIdx.z));
  const std::uint32_t bits = streamCollide<Lat, P, kOdd, kForce>(g, flags, src, dst, nb, p);
  if (bits) atomicOr(status, bits);
}

// ---- FP16 SoA: two cells per thread -----------------------------------------------------------
//
// With FP16 storage one population of one cell is 2 bytes, so a warp's access to a population
// moves 64 bytes, and the one-cell kernel runs short of instruction issue and of memory requests
// in flight before it runs short of bandwidth. Here a thread takes two neighbouring cells of a row
// (x even, and x + 1): a population of the pair is one 32-bit access (__half2), 128 bytes a warp.
// The populations that stream along x come from the cells one further left or right: the pair
// (x - 1, x) is a funnel shift of the aligned words at x - 2 and x. Each cell is relaxed as in the
// one-cell kernel (lbm_cell.h). A pair with a wall, or next to walls in an A-A odd step, stores
// cell by cell; in A-A odd steps the x-streaming populations land unaligned, also cell by cell.
// Needs an even nx, so that every row starts at an even cell, and a box that starts and ends at
// even x.

template <int Q>
using HalfStore = Store<__half, Q, Layout::SoA>;

// A pair's column and where the pairs to its left and right begin (wrapped).
struct PairColumns {
  std::uint32_t x, left, right;
};

// The populations of cells (x + dx, x + 1 + dx) in one row of one population's array, dx in
// -1..1, as FP32 (storage units).
__device__ float2 loadPair(const __half* row, const PairColumns& c, int dx) {
  const auto word = [row](std::uint32_t column) {
    return *reinterpret_cast<const std::uint32_t*>(row + column);
  };
  const std::uint32_t here = word(c.x);
  const std::uint32_t bits = dx == 0  ? here
                             : dx < 0 ? __funnelshift_r(word(c.left), here, 16)
                                      : __funnelshift_r(here, word(c.right), 16);
  __half2 pair;
  memcpy(&pair, &bits, sizeof pair);
  return __half22float2(pair);
}

__device__ void storePair(__half* at, float first, float second) {
  *reinterpret_cast<__half2*>(at) = __floats2half2_rn(first, second);
}

template <typename Lat, Propagation P, bool kOdd, bool kForce>
__global__ void __launch_bounds__(1024)
    streamCollidePairsKernel(Grid g, CellBox box, const std::uint8_t* __restrict__ flags,
                             HalfStore<Lat::Q> src, HalfStore<Lat::Q> dst, StepParams p,
                             std::uint32_t* status) {
  const int x = box.lo[0] + 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int y = box.lo[1] + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= box.hi[0] || y >= box.hi[1]) return;
  const int z = box.lo[2] + int(blockIdx.z);
  const Neighbourhood first(g, x, y, z), second(g, x + 1, y, z);
  const PairColumns columns{first.x[1], first.x[0] - 1, second.x[2]};
  // The row of the pair at offset (dy, dz), in the array of population `slot`.
  const auto row = [&first](__half* const* base, int slot, int dy, int dz) {
    return base[slot] + first.y[dy + 1] + first.z[dz + 1];
  };
  constexpr bool kInPlace = P == Propagation::AA && !kOdd, kPush = P == Propagation::AA && kOdd;

  const uchar2 flag = *reinterpret_cast<const uchar2*>(flags + first.self());
  float s[2][Lat::Q];
  WS_UNROLL
  for (int i = 0; i < Lat::Q; ++i) {
    // From this pair's slots (A-A even steps), else from the pair upstream along c_i.
    const int d = kInPlace ? 0 : -1;
    const float2 v =
        loadPair(row(src.base, kPush ? opposite(i) : i, d * Lat::cy(i), d * Lat::cz(i)), columns,
                 d * Lat::cx(i));
    s[0][i] = v.x;
    s[1][i] = v.y;
  }
  const bool solid0 = isSolid(flag.x), solid1 = isSolid(flag.y);
  std::uint32_t bits = 0;
  if (!solid0) bits |= relax<Lat, P, kOdd, kForce>(g, flags, src, first, flag.x, p, s[0]);
  if (!solid1) bits |= relax<Lat, P, kOdd, kForce>(g, flags, src, second, flag.y, p, s[1]);
  if (solid0 || solid1 || (kPush && ((flag.x | flag.y) & kNearWall))) {
    if (!solid0) storeRelaxed<Lat, P, kOdd>(flags, dst, first, flag.x, p, s[0]);
    if (!solid1) storeRelaxed<Lat, P, kOdd>(flags, dst, second, flag.y, p, s[1]);
  } else {
    WS_UNROLL
    for (int i = 0; i < Lat::Q; ++i) {
      if (kPush && Lat::cx(i) != 0) {  // to (x + c_x, x + 1 + c_x): not a word
        dst.storeRaw(first.at(Lat::cx(i), Lat::cy(i), Lat::cz(i)), i, s[0][i]);
        dst.storeRaw(second.at(Lat::cx(i), Lat::cy(i), Lat::cz(i)), i, s[1][i]);
      } else {  // this pair's slots (A-B; A-A even: the opposite ones), or downstream along y, z
        const int d = kPush ? 1 : 0;
        storePair(row(dst.base, kInPlace ? opposite(i) : i, d * Lat::cy(i), d * Lat::cz(i)) + x,
                  s[0][i], s[1][i]);
      }
    }
  }
  if (bits) atomicOr(status, bits);
}

template <typename Lat, typename T, Layout L, Propagation P>
__global__ void planeMomentsKernel(Grid g, const std::uint8_t* flags, Store<T, Lat::Q, L> f,
                                   bool odd, StepParams p, Plane plane, PlaneSample* out) {
  const int w = plane.width(g), h = plane.height(g);
  const int a = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y * blockDim.y + threadIdx.y;
  if (a >= w || b >= h) return;
  const Moments m = cellMoments<Lat, P>(g, flags, f, plane.cell(g, a, b), odd, p);
  out[std::size_t(b) * w + a] = {m.rho, {m.u[0], m.u[1], m.u[2]}};
}

template <typename Lat, typename T, Layout L, Propagation P>
__global__ void volumeMomentsKernel(Grid g, const std::uint8_t* flags, Store<T, Lat::Q, L> f,
                                    bool odd, StepParams p, PlaneSample* out) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= g.cells()) return;
  const Moments m = cellMoments<Lat, P>(g, flags, f, n, odd, p);
  out[n] = {m.rho, {m.u[0], m.u[1], m.u[2]}};
}

// Each cell's quantity and speed, and the largest quantity: a warp's largest by shuffles, then one
// atomic a warp (a non-negative float's bits order like the float).
__global__ void volumeValuesKernel(VolumeQuantity q, Grid g, const PlaneSample* moments,
                                   float* quantity, float* speed, unsigned* largestBits) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float value = 0;
  if (n < g.cells()) {
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / g.nx / g.ny);
    value = volumeValue(q, g, moments, x, y, z);
    quantity[n] = value;
    speed[n] = cellSpeed(moments[n]);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_down_sync(0xffffffffu, value, offset));
  if ((threadIdx.x & 31) == 0 && value > 0) atomicMax(largestBits, __float_as_uint(value));
}

__global__ void renderKernel(LbmView view, Plane plane, int w, int h, FieldRequest request,
                             const PlaneSample* moments, float* pixels) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= request.width || py >= request.height) return;
  pixels[std::size_t(py) * request.width + px] =
      renderPixel(view, plane, w, h, request, px, py, moments);
}

struct DeviceTotals {
  double mass;
  unsigned long long fluid;
  unsigned maxSpeedBits;  // a non-negative float's bits order like the float
};

template <typename Lat, typename T, Layout L, Propagation P>
__global__ void __launch_bounds__(kReduceBlock)
    totalsKernel(Grid g, const std::uint8_t* flags, Store<T, Lat::Q, L> f, bool odd, StepParams p,
                 DeviceTotals* out) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double mass = 0;
  unsigned long long fluid = 0;
  float speed = 0;
  if (n < g.cells() && !isSolid(flags[n]) && !(flags[n] & kHalo)) {
    const Moments m = cellMoments<Lat, P>(g, flags, f, n, odd, p);
    mass = m.rho;
    fluid = 1;
    speed = sqrtf(m.u[0] * m.u[0] + m.u[1] * m.u[1] + m.u[2] * m.u[2]);
    if (!(speed == speed)) speed = INFINITY;
  }
  using Sum = cub::BlockReduce<double, kReduceBlock>;
  using Count = cub::BlockReduce<unsigned long long, kReduceBlock>;
  using Max = cub::BlockReduce<float, kReduceBlock>;
  __shared__ union {
    typename Sum::TempStorage sum;
    typename Count::TempStorage count;
    typename Max::TempStorage max;
  } temp;
  const double blockMass = Sum(temp.sum).Sum(mass);
  __syncthreads();
  const unsigned long long blockFluid = Count(temp.count).Sum(fluid);
  __syncthreads();
  const float blockMax = Max(temp.max).Reduce(speed, [](float x, float y) { return fmaxf(x, y); });
  if (threadIdx.x == 0) {
    atomicAdd(&out->mass, blockMass);
    atomicAdd(&out->fluid, blockFluid);
    atomicMax(&out->maxSpeedBits, __float_as_uint(blockMax));
  }
}

// What a monitor records after a step (lbm_engine.h): block row k < obstacles sums obstacle k's
// link momenta, its blocks taking every gridDim.x-th stretch of blockDim.x links and adding
// their sum (in double) to the record; the last block row reads the probes.
template <typename Lat, typename T, Layout L, Propagation P>
__global__ void __launch_bounds__(kReduceBlock)
    monitorKernel(Grid g, const std::uint8_t* flags, Store<T, Lat::Q, L> f, bool odd, StepParams p,
                  const ForceLink* links, const std::uint32_t* linkStart, int obstacles,
                  const std::uint32_t* probes, int probeCount, double* record) {
  const int k = blockIdx.y;
  if (k == obstacles) {
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < probeCount;
         j += gridDim.x * blockDim.x) {
      const Moments m = cellMoments<Lat, P>(g, flags, f, probes[j], odd, p);
      double* out = record + 3 * obstacles + 4 * j;
      out[0] = m.rho;
      for (int a = 0; a < 3; ++a) out[1 + a] = m.u[a];
    }
    return;
  }
  double sum[3] = {0, 0, 0};
  const std::uint32_t last = linkStart[k + 1];
#pragma unroll 4
  for (std::uint32_t l = linkStart[k] + blockIdx.x * blockDim.x + threadIdx.x; l < last;
       l += gridDim.x * blockDim.x) {
    float m[3];
    linkMomentum<Lat, P>(g, flags, f, links[l], odd, p, m);
    for (int a = 0; a < 3; ++a) sum[a] += m[a];
  }
  using Sum = cub::BlockReduce<double, kReduceBlock>;
  __shared__ typename Sum::TempStorage temp;
  for (int a = 0; a < 3; ++a) {
    const double total = Sum(temp).Sum(sum[a]);
    if (threadIdx.x == 0) atomicAdd(record + 3 * k + a, total);
    __syncthreads();
  }
}

// Curved walls before a step: each link's interpolated return into the slot the step reads
// (lbm_cell.h).
template <typename T, int Q, Layout L>
__global__ void curvedWallsKernel(Store<T, Q, L> f, const CurvedReturn* links, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) bounceBackCurved(f, links[k]);
}

// Free-slip walls before a step, open outlets after it (lbm_cell.h).
template <typename T, int Q, Layout L>
__global__ void swapSlotsKernel(Store<T, Q, L> f, const SlotPair* pairs, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) swapSlots(f, pairs[k]);
}

template <typename Lat, typename T, Layout L>
__global__ void openOutletsKernel(Store<T, Lat::Q, L> f, const SlotPair* pairs, int outlets) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < outlets) extrapolateOutlet<Lat>(f, pairs + k, std::size_t(outlets));
}

// The open outlets of a step taken in pieces (LbmEngine::stepBox) that this piece, `box`, is due to
// extrapolate: each once it and the cell before it have stepped. `stepped` counts, an outlet, how
// many of the two have stepped in the pieces before (outletCellsIn).
template <typename Lat, typename T, Layout L>
__global__ void openOutletsOfBoxKernel(Grid g, Store<T, Lat::Q, L> f, const SlotPair* pairs,
                                       const std::uint32_t* cells, int outlets, CellBox box,
                                       std::uint8_t* stepped) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= outlets) return;
  const int now = outletCellsIn(g, box, cells[k]);
  if (now && (stepped[k] += std::uint8_t(now)) == 2)
    extrapolateOutlet<Lat>(f, pairs + k, std::size_t(outlets));
}

// A halo's values: the raw slots of a list gathered into a packed array, and back.
template <typename T>
__global__ void gatherSlotsKernel(const T* f, const std::uint64_t* elements, int count, T* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) out[k] = f[elements[k]];
}
template <typename T>
__global__ void scatterSlotsKernel(T* f, const std::uint64_t* elements, int count, const T* in) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) f[elements[k]] = in[k];
}

// Device memory of another process of this host, opened from its cudaIpcMemHandle_t (and closed
// with this); peer access to its GPU is enabled as needed.
class IpcMapping {
 public:
  IpcMapping() = default;
  ~IpcMapping() { close(); }
  IpcMapping(IpcMapping&& other) noexcept : data_(std::exchange(other.data_, nullptr)) {}
  IpcMapping& operator=(IpcMapping&&) = delete;
  // False (and nothing open) where this process cannot open it.
  bool open(const cudaIpcMemHandle_t& handle) {
    close();
    if (cudaIpcOpenMemHandle(&data_, handle, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess)
      return true;
    cudaGetLastError();  // clear the (non-sticky) error
    data_ = nullptr;
    return false;
  }
  void* data() const { return data_; }
  void close() {
    if (data_) cudaIpcCloseMemHandle(data_);
    data_ = nullptr;
  }

 private:
  void* data_ = nullptr;
};

template <typename V>
DeviceBuffer<V> toDevice(const std::vector<V>& values) {
  DeviceBuffer<V> buffer(values.size());
  if (!values.empty())
    WS_CUDA_CHECK(cudaMemcpy(buffer.data(), values.data(), buffer.bytes(), cudaMemcpyHostToDevice));
  return buffer;
}

// One pass of moves on the device: every move after an even number of steps, then every move
// after an odd number.
template <typename M>
struct DeviceMoves {
  DeviceBuffer<M> moves;
  int count = 0;  // of one parity

  void upload(const std::vector<M> (&byParity)[2]) {
    std::vector<M> both(byParity[0]);
    both.insert(both.end(), byParity[1].begin(), byParity[1].end());
    moves = toDevice(both);
    count = int(byParity[0].size());
  }
  void release() {
    moves.release();
    count = 0;
  }
  const M* of(bool odd) const { return moves.data() + (odd ? count : 0); }
};

template <typename Lat, typename T, Layout L, Propagation P>
__global__ void initializeKernel(Grid g, const std::uint8_t* flags, Store<T, Lat::Q, L> f,
                                 InitialFlow flow, StepParams p) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n < g.cells()) initializeCell<Lat, P>(g, flags, f, n, flow, p);
}

template <typename T, int Q, Layout L>
__global__ void restCellsKernel(Store<T, Q, L> f, const std::size_t* cells, int count) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  for (int i = 0; i < Q; ++i) f.store(cells[k], i, 0.0f);
}

template <typename Lat, typename T, Layout L, Propagation P>
class CudaEngine final : public LbmEngine {
 public:
  CudaEngine(const Variant& variant, int block, LbmTimings timings)
      : variant_(variant), block_(block), timings_(timings), status_(1), totals_(1) {
    status_.zero();
  }
  ~CudaEngine() override {
    if (copies_) cudaStreamDestroy(copies_);
    if (steppedSoFar_) cudaEventDestroy(steppedSoFar_);
    for (cudaEvent_t e : pieceEvents_) cudaEventDestroy(e);
    for (cudaEvent_t e : haloEvents_) cudaEventDestroy(e);
  }
  CudaEngine(const CudaEngine&) = delete;
  CudaEngine& operator=(const CudaEngine&) = delete;

  void reshape(const Grid& g) override {
    const double copies = P == Propagation::AB ? 2 : 1;
    const double needed = double(g.cells()) * (copies * Lat::Q * sizeof(T) + 1);
    requireDeviceMemory(needed, heldBytes(),
                        "a " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" +
                            std::to_string(g.nz) + " lattice (" + variant_.name() + ")");
    a_.release();
    b_.release();
    flags_.release();
    moments_.release();
    volume_.release();
    quantity_.release();
    speed_.release();
    outlets_.release();
    curved_.release();
    swaps_.release();
    planeDone_.reset();
    grid_ = g;
    a_.allocate(g.cells() * Lat::Q);
    a_.zero();
    if (P == Propagation::AB) {
      b_.allocate(g.cells() * Lat::Q);
      b_.zero();
    }
    flags_.allocate(g.cells());
    flags_.zero();
    hostFlags_.assign(g.cells(), kFluid);
    steps_ = 0;
  }
  const Grid& grid() const override { return grid_; }

  void setFlags(const std::vector<std::uint8_t>& flags, std::size_t first,
                std::size_t count) override {
    planeDone_.reset();
    std::copy_n(flags.begin() + first, count, hostFlags_.begin() + first);
    WS_CUDA_CHECK(
        cudaMemcpy(flags_.data() + first, flags.data() + first, count, cudaMemcpyHostToDevice));
  }
  void restCells(const std::vector<std::size_t>& cells) override {
    planeDone_.reset();
    if (cells.empty()) return;
    DeviceBuffer<std::size_t> list(cells.size());
    WS_CUDA_CHECK(cudaMemcpy(list.data(), cells.data(), list.bytes(), cudaMemcpyHostToDevice));
    restCellsKernel<<<blocksFor(cells.size(), 256), 256>>>(store(a_), list.data(),
                                                           int(cells.size()));
    WS_CUDA_CHECK(cudaGetLastError());
  }
  void setParams(const StepParams& params) override {
    planeDone_.reset();
    params_ = withForceTerms<Lat>(params, Codec<T>::kUnit);
  }

  void initialize(const InitialFlow& flow) override {
    planeDone_.reset();
    steps_ = 0;
    a_.zero();
    initializeKernel<Lat, T, L, P>
        <<<blocksFor(grid_.cells(), 256), 256>>>(grid_, flags_.data(), store(a_), flow, params_);
    WS_CUDA_CHECK(cudaGetLastError());
  }
  void importState(const std::vector<float>& state, std::uint64_t steps) override {
    planeDone_.reset();
    steps_ = steps;
    std::vector<T> raw(a_.size());
    canonicalToRaw<Lat, T, L, P>(grid_, hostFlags_.data(), params_, steps_ & 1, state, raw.data());
    WS_CUDA_CHECK(cudaMemcpy(a_.data(), raw.data(), a_.bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<float> exportState() override {
    std::vector<T> raw(a_.size());
    WS_CUDA_CHECK(cudaMemcpy(raw.data(), a_.data(), a_.bytes(), cudaMemcpyDeviceToHost));
    return rawToCanonical<Lat, T, L, P>(grid_, hostFlags_.data(), params_, steps_ & 1, raw.data());
  }

  void step(int count) override {
    if (count <= 0) return;
    injectGpuFaultIfRequested();
    planeDone_.reset();
    if (stride_) prepareRecords(count);
    stepRing_.start();
    for (int c = 0; c < count; ++c) {
      returnFromWalls(store(a_), steps_ & 1);
      streamCollide(CellBox(grid_), store(P == Propagation::AB ? b_ : a_));
      if (P == Propagation::AB) std::swap(a_, b_);
      ++steps_;
      if (outlets_.count)
        recordedLaunch("openOutletsKernel", openOutletsKernel<Lat, T, L>,
                       blocksFor(outlets_.count / Lat::Q, 128),
                       128)(store(a_), outlets_.of(steps_ & 1), outlets_.count / Lat::Q);
      if (stride_) record(c);
    }
    const double updates = double(grid_.cells()) * count;
    stepRing_.stop(updates, updates * bytesPerCellUpdate(lattice(), variant_));
  }

  // A step in pieces (LbmEngine::beginStep), queued on the default stream like step(); each
  // piece's device time is measured with a pair of events.
  void beginStep() override {
    injectGpuFaultIfRequested();
    planeDone_.reset();
    returnFromWalls(store(a_), steps_ & 1);
    stepping_ = true;
    pieces_ = 0;
    haloCopies_ = 0;
    const std::size_t outlets = outletCells_.size();
    if (outletSteps_.size() != outlets) outletSteps_.allocate(outlets);
    if (outlets) WS_CUDA_CHECK(cudaMemsetAsync(outletSteps_.data(), 0, outlets, 0));
  }
  void stepBox(const CellBox& box) override {
    WS_CUDA_CHECK(cudaEventRecord(eventPair(pieceEvents_, pieces_)[0], 0));
    const auto dst = written();
    if (!box.empty()) streamCollide(box, dst);
    const int outlets = int(outletCells_.size());
    if (outlets_.count && outlets && !box.empty())
      recordedLaunch("openOutletsOfBoxKernel", openOutletsOfBoxKernel<Lat, T, L>,
                     blocksFor(outlets, 128),
                     128)(grid_, dst, outlets_.of(!(steps_ & 1)), outletCells_.data(), outlets, box,
                          outletSteps_.data());
    WS_CUDA_CHECK(cudaEventRecord(pieceEvents_[2 * pieces_ + 1], 0));
    ++pieces_;
  }
  void endStep() override {
    if (P == Propagation::AB) std::swap(a_, b_);
    ++steps_;
    stepping_ = false;
    if (stride_ && !deferRecords_) recordNow();
  }
  bool queuesWork() const override { return true; }
  // The device time of each stepBox() call of the last step, in call order.
  std::vector<float> pieceTimesMs() override {
    std::vector<float> times(std::size_t(pieces_), 0.0f);
    for (int k = 0; k < pieces_; ++k) {
      WS_CUDA_CHECK(cudaEventSynchronize(pieceEvents_[2 * k + 1]));
      WS_CUDA_CHECK(cudaEventElapsedTime(&times[k], pieceEvents_[2 * k], pieceEvents_[2 * k + 1]));
    }
    return times;
  }

  void deferRecords(bool deferred) override { deferRecords_ = deferred; }
  void recordNow() override {
    if (!stride_) return;
    prepareRecords(1);
    record(0);
  }

  // The halo staged through pinned host memory: a list's slots are gathered on the device on a
  // stream of their own, once what the default stream has queued so far (a split lattice's border
  // layers) is done, and copied to the host while the default stream goes on (the inside). Device
  // to device (peerSlots), the gather writes into the receiving process's buffer instead, and the
  // receiver scatters from it.
  std::size_t bytesPerSlot() const override { return sizeof(T); }
  void setSlotLists(const std::vector<std::vector<std::uint64_t>>& lists) override {
    if (!copies_) {
      // The highest priority: the gathers' blocks go before the inside's waiting ones, so the
      // halo leaves while the inside steps rather than after it.
      int least = 0, greatest = 0;
      WS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      WS_CUDA_CHECK(cudaStreamCreateWithPriority(&copies_, cudaStreamNonBlocking, greatest));
      WS_CUDA_CHECK(cudaEventCreateWithFlags(&steppedSoFar_, cudaEventDisableTiming));
    }
    WS_CUDA_CHECK(cudaDeviceSynchronize());  // no copy of the old lists in flight
    peer_ = false;
    slotLists_.clear();
    slotLists_.resize(lists.size());
    for (std::size_t k = 0; k < lists.size(); ++k) {
      SlotList& l = slotLists_[k];
      l.count = int(lists[k].size());
      l.elements = toDevice(lists[k]);
      l.values[0].allocate(lists[k].size());
      l.host.allocate(lists[k].size());
    }
  }
  std::byte* slotBuffer(int list) override {
    return reinterpret_cast<std::byte*>(slotLists_.at(list).host.data());
  }
  void readSlots(int list) override {
    SlotList& l = slotLists_.at(list);
    // Even with nothing to send, slotsRead() then says the default stream got this far (past the
    // last scatter from a peer's buffers, which that peer may fill again once told).
    WS_CUDA_CHECK(cudaEventRecord(steppedSoFar_, 0));
    WS_CUDA_CHECK(cudaStreamWaitEvent(copies_, steppedSoFar_, 0));
    if (l.count == 0) return;
    const cudaEvent_t* times = haloCopyEvents();
    WS_CUDA_CHECK(cudaEventRecord(times[0], copies_));
    T* into = peer_ ? static_cast<T*>(l.peer[l.uses++ % 2].data()) : l.values[0].data();
    gatherSlotsKernel<<<blocksFor(l.count, 256), 256, 0, copies_>>>(
        written().base[0], l.elements.data(), l.count, into);
    WS_CUDA_CHECK(cudaGetLastError());
    if (!peer_)
      WS_CUDA_CHECK(cudaMemcpyAsync(l.host.data(), l.values[0].data(), l.host.bytes(),
                                    cudaMemcpyDeviceToHost, copies_));
    WS_CUDA_CHECK(cudaEventRecord(times[1], copies_));
  }
  void slotsRead() override {
    if (copies_) WS_CUDA_CHECK(cudaStreamSynchronize(copies_));
  }
  // Queued behind the step on the default stream. The host buffer is written again only after
  // the next slotsRead(), by when the default stream has gone past this copy; a peer fills this
  // list's other device buffer next, and this one only after this process's next slotsRead().
  void writeSlots(int list) override {
    SlotList& l = slotLists_.at(list);
    if (l.count == 0) return;
    const cudaEvent_t* times = haloCopyEvents();
    WS_CUDA_CHECK(cudaEventRecord(times[0], 0));
    const T* from = l.values[peer_ ? l.uses++ % 2 : 0].data();
    if (!peer_)
      WS_CUDA_CHECK(cudaMemcpyAsync(l.values[0].data(), l.host.data(), l.host.bytes(),
                                    cudaMemcpyHostToDevice, 0));
    scatterSlotsKernel<<<blocksFor(l.count, 256), 256>>>(written().base[0], l.elements.data(),
                                                         l.count, from);
    WS_CUDA_CHECK(cudaGetLastError());
    WS_CUDA_CHECK(cudaEventRecord(times[1], 0));
  }
  static_assert(2 * sizeof(cudaIpcMemHandle_t) == kPeerHandleBytes);
  std::vector<std::byte> shareSlots(int list) override {
    SlotList& l = slotLists_.at(list);
    l.values[1].allocate(std::size_t(l.count));
    std::vector<std::byte> handles(kPeerHandleBytes);
    for (int b = 0; b < 2 && l.count > 0; ++b)
      WS_CUDA_CHECK(cudaIpcGetMemHandle(reinterpret_cast<cudaIpcMemHandle_t*>(handles.data()) + b,
                                        l.values[b].data()));
    return handles;
  }
  bool openPeerSlots(int list, const std::vector<std::byte>& handles) override {
    SlotList& l = slotLists_.at(list);
    if (handles.size() != kPeerHandleBytes) return false;
    if (l.count == 0) return true;
    for (int b = 0; b < 2; ++b) {
      cudaIpcMemHandle_t handle;
      std::memcpy(&handle, handles.data() + b * sizeof(handle), sizeof(handle));
      if (!l.peer[b].open(handle)) return false;
    }
    return true;
  }
  void peerSlots(bool on) override {
    peer_ = on;
    for (SlotList& l : slotLists_) {
      l.uses = 0;
      if (!on)
        for (IpcMapping& mapping : l.peer) mapping.close();
    }
  }
  // The pair of events that times a slot copy: the next of the step's, or one left untold outside
  // a step (an exchange after the state was set).
  const cudaEvent_t* haloCopyEvents() {
    return eventPair(haloEvents_, stepping_ ? haloCopies_++ : 0);
  }
  // The k-th pair of events in `events`, made when first asked for.
  static const cudaEvent_t* eventPair(std::vector<cudaEvent_t>& events, int k) {
    while (events.size() < 2 * std::size_t(k + 1)) {
      events.emplace_back();
      WS_CUDA_CHECK(cudaEventCreate(&events.back()));
    }
    return &events[2 * std::size_t(k)];
  }
  // The device time of the last step's slot copies, both ways.
  double haloCopiesMs() override {
    double ms = 0;
    for (int k = 0; k < haloCopies_; ++k) {
      float each = 0;
      WS_CUDA_CHECK(cudaEventSynchronize(haloEvents_[2 * k + 1]));
      WS_CUDA_CHECK(cudaEventElapsedTime(&each, haloEvents_[2 * k], haloEvents_[2 * k + 1]));
      ms += each;
    }
    return ms;
  }

  void setBoundaryLinks(const BoundaryLinks& links) override {
    const BoundaryMoves moves = boundaryMoves<Lat, T, L, P>(grid_, hostFlags_.data(), links);
    outlets_.upload(moves.outlets);
    outletCells_ = toDevice(moves.outletCells);
    curved_.upload(moves.curved);
    swaps_.upload(moves.swaps);
  }
  void setMonitor(const Monitor& monitor) override {
    stride_ = monitor.stride();
    obstacles_ = monitor.obstacles();
    probeCount_ = int(monitor.probes.size());
    mostLinks_ = 0;
    for (int k = 0; k < obstacles_; ++k)
      mostLinks_ = std::max(mostLinks_, monitor.linkStart[k + 1] - monitor.linkStart[k]);
    links_ = toDevice(monitor.links);
    linkStart_ = toDevice(monitor.linkStart);
    probes_ = toDevice(monitor.probes);
    pendingSteps_ = 0;
    hostRecords_.clear();
  }
  std::vector<double> takeRecords() override {
    collectRecords();
    return std::exchange(hostRecords_, {});
  }

  std::uint32_t takeStatus() override {
    std::uint32_t bits = 0;
    WS_CUDA_CHECK(cudaMemcpy(&bits, status_.data(), sizeof bits, cudaMemcpyDeviceToHost));
    if (bits) status_.zero();
    return bits;
  }

  Totals totals() override {
    totals_.zero();
    totalsKernel<Lat, T, L, P><<<blocksFor(grid_.cells(), kReduceBlock), kReduceBlock>>>(
        grid_, flags_.data(), store(a_), steps_ & 1, params_, totals_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    DeviceTotals t;
    WS_CUDA_CHECK(cudaMemcpy(&t, totals_.data(), sizeof t, cudaMemcpyDeviceToHost));
    float maxSpeed;
    std::memcpy(&maxSpeed, &t.maxSpeedBits, sizeof maxSpeed);
    return {t.mass, maxSpeed, t.fluid};
  }

  std::vector<PlaneSample> planeRows(const Plane& plane, int first, int count) override {
    computePlane(plane);
    const std::size_t w = plane.width(grid_);
    std::vector<PlaneSample> out(w * count);
    WS_CUDA_CHECK(cudaMemcpy(out.data(), moments_.data() + w * first,
                             out.size() * sizeof(PlaneSample), cudaMemcpyDeviceToHost));
    return out;
  }

  const PlaneSample* planeMomentsInPlace(const Plane& plane) override {
    computePlane(plane);
    return moments_.data();
  }

  VolumeFields volumeInPlace(VolumeQuantity quantity) override {
    const std::size_t cells = grid_.cells();
    momentsOfEveryCell();
    constexpr unsigned kThreads = 256;
    largest_.zero();
    volumeValuesKernel<<<blocksFor(cells, kThreads), kThreads>>>(
        quantity, grid_, volume_.data(), quantity_.data(), speed_.data(), largest_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    unsigned bits = 0;
    WS_CUDA_CHECK(cudaMemcpy(&bits, largest_.data(), sizeof bits, cudaMemcpyDeviceToHost));
    float largest;
    std::memcpy(&largest, &bits, sizeof largest);
    return {quantity_.data(), speed_.data(), largest, volume_.data()};
  }

  bool fieldsOnDevice() const override { return true; }
  std::vector<PlaneSample> volumeMoments() override {
    momentsOfEveryCell();
    std::vector<PlaneSample> moments(volume_.size());
    WS_CUDA_CHECK(
        cudaMemcpy(moments.data(), volume_.data(), volume_.bytes(), cudaMemcpyDeviceToHost));
    return moments;
  }

  void render(LbmView view, const Plane& plane, const FieldRequest& request,
              FieldImage& image) override {
    viewRing_.start();
    const bool computed = computePlane(plane);
    const std::size_t pixelCount = std::size_t(image.width) * image.height;
    float* pixels = output_.prepare(image.pixels, pixelCount, image.onDevice);
    const dim3 block(32, 8);
    renderKernel<<<dim3(blocksFor(image.width, 32), blocksFor(image.height, 8)), block>>>(
        view, plane, plane.width(grid_), plane.height(grid_), request, moments_.data(), pixels);
    WS_CUDA_CHECK(cudaGetLastError());
    const double planeBytes =
        double(moments_.size()) * (sizeof(PlaneSample) + (computed ? Lat::Q * sizeof(T) : 0));
    viewRing_.stop(double(pixelCount), double(pixelCount) * sizeof(float) + planeBytes);
    output_.deliver();
  }

  void pollTimings() override {
    stepRing_.collect(*timings_.step);
    viewRing_.collect(*timings_.view);
  }
  void drainTimings() override {
    stepRing_.drain(*timings_.step);
    viewRing_.drain(*timings_.view);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

  std::string configuration() const override {
    const LaunchShape shape(CellBox(grid_), block_, cellsPerThread());
    return std::string(Lat::name) + ", " + variant_.name() +
           (cellsPerThread() == 1 ? ", one thread per cell"
            : kPairsInOddSteps    ? ", two cells per thread (__half2 pairs)"
                                  : ", two cells per thread (__half2 pairs) in even steps") +
           ", blocks of " + std::to_string(shape.block.x) + "x" + std::to_string(shape.block.y) +
           ", grid " + std::to_string(shape.grid.x) + "x" + std::to_string(shape.grid.y) + "x" +
           std::to_string(shape.grid.z);
  }

 private:
  static constexpr LatticeKind lattice() {
    return Lat::Q == 9 ? LatticeKind::D2Q9 : LatticeKind::D3Q19;
  }
  // FP16 SoA lattices of even width step two cells per thread (streamCollidePairsKernel), except
  // in the A-A odd steps of D3Q19, which were slower that way (H200, 256^3, aa-soa-fp16: 34,600
  // MLUPS with pairs in every step, 42,900 with pairs in even steps only; D2Q9 gains in both).
  // Likely why: two cells' 38 populations within the 64 registers that 1024-thread blocks allow,
  // and those steps' scattered stores.
  static constexpr bool kPairs = std::is_same_v<T, __half> && L == Layout::SoA;
  static constexpr bool kPairsInOddSteps = P == Propagation::AB || Lat::Q == 9;
  int cellsPerThread() const { return kPairs && grid_.nx % 2 == 0 ? 2 : 1; }
  Store<T, Lat::Q, L> store(DeviceBuffer<T>& b) const { return {b.data(), grid_.cells()}; }
  // The storage a step in progress writes, or the state between steps.
  Store<T, Lat::Q, L> written() { return store(P == Propagation::AB && stepping_ ? b_ : a_); }

  // The stream-collide of the cells of `box` from the state into `dst`: two cells a thread where
  // the variant and the box allow (an even start and end along x), else one.
  void streamCollide(const CellBox& box, Store<T, Lat::Q, L> dst) {
    const auto src = store(a_);
    withStepKind(steps_ & 1, hasForce(params_), [&]<bool kOdd, bool kForce>() {
      if constexpr (kPairs && (!kOdd || kPairsInOddSteps)) {
        if (cellsPerThread() == 2 && box.lo[0] % 2 == 0 && box.hi[0] % 2 == 0) {
          const LaunchShape shape(box, block_, 2);
          recordedLaunch(kOdd ? "streamCollidePairsKernel (odd step)" : "streamCollidePairsKernel",
                         streamCollidePairsKernel<Lat, P, kOdd, kForce>, shape.grid,
                         shape.block)(grid_, box, flags_.data(), src, dst, params_, status_.data());
          return;
        }
      }
      const LaunchShape shape(box, block_, 1);
      recordedLaunch(kOdd ? "streamCollideKernel (odd step)" : "streamCollideKernel",
                     streamCollideKernel<Lat, T, L, P, kOdd, kForce>, shape.grid,
                     shape.block)(grid_, box, flags_.data(), src, dst, params_, status_.data());
    });
    WS_CUDA_CHECK(cudaGetLastError());
  }

  // What the walls send back that the step's bounce-back does not: curved and free-slip walls.
  void returnFromWalls(Store<T, Lat::Q, L> f, bool odd) {
    if (curved_.count)
      recordedLaunch("curvedWallsKernel", curvedWallsKernel<T, Lat::Q, L>,
                     blocksFor(curved_.count, 256), 256)(f, curved_.of(odd), curved_.count);
    if (swaps_.count)
      recordedLaunch("swapSlotsKernel (free-slip walls)", swapSlotsKernel<T, Lat::Q, L>,
                     blocksFor(swaps_.count, 256), 256)(f, swaps_.of(odd), swaps_.count);
  }
  // Room for `count` steps' records, zeroed (the force sums add into them), after the ones not
  // yet taken are moved to the host.
  void prepareRecords(int count) {
    collectRecords();
    const std::size_t size = std::size_t(count) * stride_;
    if (records_.size() < size) records_.allocate(size);
    WS_CUDA_CHECK(cudaMemset(records_.data(), 0, size * sizeof(double)));
  }
  // Records the state after the step `c` of the current step() call.
  void record(int c) {
    // About four links a thread: 64 blocks in all made each thread's loop long enough to set the
    // time (a 3-D cylinder's 230,000 links cost 14% of a 256^3 step on an H100), and a block a
    // 256 links would add three atomics to the same addresses for each.
    const std::uint32_t chunks =
        std::clamp<std::uint32_t>(blocksFor(mostLinks_, 4 * kReduceBlock), 1, 4096);
    const dim3 grid(chunks, obstacles_ + 1);
    monitorKernel<Lat, T, L, P><<<grid, kReduceBlock>>>(
        grid_, flags_.data(), store(a_), steps_ & 1, params_, links_.data(), linkStart_.data(),
        obstacles_, probes_.data(), probeCount_, records_.data() + std::size_t(c) * stride_);
    WS_CUDA_CHECK(cudaGetLastError());
    pendingSteps_ = c + 1;
  }
  void collectRecords() {
    if (!pendingSteps_) return;
    const std::size_t size = std::size_t(pendingSteps_) * stride_;
    const std::size_t at = hostRecords_.size();
    hostRecords_.resize(at + size);
    WS_CUDA_CHECK(cudaMemcpy(hostRecords_.data() + at, records_.data(), size * sizeof(double),
                             cudaMemcpyDeviceToHost));
    pendingSteps_ = 0;
  }
  double heldBytes() const {
    return double(a_.bytes() + b_.bytes() + flags_.bytes() + moments_.bytes() + volume_.bytes() +
                  quantity_.bytes() + speed_.bytes());
  }

  // Every cell's moments in volume_, with room for volumeInPlace()'s fields beside them.
  void momentsOfEveryCell() {
    const std::size_t cells = grid_.cells();
    if (volume_.size() != cells) {
      requireDeviceMemory(double(cells) * (sizeof(PlaneSample) + 2 * sizeof(float)), 0,
                          "the 3-D view's fields");
      volume_.allocate(cells);
      quantity_.allocate(cells);
      speed_.allocate(cells);
      largest_.allocate(1);
    }
    constexpr unsigned kThreads = 256;
    volumeMomentsKernel<Lat, T, L, P><<<blocksFor(cells, kThreads), kThreads>>>(
        grid_, flags_.data(), store(a_), steps_ & 1, params_, volume_.data());
    WS_CUDA_CHECK(cudaGetLastError());
  }

  // The moments of a plane in moments_ (one pass over the plane's cells), unless they are there
  // already: a frame's tracers and view share one pass. Returns whether it ran the pass.
  bool computePlane(const Plane& plane) {
    if (planeDone_ && planeDone_->axis == plane.axis && planeDone_->index == plane.index)
      return false;
    const int w = plane.width(grid_), h = plane.height(grid_);
    if (moments_.size() != std::size_t(w) * h) moments_.allocate(std::size_t(w) * h);
    const dim3 block(32, 8);
    planeMomentsKernel<Lat, T, L, P><<<dim3(blocksFor(w, 32), blocksFor(h, 8)), block>>>(
        grid_, flags_.data(), store(a_), steps_ & 1, params_, plane, moments_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    planeDone_ = plane;
    return true;
  }

  Variant variant_;
  int block_;
  LbmTimings timings_;
  Grid grid_;
  DeviceBuffer<T> a_, b_;
  DeviceBuffer<std::uint8_t> flags_;
  DeviceBuffer<PlaneSample> moments_;
  DeviceBuffer<PlaneSample> volume_;  // volumeInPlace's moments of every cell, and its results
  DeviceBuffer<float> quantity_, speed_;
  DeviceBuffer<unsigned> largest_;
  std::optional<Plane> planeDone_;  // whose moments moments_ holds for the current state
  DeviceOutput<float> output_;
  DeviceBuffer<std::uint32_t> status_;
  DeviceBuffer<DeviceTotals> totals_;
  std::vector<std::uint8_t> hostFlags_;
  // The monitor (lbm_engine.h): its links and probes on the device, and the records of the last
  // step() call's `pendingSteps_` steps, not yet moved to hostRecords_.
  std::size_t stride_ = 0;
  int obstacles_ = 0, probeCount_ = 0, pendingSteps_ = 0;
  std::uint32_t mostLinks_ = 0;
  // setBoundaryLinks: the moves around a step (lbm_engine.h: BoundaryMoves).
  DeviceMoves<SlotPair> outlets_, swaps_;
  DeviceMoves<CurvedReturn> curved_;
  DeviceBuffer<ForceLink> links_;
  DeviceBuffer<std::uint32_t> linkStart_, probes_;
  DeviceBuffer<double> records_;
  std::vector<double> hostRecords_;
  StepParams params_;
  std::uint64_t steps_ = 0;
  GpuTimerRing stepRing_, viewRing_;
  // A step in pieces (beginStep): whether one is in progress, the layers stepped so far along its
  // axis, the outlets' cells (for the outlets of each piece), a pair of events a piece.
  bool stepping_ = false, deferRecords_ = false;
  DeviceBuffer<std::uint8_t> outletSteps_;  // a step in pieces: openOutletsOfBoxKernel
  DeviceBuffer<std::uint32_t> outletCells_;
  std::vector<cudaEvent_t> pieceEvents_;
  int pieces_ = 0;
  std::vector<cudaEvent_t> haloEvents_;  // a pair for each slot copy of the step, both ways
  int haloCopies_ = 0;
  // The halo's lists (setSlotLists): the slots, their values gathered, and the host's copy; device
  // to device, a receive list's two buffers and a send list's two of the receiver's, in turn.
  struct SlotList {
    int count = 0;
    DeviceBuffer<std::uint64_t> elements;
    DeviceBuffer<T> values[2];
    PinnedBuffer<T> host;
    IpcMapping peer[2];
    std::uint64_t uses = 0;
  };
  std::vector<SlotList> slotLists_;
  bool peer_ = false;                   // device to device (peerSlots)
  cudaStream_t copies_ = nullptr;       // the gathers and copies to the host
  cudaEvent_t steppedSoFar_ = nullptr;  // what they wait for
};

}  // namespace

std::unique_ptr<LbmEngine> makeCudaEngine(LatticeKind lattice, const Variant& variant, int block,
                                          LbmTimings timings) {
  return dispatch(
      lattice, variant,
      [&]<typename Lat, typename T, Layout L, Propagation P>() -> std::unique_ptr<LbmEngine> {
        return std::make_unique<CudaEngine<Lat, T, L, P>>(variant, block, timings);
      });
}

}  // namespace ws::lbm
