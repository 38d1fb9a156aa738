// The modules warpscope offers, in menu order.
#include "compute/core/module.h"
#include "compute/lbm/lbm_module.h"
#include "compute/life/life_module.h"

namespace ws {

const std::vector<ModuleEntry>& moduleRegistry() {
  static const std::vector<ModuleEntry> entries = {
      {"life", "Game of Life",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<life::LifeModule>(backend);
       }},
      {"lbm", "Lattice Boltzmann flow",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<lbm::LbmModule>(backend);
       }},
  };
  return entries;
}

}  // namespace ws
