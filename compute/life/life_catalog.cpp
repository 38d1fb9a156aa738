#include "compute/life/life_catalog.h"

#include "compute/life/life_cuda.h"

namespace ws::life {

namespace {
const char* const kShapes[] = {"64x4", "32x8", "16x16", "8x32", "4x64", "128x2", "256x1", nullptr};
}  // namespace

const char* const* tileShapes() {
  return kShapes;
}

bool parseTileShape(const std::string& text, int& blockX, int& blockY) {
  for (const char* const* shape = kShapes; *shape; ++shape) {
    if (text == *shape) {
      blockX = std::stoi(text.substr(0, text.find('x')));
      blockY = std::stoi(text.substr(text.find('x') + 1));
      return true;
    }
  }
  return false;
}

namespace {

template <CudaLifeKernel kernel>
std::unique_ptr<LifeEngine> makeCuda(const LifeConfig& config, LifeTimings timings) {
  CudaLifeConfig cuda = config.cuda;
  cuda.kernel = kernel;
  return makeCudaEngine(cuda, timings);
}

template <const char* name>
std::unique_ptr<LifeEngine> makeCpu(const LifeConfig&, LifeTimings timings) {
  return makeCpuEngine(name, timings);
}
constexpr char kReference[] = "reference", kBitPacked[] = "bitpacked";

}  // namespace

const LifeCatalog& lifeVariants(Backend backend) {
  static const LifeCatalog cuda = {
      {{"global",
        "(1) global memory, ghost border",
        "One thread per cell reads its 3x3 neighbourhood straight from global memory: nine 4-byte "
        "loads and one store per cell. A one-cell ghost border (dead, or a copy of the opposite "
        "edge "
        "on a torus) removes every boundary test. Neighbouring threads load the same cells again "
        "and "
        "again; the caches absorb much of it, but this is the baseline the chapter improves on "
        "(145 GB/s of bus traffic on a GTX 285, 2010). `mapping` shows coalescing: with threads "
        "running down columns, a warp's 32 loads fall in 32 rows instead of one.",
        {"mapping"},
        "ch. 6 (GTX 285, CUDA 3.1, 2010), 100 generations, 160^2 to 1600^2: the baseline, 145 GB/s "
        "on the bus (profiler), memory-bound"},
       &makeCuda<CudaLifeKernel::GlobalHalo>},
      {{"shared",
        "(2) shared-memory tile 16x16",
        "Each 16x16 block first copies its cells plus a one-cell halo (18x18 = 324 cells, not 384 "
        "as the chapter misprints) into shared memory, then counts neighbours there. Global loads "
        "drop from 9 per cell to about 1.27: the chapter measured it 30% faster than (1) on a GTX "
        "285. Rows start wherever they fall, so most loads straddle 128-byte segments. "
        "`remove_barrier` is the race demonstration: without __syncthreads() between filling the "
        "tile and reading it, threads read halo cells other warps have not written yet.",
        {"remove_barrier"},
        "ch. 6 (GTX 285, 2010): 30% faster than (1); the application saw just over 30 GB/s while "
        "the bus carried 67 GB/s"},
       &makeCuda<CudaLifeKernel::SharedTile>},
      {{"aligned",
        "(3) shared tile, 128-byte aligned rows",
        "The same tile kernel on a grid whose cell (0,0) and every row start on a 128-byte "
        "boundary (the ghost column sits just before it). Each warp's row load is then whole "
        "memory segments instead of straddling two. A small gain by itself, but it makes (4) "
        "possible.",
        {},
        "ch. 6 (GTX 285, 2010): a relatively minor improvement by itself"},
       &makeCuda<CudaLifeKernel::SharedAligned>},
      {{"flat",
        "(4) flat blocks (block shape)",
        "With aligned rows, the left and right halo cells of a tile still cost a whole 32-byte "
        "sector each. Flatter blocks of the same 256 threads have fewer rows and so fewer side "
        "halos: the redundancy ratio falls from 2.13 (16x16) to 1.75 (64x4). Pick the shape and "
        "watch the time; the chapter found 64x4 best, 20% under 16x16.",
        {"block"},
        "ch. 6 (GTX 285, 2010): 64x4 best of the 256-thread shapes, 20% under the square 16x16"},
       &makeCuda<CudaLifeKernel::SharedFlat>},
      {{"multicell",
        "(5) several cells per thread",
        "Each thread updates 2 (or 4) neighbouring cells of a wider tile, so the index arithmetic "
        "and the column sums of the shared neighbours are done once for several cells: fewer "
        "instructions per cell (the chapter: under 60%) and wider stores. The chapter's 64x4 "
        "2-cell kernel was its fastest, 65% faster than (1).",
        {"block", "cells_per_thread"},
        "ch. 6 (GTX 285, 2010): 2 cells per thread a further 35% under (4); 64x4 2-cell about 65% "
        "faster than (1), the chapter's fastest"},
       &makeCuda<CudaLifeKernel::MultiCell>},
      {{"bitpacked",
        "(6) bit-packed, bit-sliced adders",
        "One bit per cell, 64 cells per 64-bit word: 32 times fewer bytes than (1)-(5). A thread "
        "owns one word column over several rows; it forms each row's west+centre+east sum as two "
        "bit planes with shifts and a full adder, adds three rows' sums and applies the rule on 64 "
        "cells at once: Conway's rule takes eight three-input logic operations (one LOP3 "
        "instruction each per 32 cells) on top of the row's own two; any other rule adds the 3x3 "
        "block's 4-bit count and looks it up. Each row's sums serve three output rows. Limited by "
        "memory bandwidth at about 0.25 bytes per cell update.",
        {"rows_per_thread"},
        "",
        true},
       &makeCuda<CudaLifeKernel::BitPacked>},
      {{"temporal",
        "(7) bit-packed, several generations per pass",
        "Temporal blocking on top of (6): a warp keeps a tile of 32 word columns by 40 rows in "
        "registers, gets west and east neighbours from the next lanes by warp shuffles, and "
        "advances it several generations before storing the interior. Errors from the tile's "
        "unknown surroundings creep in one cell per generation, so the outer lanes and a few rows "
        "are sacrificed (and each generation skips the rows no stored cell depends on any more). "
        "The grid crosses memory once per pass instead of once per generation: when a kernel is "
        "bandwidth-bound, do more work per byte; it then becomes bound by its logic operations, "
        "so every one counts. (On a torus whose width is not a "
        "multiple of 64, and while the age view needs every generation, it steps like (6).)",
        {"generations_per_pass"}},
       &makeCuda<CudaLifeKernel::BitTemporal>},
  };
  static const LifeCatalog cpu = {
      {{"reference",
        "reference (byte per cell)",
        "The rule as written: for each cell, count the eight neighbours and look up the rule, one "
        "byte per cell, rows shared among OpenMP threads. Every other variant is tested against "
        "it.",
        {}},
       &makeCpu<kReference>},
      {{"bitpacked",
        "bit-packed (64 cells per word)",
        "The CUDA bit-packed kernel's arithmetic (the same source, life_bitops.h) on the CPU: "
        "64 cells per 64-bit word, bit-sliced adders, word columns shared among OpenMP threads.",
        {},
        "",
        true},
       &makeCpu<kBitPacked>},
  };
  return backend == Backend::Cuda ? cuda : cpu;
}

LifeConfig readLifeConfig(const ParamSet& p) {
  LifeConfig c;
  c.width = int(p.getInt("width"));
  c.height = int(p.getInt("height"));
  c.rule = LifeRule::parse(p.getText("rule"));
  c.boundary = p.getText("boundary") == "dead" ? Boundary::Dead : Boundary::Torus;
  c.seed = std::uint64_t(p.getInt("seed"));
  c.density = p.getFloat("density");
  c.pattern = p.getText("pattern");
  c.ageView = p.getText("view") == "age";
  parseTileShape(p.getText("block"), c.cuda.blockX, c.cuda.blockY);
  c.cuda.cellsPerThread = std::stoi(p.getText("cells_per_thread"));
  c.cuda.rowsPerThread = std::stoi(p.getText("rows_per_thread"));
  c.cuda.generationsPerPass = std::stoi(p.getText("generations_per_pass"));
  c.cuda.columnMajor = p.getText("mapping") == "column-major";
  c.cuda.barrier = !p.getBool("remove_barrier");
  return c;
}

}  // namespace ws::life
