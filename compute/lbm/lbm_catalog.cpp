#include "compute/lbm/lbm_catalog.h"

namespace ws::lbm {

namespace {

VariantCatalog<Variant> makeCatalog() {
  const std::string aa =
      "One lattice, updated in place (A-A pattern, Bailey et al. 2009; the source's section "
      "13.3). Even steps read a cell's own populations, collide and write them back into the "
      "opposite slots; odd steps read from the neighbours' slots and write to them, doing both "
      "streams of the pair. No thread touches another's data within a step, so one copy of the "
      "lattice suffices: half the memory of A-B for the same bytes per update. After an even "
      "step the slots are swapped; the module undoes that whenever it reads or edits the state. ";
  const std::string ab =
      "Two lattices (A-B, pull): each cell gathers the populations streaming in from its "
      "neighbours in lattice A, collides, and writes its own cell of lattice B; then the two "
      "swap. Simple and always consistent, at twice the memory of A-A. ";
  const std::string soa =
      "Structure of arrays: population i of every cell is one contiguous array, so a warp's 32 "
      "loads of one population are one coalesced row (the layout the source uses). ";
  const std::string aos =
      "Array of structures (the lesson): the Q populations of a cell sit together, so the 32 "
      "threads of a warp load population i from addresses Q values apart and most of every "
      "32-byte sector fetched is someone else's population; the caches win part of it back. ";
  const std::string fp32 = "Stored in FP32: 2 x Q x 4 + 1 bytes per cell update.";
  const std::string fp16 =
      "Stored in FP16 (the deviation from the lattice weight, scaled by 2^15, as FluidX3D "
      "does), computed in FP32: half the bytes per cell update, so up to twice the speed of a "
      "memory-bound kernel; errors of about 1e-3 of the deviation from equilibrium. With SoA on "
      "the GPU (and an even width) a thread updates two neighbouring cells, so each access moves "
      "a pair of FP16 values (__half2), 128 bytes a warp rather than 64.";
  VariantCatalog<Variant> catalog;
  // In the menu's order: FP32 before FP16, SoA before AoS, A-A before A-B.
  for (const bool half : {false, true})
    for (const Layout layout : {Layout::SoA, Layout::AoS})
      for (const Propagation propagation : {Propagation::AA, Propagation::AB}) {
        const Variant v{propagation, layout, half};
        const bool isAA = propagation == Propagation::AA, isSoA = layout == Layout::SoA;
        const std::string name = v.name();
        std::string title = std::string(isAA ? "A-A in place" : "A-B two lattices") + ", " +
                            (isSoA ? "SoA" : "AoS") + ", " + (half ? "FP16 storage" : "FP32");
        if (name == "ab-soa-fp32") title += " (the default: FP32 at the memory's speed)";
        if (name == "ab-soa-fp16") title += " (fastest measured)";
        // The source measured SoA only, in FP32 and FP64 (its figure 16.2 and conclusion).
        const std::string historical =
            isSoA && !half
                ? "Riesinger 2017 (TUM), Tesla P100: D3Q19, 256^3, double precision 1.58 GLUPS, "
                  "67.7% of the 720 GB/s peak"
                : "";
        catalog.push_back({{name,
                            title,
                            (isAA ? aa : ab) + (isSoA ? soa : aos) + (half ? fp16 : fp32),
                            {"block"},
                            historical,
                            name == "ab-soa-fp32"},
                           v});
      }
  return catalog;
}

}  // namespace

const VariantCatalog<Variant>& storageCatalog() {
  static const VariantCatalog<Variant> catalog = makeCatalog();
  return catalog;
}

}  // namespace ws::lbm
