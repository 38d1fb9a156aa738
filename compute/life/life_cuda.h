#pragma once
// The CUDA engine for Life: the chapter's progression of kernels over one 32-bit word per cell,
// and the bit-packed fast path. See life_kernels.cuh for the kernels themselves.
#include <memory>
#include <string>

#include "compute/life/life_engine.h"

namespace ws::life {

enum class CudaLifeKernel {
  GlobalHalo,     // (1) global memory, one-cell ghost border
  SharedTile,     // (2) 16x16 shared-memory tile
  SharedAligned,  // (3) rows aligned to 128 bytes
  SharedFlat,     // (4) flat blocks of a chosen shape
  MultiCell,      // (5) several cells per thread
  BitPacked,      // (6) 1 bit per cell, bit-sliced adders
  BitTemporal,    // (7) (6) with several generations per pass, tiles in registers
};

struct CudaLifeConfig {
  CudaLifeKernel kernel = CudaLifeKernel::BitPacked;
  int blockX = 64, blockY = 4;  // SharedFlat, MultiCell
  int cellsPerThread = 2;       // MultiCell
  int rowsPerThread = 8;        // BitPacked
  int generationsPerPass = 4;   // BitTemporal
  // Lessons. GlobalHalo: consecutive threads of a warp down a column instead of along a row, so
  // each of its loads touches 32 rows (uncoalesced). SharedTile: without the barrier between
  // filling the tile and reading it (a race, wrong on purpose).
  bool columnMajor = false;
  bool barrier = true;
};

// Block shapes the tile kernels are compiled for (width x height, 256 threads).
const char* const* tileShapes();  // null-terminated, "64x4" first
bool parseTileShape(const std::string& text, int& blockX, int& blockY);

std::unique_ptr<LifeEngine> makeCudaEngine(const CudaLifeConfig& config, LifeTimings timings);

}  // namespace ws::life
