// For teaching with a projector: the UI's scale, a high-contrast theme, the key figure in large
// type, and a demo that moves through the shipped presets on its own.
#include <imgui.h>

#include <filesystem>
#include <fstream>

#include "app/ui/ui.h"
#include "compute/core/assets.h"

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
  classroom.scaleChanged = classroom.scale != classroom.appliedScale;
  if (!classroom.scaleChanged && classroom.highContrast == classroom.appliedContrast) return;
  ImGuiStyle style;
  if (classroom.highContrast)
    highContrastColours(style);
  else
    ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(classroom.scale);
  ImGui::GetStyle() = style;
  ImGui::GetIO().FontGlobalScale = classroom.scale;
  classroom.appliedScale = classroom.scale;
  classroom.appliedContrast = classroom.highContrast;
}

void drawClassroomPanel(Classroom& classroom) {
  ImGui::SliderFloat("UI scale", &classroom.scale, 1.0f, 3.0f, "%.2f");
  ImGui::Checkbox("high contrast", &classroom.highContrast);
  ImGui::SameLine();
  ImGui::Checkbox("large figure", &classroom.largeNumber);
  ImGui::Checkbox("auto demo", &classroom.autoCycle);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
  float seconds = float(classroom.cycleSeconds);
  if (ImGui::SliderFloat("s / preset", &seconds, 5.0f, 120.0f, "%.0f"))
    classroom.cycleSeconds = seconds;
  ImGui::TextDisabled("keys: U scale, I contrast, L large figure, A auto demo");
}

void drawLargeNumber(Lab& lab, UiContext& context) {
  Module& module = lab.module();
  const TimingStats s = module.stepTiming().stats();
  ImGui::SetNextWindowPos(ImVec2(context.width * 0.5f, 12.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.8f);
  ImGui::Begin("##LargeFigure", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  ImGui::SetWindowFontScale(4.0f);
  if (s.samples > 0)
    ImGui::TextUnformatted(siRate(s.ratePerSecond, module.stepTiming().rateUnit()).c_str());
  else
    ImGui::TextUnformatted("--");
  ImGui::SetWindowFontScale(2.0f);
  ImGui::Text("%s | %s", module.currentVariant().title.c_str(),
              s.samples > 0 ? siRate(s.bytesPerSecond, "B/s").c_str() : "no timing yet");
  ImGui::End();
}

void advanceAutoCycle(Lab& lab, Classroom& classroom, double now) {
  if (!classroom.autoCycle || now - classroom.lastCycle < classroom.cycleSeconds) return;
  classroom.lastCycle = now;
  const std::vector<std::string> presets = listAssets("presets", ".json");
  if (presets.empty()) return;
  const std::string& path = presets[classroom.nextPreset++ % presets.size()];
  // A preset names its module: switch to it first, then load it (both logged in a recording).
  std::string module;
  const bool readable = lab.attempt([&] {
    std::ifstream in(path);
    module = nlohmann::json::parse(in).value("module", std::string(lab.module().name()));
  });
  if (!readable) return;
  if (module != lab.module().name()) lab.switchModule(module);
  lab.loadPreset(path);
  lab.fitView();
  lab.running = true;
}

}  // namespace ws::app::ui
