// For teaching with a projector: the UI's scale, a high-contrast theme, the key figure in large
// type, and a demo that moves through the shipped presets on its own.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/ui/fonts.h"
#include "app/ui/ui.h"
#include "compute/core/assets.h"
#include "compute/core/json_input.h"

namespace ws::app::ui {

namespace {

// White on black with saturated accents: readable from the back of a lecture hall.
void highContrastColours(ImGuiStyle& style) {
  ImGui::StyleColorsDark(&style);
  ImVec4* c = style.Colors;
  const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), yellow(1.0f, 0.85f, 0.0f, 1);
  c[ImGuiCol_Text] = white;
  c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
  c[ImGuiCol_WindowBg] = c[ImGuiCol_PopupBg] = c[ImGuiCol_ChildBg] = black;
  c[ImGuiCol_Border] = white;
  c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
  c[ImGuiCol_FrameBgHovered] = c[ImGuiCol_ButtonHovered] = c[ImGuiCol_HeaderHovered] =
      ImVec4(0.0f, 0.45f, 0.9f, 1);
  c[ImGuiCol_Button] = c[ImGuiCol_Header] = ImVec4(0.0f, 0.3f, 0.7f, 1);
  c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = c[ImGuiCol_PlotLines] = yellow;
  c[ImGuiCol_PlotHistogram] = yellow;
  c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = ImVec4(0.0f, 0.25f, 0.6f, 1);
  style.WindowBorderSize = style.FrameBorderSize = 1.0f;
}

}  // namespace

void applyClassroomStyle(Classroom& classroom) {
  if (classroom.effective() == classroom.appliedScale &&
      classroom.highContrast == classroom.appliedContrast)
    return;
  ImGuiStyle style;
  if (classroom.highContrast)
    highContrastColours(style);
  else
    ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(classroom.effective());
  ImGui::GetStyle() = style;
  // The fonts follow at the next frame, rasterized at this scale (Fonts::use, between frames).
  classroom.appliedScale = classroom.effective();
  classroom.appliedContrast = classroom.highContrast;
}

namespace {

// Which preset the auto demo shows and when the next comes; hold it there, or move on.
void drawDemoStatus(Classroom& classroom) {
  char status[160];
  if (classroom.demoPreset.empty())
    std::snprintf(status, sizeof status, "starting");
  else if (classroom.demoHeld)
    std::snprintf(status, sizeof status, "%s, held", classroom.demoPreset.c_str());
  else
    std::snprintf(status, sizeof status, "%s, next in %.0f s", classroom.demoPreset.c_str(),
                  std::ceil(classroom.demoLeft()));
  ImGui::Text("showing %s", status);
  WidgetLog::instance().text("demo status", status);
  if (tracked::Button(classroom.demoHeld ? "Go on" : "Hold"))
    classroom.demoHeld = !classroom.demoHeld;
  ImGui::SameLine();
  if (tracked::Button("Next preset")) classroom.demoNextNow = true;
  if (!classroom.demoSkipped.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", classroom.demoSkipped.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

void drawClassroomPanel(Classroom& classroom) {
  // Applied when the slider is let go: each scale rasterizes the fonts again.
  static float dragged = -1;
  float scale = dragged >= 0 ? dragged : classroom.scale;
  if (tracked::SliderFloat("UI scale", &scale, 1.0f, 3.0f, "%.2f")) dragged = scale;
  if (ImGui::IsItemDeactivated()) {
    if (dragged >= 0) classroom.scale = dragged;
    dragged = -1;
  }
  tracked::Checkbox("high contrast", &classroom.highContrast);
  ImGui::SameLine();
  tracked::Checkbox("large figure", &classroom.largeNumber);
  tracked::Checkbox("auto demo", &classroom.autoCycle);
  float seconds = float(classroom.cycleSeconds);
  if (tracked::SliderFloat("s / preset", &seconds, 5.0f, 120.0f, "%.0f"))
    classroom.cycleSeconds = seconds;
  tracked::Checkbox("pass over slow ones", &classroom.skipSlow);
  if (classroom.autoCycle) drawDemoStatus(classroom);
  ImGui::TextDisabled("keys: U scale, I contrast, L large figure, A auto demo");
}

void drawLargeNumber(Lab& lab, UiContext& context) {
  Module& module = lab.module();
  const TimingStats s = module.stepTiming().stats();
  // Its own band above the view (Layout::figure), in the large font: never over the panels or
  // the simulation.
  const ScreenRect& band = context.layout.figure;
  ImGui::SetNextWindowPos(ImVec2(band.x, band.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(band.width, band.height), ImGuiCond_Always);
  ImGui::Begin("##LargeFigure", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  const auto centred = [&](ImFont* font, float fallbackScale, const std::string& text) {
    if (font)
      ImGui::PushFont(font);
    else
      ImGui::SetWindowFontScale(fallbackScale);
    const float width = ImGui::CalcTextSize(text.c_str()).x;
    ImGui::SetCursorPosX(std::max(0.0f, (band.width - width) * 0.5f));
    ImGui::TextUnformatted(text.c_str());
    WidgetLog::instance().text("key figure", text);
    if (font)
      ImGui::PopFont();
    else
      ImGui::SetWindowFontScale(1.0f);
  };
  centred(fonts().large(), 4.0f,
          s.samples > 0 ? siRate(s.ratePerSecond, module.stepTiming().rateUnit()) : "--");
  centred(fonts().medium(), 2.0f,
          module.currentVariant().title + " | " +
              (s.samples > 0 ? siRate(s.bytesPerSecond, "B/s") : "no timing yet"));
  ImGui::End();
}

namespace {

// The next shipped preset the auto demo can show (none too slow on this backend), loaded with its
// module; "" where every one is too slow.
std::string loadNextPreset(Lab& lab, Classroom& classroom) {
  const std::vector<std::string> names = shippedNames(kPresets);
  for (std::size_t tried = 0; tried < names.size(); ++tried) {
    const std::string& name = names[classroom.nextPreset++ % names.size()];
    if (classroom.tooSlow.count(name)) continue;
    lab.loadPreset(*shippedPath(kPresets, name));  // and its module
    // Timed afresh: the last preset's steps, in a module they shared, say nothing of this one's.
    lab.module().clearTimings();
    lab.fitView();
    lab.setRunning(true);
    return name;
  }
  return "";
}

}  // namespace

void advanceAutoCycle(Lab& lab, Classroom& classroom, double now) {
  const double elapsed = classroom.lastTick < 0 ? 0 : now - classroom.lastTick;
  classroom.lastTick = now;
  if (!classroom.autoCycle) {
    classroom.demoPreset.clear();  // a demo turned on again starts with a preset of its own
    return;
  }
  if (!classroom.demoHeld) classroom.demoElapsed += elapsed;
  // Measured on this backend: a preset that cannot run at interactive rates is passed over,
  // unless the user holds it there or wants to see every one.
  const TimingStats step = lab.module().stepTiming().stats();
  const bool slow = classroom.skipSlow && !classroom.demoHeld && !classroom.demoPreset.empty() &&
                    step.samples >= 3 && step.medianMs > classroom.tooSlowMs;
  if (slow) {
    classroom.tooSlow.insert(classroom.demoPreset);
    char why[160];
    std::snprintf(why, sizeof why, "skipped %s: %.0f ms a step on the %s",
                  classroom.demoPreset.c_str(), step.medianMs,
                  std::string(toString(lab.module().backend())).c_str());
    classroom.demoSkipped = why;
  }
  if (!slow && !classroom.demoNextNow && !classroom.demoPreset.empty() &&
      classroom.demoElapsed < classroom.cycleSeconds)
    return;
  classroom.demoNextNow = false;
  classroom.demoElapsed = 0;
  classroom.demoPreset = loadNextPreset(lab, classroom);
  if (classroom.demoPreset.empty()) {
    classroom.autoCycle = false;
    lab.errorMessage = "The auto demo stopped: no shipped preset runs at interactive rates here.";
  }
}

}  // namespace ws::app::ui
