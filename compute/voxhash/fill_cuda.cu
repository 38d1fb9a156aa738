#include <cooperative_groups.h>

#include <algorithm>

#include "compute/core/launch.cuh"
#include "compute/core/launch.h"
#include "compute/voxhash/fill_cuda.h"

namespace ws::voxhash {

namespace {

namespace cg = cooperative_groups;

// One model's box in the fill kernel: its shell's bits and the outside grown in place.
struct FillJob {
  int size[3] = {0, 0, 0};
  int words = 0;
  const unsigned* shell = nullptr;
  unsigned* outside = nullptr;

  // The lines a pass along `axis` runs: rows of words along x, columns of words along y or z.
  __device__ std::size_t lines(int axis) const {
    return axis == 0   ? std::size_t(size[1]) * size[2]
           : axis == 1 ? std::size_t(words) * size[2]
                       : std::size_t(words) * size[1];
  }
};

struct FillJobs {
  FillJob job[CudaShellFill::kMaxModels];
  int count = 0;
};

__global__ void markShellKernel(const std::uint32_t* keys, std::size_t n, VoxelBox box,
                                FillJob job) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x, y, z;
  unpackVoxel(keys[i], x, y, z);
  x -= box.lo[0], y -= box.lo[1], z -= box.lo[2];
  atomicOr(
      const_cast<unsigned*>(job.shell) + (std::size_t(z) * job.size[1] + y) * job.words + x / 32,
      1u << (x % 32));
}

// The bits of `free` reached from those of `from` by moving to higher bits through free ones:
// adding the seeds to the free runs carries each seed through the rest of its run, flipping it.
__device__ unsigned spreadUp(unsigned from, unsigned free) {
  const unsigned seeds = from & free;
  return (((free + seeds) ^ free) & free) | seeds;
}

// At most 32 words per row (kMaxGridSide cells) and 32 cells per lane's segment of a column: a
// line is loaded into registers at once (every load in flight together), worked on there, and
// only the words that changed are stored. Loops over kMaxWords unroll, so the arrays stay in
// registers.
constexpr int kMaxWords = kMaxGridSide / 32;

// A row of x to its fixed point: the outside carried up through the words, then down (bit order
// reversed), entering at both ends from beyond the box.
__device__ bool fillRow(const FillJob& j, std::size_t row) {
  const unsigned* __restrict__ shell = j.shell + row * j.words;
  unsigned* __restrict__ outside = j.outside + row * j.words;
  const int n = j.words;
  unsigned out[kMaxWords], free[kMaxWords], changed = 0;  // bit w: word w changed
#pragma unroll
  for (int w = 0; w < kMaxWords; ++w)
    if (w < n) out[w] = outside[w], free[w] = ~shell[w];
  unsigned carry = 1;
#pragma unroll
  for (int w = 0; w < kMaxWords; ++w)
    if (w < n) {
      const unsigned now = spreadUp(out[w] | carry, free[w]);
      carry = now >> 31;
      if (now != out[w]) out[w] = now, changed |= 1u << w;
    }
  carry = 1;
#pragma unroll
  for (int w = kMaxWords - 1; w >= 0; --w)
    if (w < n) {
      const unsigned old = __brev(out[w]), now = spreadUp(old | carry, __brev(free[w]));
      carry = now >> 31;
      if (now != old) out[w] = __brev(now), changed |= 1u << w;
    }
#pragma unroll
  for (int w = 0; w < kMaxWords; ++w)
    if (changed >> w & 1u) outside[w] = out[w];
  return changed != 0;
}

// A column of words along y or z to its fixed point, by one warp: 32 columns of cells at once.
// Along a column a cell becomes out = old | (before & free), a map of `before` that composes with
// the next cell's into one of the same form, (o2 | (o1 & p2), p1 & p2), associatively. So each
// lane folds its segment of the column into one map for each direction, a shuffle scan over the
// lanes gives every segment what enters it from either end (beyond the box: outside), and each
// lane walks its segment both ways. Each direction's carries come from the old values: the union
// of what spreads up and what spreads down from the old outside is the column's closure.
__device__ bool fillColumn(const FillJob& j, std::size_t first, std::size_t stride, int length) {
  const int lane = threadIdx.x % 32, segment = (length + 31) / 32;
  const int begin = min(lane * segment, length), n = min(begin + segment, length) - begin;
  const unsigned* __restrict__ shell = j.shell + first + begin * stride;
  unsigned* __restrict__ outside = j.outside + first + begin * stride;
  unsigned out[kMaxWords], free[kMaxWords], changed = 0;  // bit i: cell i changed
#pragma unroll
  for (int i = 0; i < kMaxWords; ++i)
    if (i < n) out[i] = outside[i * stride], free[i] = ~shell[i * stride];
  unsigned up = 0, down = 0, through = ~0u;  // the segment's maps upward (up, through), downward
#pragma unroll
  for (int i = 0; i < kMaxWords; ++i)
    if (i < n) {
      up = out[i] | (up & free[i]);
      down |= out[i] & through;
      through &= free[i];
    }
  // Inclusive scans: the maps of lanes 0..lane (applied in that order) and lane..31 (down).
  unsigned upThrough = through, downThrough = through;
  for (int d = 1; d < 32; d *= 2) {
    const unsigned o = __shfl_up_sync(~0u, up, d), p = __shfl_up_sync(~0u, upThrough, d);
    if (lane >= d) up |= o & upThrough, upThrough &= p;
    const unsigned od = __shfl_down_sync(~0u, down, d), pd = __shfl_down_sync(~0u, downThrough, d);
    if (lane + d < 32) down |= od & downThrough, downThrough &= pd;
  }
  // What enters this segment: the outside beyond the box, through the lanes before (after) it.
  unsigned fromBelow = __shfl_up_sync(~0u, up | upThrough, 1),
           fromAbove = __shfl_down_sync(~0u, down | downThrough, 1);
  if (lane == 0) fromBelow = ~0u;
  if (lane == 31) fromAbove = ~0u;
#pragma unroll
  for (int i = 0; i < kMaxWords; ++i)
    if (i < n) {
      const unsigned now = out[i] | (fromBelow & free[i]);
      if (now != out[i]) out[i] = now, changed |= 1u << i;
      fromBelow = now;
    }
#pragma unroll
  for (int i = kMaxWords - 1; i >= 0; --i)
    if (i < n) {
      const unsigned now = out[i] | (fromAbove & free[i]);
      if (now != out[i]) out[i] = now, changed |= 1u << i;
      fromAbove = now;
    }
#pragma unroll
  for (int i = 0; i < kMaxWords; ++i)
    if (changed >> i & 1u) outside[i * stride] = out[i];
  return changed != 0;
}

__device__ bool fillLine(const FillJob& j, int axis, std::size_t line) {
  if (axis == 0) return fillRow(j, line);
  const std::size_t w = line % j.words, across = line / j.words;  // z for y, y for z
  const std::size_t plane = std::size_t(j.words) * j.size[1];
  return axis == 1 ? fillColumn(j, across * plane + w, j.words, j.size[1])
                   : fillColumn(j, across * j.words + w, plane, j.size[2]);
}

// All passes of all jobs. flags[p % 4] is set when pass p changed a cell; flags[4] receives the
// passes made. The flag of pass p + 1 is cleared during pass p, when its last readers (at the
// end of pass p - 2) are past the barrier of pass p - 1.
__global__ void fillKernel(FillJobs jobs, unsigned* flags) {
  cg::grid_group grid = cg::this_grid();
  const std::size_t threads = grid.size();
  volatile unsigned* shared = flags;
  for (int pass = 0;; ++pass) {
    const int axis = pass % 3;
    if (grid.thread_rank() == 0) shared[(pass + 1) % 4] = 0;
    bool changed = false;
    std::size_t total = 0;
    for (int m = 0; m < jobs.count; ++m) total += jobs.job[m].lines(axis);
    // Rows by thread, columns by warp (all lanes of a warp take the same columns).
    const std::size_t first = axis == 0 ? grid.thread_rank() : grid.thread_rank() / 32,
                      step = axis == 0 ? threads : threads / 32;
    for (std::size_t line = first; line < total; line += step) {
      std::size_t at = line;
      int m = 0;
      while (at >= jobs.job[m].lines(axis)) at -= jobs.job[m++].lines(axis);
      changed |= fillLine(jobs.job[m], axis, at);
    }
    if (__syncthreads_or(changed) && threadIdx.x == 0) shared[pass % 4] = 1;
    grid.sync();
    // Closed along the axis of pass - 2 by that pass, along the other two since nothing changed.
    if (pass >= 2 && !shared[pass % 4] && !shared[(pass + 3) % 4]) {
      if (grid.thread_rank() == 0) shared[4] = unsigned(pass + 1);
      return;
    }
  }
}

constexpr int kFillBlock = 256;

// The most blocks of the fill kernel that can all be resident at once (a cooperative launch
// needs them to be).
int residentFillBlocks() {
  static const int blocks = [] {
    int device = 0, perSm = 0, sms = 0;
    WS_CUDA_CHECK(cudaGetDevice(&device));
    int cooperative = 0;
    WS_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (!cooperative)
      throw InputError("this GPU cannot launch cooperative kernels, which the flood fill uses");
    WS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    WS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, fillKernel, kFillBlock, 0));
    return std::max(1, perSm * sms);
  }();
  return blocks;
}

}  // namespace

void CudaShellFill::run(int models, const std::uint32_t* const shells[], const std::size_t counts[],
                        const VoxelBox boxes[]) {
  FillJobs jobs;
  std::size_t mostLines = 0;
  for (int m = 0; m < models; ++m) {
    views_[m] = OutsideBits{};
    if (boxes[m].empty() || counts[m] == 0) continue;  // no shell: everything is outside
    FillJob job;
    for (int a = 0; a < 3; ++a) job.size[a] = boxes[m].hi[a] - boxes[m].lo[a] + 1;
    job.words = (job.size[0] + 31) / 32;
    const std::size_t words = std::size_t(job.words) * job.size[1] * job.size[2];
    if (shell_[m].size() < words) {
      requireDeviceMemory(
          2.0 * words * sizeof(unsigned), double(shell_[m].bytes() + outside_[m].bytes()),
          "the flood fill's bits for a box of " + std::to_string(job.size[0]) + "x" +
              std::to_string(job.size[1]) + "x" + std::to_string(job.size[2]) + " cells");
      shell_[m].allocate(words);
      outside_[m].allocate(words);
    }
    WS_CUDA_CHECK(cudaMemsetAsync(shell_[m].data(), 0, words * sizeof(unsigned)));
    WS_CUDA_CHECK(cudaMemsetAsync(outside_[m].data(), 0, words * sizeof(unsigned)));
    job.shell = shell_[m].data();
    job.outside = outside_[m].data();
    recordedLaunch("markShellKernel", markShellKernel, blocksFor(counts[m], 256), 256)(
        shells[m], counts[m], boxes[m], job);
    WS_CUDA_CHECK(cudaGetLastError());
    OutsideBits& view = views_[m];
    std::copy(boxes[m].lo, boxes[m].lo + 3, view.lo);
    std::copy(job.size, job.size + 3, view.size);
    view.words = job.words;
    view.bits = outside_[m].data();
    mostLines = std::max(mostLines, std::size_t(job.size[1]) * job.size[2]);
    jobs.job[jobs.count++] = job;
  }
  if (!flags_) flags_.allocate(5);
  WS_CUDA_CHECK(cudaMemsetAsync(flags_.data(), 0, flags_.bytes()));
  if (!jobs.count) return;
  const int blocks = int(std::min<std::size_t>(
      residentFillBlocks(), std::max<std::size_t>(1, jobs.count * mostLines / kFillBlock)));
  unsigned* flags = flags_.data();
  void* args[] = {&jobs, &flags};
  WS_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(fillKernel), dim3(blocks),
                                            dim3(kFillBlock), args, 0, nullptr));
}

int CudaShellFill::passes() const {
  if (!flags_) return 0;
  unsigned passes = 0;
  WS_CUDA_CHECK(cudaMemcpy(&passes, flags_.data() + 4, sizeof passes, cudaMemcpyDeviceToHost));
  return int(passes);
}

std::vector<std::uint8_t> outsideOfOnGpu(const std::vector<std::uint32_t>& shell,
                                         const VoxelGrid& grid, int* passes) {
  const VoxelBox box = boxOf(shell);
  const DeviceBuffer<std::uint32_t> keys = toDevice(shell);
  CudaShellFill fill;
  const std::uint32_t* shells[] = {keys.data()};
  const std::size_t counts[] = {shell.size()};
  fill.run(1, shells, counts, &box);
  OutsideBits view = fill.outside(0);
  const std::size_t words = std::size_t(view.words) * view.size[1] * view.size[2];
  const std::vector<unsigned> bits = words ? toHost(view.bits, words) : std::vector<unsigned>();
  view.bits = bits.data();
  if (passes) *passes = fill.passes();
  std::vector<std::uint8_t> outside(grid.cells());
  for (int z = 0; z < grid.side; ++z)
    for (int y = 0; y < grid.side; ++y)
      for (int x = 0; x < grid.side; ++x)
        outside[grid.index(x, y, z)] = view.outside(packVoxel(x, y, z));
  return outside;
}

}  // namespace ws::voxhash
