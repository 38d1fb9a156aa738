#pragma once
// The LBM module's catalog: each storage variant (propagation, layout, precision) one entry, with
// what the menu and the lesson say of it; the engines are made from the entry's Variant.
#include "compute/core/catalog.h"
#include "compute/lbm/lbm_engine.h"

namespace ws::lbm {

const VariantCatalog<Variant>& storageCatalog();

}  // namespace ws::lbm
