// The variant's lesson beside the explanation: what the source measured for it (hardware and
// year) next to what runs here now, and the launch readouts of the kernels it launched.
#include <imgui.h>

#include <map>
#include <tuple>

#include "app/ui/ui.h"
#include "compute/core/backend.h"
#include "compute/core/launch_readout.h"

namespace ws::app::ui {

namespace {

// Readouts change only with the launch, so each is read from the runtime once.
const LaunchReadout& readoutFor(const KernelLaunch& launch) {
  using Key = std::tuple<const void*, unsigned, unsigned, std::size_t>;
  static std::map<Key, LaunchReadout> cache;
  const Key key{launch.function, launch.grid[0] * launch.grid[1] * launch.grid[2],
                launch.block[0] * launch.block[1] * launch.block[2], launch.dynamicShared};
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, readLaunch(launch)).first;
  return it->second;
}

// One kernel per paragraph: the panel is too narrow for a table of seven columns.
void drawReadouts(const std::vector<KernelLaunch>& launches) {
  ImGui::PushTextWrapPos(0.0f);  // the limiter's line wraps in a narrow panel
  for (const KernelLaunch& launch : launches) {
    ImGui::Bullet();
    ImGui::TextUnformatted(launch.name.c_str());
    try {
      const LaunchReadout& r = readoutFor(launch);
      if (!r.known) {
        ImGui::TextDisabled("  a library's own launch: not ours to read");
        continue;
      }
      ImGui::Text("  grid %u x block %u, %d wave(s)",
                  launch.grid[0] * launch.grid[1] * launch.grid[2],
                  launch.block[0] * launch.block[1] * launch.block[2], r.waves);
      ImGui::Text("  %d registers/thread, %zu B shared/block", r.registers,
                  r.staticShared + launch.dynamicShared);
      if (r.spillBytes)
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f),
                           "  %zu B local memory/thread (register spills or local arrays)",
                           r.spillBytes);
      ImGui::Text("  occupancy %.0f%% (%d blocks/SM), limited by %s", 100 * r.occupancy,
                  r.blocksPerSm, r.limits.limiter().c_str());
    } catch (const std::exception& e) {
      ImGui::TextDisabled("  unreadable: %s", e.what());
    }
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

void drawLesson(Lab& lab) {
  Module& module = lab.module();
  const KernelVariant variant = module.currentVariant();
  ImGui::PushTextWrapPos(0.0f);
  if (!variant.historical.empty()) ImGui::Text("then: %s", variant.historical.c_str());
  const TimingStats s = module.stepTiming().stats();
  if (s.samples > 0) {
    const std::string where = module.backend() == Backend::Cuda ? gpuInfo().name : "this CPU";
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "now: %.4g ms, %s, %.1f GB/s, %s (%s)",
                       s.medianMs, siRate(s.ratePerSecond, module.stepTiming().rateUnit()).c_str(),
                       s.bytesPerSecond / 1e9, where.c_str(), module.sizeText().c_str());
  }
  ImGui::PopTextWrapPos();
  if (module.backend() != Backend::Cuda) return;
  const std::vector<KernelLaunch> launches = module.launches();
  if (launches.empty()) {
    ImGui::TextDisabled(module.stepCount() ? "launch readouts: not recorded by this module yet"
                                           : "launch readouts: after the first step");
    return;
  }
  drawReadouts(launches);
}

}  // namespace ws::app::ui
