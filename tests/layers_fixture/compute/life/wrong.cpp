#include "compute/mesh/mesh_module.h"  // a module reaching into another
