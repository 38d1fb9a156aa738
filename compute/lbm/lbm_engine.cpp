#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

std::string Variant::name() const {
  return std::string(propagation == Propagation::AA ? "aa" : "ab") + "-" +
         (layout == Layout::SoA ? "soa" : "aos") + "-" + (half ? "fp16" : "fp32");
}

int latticeQ(LatticeKind lattice) {
  return lattice == LatticeKind::D2Q9 ? D2Q9::Q : D3Q19::Q;
}

double bytesPerCellUpdate(LatticeKind lattice, const Variant& variant) {
  return 2.0 * latticeQ(lattice) * (variant.half ? 2 : 4) + 1.0;
}

}  // namespace ws::lbm
