// Opening a file the user drops on the window or picks from the recent files: what it is comes
// from its name (and, for JSON, its first key), and it goes where that kind of file goes.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/session/snapshot.h"
#include "app/ui/ui.h"
#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws::app::ui {

namespace {

bool hasExtension(const std::string& path, const AssetKind& kind) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return std::any_of(kind.extensions.begin(), kind.extensions.end(),
                     [&](const char* e) { return extension == e; });
}

// A session's file begins with its version key; a preset's names its module.
bool isSession(const std::string& path) {
  std::ifstream in(path);
  char head[256] = {};
  in.read(head, sizeof head - 1);
  return std::string(head).find("\"warpscope_session\"") != std::string::npos;
}

// Loads `params` into `module` (made aside where the lab runs another: a refusal changes nothing).
bool openInModule(Lab& lab, const std::string& module, const std::string& path,
                  nlohmann::json params) {
  return lab.perform(act::LoadPreset{path, {{"module", module}, {"params", std::move(params)}}});
}

constexpr std::size_t kRecentFiles = 10;

}  // namespace

FileKind fileKindOf(const std::string& path) {
  if (hasExtension(path, kPatterns)) return FileKind::Pattern;
  if (hasExtension(path, kMeshes)) return FileKind::Mesh;
  if (hasExtension(path, kMasks)) return FileKind::Picture;
  if (hasExtension(path, kGraphs)) return FileKind::Graph;
  if (hasExtension(path, {"checkpoints", {".wsckpt"}})) return FileKind::Checkpoint;
  if (hasExtension(path, kPresets)) return isSession(path) ? FileKind::Session : FileKind::Preset;
  return FileKind::Unknown;
}

void openFile(Lab& lab, UiContext& context, const std::string& path,
              std::optional<std::pair<double, double>> at) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    lab.errorMessage = "cannot open '" + json_input::brief(path) + "': there is no such file";
    return;
  }
  const FileKind kind = fileKindOf(path);
  bool opened = false;
  switch (kind) {
    case FileKind::Pattern:
      // Placed where it was dropped, in the running Life; another module gives way to a Life
      // that starts from it.
      if (lab.module().name() == "life") {
        const auto [x, y] =
            at.value_or(std::pair{lab.module().world().maxX / 2, lab.module().world().maxY / 2});
        PointerEdit place{"place", x, y, x, y, path};
        opened = lab.perform(act::Edit{place});
      } else {
        opened = openInModule(lab, "life", path, {{"pattern", path}});
      }
      if (opened) lab.tool = "place", lab.toolItem = path;  // to place it again
      break;
    case FileKind::Mesh:
      // A voxel model where the voxel module runs, an obstacle where a 3-D flow past obstacles
      // does, else the mesh to optimize.
      if (lab.module().name() == "voxhash") {
        opened = lab.perform(act::SetParam{"model_a", path});
      } else if (lab.module().name() == "lbm" && lab.module().applies("obstacle_mesh")) {
        opened = lab.perform(act::SetParam{"obstacle_mesh", path});
      } else {
        opened = openInModule(lab, "mesh", path, {{"mesh", path}});
      }
      break;
    case FileKind::Picture:
      // The obstacles of a flow: in the running one where it flows past obstacles, else in a
      // 2-D channel.
      if (lab.module().name() == "lbm" && lab.module().applies("obstacle_image")) {
        opened = lab.perform(act::SetParam{"obstacle_image", path});
      } else {
        opened =
            openInModule(lab, "lbm", path,
                         {{"lattice", "d2q9"}, {"scene", "cylinder"}, {"obstacle_image", path}});
      }
      break;
    case FileKind::Graph:
      opened = openInModule(lab, "graph", path, {{"graph", path}});
      break;
    case FileKind::Preset:
      lab.loadPreset(path);
      opened = lab.errorMessage.empty();
      break;
    case FileKind::Session:
      if (context.demo) {
        context.demo->sessionPath = path;
        startReplay(lab, *context.demo);
        opened = context.demo->replay != nullptr;
      }
      break;
    case FileKind::Checkpoint:
      opened = lab.attempt([&] { lab.resume(path); });
      break;
    case FileKind::Unknown:
      lab.errorMessage = "cannot open '" +
                         json_input::brief(std::filesystem::path(path).filename().string()) +
                         "': warpscope opens patterns (.rle), meshes (.obj .ply .off), pictures "
                         "of obstacles for a flow (.png .bmp .tga .jpg .pgm .ppm), graphs (edge "
                         "lists .txt .edges, Matrix Market .mtx), presets and sessions (.json) "
                         "and checkpoints (.wsckpt)";
      return;
  }
  if (!opened) return;
  if (kind != FileKind::Session) lab.fitView();
  if (context.demo) context.demo->message = "opened " + path;
  auto& recent = context.recentFiles;
  std::erase(recent, path);
  recent.insert(recent.begin(), path);
  if (recent.size() > kRecentFiles) recent.resize(kRecentFiles);
}

}  // namespace ws::app::ui
