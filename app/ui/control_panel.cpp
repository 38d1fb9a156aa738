#include <imgui.h>

#include <cstdio>
#include <sstream>

#include "app/ui/ui.h"
#include "compute/core/backend.h"
#include "render/colormap.h"

namespace ws::app::ui {

namespace {

void drawModuleAndBackend(Lab& lab) {
  Module& module = lab.module();
  if (ImGui::BeginCombo("module", std::string(module.title()).c_str())) {
    for (const auto& entry : moduleRegistry())
      if (ImGui::Selectable(entry.title.c_str(), entry.name == module.name()))
        lab.switchModule(entry.name);
    ImGui::EndCombo();
  }

  int backend = module.backend() == Backend::Cuda ? 1 : 0;
  const bool gpu = gpuInfo().available;
  if (ImGui::RadioButton("CPU", &backend, 0)) lab.select(Backend::Cpu, "");
  ImGui::SameLine();
  if (!gpu) ImGui::BeginDisabled();
  if (ImGui::RadioButton("CUDA", &backend, 1)) lab.select(Backend::Cuda, "");
  if (!gpu) {
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("(%s)", gpuInfo().reason.c_str());
  }

  const KernelVariant current = module.currentVariant();
  if (ImGui::BeginCombo("variant", current.title.c_str())) {
    for (const auto& variant : module.variants(module.backend()))
      if (ImGui::Selectable(variant.title.c_str(), variant.name == current.name))
        lab.select(module.backend(), variant.name);
    ImGui::EndCombo();
  }
  ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "%s", module.configuration().c_str());
  ImGui::PushTextWrapPos(0.0f);
  std::istringstream notes(module.notes());
  for (std::string line; std::getline(notes, line);) {
    if (line.rfind("warning:", 0) == 0)
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.2f, 1.0f), "%s", line.c_str());
    else
      ImGui::TextUnformatted(line.c_str());
  }
  ImGui::TextDisabled("%s", current.explanation.c_str());
  ImGui::PopTextWrapPos();
}

void drawPlayback(Lab& lab, UiContext& context) {
  if (ImGui::Button(lab.running ? "Pause" : "Run", ImVec2(70, 0))) lab.running = !lab.running;
  ImGui::SameLine();
  if (ImGui::Button("Step")) lab.requestSteps(1);
  ImGui::SameLine();
  char label[32];
  std::snprintf(label, sizeof label, "Step %d", lab.stepN);
  if (ImGui::Button(label)) lab.requestSteps(lab.stepN);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) lab.reset();
  ImGui::SetNextItemWidth(120);
  ImGui::InputInt("N", &lab.stepN, 10, 100);
  lab.stepN = std::max(1, lab.stepN);
  ImGui::SetNextItemWidth(120);
  ImGui::SliderInt("steps / frame", &lab.stepsPerFrame, 1, 1024, "%d",
                   ImGuiSliderFlags_Logarithmic);
  for (const auto& action : lab.module().actions()) {
    if (ImGui::Button(action.c_str())) lab.runAction(action);
    ImGui::SameLine();
  }
  if (ImGui::Button("Fit view")) lab.fitView();
  if (context.screenshot) {
    ImGui::SameLine();
    if (ImGui::Button("Screenshot")) context.screenshot();
  }
}

void drawTools(Lab& lab) {
  Module& module = lab.module();
  for (const auto& tool : module.tools()) {
    if (ImGui::RadioButton(tool.c_str(), lab.tool == tool)) lab.tool = tool;
    ImGui::SameLine();
  }
  ImGui::NewLine();
  const auto items = module.toolItems(lab.tool);
  if (!items.empty() && ImGui::BeginCombo("item", lab.toolItem.c_str())) {
    for (const auto& item : items)
      if (ImGui::Selectable(item.c_str(), item == lab.toolItem)) lab.toolItem = item;
    ImGui::EndCombo();
  }
  if (!items.empty()) {
    static char path[512] = "";
    ImGui::InputTextWithHint("##file", "or a file path, then Enter", path, sizeof path);
    if (ImGui::IsItemDeactivatedAfterEdit() && path[0]) lab.toolItem = path;
  }
}

void drawViewSettings(Lab& lab) {
  const std::string current = lab.colormapForView();
  if (ImGui::BeginCombo("colour map", current.c_str())) {
    for (const auto& name : render::colormapNames())
      if (ImGui::Selectable(name.c_str(), name == current)) lab.colormap = name;
    ImGui::EndCombo();
  }
  ImGui::Checkbox("CUDA-GL interop", &lab.interop);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("off: the field is read back to host memory and uploaded every frame");
  ImGui::Checkbox("grid lines", &lab.gridLines);
  ImGui::SameLine();
  ImGui::TextDisabled("zoom %.3g px/cell", lab.camera.zoom);
}

void drawPresets(Lab& lab) {
  static char path[512] = "preset.json";
  ImGui::InputText("file", path, sizeof path);
  if (ImGui::Button("Save preset")) lab.savePreset(path);
  ImGui::SameLine();
  if (ImGui::Button("Load preset")) lab.loadPreset(path);
}

void drawCompare(Lab& lab, UiContext& context) {
  drawComparePanel(lab);
  ImGui::Separator();
  drawAnalysisControls(lab, context.analysis);
}

}  // namespace

void drawControlPanel(Lab& lab, UiContext& context) {
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  const float scale = context.classroom.scale;
  ImGui::SetNextWindowSize(
      ImVec2(kPanelWidth * scale, context.height - kStatusBarHeight * scale - 16),
      context.classroom.scaleChanged ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::Begin("warpscope");
  ImGui::PushItemWidth(ImGui::GetWindowWidth() *
                       0.52f);  // room for labels such as "generations per pass"
  // A replay drives the simulation: what would change it waits until the user takes over.
  const bool replaying = context.demo && context.demo->replay;
  if (replaying) ImGui::BeginDisabled();
  drawModuleAndBackend(lab);
  if (ImGui::CollapsingHeader("Lesson", ImGuiTreeNodeFlags_DefaultOpen)) drawLesson(lab);
  if (ImGui::CollapsingHeader("Playback", ImGuiTreeNodeFlags_DefaultOpen))
    drawPlayback(lab, context);
  if (ImGui::CollapsingHeader("Compare", lab.comparison() ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    drawCompare(lab, context);
  if (ImGui::CollapsingHeader("Tools", ImGuiTreeNodeFlags_DefaultOpen)) drawTools(lab);
  if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) drawParameters(lab);
  if (replaying) ImGui::EndDisabled();
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewSettings(lab);
  if (replaying) ImGui::BeginDisabled();
  if (ImGui::CollapsingHeader("Presets")) drawPresets(lab);
  if (replaying) ImGui::EndDisabled();
  if (context.demo && ImGui::CollapsingHeader("Record and replay", ImGuiTreeNodeFlags_DefaultOpen))
    drawDemoPanel(lab, *context.demo, context.width, context.height);
  if (ImGui::CollapsingHeader("Classroom")) drawClassroomPanel(context.classroom);
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace ws::app::ui
