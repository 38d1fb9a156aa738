// The modules warpscope offers, in menu order.
#include "compute/core/module.h"
#include "compute/graph/graph_module.h"
#include "compute/lbm/lbm_module.h"
#include "compute/life/life_module.h"
#include "compute/mesh/mesh_module.h"
#include "compute/reduce/reduce_module.h"
#include "compute/voxhash/voxhash_module.h"

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
      {"voxhash", "Voxel hash (cuckoo hashing lab)",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<voxhash::VoxhashModule>(backend);
       }},
      {"mesh", "Surface mesh optimization",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<mesh::MeshModule>(backend);
       }},
      {"graph", "Graph clustering",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<graph::GraphModule>(backend);
       }},
      {"reduce", "Reduction and scan lab",
       [](Backend backend) -> std::unique_ptr<Module> {
         return std::make_unique<reduce::ReduceModule>(backend);
       }},
  };
  return entries;
}

}  // namespace ws
