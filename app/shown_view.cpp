#include "app/shown_view.h"

#include "compute/views/graph.h"
#include "compute/views/mesh.h"
#include "compute/views/surface.h"
#include "compute/views/voxels.h"

namespace ws::app {

bool shows3d(Module& module) {
  const MeshSource* mesh = module.view<MeshSource>();
  const VoxelSource* voxels = module.view<VoxelSource>();
  const SurfaceSource* surface = module.view<SurfaceSource>();
  return (mesh && mesh->meshScene()) || (voxels && voxels->voxelScene()) ||
         (surface && surface->surfaceScene());
}

std::optional<FieldView> shownValue(Module& module) {
  if (const MeshSource* mesh = module.view<MeshSource>())
    if (const std::optional<MeshScene> scene = mesh->meshScene()) return scene->value;
  if (const SurfaceSource* surface = module.view<SurfaceSource>())
    if (const std::optional<SurfaceScene> scene = surface->surfaceScene()) return scene->value;
  if (const GraphSource* graph = module.view<GraphSource>())
    if (const std::optional<GraphScene> scene = graph->graphScene()) return scene->nodeValue;
  if (const FieldSource* field = module.view<FieldSource>())
    return field->fieldViews()[field->currentFieldView()];
  return std::nullopt;
}

}  // namespace ws::app
