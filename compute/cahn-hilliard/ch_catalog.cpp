#include "compute/cahn-hilliard/ch_catalog.h"

#include <algorithm>

namespace ws::ch {

namespace {

template <CudaChKernel kernel>
std::unique_ptr<ChEngine> makeCuda(const ChConfig& config, ChTimings timings) {
  CudaChConfig cuda = config.cuda;
  cuda.kernel = kernel;
  return makeCudaEngine(cuda, timings);
}

template <int threads>
std::unique_ptr<ChEngine> makeCpu(const ChConfig&, ChTimings timings) {
  return makeCpuEngine(threads, timings);
}

// Leist, Playne and Hawick 2009, lines 569-571: speed-ups of each kernel (RK2, field lengths 1024
// and up) on a GeForce 8800 GTS over their single-thread C program on a 2.66 GHz Xeon.
constexpr const char* kSource = "Leist et al. 2009, 8800 GTS against one 2.66 GHz Xeon core: ";
// Ours (docs/performance.md): an H200 at 4096^2 with RK2 against the CPU implementation on one
// core of the same machine's CPU (983.8 ms a step), 2026-11-27.
constexpr const char* kOurs = "; ours (H200, 4096^2) against one core of its host: ";

}  // namespace

const ChCatalog& chVariants(Backend backend) {
  static const ChCatalog cuda = {
      {{"global",
        "(A) global memory",
        "One thread per cell reads the whole stencil (13 cells in 2-D, 25 in 3-D) from global "
        "memory, wrapping the periodic boundary in code, and computes mu at the cell and at each "
        "neighbour: neighbouring threads load the same values again and again and compute the "
        "same mus five (seven) times over. On the 8800 GTS only the loads of a half-warp along a "
        "row coalesced; today the L1 and L2 caches catch most of the reuse. `thread_shape` is the "
        "source's strips against rectangles.",
        {"thread_shape", "constant_memory"},
        std::string(kSource) + "13x (the slowest of the four: many costly global transactions)" +
            kOurs + "2,900x"},
       &makeCuda<CudaChKernel::Global>},
      {{"shared",
        "(B) shared memory, 16x16 blocks updating 12x12",
        "Each thread loads one cell into shared memory and the block's threads then read the "
        "stencil there. So that no thread branches to load a halo, a ring two threads wide only "
        "loads: of a 16x16 block, the inner 12x12 (144 of 256 threads) update, and the blocks "
        "overlap (in 3-D 16x8x8 threads around 12x4x4: 192 of 1024). The source: faster than A, "
        "slower than the texture cache doing the same caching in hardware.",
        {"constant_memory"},
        std::string(kSource) + "30x (caching by hand is slower than the texture cache)" + kOurs +
            "3,100x"},
       &makeCuda<CudaChKernel::Shared>},
      {{"texture",
        "(C) texture memory",
        "The field lives in a CUDA array (the texture's own block-linear layout, which keeps 2-D "
        "and 3-D neighbours close) and is read through a texture object: the read-only texture "
        "cache absorbs the stencil's reuse, and normalized coordinates in wrap mode give the "
        "periodic boundary in hardware, with no index arithmetic. A kernel cannot write a "
        "texture, so each pass writes the next array through a surface object. The source's "
        "fastest kernel.",
        {"thread_shape", "constant_memory"},
        std::string(kSource) + "50x, the fastest (the texture cache holds a block's stencil)" +
            kOurs + "1,900x, now the slowest of the four"},
       &makeCuda<CudaChKernel::Texture>},
      {{"texture-shared",
        "(D) texture into shared memory",
        "B's blocks, loading shared memory through the texture (so the wrap is the hardware's): "
        "the values are cached twice, by the texture and by hand. The source wrote it for "
        "completeness; its normalized coordinates failed on sizes that are not powers of two on "
        "the 8800 GTS, which today's GPUs no longer do.",
        {"constant_memory"},
        std::string(kSource) + "30x" + kOurs + "3,500x, now the fastest of the four"},
       &makeCuda<CudaChKernel::TextureShared>},
      {{"tiled",
        "cooperative tiles, mu once per cell",
        "Every thread of a 256-thread block loads part of a 32x32 tile (32x8x4 in 3-D) and its "
        "two-cell halo into shared memory (no idle ring), then mu is computed once at each cell "
        "of the tile and its one-cell halo, and each of a thread's four cells takes its rate "
        "from the mus: a fifth of A-D's arithmetic. But the index arithmetic of the cooperative "
        "loops, two barriers and the 3-D tile's halo (3.4 loads a cell) keep it far from the "
        "memory's speed.",
        {"constant_memory"},
        "ours (H200, 4096^2) against one core of its host: 4,700x"},
       &makeCuda<CudaChKernel::Tiled>},
      {{"shuffle",
        "fast path: warps marching, neighbours by shuffles",
        "A warp's lanes hold neighbouring columns and march down the grid, keeping the rows "
        "above and below in registers; a neighbour along the row comes from the next lane by a "
        "warp shuffle, so in 2-D there is no shared memory and no barrier, each value is loaded "
        "about once and mu is computed once a cell. Where the width is a multiple of four, a "
        "lane holds four columns as a float4: one 16-byte load and store and two shuffles a row "
        "for four cells, where a column a lane spends a load, a store and four shuffles on "
        "each. Lanes 0 and 31 also hold the two columns beyond the warp (the stencil's halo), "
        "so every lane updates; the loads run eight rows ahead to keep enough bytes in flight. "
        "In 3-D a block's warps hold three neighbouring rows each and march through the "
        "planes, a warp's first and last rows trading with the next warps' through shared "
        "memory, the planes ahead copied there asynchronously (cp.async) "
        "so that no register waits for them, and the planes split into as few parts as fill "
        "the GPU in whole waves of blocks (each march starts with two planes of mu only and an "
        "empty pipeline: at 256^3 four parts in one wave ran 8% faster than eight in two). "
        "There the passes of up to 32 steps run in one launch of blocks that stay on the GPU "
        "(`pass_sync`): the source synchronizes the grid by ending a kernel, here a block starts "
        "a pass as soon as the 26 blocks around it have finished the one before, marching back "
        "the other way through the planes it just wrote. A 3-D width of 2 mod 4 (322, the "
        "source's largest) is held as float2s, the row's last four columns a half. "
        "Other widths: a column a lane, 28 of the 32 lanes "
        "updating (in 3-D four rows a warp). The coefficients are read as arguments, which on "
        "today's GPUs already live in a constant bank: the use for constant memory the source "
        "looked for comes free.",
        {"constant_memory", "pass_order", "pass_sync"},
        "ours (H200, 4096^2) against one core of its host: 11,600x (1,500x against all 16)",
        true},
       &makeCuda<CudaChKernel::Shuffle>},
  };
  static const ChCatalog cpu = {
      {{"openmp",
        "OpenMP (all cores)",
        "The same arithmetic as every kernel (ch_stencil.h), the grid's rows shared among OpenMP "
        "threads: the oracle the kernels are tested against.",
        {},
        "",
        true},
       &makeCpu<0>},
      {{"single-thread",
        "one thread (the source's baseline)",
        "The OpenMP code on one thread, as the source's CPU program ran: the baseline of its "
        "speed-ups.",
        {},
        "Leist et al. 2009: single-thread C on a 2.66 GHz Xeon, the baseline of the GPU "
        "speed-ups"},
       &makeCpu<1>},
  };
  return backend == Backend::Cuda ? cuda : cpu;
}

ChConfig readChConfig(const ParamSet& p) {
  ChConfig c;
  const bool is3d = p.getText("dimensions") == "3-D";
  c.shape = {int(p.getInt("width")), int(p.getInt("height")), is3d ? int(p.getInt("depth")) : 1};
  c.k = {float(p.getFloat("mobility")), float(p.getFloat("b")), float(p.getFloat("u")),
         float(p.getFloat("K")), float(p.getFloat("dt"))};
  c.integrator = p.getText("integrator") == "Euler" ? Integrator::Euler : Integrator::RK2;
  c.mean = p.getFloat("mean");
  c.noise = p.getFloat("noise");
  c.seed = std::uint64_t(p.getInt("seed"));
  const std::string& axis = p.getText("slice_axis");
  c.slice.axis = axis == "x" ? 0 : axis == "y" ? 1 : 2;
  const int extent = c.slice.axis == 0 ? c.shape.nx : c.slice.axis == 1 ? c.shape.ny : c.shape.nz;
  c.slice.index = std::clamp(int(p.getFloat("slice") * extent), 0, extent - 1);
  if (!is3d) c.slice = {2, 0};
  c.brush = int(p.getInt("brush"));
  c.cuda.strips = p.getText("thread_shape") == "strips";
  c.cuda.constant = p.getBool("constant_memory");
  c.cuda.backAndForth = p.getText("pass_order") == "back and forth";
  c.cuda.resident = p.getText("pass_sync") == "neighbours";
  return c;
}

}  // namespace ws::ch
