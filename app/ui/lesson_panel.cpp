// The variant's lesson beside the explanation: what the source measured for it (hardware and
// year) next to what runs here now, and the launch readouts of the kernels it launched.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
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
  ImGui::PopTextWrapPos();
  const TimingStats s = module.stepTiming().stats();
  const std::string where = module.backend() == Backend::Cuda ? gpuInfo().name : "this CPU";
  char now[512] = "now: measured after the first steps";
  if (s.samples > 0) {
    // Bytes where the step has a byte model (a Girvan-Newman removal has none).
    const std::string bytes = s.bytesPerSecond > 0 ? ", " + siRate(s.bytesPerSecond, "B/s") : "";
    std::snprintf(now, sizeof now, "now: %.4g ms, %s%s, %s (%s)", s.medianMs,
                  siRate(s.ratePerSecond, module.stepTiming().rateUnit()).c_str(), bytes.c_str(),
                  where.c_str(), module.sizeText().c_str());
  }
  // The live figure changes every frame, and so might the lines it wraps to: its space is kept at
  // the most it can need (its widest figures, drawn unseen once), so the controls below stay.
  SteadyBlock nowBlock("now", std::string(module.name()) + "/" + variant.name);
  const float width = ImGui::GetContentRegionAvail().x;
  const std::string widest = "now: 8888 ms, " + siRate(888.8e12, module.stepTiming().rateUnit()) +
                             ", " + siRate(888e12, "B/s") + ", " + where + " (" +
                             module.sizeText() + ")";
  const float most = std::max(ImGui::CalcTextSize(now, nullptr, false, width).y,
                              ImGui::CalcTextSize(widest.c_str(), nullptr, false, width).y);
  const float top = ImGui::GetCursorPosY();
  ImGui::PushTextWrapPos(0.0f);
  if (s.samples > 0)
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "%s", now);
  else
    ImGui::TextDisabled("%s", now);
  ImGui::PopTextWrapPos();
  const float end = top + most + ImGui::GetStyle().ItemSpacing.y;
  if (ImGui::GetCursorPosY() < end) ImGui::SetCursorPosY(end);
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
