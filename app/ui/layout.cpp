// The window's layout: panels at the sides, the status bar below, the view in between.
#include <algorithm>
#include <cmath>

#include "app/ui/fonts.h"
#include "app/ui/ui.h"

namespace ws::app::ui {

bool updateLayout(UiContext& context) {
  const Layout before = context.layout;
  Layout& l = context.layout;
  const float w = float(context.width), h = float(context.height);
  const float scale = context.classroom.effective();
  l = Layout{};
  if (context.showUi) {
    l.status = {0, h - kStatusBarHeight * scale, w, kStatusBarHeight * scale};
    // Each panel keeps its width at the UI's scale while the view keeps at least a third of the
    // window; past that the panels narrow and their text wraps.
    const float most = w / 3;
    const float controls =
        context.controlsCollapsed ? kStripWidth * scale : std::min(kPanelWidth * scale, most);
    const float timings =
        context.timingsCollapsed ? kStripWidth * scale : std::min(kTimingsWidth * scale, most);
    l.controls = {0, 0, controls, l.status.y};
    l.timings = {w - timings, 0, timings, l.status.y};
  }
  l.view = {l.controls.right(), 0, l.timings.x - l.controls.right(),
            (context.showUi ? l.status.y : h)};
  if (!context.showUi) l.view.width = w;
  if (context.classroom.largeNumber) {
    // The key figure's own band at the top of the view: the simulation is drawn below it.
    const float band = largeFigureBandHeight(scale);
    l.figure = {l.view.x, 0, l.view.width, band};
    l.view.y = band;
    l.view.height = std::max(0.0f, l.view.height - band);
  }
  if (context.demo && context.demo->replay) {
    // The replay's timeline below the view.
    const float band = kTimelineHeight * scale;
    l.timeline = {l.view.x, l.view.bottom() - band, l.view.width, band};
    l.view.height = std::max(0.0f, l.view.height - band);
  }
  l.view.width = std::max(l.view.width, 1.0f);
  l.view.height = std::max(l.view.height, 1.0f);
  return !(before.view == l.view);
}

}  // namespace ws::app::ui

namespace ws::app::ui {

ViewArea pixelArea(const ScreenRect& rect, float pixelScale) {
  ViewArea area;
  area.x = int(std::lround(rect.x * pixelScale));
  area.y = int(std::lround(rect.y * pixelScale));
  area.width = std::max(1, int(std::lround(rect.right() * pixelScale)) - area.x);
  area.height = std::max(1, int(std::lround(rect.bottom() * pixelScale)) - area.y);
  return area;
}

void placeNextWindow(const ScreenRect& rect) {
  ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(rect.width, rect.height), ImGuiCond_Always);
}

bool beginSidePanel(const char* window, const ScreenRect& rect, bool& collapsed, const char* arrows,
                    const char* hideTip) {
  const std::string name = window;
  placeNextWindow(rect);
  if (collapsed) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 6));
    ImGui::Begin((name + "##strip").c_str(), nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    const std::string show = std::string(1, arrows[1]) + "##show " + name;
    if (tracked::Button(show.c_str(), ImVec2(ImGui::GetContentRegionAvail().x, 0)))
      collapsed = false;
    if (ImGui::IsItemHovered()) wrappedTooltip("show the panel again");
    ImGui::End();
    ImGui::PopStyleVar();
    return false;
  }
  ImGui::Begin(window, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  const std::string hide = std::string(1, arrows[0]) + "##hide " + name;
  if (tracked::Button(hide.c_str())) collapsed = true;
  if (ImGui::IsItemHovered()) wrappedTooltip("%s", hideTip);
  return true;
}

}  // namespace ws::app::ui
