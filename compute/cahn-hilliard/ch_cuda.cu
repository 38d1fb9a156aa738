// The CUDA engine for Cahn-Hilliard. A, B and the fast path keep the field in linear global
// memory; C and D in CUDA arrays (the texture's own block-linear layout), read through texture
// objects with the hardware's wrap and written through surface objects. RK2 is the source's two
// kernels a step: the half step into the stage, then the full step from the stage back over phi.
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "compute/cahn-hilliard/ch_cuda.h"
#include "compute/cahn-hilliard/ch_kernels.cuh"
#include "compute/cahn-hilliard/ch_parts.h"
#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/errors.h"
#include "compute/core/gpu_error.h"
#include "compute/core/gpu_timer.h"
#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/core/memory.h"

namespace ws::ch {

namespace {

constexpr int kReduceBlock = 256;

// The view's pixels from the field in linear memory.
__global__ void renderKernel(const float* phi, Shape s, Slice slice, FieldRequest r,
                             float* pixels) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= r.width || py >= r.height) return;
  pixels[std::size_t(py) * r.width + px] = samplePixel(phi, s, slice, r, px, py);
}

// The grid's totals (ch_stencil.h), a block's sums added to the device's.
template <int D>
__global__ void __launch_bounds__(kReduceBlock)
    totalsKernel(const float* phi, Shape s, Coefficients k, double* sums,
                 unsigned long long* crossings) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double mass = 0, energy = 0;
  unsigned long long bonds = 0;
  if (n < s.cells()) {
    const int x = int(n % s.nx), y = int(n / s.nx % s.ny), z = int(n / (std::size_t(s.nx) * s.ny));
    const GlobalAt at{phi, s, x, y, z};
    mass = at(0, 0, 0);
    energy = cellEnergy<D>(at, k);
    bonds = cellCrossings<D>(at);
  }
  using Reduce = cub::BlockReduce<double, kReduceBlock>;
  using Count = cub::BlockReduce<unsigned long long, kReduceBlock>;
  __shared__ typename Reduce::TempStorage massStorage, energyStorage;
  __shared__ typename Count::TempStorage countStorage;
  mass = Reduce(massStorage).Sum(mass);
  energy = Reduce(energyStorage).Sum(energy);
  bonds = Count(countStorage).Sum(bonds);
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], mass);
    atomicAdd(&sums[1], energy);
    atomicAdd(crossings, bonds);
  }
}

template <int D>
__global__ void laplacianKernel(const float* phi, Shape s, float* out) {
  const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (n >= s.cells()) return;
  const int x = int(n % s.nx), y = int(n / s.nx % s.ny), z = int(n / (std::size_t(s.nx) * s.ny));
  out[n] = laplacianAt<D>(phi, s, x, y, z);
}

// Sets cells, leaving what they held in their place in the list.
__global__ void setCellsKernel(float* phi, CellValue* cells, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float before = phi[cells[i].cell];
  phi[cells[i].cell] = cells[i].value;
  cells[i].value = before;
}

// A CUDA array holding the field (2-D, or 3-D), read through a texture object (normalized
// coordinates, wrap, nearest texel) and written through a surface object.
class TextureField {
 public:
  TextureField() = default;
  TextureField(const TextureField&) = delete;
  TextureField& operator=(const TextureField&) = delete;
  ~TextureField() { release(); }

  void allocate(const Shape& s) {
    release();
    const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
    const cudaError_t status =
        cudaMalloc3DArray(&array_, &format, make_cudaExtent(s.nx, s.ny, s.nz > 1 ? s.nz : 0),
                          cudaArraySurfaceLoadStore);
    if (status != cudaSuccess) {
      cudaGetLastError();
      array_ = nullptr;
      if (status == cudaErrorMemoryAllocation)
        throw OutOfMemoryError("out of GPU memory for the texture's array");
      throw InputError(std::string("this GPU cannot hold the grid in a texture array (") +
                       cudaGetErrorString(status) + ")");
    }
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array_;
    cudaTextureDesc texture{};
    for (auto& mode : texture.addressMode) mode = cudaAddressModeWrap;
    texture.filterMode = cudaFilterModePoint;
    texture.readMode = cudaReadModeElementType;
    texture.normalizedCoords = 1;
    WS_CUDA_CHECK(cudaCreateTextureObject(&texture_, &resource, &texture, nullptr));
    WS_CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &resource));
    shape_ = s;
  }
  void release() noexcept {
    if (surface_) cudaDestroySurfaceObject(surface_);
    if (texture_) cudaDestroyTextureObject(texture_);
    if (array_) cudaFreeArray(array_);
    surface_ = 0;
    texture_ = 0;
    array_ = nullptr;
  }

  void copyFrom(const float* linear) { copy(linear, true); }
  void copyTo(float* linear) { copy(linear, false); }

  cudaTextureObject_t texture() const { return texture_; }
  cudaSurfaceObject_t surface() const { return surface_; }

 private:
  void copy(const float* linear, bool toArray) {
    cudaMemcpy3DParms p{};
    const cudaPitchedPtr pitched = make_cudaPitchedPtr(
        const_cast<float*>(linear), shape_.nx * sizeof(float), shape_.nx, shape_.ny);
    if (toArray) {
      p.srcPtr = pitched;
      p.dstArray = array_;
    } else {
      p.srcArray = array_;
      p.dstPtr = pitched;
    }
    p.extent = make_cudaExtent(shape_.nx, shape_.ny, shape_.nz);
    p.kind = cudaMemcpyDeviceToDevice;
    WS_CUDA_CHECK(cudaMemcpy3D(&p));
  }

  cudaArray_t array_ = nullptr;
  cudaTextureObject_t texture_ = 0;
  cudaSurfaceObject_t surface_ = 0;
  Shape shape_;
};

dim3 blocksOver(const Shape& s, dim3 block) {
  return dim3(blocksFor(s.nx, block.x), blocksFor(s.ny, block.y), blocksFor(s.nz, block.z));
}

class CudaEngine final : public ChEngine {
 public:
  CudaEngine(const CudaChConfig& config, ChTimings timings) : config_(config), timings_(timings) {}

  void reshape(const Shape& shape) override {
    const double bytes = double(shape.cells()) * sizeof(float) * (usesArrays() ? 3 : 2);
    requireDeviceMemory(bytes, heldBytes(), "a " + shapeText(shape) + " grid");
    for (auto& f : fields_) f.release();
    phi_.release();
    stage_.release();
    laplacian_.release();
    phi_.allocate(shape.cells());
    phi_.zero();
    shape_ = shape;
    if (usesArrays()) {
      for (auto& f : fields_) f.allocate(shape);
      fields_[0].copyFrom(phi_.data());
      current_ = 0;
      linearFresh_ = true;
    } else {
      stage_.allocate(shape.cells());
    }
  }
  const Shape& shape() const override { return shape_; }

  void load(std::span<const float> phi) override {
    WS_CUDA_CHECK(
        cudaMemcpy(phi_.data(), phi.data(), phi.size() * sizeof(float), cudaMemcpyHostToDevice));
    linearChanged();
  }
  std::vector<float> save() override {
    std::vector<float> phi(shape_.cells());
    WS_CUDA_CHECK(
        cudaMemcpy(phi.data(), linear(), phi.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return phi;
  }
  std::vector<CellValue> setCells(std::span<const CellValue> cells) override {
    if (cells.empty()) return {};
    if (edits_.size() < cells.size()) edits_.allocate(cells.size());
    WS_CUDA_CHECK(cudaMemcpy(edits_.data(), cells.data(), cells.size() * sizeof(CellValue),
                             cudaMemcpyHostToDevice));
    float* phi = linear();
    setCellsKernel<<<blocksFor(cells.size(), 256), 256>>>(phi, edits_.data(), int(cells.size()));
    WS_CUDA_CHECK_LAUNCH();
    std::vector<CellValue> before(cells.size());
    WS_CUDA_CHECK(cudaMemcpy(before.data(), edits_.data(), cells.size() * sizeof(CellValue),
                             cudaMemcpyDeviceToHost));
    linearChanged();
    return before;
  }

  void step(int steps, const Coefficients& k, Integrator integrator) override {
    if (steps <= 0) return;
    injectGpuFaultIfRequested();
    if (config_.constant) WS_CUDA_CHECK(cudaMemcpyToSymbol(cCoefficients, &k, sizeof k));
    ring_.start();
    if (const dim3 resident = residentGrid(); resident.z > 0) {
      residentSteps(resident, steps, k, integrator);
    } else {
      for (int i = 0; i < steps; ++i) {
        if (shape_.nz > 1)
          timeStep<3>(k, integrator, i > 0);
        else
          timeStep<2>(k, integrator, i > 0);
      }
    }
    const double cells = double(shape_.cells()) * steps;
    ring_.stop(cells, cells * bytesPerCell(integrator));
    if (usesArrays()) linearFresh_ = false;
  }

  Totals totals(const Coefficients& k) override {
    if (!sums_) sums_.allocate(2), crossings_.allocate(1);
    sums_.zero();
    crossings_.zero();
    const float* phi = linear();
    const unsigned blocks = blocksFor(shape_.cells(), kReduceBlock);
    if (shape_.nz > 1)
      totalsKernel<3><<<blocks, kReduceBlock>>>(phi, shape_, k, sums_.data(), crossings_.data());
    else
      totalsKernel<2><<<blocks, kReduceBlock>>>(phi, shape_, k, sums_.data(), crossings_.data());
    WS_CUDA_CHECK_LAUNCH();
    double sums[2];
    Totals t;
    WS_CUDA_CHECK(cudaMemcpy(sums, sums_.data(), sizeof sums, cudaMemcpyDeviceToHost));
    WS_CUDA_CHECK(
        cudaMemcpy(&t.crossings, crossings_.data(), sizeof t.crossings, cudaMemcpyDeviceToHost));
    t.mass = sums[0];
    t.energy = sums[1];
    return t;
  }

  void render(const Slice& slice, const FieldRequest& r, FieldImage& image) override {
    const std::size_t pixels = std::size_t(r.width) * r.height;
    viewRing_.start();
    const float* phi = linear();
    float* target = output_.prepare(image.pixels, pixels, image.onDevice);
    const dim3 block(32, 8);
    renderKernel<<<dim3(blocksFor(r.width, 32), blocksFor(r.height, 8)), block>>>(phi, shape_,
                                                                                  slice, r, target);
    WS_CUDA_CHECK_LAUNCH();
    viewRing_.stop(double(pixels), double(pixels) * sizeof(float));
    output_.deliver();
  }

  Volume volume() override {
    const float* phi = linear();
    if (laplacian_.size() != shape_.cells()) laplacian_.allocate(shape_.cells());
    const unsigned blocks = blocksFor(shape_.cells(), 256);
    if (shape_.nz > 1)
      laplacianKernel<3><<<blocks, 256>>>(phi, shape_, laplacian_.data());
    else
      laplacianKernel<2><<<blocks, 256>>>(phi, shape_, laplacian_.data());
    WS_CUDA_CHECK_LAUNCH();
    return {phi, laplacian_.data()};
  }

  void pollTimings() override {
    ring_.collect(*timings_.step);
    viewRing_.collect(*timings_.view);
  }
  void drainTimings() override {
    ring_.drain(*timings_.step);
    viewRing_.drain(*timings_.view);
  }
  void synchronize() override { WS_CUDA_CHECK(cudaDeviceSynchronize()); }

  std::string configuration() const override {
    const bool is3d = shape_.nz > 1;
    const std::string pointBlock = config_.strips ? "strips of 256x1" : "rectangles of 16x16";
    const std::string haloBlock =
        is3d ? "block 16x8x8 updating 12x4x4" : "block 16x16 updating 12x12";
    const std::string coefficients =
        config_.constant ? ", coefficients in __constant__" : ", coefficients as arguments";
    switch (config_.kernel) {
      case CudaChKernel::Global:
        return "global memory, " + pointBlock + coefficients;
      case CudaChKernel::Shared:
        return "shared memory, " + haloBlock + coefficients;
      case CudaChKernel::Texture:
        return "texture array (wrap), " + pointBlock + coefficients;
      case CudaChKernel::TextureShared:
        return "texture into shared, " + haloBlock + coefficients;
      case CudaChKernel::Shuffle:
        if (fourColumnsALane())
          return (is3d ? std::string(residentGrid().z > 0 ? "resident blocks" : "blocks") + " of " +
                             std::to_string(FastSlab::kUpdatingRows) +
                             " rows of 128 columns (4 a lane, " +
                             (pairs() ? "two float2s" : "float4") + ") marching through " +
                             slabPlanesText() + ", " + std::to_string(FastSlab::kStages) +
                             " copied ahead (cp.async), rows shared"
                       : "warps of 128 columns (4 a lane, float4) marching down " +
                             std::to_string(kVectorRows) + " rows") +
                 ", shuffles" + coefficients;
        return (is3d ? "warps of 32 columns x 4 rows marching through 32 planes, shuffles"
                     : "warps of 32 columns marching down 64 rows, shuffles") +
               coefficients;
      case CudaChKernel::Tiled:
        return (is3d ? "tiles of 32x8x4, 256 threads, mu once per cell"
                     : "tiles of 32x32, 256 threads, mu once per cell") +
               coefficients;
    }
    return "";
  }

 private:
  bool usesArrays() const {
    return config_.kernel == CudaChKernel::Texture || config_.kernel == CudaChKernel::TextureShared;
  }

  double heldBytes() const {
    return double(phi_.bytes() + stage_.bytes() + laplacian_.bytes()) +
           (usesArrays() ? 2.0 * double(shape_.cells()) * sizeof(float) : 0.0);
  }

  // The field in linear memory: phi_ itself, or for C and D a copy of the current array (made
  // when the steps since have changed it).
  float* linear() {
    if (usesArrays() && !linearFresh_) {
      fields_[current_].copyTo(phi_.data());
      linearFresh_ = true;
    }
    return phi_.data();
  }
  // After the linear field was written: C and D copy it into the current array.
  void linearChanged() {
    if (!usesArrays()) return;
    fields_[current_].copyFrom(phi_.data());
    linearFresh_ = true;
  }

  // afterStep: the stream's last kernel was the last pass of a step (which the next may overlap).
  template <int D>
  void timeStep(const Coefficients& k, Integrator integrator, bool afterStep) {
    if (usesArrays()) {
      TextureField& now = fields_[current_];
      TextureField& other = fields_[current_ ^ 1];
      if (integrator == Integrator::Euler) {
        arrayPass<D>(now, now, other, passStep(Pass::Euler, k), k);
        current_ ^= 1;
      } else {
        arrayPass<D>(now, now, other, passStep(Pass::Half, k), k);
        arrayPass<D>(other, now, now, passStep(Pass::Final, k), k);
      }
      return;
    }
    if (integrator == Integrator::Euler) {
      linearPass<D>(phi_.data(), phi_.data(), stage_.data(), passStep(Pass::Euler, k), k,
                    afterStep);
      std::swap(phi_, stage_);
    } else {
      linearPass<D>(phi_.data(), phi_.data(), stage_.data(), passStep(Pass::Half, k), k, afterStep);
      linearPass<D>(stage_.data(), phi_.data(), phi_.data(), passStep(Pass::Final, k), k, true);
    }
  }

  // A and C: one thread a cell, in rectangles or strips.
  dim3 pointBlock() const { return config_.strips ? dim3(256, 1, 1) : dim3(16, 16, 1); }

  template <int D>
  void linearPass(const float* in, const float* base, float* out, float h, const Coefficients& k,
                  bool afterPass) {
    if (config_.kernel == CudaChKernel::Global) {
      const dim3 block = pointBlock();
      if (config_.constant)
        recordedLaunch("globalKernel (constant)", globalKernel<D, true>, blocksOver(shape_, block),
                       block)(in, base, out, shape_, h, k);
      else
        recordedLaunch("globalKernel", globalKernel<D, false>, blocksOver(shape_, block), block)(
            in, base, out, shape_, h, k);
    } else if (config_.kernel == CudaChKernel::Shared) {
      using B = HaloBlock<D>;
      const dim3 block(B::kX, B::kY, B::kZ);
      const dim3 grid(blocksFor(shape_.nx, B::kInnerX), blocksFor(shape_.ny, B::kInnerY),
                      blocksFor(shape_.nz, B::kInnerZ));
      if (config_.constant)
        recordedLaunch("sharedKernel (constant)", sharedKernel<D, true>, grid, block)(in, base, out,
                                                                                      shape_, h, k);
      else
        recordedLaunch("sharedKernel", sharedKernel<D, false>, grid, block)(in, base, out, shape_,
                                                                            h, k);
    } else if (config_.kernel == CudaChKernel::Shuffle) {
      shufflePass<D>(in, base, out, h, k, afterPass);
    } else {
      using T = Tile<D>;
      const dim3 block(32, 8, 1);
      const dim3 grid(blocksFor(shape_.nx, T::kX), blocksFor(shape_.ny, T::kY),
                      blocksFor(shape_.nz, T::kZ));
      if (config_.constant)
        recordedLaunch("tiledKernel (constant)", tiledKernel<D, true>, grid, block)(in, base, out,
                                                                                    shape_, h, k);
      else
        recordedLaunch("tiledKernel", tiledKernel<D, false>, grid, block)(in, base, out, shape_, h,
                                                                          k);
    }
    WS_CUDA_CHECK_LAUNCH();
  }

  // The fast path: which kernel, for the dimensions, the coefficients and whether the pass adds
  // to its own input (Euler, RK2's half step) or to phi (RK2's final step). The four-column
  // kernels overlap the end of the pass before (afterPass: the stream's last kernel was one of
  // these passes) on Hopper and later: their blocks start as its last ones run and wait for it
  // (waitForPreviousGrid) before reading anything. A pass moves 64 MiB at 4096^2 in some 40 us,
  // several of them the launch and the tail: overlapped, Euler steps were 2-3.5% faster, RK2's
  // 1-3% (H200, 2026-11-29, runs 81-82).
  template <int D>
  void shufflePass(const float* in, const float* base, float* out, float h, const Coefficients& k,
                   bool afterPass) {
    const unsigned strips = blocksFor(shape_.nx, kShuffleColumns);
    const bool same = in == base;
    if constexpr (D == 2) {
      if (fourColumnsALane()) {
        const dim3 grid(blocksFor(shape_.nx, 128 * kVectorWarps),
                        blocksFor(shape_.ny, kVectorRows));
        const auto kernel =
            config_.constant ? (same ? vectorKernel2d<true, true> : vectorKernel2d<true, false>)
                             : (same ? vectorKernel2d<false, true> : vectorKernel2d<false, false>);
        dependentLaunch("vectorKernel2d", kernel, grid, dim3(32 * kVectorWarps), afterPass)(
            reinterpret_cast<const float4*>(in), reinterpret_cast<const float4*>(base),
            reinterpret_cast<float4*>(out), shape_, h, k, nextPassBackwards());
        return;
      }
      const dim3 grid(blocksFor(strips, kShuffleWarps), blocksFor(shape_.ny, kShuffleRows));
      const dim3 block(32 * kShuffleWarps);
      const auto kernel =
          config_.constant ? (same ? shuffleKernel2d<true, true> : shuffleKernel2d<true, false>)
                           : (same ? shuffleKernel2d<false, true> : shuffleKernel2d<false, false>);
      recordedLaunch("shuffleKernel2d", kernel, grid, block)(in, base, out, shape_, h, k);
    } else {
      if (fourColumnsALane()) {
        slabPass(in, base, out, h, k, afterPass);
        return;
      }
      const dim3 grid(strips, blocksFor(shape_.ny, kMarchRows * kMarchWarps),
                      blocksFor(shape_.nz, kMarchDepth));
      const dim3 block(32 * kMarchWarps);
      const auto kernel =
          config_.constant ? (same ? shuffleKernel3d<true, true> : shuffleKernel3d<true, false>)
                           : (same ? shuffleKernel3d<false, true> : shuffleKernel3d<false, false>);
      recordedLaunch("shuffleKernel3d", kernel, grid, block)(in, base, out, shape_, h, k);
    }
  }

  // The fast path's lanes hold four columns where a row is a whole number of float4s, and in 3-D
  // where it is a whole number of float2s (pairs(): a lane's four as two, the row's last quad a
  // half). In 3-D, also where the GPU lends a block the shared memory the kernel asks (Hopper and
  // the A100 do, Turing and the other Amperes not) and the rows fill at least five sixths of the
  // warps of 128 columns (a block's warps all share a row): at 320^3 and 322^3, rows 83% and 84%
  // full, it ran at 87% and 70% of the floor (RK2; Euler 90% and 71%) against the one-column
  // kernel's 57-58% (Euler 64%; H100, run 145 of 2026-12-07). Fuller rows were the rule before
  // (seven eighths: 320^3 had run at 47% RK2 on an H200 when a warp held one row and the passes
  // were launches); emptier ones are not measured. And in 3-D only for fields under 2^32 units
  // (64 or 32 GB), which its copies ahead address with 32-bit offsets.
  bool fourColumnsALane() const {
    if (shape_.nz == 1) return shape_.nx % 4 == 0;
    if (shape_.nx % 2 != 0) return false;
    if (std::size_t(shape_.nx / (pairs() ? 2 : 4)) * shape_.ny * shape_.nz >> 32) return false;
    const int warps = int(blocksFor(shape_.nx, 128));
    return slabFits() && 6 * shape_.nx >= 5 * 128 * warps;
  }
  // The 3-D four-column kernels reach rows of an odd number of float2s (nx 2 mod 4) in float2s.
  bool pairs() const { return shape_.nx % 4 != 0; }

  // The 3-D four-column kernels by [constant coefficients][the pass adds to its own input][pairs].
  using SlabKernel = void (*)(const float*, const float*, float*, Shape, float, Coefficients);
  template <bool kPairs>
  static SlabKernel slabKernelOf(bool constant, bool sameBase) {
    using S = FastSlab;
    return constant ? (sameBase ? vectorKernel3d<S, true, true, kPairs>
                                : vectorKernel3d<S, true, false, kPairs>)
                    : (sameBase ? vectorKernel3d<S, false, true, kPairs>
                                : vectorKernel3d<S, false, false, kPairs>);
  }
  static SlabKernel slabKernel(bool constant, bool sameBase, bool pairs) {
    return pairs ? slabKernelOf<true>(constant, sameBase) : slabKernelOf<false>(constant, sameBase);
  }

  // Whether the GPU lends a block the 3-D four-column kernel's shared memory; if it does, the
  // kernels are allowed it. Once a process: its device is chosen once (compute/core/backend.cpp).
  static bool slabFits() {
    static const bool fits = [] {
      using S = FastSlab;
      int device = 0, bytes = 0;
      WS_CUDA_CHECK(cudaGetDevice(&device));
      WS_CUDA_CHECK(
          cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
      if (std::size_t(bytes) < S::kSharedBytes) return false;
      for (const bool constant : {false, true}) {
        for (const bool sameBase : {false, true})
          for (const bool pairs : {false, true})
            WS_CUDA_CHECK(cudaFuncSetAttribute(slabKernel(constant, sameBase, pairs),
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(S::kSharedBytes)));
        for (const bool pairs : {false, true})
          WS_CUDA_CHECK(cudaFuncSetAttribute(residentKernel(constant, pairs),
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             int(S::kSharedBytes)));
      }
      return true;
    }();
    return fits;
  }

  // How many blocks of a slab's threads and shared memory running `kernel` the GPU holds at once.
  template <typename Kernel>
  static int slabBlocksAtOnce(Kernel kernel) {
    using S = FastSlab;
    int device = 0, multiprocessors = 0, perMultiprocessor = 0;
    WS_CUDA_CHECK(cudaGetDevice(&device));
    WS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    WS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, kernel,
                                                                S::kThreads, S::kSharedBytes));
    return multiprocessors * perMultiprocessor;
  }

  // How many of the slab kernels' blocks the GPU runs at once (once a process, as slabFits()).
  static int slabWave() {
    static const int wave = std::max(1, slabBlocksAtOnce(slabKernel(false, false, false)));
    return wave;
  }

  // The slab kernels' blocks: 128 columns, FastSlab::kUpdatingRows rows, a part of the planes.
  dim3 slabGrid() const {
    const unsigned columns = blocksFor(shape_.nx, 128),
                   rows = blocksFor(shape_.ny, FastSlab::kUpdatingRows);
    return dim3(columns, rows, unsigned(planeParts(int(columns * rows), shape_.nz, slabWave())));
  }
  std::string slabPlanesText() const {
    const unsigned resident = residentGrid().z;
    const unsigned parts = resident > 0 ? resident : slabGrid().z;
    return parts == 1 ? "all " + std::to_string(shape_.nz) + " planes"
                      : "a part of " + std::to_string(parts) + " of the planes (about " +
                            std::to_string((shape_.nz + parts / 2) / parts) + " each)";
  }

  // The 3-D fast path with four columns a lane: blocks of rows marching through the planes (only
  // where slabFits()).
  void slabPass(const float* in, const float* base, float* out, float h, const Coefficients& k,
                bool afterPass) {
    dependentLaunch("vectorKernel3d", slabKernel(config_.constant, in == base, pairs()), slabGrid(),
                    dim3(FastSlab::kThreads), afterPass,
                    FastSlab::kSharedBytes)(in, base, out, shape_, h, k);
  }

  // The resident kernels (ch_kernels.cuh) by [constant coefficients][pairs].
  using ResidentKernel = void (*)(ResidentPasses, Shape, Coefficients);
  static ResidentKernel residentKernel(bool constant, bool pairs) {
    using S = FastSlab;
    return constant
               ? (pairs ? residentKernel3d<S, true, true> : residentKernel3d<S, true, false>)
               : (pairs ? residentKernel3d<S, false, true> : residentKernel3d<S, false, false>);
  }

  // How many of the resident kernels' blocks the GPU holds at once: 0 where it cannot launch
  // cooperatively (which alone promises that every block of a launch is on the GPU at once, as
  // blocks that wait for each other need) or lends a block too little shared memory. Once a
  // process, as slabFits().
  static int residentWave() {
    static const int wave = [] {
      int device = 0, cooperative = 0;
      WS_CUDA_CHECK(cudaGetDevice(&device));
      WS_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
      if (!cooperative || !slabFits()) return 0;
      return std::min({slabBlocksAtOnce(residentKernel(false, false)),
                       slabBlocksAtOnce(residentKernel(false, true)),
                       slabBlocksAtOnce(residentKernel(true, false)),
                       slabBlocksAtOnce(residentKernel(true, true))});
    }();
    return wave;
  }

  // The resident launch's grid: the slab kernel's blocks of rows and columns, the planes in as many
  // parts as the GPU holds blocks for at once (each at least six planes deep, so that a block's
  // reads, the copies past its march's end included, reach no part beyond the next). z is 0 where
  // resident blocks are not used: unless asked (CudaChConfig::resident), in 2-D, where the lanes
  // hold a column each or too few blocks fit, and where the last block of rows holds one row (the
  // first block's halo would reach the block before it, two blocks away).
  dim3 residentGrid() const {
    const unsigned columns = blocksFor(shape_.nx, 128),
                   rows = blocksFor(shape_.ny, FastSlab::kUpdatingRows);
    if (!config_.resident || config_.kernel != CudaChKernel::Shuffle || shape_.nz == 1 ||
        !fourColumnsALane() || shape_.ny % FastSlab::kUpdatingRows == 1)
      return dim3(columns, rows, 0);
    const int parts = std::min(residentWave() / int(columns * rows), shape_.nz / 6);
    return dim3(columns, rows, unsigned(std::max(parts, 0)));
  }

  // The steps in launches of resident blocks (residentKernel3d) over `grid` (residentGrid()), at
  // most kResidentSteps a launch:
  // a GPU that also drives a display stops a kernel that runs for seconds.
  static constexpr int kResidentSteps = 32;
  void residentSteps(dim3 grid, int steps, const Coefficients& k, Integrator integrator) {
    const unsigned blocks = grid.x * grid.y * grid.z;
    if (done_.size() < blocks) done_.allocate(blocks);
    const bool rk2 = integrator == Integrator::RK2;
    const ResidentKernel kernel = residentKernel(config_.constant, pairs());
    for (int first = 0; first < steps; first += kResidentSteps) {
      const int launched = std::min(kResidentSteps, steps - first);
      WS_CUDA_CHECK(cudaMemsetAsync(done_.data(), 0, blocks * sizeof(unsigned)));
      ResidentPasses passes{.phi = phi_.data(),
                            .other = stage_.data(),
                            .count = rk2 ? 2 * launched : launched,
                            .rk2 = rk2,
                            .oddBefore = oddPasses_,
                            .done = done_.data()};
      Shape shape = shape_;
      Coefficients coefficients = k;
      void* args[] = {&passes, &shape, &coefficients};
      WS_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid,
                                                dim3(FastSlab::kThreads), args,
                                                FastSlab::kSharedBytes, nullptr));
      oddPasses_ = oddPasses_ != (passes.count % 2 == 1);
      if (!rk2 && launched % 2 == 1) std::swap(phi_, stage_);  // Euler's passes swap the fields
    }
    if (std::vector<KernelLaunch>* log = launchLog())
      noteLaunch(*log, "residentKernel3d", reinterpret_cast<const void*>(kernel), grid,
                 dim3(FastSlab::kThreads), FastSlab::kSharedBytes);
  }

  // Back and forth (CudaChConfig::backAndForth): every other pass of the 2-D four-column kernel
  // from the grid's end, so that each begins where the one before ended (RK2's final pass where
  // its half step ended, the next step's half step where that ended; Euler's steps in turn).
  bool nextPassBackwards() {
    backwards_ = config_.backAndForth && !backwards_;
    return backwards_;
  }

  template <int D>
  void arrayPass(const TextureField& in, const TextureField& base, const TextureField& out, float h,
                 const Coefficients& k) {
    const TextureGrid g{1.0f / float(shape_.nx), 1.0f / float(shape_.ny), 1.0f / float(shape_.nz)};
    if (config_.kernel == CudaChKernel::Texture) {
      const dim3 block = pointBlock();
      if (config_.constant)
        recordedLaunch("textureKernel (constant)", textureKernel<D, true>,
                       blocksOver(shape_, block),
                       block)(in.texture(), base.texture(), out.surface(), shape_, g, h, k);
      else
        recordedLaunch("textureKernel", textureKernel<D, false>, blocksOver(shape_, block), block)(
            in.texture(), base.texture(), out.surface(), shape_, g, h, k);
    } else {
      using B = HaloBlock<D>;
      const dim3 block(B::kX, B::kY, B::kZ);
      const dim3 grid(blocksFor(shape_.nx, B::kInnerX), blocksFor(shape_.ny, B::kInnerY),
                      blocksFor(shape_.nz, B::kInnerZ));
      if (config_.constant)
        recordedLaunch("textureSharedKernel (constant)", textureSharedKernel<D, true>, grid, block)(
            in.texture(), base.texture(), out.surface(), shape_, g, h, k);
      else
        recordedLaunch("textureSharedKernel", textureSharedKernel<D, false>, grid, block)(
            in.texture(), base.texture(), out.surface(), shape_, g, h, k);
    }
    WS_CUDA_CHECK_LAUNCH();
  }

  CudaChConfig config_;
  ChTimings timings_;
  GpuTimerRing ring_, viewRing_;
  Shape shape_;
  DeviceBuffer<float> phi_, stage_;  // stage_: A, B and the fast path only
  bool backwards_ = false;           // the last 2-D four-column pass ran backwards
  bool oddPasses_ = false;           // the resident launches have made an odd number of passes
  DeviceBuffer<unsigned> done_;      // the resident blocks' counters of passes finished
  TextureField fields_[2];           // C and D: the field and the stage (or Euler's next)
  int current_ = 0;
  bool linearFresh_ = true;        // C and D: phi_ holds the current array's values
  DeviceBuffer<float> laplacian_;  // the 3-D view's, made when asked
  DeviceBuffer<CellValue> edits_;
  DeviceBuffer<double> sums_;
  DeviceBuffer<unsigned long long> crossings_;
  DeviceOutput<float> output_;
};

}  // namespace

std::unique_ptr<ChEngine> makeCudaEngine(const CudaChConfig& config, ChTimings timings) {
  return std::make_unique<CudaEngine>(config, timings);
}

}  // namespace ws::ch
