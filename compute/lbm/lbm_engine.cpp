#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

std::string Variant::name() const {
  return std::string(propagation == Propagation::AA ? "aa" : "ab") + "-" +
         (layout == Layout::SoA ? "soa" : "aos") + "-" + (half ? "fp16" : "fp32");
}

bool Variant::parse(const std::string& name, Variant& variant) {
  for (const std::string& candidate : all()) {
    if (candidate != name) continue;
    variant.propagation = name.rfind("aa", 0) == 0 ? Propagation::AA : Propagation::AB;
    variant.layout = name.find("soa") != std::string::npos ? Layout::SoA : Layout::AoS;
    variant.half = name.find("fp16") != std::string::npos;
    return true;
  }
  return false;
}

std::vector<std::string> Variant::all() {
  return {"aa-soa-fp32", "ab-soa-fp32", "aa-aos-fp32", "ab-aos-fp32",
          "aa-soa-fp16", "ab-soa-fp16", "aa-aos-fp16", "ab-aos-fp16"};
}

int latticeQ(LatticeKind lattice) {
  return lattice == LatticeKind::D2Q9 ? D2Q9::Q : D3Q19::Q;
}

double bytesPerCellUpdate(LatticeKind lattice, const Variant& variant) {
  return 2.0 * latticeQ(lattice) * (variant.half ? 2 : 4) + 1.0;
}

}  // namespace ws::lbm
