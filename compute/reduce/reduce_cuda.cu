// The lab's CUDA kernels: the lecture's three shared-memory reductions, a warp-shuffle and a
// ballot reduction, a single-word atomic one and CUB's; three hand-written scans and CUB's.
// The hand-written ones work a block at a time; their per-block totals are reduced or scanned by
// the same kernel again until one block is left (the lecture's "kernel decomposition").
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "compute/core/cuda_check.h"
#include "compute/core/device_buffer.h"
#include "compute/core/gpu_timer.h"
#include "compute/reduce/reduce_lab.h"

namespace ws::reduce {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// ---- Reductions, one block's elements to one partial sum ----------------------------------

// Each thread of the block copies one element (0 past the end) into shared memory, then waits
// for the others.
__device__ void loadBlock(const std::uint32_t* in, std::size_t n, std::uint32_t* sdata) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
}

// #1: thread tid adds when tid is a multiple of 2s: the active threads are spread over every
// warp, so every warp keeps running (divergent) until the last steps, and % is slow.
__global__ void reduceInterleavedKernel(const std::uint32_t* in, std::uint32_t* out,
                                        std::size_t n) {
  extern __shared__ std::uint32_t sdata[];
  const unsigned tid = threadIdx.x;
  loadBlock(in, n, sdata);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// #2: the first threads do the work (no divergence until fewer than 32 remain), but thread tid
// touches word 2*s*tid: a warp's accesses fall into ever fewer banks (s-way conflicts).
__global__ void reduceStridedKernel(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t sdata[];
  const unsigned tid = threadIdx.x;
  loadBlock(in, n, sdata);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// #3: the first s threads add the upper half onto the lower: consecutive threads, consecutive
// words, no conflicts. With `barrier` false the __syncthreads() between steps is gone: a thread
// may read a partial sum before the thread that owns it has added to it (the race demonstration).
template <bool barrier>
__global__ void reduceSequentialKernel(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t sdata[];
  const unsigned tid = threadIdx.x;
  loadBlock(in, n, sdata);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    if constexpr (barrier) __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ std::uint32_t warpSum(std::uint32_t v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// The block's sum of each thread's `v`, in thread 0: warps sum by shuffles, then warp 0 sums the
// warps' totals.
__device__ std::uint32_t blockSum(std::uint32_t v) {
  __shared__ std::uint32_t warpTotals[32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warpSum(v);
  if (lane == 0) warpTotals[warp] = v;
  __syncthreads();
  v = 0;
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    v = warpSum(v);
  }
  return v;
}

// Each thread first sums many elements (four at a time, 16-byte loads) in a grid-stride loop, so
// a few blocks per multiprocessor stream the whole array; then shuffles replace shared memory.
__global__ void reduceShuffleKernel(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t sum = 0;
  const uint4* quads = reinterpret_cast<const uint4*>(in);
  for (std::size_t q = first; q < n / 4; q += stride) {
    const uint4 v = quads[q];
    sum += v.x + v.y + v.z + v.w;
  }
  for (std::size_t i = n / 4 * 4 + first; i < n; i += stride) sum += in[i];
  sum = blockSum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Bit-sliced: for each of the value's `bits` bits a warp votes with __ballot_sync and counts the
// ones with __popc; bit b's count is worth 2^b. Fermi added these two instructions (Jade ch. 3).
// Every block adds its total to *out with one atomicAdd.
__global__ void reduceBallotKernel(const std::uint32_t* in, std::uint32_t* out, std::size_t n,
                                   int bits) {
  const unsigned lane = threadIdx.x & 31;
  const std::size_t warps = std::size_t(gridDim.x) * blockDim.x / 32;
  std::uint32_t sum = 0;  // the same in every lane
  // The loop's bound is the warp's, not the lane's, so that all 32 lanes vote every time.
  for (std::size_t base = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x - lane); base < n;
       base += warps * 32) {
    const std::uint32_t v = base + lane < n ? in[base + lane] : 0;
    for (int b = 0; b < bits; ++b)
      sum += std::uint32_t(__popc(__ballot_sync(kFullMask, (v >> b) & 1))) << b;
  }
  __shared__ std::uint32_t warpTotals[32];
  if (lane == 0) warpTotals[threadIdx.x >> 5] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t total = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) total += warpTotals[w];
    atomicAdd(out, total);
  }
}

// Every thread adds its element to the one result word: as many atomics as elements, all on one
// address, which the memory system must serialize.
__global__ void reduceAtomicKernel(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

// ---- Scans, one block's elements, with the block's total for the next level ---------------

// Hillis and Steele: at step d every thread adds the element 2^d before it. log2(B) steps but
// B log2(B) additions; two buffers so a step reads only the previous step's values.
__global__ void scanHillisSteeleKernel(const std::uint32_t* in, std::uint32_t* out,
                                       std::uint32_t* blockTotals, std::size_t n, bool inclusive) {
  extern __shared__ std::uint32_t buffer[];  // 2 x blockDim.x
  const unsigned tid = threadIdx.x, B = blockDim.x;
  const std::size_t i = std::size_t(blockIdx.x) * B + tid;
  const std::uint32_t v = i < n ? in[i] : 0;
  unsigned current = 0;
  buffer[tid] = v;
  __syncthreads();
  for (unsigned offset = 1; offset < B; offset *= 2) {
    std::uint32_t x = buffer[current * B + tid];
    if (tid >= offset) x += buffer[current * B + tid - offset];
    current ^= 1;
    buffer[current * B + tid] = x;
    __syncthreads();
  }
  const std::uint32_t sum = buffer[current * B + tid];
  if (i < n) out[i] = inclusive ? sum : sum - v;
  if (blockTotals && tid == B - 1) blockTotals[blockIdx.x] = sum;
}

// Blelloch (GPU Gems 3 ch. 39): an up-sweep builds a tree of partial sums in place, a down-sweep
// turns it into an exclusive scan: O(B) additions, two elements per thread. The tree's strides
// are powers of two, so without padding a warp's accesses pile into a few banks; one padding word
// per 32 spreads them.
template <bool padded>
__device__ unsigned bankFree(unsigned index) {
  return padded ? index + (index >> 5) : index;
}

template <bool padded>
__global__ void scanBlellochKernel(const std::uint32_t* in, std::uint32_t* out,
                                   std::uint32_t* blockTotals, std::size_t n, bool inclusive) {
  extern __shared__ std::uint32_t tree[];
  const unsigned tid = threadIdx.x, elements = 2 * blockDim.x;
  const std::size_t base = std::size_t(blockIdx.x) * elements;
  const unsigned a = tid, b = tid + blockDim.x;
  const std::uint32_t va = base + a < n ? in[base + a] : 0;
  const std::uint32_t vb = base + b < n ? in[base + b] : 0;
  tree[bankFree<padded>(a)] = va;
  tree[bankFree<padded>(b)] = vb;
  unsigned offset = 1;
  for (unsigned d = elements / 2; d > 0; d >>= 1, offset *= 2) {
    __syncthreads();
    if (tid < d) {
      const unsigned left = offset * (2 * tid + 1) - 1, right = offset * (2 * tid + 2) - 1;
      tree[bankFree<padded>(right)] += tree[bankFree<padded>(left)];
    }
  }
  __shared__ std::uint32_t total;
  if (tid == 0) {
    total = tree[bankFree<padded>(elements - 1)];
    tree[bankFree<padded>(elements - 1)] = 0;
  }
  for (unsigned d = 1; d < elements; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const unsigned left = offset * (2 * tid + 1) - 1, right = offset * (2 * tid + 2) - 1;
      const std::uint32_t t = tree[bankFree<padded>(left)];
      tree[bankFree<padded>(left)] = tree[bankFree<padded>(right)];
      tree[bankFree<padded>(right)] += t;
    }
  }
  __syncthreads();
  const std::uint32_t ea = tree[bankFree<padded>(a)], eb = tree[bankFree<padded>(b)];
  if (base + a < n) out[base + a] = inclusive ? ea + va : ea;
  if (base + b < n) out[base + b] = inclusive ? eb + vb : eb;
  if (blockTotals && tid == 0) blockTotals[blockIdx.x] = total;
}

// Warp scans by __shfl_up_sync (five steps, no shared memory, no barrier), then one warp scans
// the warps' totals.
__device__ std::uint32_t warpInclusiveScan(std::uint32_t v) {
  const unsigned lane = threadIdx.x & 31;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const std::uint32_t up = __shfl_up_sync(kFullMask, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

__global__ void scanShuffleKernel(const std::uint32_t* in, std::uint32_t* out,
                                  std::uint32_t* blockTotals, std::size_t n, bool inclusive) {
  __shared__ std::uint32_t warpTotals[32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t v = i < n ? in[i] : 0;
  std::uint32_t sum = warpInclusiveScan(v);
  if (lane == 31) warpTotals[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    const std::uint32_t total = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    warpTotals[lane] = warpInclusiveScan(total) - total;  // exclusive: the warps before
  }
  __syncthreads();
  sum += warpTotals[warp];
  if (i < n) out[i] = inclusive ? sum : sum - v;
  if (blockTotals && threadIdx.x == blockDim.x - 1) blockTotals[blockIdx.x] = sum;
}

// Adds each block's offset (the exclusive scan of the block totals) to its elements.
__global__ void addOffsetsKernel(std::uint32_t* out, const std::uint32_t* offsets, std::size_t n,
                                 unsigned perBlock) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] += offsets[i / perBlock];
}

__global__ void countMismatchesKernel(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                                      unsigned long long* count) {
  unsigned long long wrong = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    wrong += a[i] != b[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    wrong += __shfl_down_sync(kFullMask, wrong, offset);
  if ((threadIdx.x & 31) == 0 && wrong) atomicAdd(count, wrong);
}

__global__ void fillInputKernel(std::uint32_t* values, std::size_t n, std::uint32_t seed,
                                std::uint32_t maxValue) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) values[i] = inputValue(i, seed, maxValue);
}

__global__ void renderKernel(const std::uint32_t* values, std::size_t n, int width, float scale,
                             FieldRequest request, float* pixels) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= request.width || py >= request.height) return;
  pixels[std::size_t(py) * request.width + px] =
      arrayPixel(values, n, width, scale, request, px, py);
}

using ScanKernel = void (*)(const std::uint32_t*, std::uint32_t*, std::uint32_t*, std::size_t,
                            bool);
using ReduceKernel = void (*)(const std::uint32_t*, std::uint32_t*, std::size_t);

int bitsOf(std::uint32_t maxValue) {
  int bits = 0;
  while (bits < 32 && (maxValue >> bits)) ++bits;
  return bits;
}

class CudaReduceEngine final : public ReduceEngine {
 public:
  CudaReduceEngine(const LabConfig& config, LabTimings timings)
      : config_(config), timings_(timings) {
    WS_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, 0));
  }

  void setInput(std::size_t n, std::uint32_t seed, std::uint32_t maxValue) override {
    const double old = double(input_.bytes() + output_.bytes() + reference_.bytes() +
                              scratch_.bytes() + cubScratch_.bytes());
    requireDeviceMemory(double(n) * 3 * sizeof(std::uint32_t), old,
                        std::to_string(n) + " elements");
    input_.allocate(std::max<std::size_t>(n, 1));
    output_.allocate(std::max<std::size_t>(isScan(config_.operation) ? n : 1, 1));
    reference_.release();
    n_ = n;
    bits_ = bitsOf(maxValue);
    fillInputKernel<<<blocksFor(std::max<std::size_t>(n, 1), 256), 256>>>(input_.data(), n, seed,
                                                                          maxValue);
    WS_CUDA_CHECK(cudaGetLastError());
    allocateScratch();
    output_.zero();
  }

  void run(int count) override {
    // One timing sample per call, as the benchmark expects.
    const double n = double(n_) * count;
    ring_.start();
    for (int c = 0; c < count; ++c) {
      if (isScan(config_.operation))
        scan(input_.data(), output_.data(), n_, config_.operation == Operation::InclusiveScan, 0);
      else
        reduce();
    }
    ring_.stop(n, n * bytesPerElement(config_.operation));
    WS_CUDA_CHECK(cudaGetLastError());
  }

  std::uint32_t result() override {
    if (n_ == 0) return 0;
    const std::size_t last = isScan(config_.operation) ? n_ - 1 : 0;
    return toHost(output_.data() + last, 1)[0];
  }
  std::vector<std::uint32_t> output() override {
    return toHost(output_.data(), isScan(config_.operation) ? n_ : 1);
  }
  std::vector<std::uint32_t> input() override { return toHost(input_.data(), n_); }

  void setReference(const std::vector<std::uint32_t>& reference) override {
    reference_ = toDevice(reference);
    referenceSize_ = reference.size();
  }
  std::size_t mismatches() override {
    const std::size_t n = isScan(config_.operation) ? n_ : 1;
    if (referenceSize_ != n) return std::max(referenceSize_, n);
    counter_.zero();
    countMismatchesKernel<<<std::max(1u, std::min(blocksFor(n, 256), 4096u)), 256>>>(
        output_.data(), reference_.data(), n, counter_.data());
    WS_CUDA_CHECK(cudaGetLastError());
    return std::size_t(toHost(counter_.data(), 1)[0]);
  }

  void render(int view, float scale, const FieldRequest& request, FieldImage& image) override {
    const std::size_t pixels = std::size_t(image.width) * image.height;
    float* target = imageOut_.prepare(image.pixels, pixels, image.onDevice);
    const bool scanned = view == 1 && isScan(config_.operation);
    viewRing_.start();
    renderKernel<<<dim3(blocksFor(image.width, 32), blocksFor(image.height, 8)), dim3(32, 8)>>>(
        view == 0 ? input_.data() : output_.data(), view == 0 || scanned ? n_ : 0, imageWidth(n_),
        scale, request, target);
    viewRing_.stop(double(pixels), double(pixels) * sizeof(float));
    WS_CUDA_CHECK(cudaGetLastError());
    imageOut_.deliver();
  }

  std::string configuration() const override {
    std::string text = "blocks of " + std::to_string(config_.block) + " threads";
    switch (config_.kernel) {
      case Kernel::Shuffle:
      case Kernel::Ballot:
        return text + ", " + std::to_string(streamingBlocks()) + " blocks";
      case Kernel::Blelloch:
        return text + ", 2 elements per thread";
      case Kernel::CubReduce:
      case Kernel::CubScan:
        return "CUB chooses its own launch";
      default:
        return text + ", 1 element per thread";
    }
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

 private:
  unsigned block() const { return unsigned(config_.block); }
  unsigned elementsPerBlock() const {
    return config_.kernel == Kernel::Blelloch ? 2 * block() : block();
  }
  // The grid-stride kernels launch enough blocks to fill the GPU, no more.
  unsigned streamingBlocks() const { return unsigned(multiprocessors_) * (2048 / block()); }

  // One buffer for every level's block totals, one level after the other.
  void allocateScratch() {
    std::size_t total = 2;
    for (std::size_t level = blocksFor(n_, elementsPerBlock()); level > 1;
         level = blocksFor(level, elementsPerBlock()))
      total += level + 1;
    scratch_.allocate(std::max<std::size_t>(total, streamingBlocks()) + 2);
    std::size_t cubBytes = 0;
    if (config_.kernel == Kernel::CubReduce)
      WS_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cubBytes, input_.data(), output_.data(), n_));
    if (config_.kernel == Kernel::CubScan)
      WS_CUDA_CHECK(
          cub::DeviceScan::InclusiveSum(nullptr, cubBytes, input_.data(), output_.data(), n_));
    cubScratch_.allocate(std::max<std::size_t>(cubBytes, 1));
    cubBytes_ = cubBytes;
  }

  // Into the running step's launch log: the first launch of each kind (the first pass of a
  // recursion), eight at most.
  static void note(const KernelLaunch& record) {
    std::vector<KernelLaunch>* log = launchLog();
    if (!log || log->size() >= 8 ||
        std::any_of(log->begin(), log->end(),
                    [&](const KernelLaunch& l) { return l.name == record.name; }))
      return;
    log->push_back(record);
  }

  template <typename F, typename... Args>
  void launch(const char* name, F kernel, unsigned grid, unsigned threads, std::size_t shared,
              Args... args) {
    kernel<<<grid, threads, shared>>>(args...);
    KernelLaunch record;
    record.name = name;
    record.function = reinterpret_cast<const void*>(kernel);
    record.grid[0] = grid;
    record.block[0] = threads;
    record.dynamicShared = shared;
    note(record);
  }

  void reduce() {
    const std::size_t words = sizeof(std::uint32_t);
    switch (config_.kernel) {
      case Kernel::CubReduce:
        note({"cub::DeviceReduce::Sum"});
        WS_CUDA_CHECK(cub::DeviceReduce::Sum(cubScratch_.data(), cubBytes_, input_.data(),
                                             output_.data(), n_));
        return;
      case Kernel::Atomic:
      case Kernel::Ballot:
        WS_CUDA_CHECK(cudaMemsetAsync(output_.data(), 0, words));
        if (config_.kernel == Kernel::Atomic)
          launch("reduceAtomicKernel", reduceAtomicKernel, blocksFor(n_, block()), block(), 0,
                 input_.data(), output_.data(), n_);
        else
          launch("reduceBallotKernel", reduceBallotKernel, streamingBlocks(), block(), 0,
                 input_.data(), output_.data(), n_, bits_);
        return;
      case Kernel::Shuffle:
        launch("reduceShuffleKernel", reduceShuffleKernel, streamingBlocks(), block(), 0,
               input_.data(), scratch_.data(), n_);
        launch("reduceShuffleKernel", reduceShuffleKernel, 1u, block(), 0,
               static_cast<const std::uint32_t*>(scratch_.data()), output_.data(),
               std::size_t(streamingBlocks()));
        return;
      default:
        break;
    }
    // #1 to #3: each pass leaves one partial sum per block, until one is left.
    ReduceKernel kernel = reduceSequentialKernel<true>;
    const char* name = "reduceSequentialKernel";
    if (config_.kernel == Kernel::Interleaved) {
      kernel = reduceInterleavedKernel;
      name = "reduceInterleavedKernel";
    } else if (config_.kernel == Kernel::Strided) {
      kernel = reduceStridedKernel;
      name = "reduceStridedKernel";
    } else if (config_.removeBarrier) {
      kernel = reduceSequentialKernel<false>;
      name = "reduceSequentialKernel (no barrier)";
    }
    const std::uint32_t* from = input_.data();
    std::size_t count = n_, offset = 0;
    for (;;) {
      const unsigned blocks = blocksFor(count, block());
      std::uint32_t* to = blocks == 1 ? output_.data() : scratch_.data() + offset;
      launch(name, kernel, blocks, block(), block() * words, from, to, count);
      if (blocks == 1) return;
      from = to;
      count = blocks;
      offset += blocks + 1;
    }
  }

  // Scans in[0, n) into out (in place is allowed); `level` picks the block totals' buffer.
  void scan(const std::uint32_t* in, std::uint32_t* out, std::size_t n, bool inclusive,
            std::size_t levelOffset) {
    if (config_.kernel == Kernel::CubScan) {
      note({inclusive ? "cub::DeviceScan::InclusiveSum" : "cub::DeviceScan::ExclusiveSum"});
      if (inclusive)
        WS_CUDA_CHECK(cub::DeviceScan::InclusiveSum(cubScratch_.data(), cubBytes_, in, out, n));
      else
        WS_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cubScratch_.data(), cubBytes_, in, out, n));
      return;
    }
    if (n == 0) return;
    const unsigned perBlock = elementsPerBlock(), blocks = blocksFor(n, perBlock);
    std::uint32_t* totals = blocks > 1 ? scratch_.data() + levelOffset : nullptr;
    const std::size_t words = sizeof(std::uint32_t);
    switch (config_.kernel) {
      case Kernel::HillisSteele:
        launch("scanHillisSteeleKernel", scanHillisSteeleKernel, blocks, block(),
               2 * block() * words, in, out, totals, n, inclusive);
        break;
      case Kernel::Blelloch: {
        const std::size_t shared = (perBlock + perBlock / 32) * words;
        if (config_.padded)
          launch("scanBlellochKernel (padded)", scanBlellochKernel<true>, blocks, block(), shared,
                 in, out, totals, n, inclusive);
        else
          launch("scanBlellochKernel", scanBlellochKernel<false>, blocks, block(), shared, in, out,
                 totals, n, inclusive);
        break;
      }
      default:
        launch("scanShuffleKernel", scanShuffleKernel, blocks, block(), 0, in, out, totals, n,
               inclusive);
        break;
    }
    if (blocks == 1) return;
    scan(totals, totals, blocks, false, levelOffset + blocks + 1);
    launch("addOffsetsKernel", addOffsetsKernel, blocksFor(n, 256), 256u, 0, out,
           static_cast<const std::uint32_t*>(totals), n, perBlock);
  }

  LabConfig config_;
  LabTimings timings_;
  int multiprocessors_ = 0;
  std::size_t n_ = 0, referenceSize_ = 0, cubBytes_ = 0;
  int bits_ = 32;
  DeviceBuffer<std::uint32_t> input_, output_, reference_, scratch_;
  DeviceBuffer<unsigned char> cubScratch_;
  DeviceBuffer<unsigned long long> counter_{1};
  DeviceOutput<float> imageOut_;
  GpuTimerRing ring_, viewRing_;
};

}  // namespace

std::unique_ptr<ReduceEngine> makeCudaEngine(const LabConfig& config, LabTimings timings) {
  return std::make_unique<CudaReduceEngine>(config, timings);
}

}  // namespace ws::reduce
