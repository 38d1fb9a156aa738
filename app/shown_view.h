#pragma once
// Which of the views a module offers (compute/views/) it shows now, for the parts of the front
// end that need no GL: the cameras, the colour bar, the colour map menu.
#include <optional>

#include "compute/core/module.h"
#include "compute/views/field.h"

namespace ws::app {

// Whether the module shows a 3-D scene now (a mesh, voxels or surfaces: the orbit camera drives
// the view).
bool shows3d(Module& module);

// What the colours of the module's main view show (the colour bar's scale, the default colour
// map): a mesh's value, a surface's or a graph's nodes', else the current field view; none for
// voxels alone.
std::optional<FieldView> shownValue(Module& module);

}  // namespace ws::app
