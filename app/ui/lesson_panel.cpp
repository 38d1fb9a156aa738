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

void drawReadouts(const std::vector<KernelLaunch>& launches) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("launches", 7, flags)) return;
  const char* headers[] = {"kernel", "grid x block", "regs",      "shared",
                           "spills", "occupancy",    "limited by"};
  for (const char* h : headers) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const KernelLaunch& launch : launches) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(launch.name.c_str());
    try {
      const LaunchReadout& r = readoutFor(launch);
      if (!r.known) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("a library's own launch");
        continue;
      }
      ImGui::TableNextColumn();
      ImGui::Text("%u x %u", launch.grid[0] * launch.grid[1] * launch.grid[2],
                  launch.block[0] * launch.block[1] * launch.block[2]);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%d wave(s) of %d blocks per SM", r.waves, r.blocksPerSm);
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.registers);
      ImGui::TableNextColumn();
      ImGui::Text("%zu B", r.staticShared + launch.dynamicShared);
      ImGui::TableNextColumn();
      if (r.spillBytes)
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "%zu B", r.spillBytes);
      else
        ImGui::TextUnformatted("0");
      ImGui::TableNextColumn();
      ImGui::Text("%.0f%% (%d/SM)", 100 * r.occupancy, r.blocksPerSm);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.limits.limiter().c_str());
    } catch (const std::exception& e) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("unreadable: %s", e.what());
    }
  }
  ImGui::EndTable();
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
