#pragma once
// A module's kernel variants as one catalog: each variant is one entry, what the menu and the
// lesson show (KernelVariant) beside how the module makes it (`How`: an engine factory, a kernel
// enumerator), so that a variant is named once.
#include <string>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/module.h"

namespace ws {

template <typename How>
struct VariantEntry {
  KernelVariant variant;
  How how;
};

template <typename How>
using VariantCatalog = std::vector<VariantEntry<How>>;

// What Module::variants() returns: the entries' descriptions, in order.
template <typename How>
std::vector<KernelVariant> describe(const VariantCatalog<How>& catalog) {
  std::vector<KernelVariant> out;
  for (const VariantEntry<How>& entry : catalog) out.push_back(entry.variant);
  return out;
}

// The entry called `name`; an InputError naming the known ones where there is none.
template <typename How>
const VariantEntry<How>& entryNamed(const VariantCatalog<How>& catalog, const std::string& name) {
  std::string known;
  for (const VariantEntry<How>& entry : catalog) {
    if (entry.variant.name == name) return entry;
    known += " " + entry.variant.name;
  }
  throw InputError("no variant '" + name + "' (known:" + known + ")");
}

}  // namespace ws
