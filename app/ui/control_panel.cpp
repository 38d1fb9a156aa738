#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/session/actions.h"
#include "app/ui/ui.h"
#include "compute/core/assets.h"
#include "compute/core/backend.h"
#include "compute/core/output_file.h"
#include "render/colormap.h"

namespace ws::app::ui {

namespace {

// Every change below is queued (Lab::later): the module, its engine or its parameter list may be
// replaced by it, and this frame goes on drawing from them.
void drawModuleAndBackend(Lab& lab) {
  Module& module = lab.module();
  // The list's own name for the module, so that the combo shows what was picked.
  std::string shown(module.title());
  for (const auto& entry : moduleRegistry())
    if (entry.name == module.name()) shown = entry.title;
  if (tracked::BeginCombo("module", shown.c_str())) {
    for (const auto& entry : moduleRegistry())
      if (tracked::Selectable(entry.title.c_str(), entry.name == module.name()))
        lab.later([&lab, name = entry.name] { lab.switchModule(name); });
    ImGui::EndCombo();
  }

  int backend = module.backend() == Backend::Cuda ? 1 : 0;
  const bool gpu = gpuInfo().available;
  if (tracked::RadioButton("CPU", &backend, 0)) lab.later([&lab] { lab.select(Backend::Cpu, ""); });
  ImGui::SameLine();
  if (!gpu) ImGui::BeginDisabled();
  if (tracked::RadioButton("CUDA", &backend, 1))
    lab.later([&lab] { lab.select(Backend::Cuda, ""); });
  if (!gpu) {
    ImGui::EndDisabled();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("(%s)", gpuInfo().reason.c_str());
    ImGui::PopTextWrapPos();
  }

  const KernelVariant current = module.currentVariant();
  if (tracked::BeginCombo("variant", current.title.c_str())) {
    for (const auto& variant : module.variants(module.backend()))
      if (tracked::Selectable(variant.title.c_str(), variant.name == current.name))
        lab.later(
            [&lab, backend = module.backend(), name = variant.name] { lab.select(backend, name); });
    ImGui::EndCombo();
  }
}

// What the variant runs now, its live figures and what it is. Drawn below the playback: the notes'
// lines come and go and wrap anew as the figures change, and must not move the buttons.
void drawVariantNotes(Lab& lab) {
  Module& module = lab.module();
  const KernelVariant current = module.currentVariant();
  SteadyBlock notesBlock("notes",
                         std::string(module.name()) + "/" + current.name + "/" + lab.presetNote());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "%s", module.configuration().c_str());
  if (!lab.presetNote().empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.2f, 1.0f), "%s", lab.presetNote().c_str());
    WidgetLog::instance().text("preset note", lab.presetNote());
  }
  WidgetLog::instance().text("module notes", module.notes());
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

// Undo and Redo, each saying what it would take back or make again.
void drawUndo(Lab& lab) {
  const UndoHistory& history = lab.history();
  const auto button = [&](const char* label, const std::string& what, const char* keys,
                          void (Lab::*change)()) {
    ImGui::BeginDisabled(what.empty());
    if (tracked::Button(label)) lab.later([&lab, change] { (lab.*change)(); });
    ImGui::EndDisabled();
    if (!what.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      wrappedTooltip("%s %s (%s)", label, what.c_str(), keys);
  };
  button("Undo", history.nextUndo(), "Ctrl+Z", &Lab::undo);
  ImGui::SameLine();
  button("Redo", history.nextRedo(), "Ctrl+Shift+Z", &Lab::redo);
  WidgetLog::instance().text("undo", history.nextUndo());
  WidgetLog::instance().text("redo", history.nextRedo());
}

void drawPlayback(Lab& lab, UiContext& context) {
  if (tracked::Button(lab.running() ? "Pause" : "Run", ImVec2(ImGui::GetFontSize() * 4.5f, 0)))
    lab.setRunning(!lab.running());
  ImGui::SameLine();
  if (tracked::Button("Step")) lab.requestSteps(1);
  ImGui::SameLine();
  char label[32];
  std::snprintf(label, sizeof label, "Step %d", lab.stepN);
  if (tracked::Button(label)) lab.requestSteps(lab.stepN);
  ImGui::SameLine();
  if (tracked::Button("Reset")) askToReset(lab, context);
  tracked::InputInt("N", &lab.stepN, 10, 100);
  lab.stepN = std::clamp(lab.stepN, 1, int(kMostStepsAtOnce));
  int perFrame = lab.stepsPerFrame();
  if (tracked::SliderInt("steps / frame", &perFrame, 1, kMostStepsPerFrame, "%d",
                         ImGuiSliderFlags_Logarithmic))
    lab.setStepsPerFrame(perFrame);
  for (const auto& action : lab.module().actions()) {
    if (tracked::Button(action.c_str())) {
      if (action == "clear")
        askToClear(lab, context);
      else
        lab.later([&lab, action] { lab.runAction(action); });
    }
    ImGui::SameLine();
  }
  if (tracked::Button("Fit view")) lab.later([&lab] { lab.fitView(); });
  drawUndo(lab);
  if (context.screenshot) {
    ImGui::SameLine();
    if (tracked::Button("Screenshot")) context.screenshot();
  }
}

void drawTools(Lab& lab) {
  Module& module = lab.module();
  for (const auto& tool : module.tools()) {
    if (tracked::RadioButton(tool.c_str(), lab.tool == tool)) lab.tool = tool;
    ImGui::SameLine();
  }
  ImGui::NewLine();
  const auto items = module.toolItems(lab.tool);
  if (!items.empty() && tracked::BeginCombo("item", lab.toolItem.c_str())) {
    for (const auto& item : items)
      if (tracked::Selectable(item.c_str(), item == lab.toolItem)) lab.toolItem = item;
    ImGui::EndCombo();
  }
  if (lab.tool == "place") {
    static const char* const turns[] = {"as drawn", "a quarter turn", "a half turn",
                                        "three quarter turns"};
    const std::string how = std::string(turns[lab.placeOrientation & 3]) +
                            (lab.placeOrientation & 4 ? ", mirrored" : "");
    ImGui::TextDisabled("placed %s (, . turn; X Y mirror)", how.c_str());
    WidgetLog::instance().text("orientation", how);
  }
  if (!items.empty()) {
    static char path[512] = "";
    tracked::InputTextWithHint("##file", "or a file path, then Enter", path, sizeof path);
    if (ImGui::IsItemDeactivatedAfterEdit() && path[0]) lab.toolItem = path;
  }
}

void drawViewSettings(Lab& lab) {
  const std::string current = lab.colormapForView();
  if (tracked::BeginCombo("colour map", current.c_str())) {
    for (const auto& name : render::colormapNames())
      if (tracked::Selectable(name.c_str(), name == current)) lab.colormap = name;
    ImGui::EndCombo();
  }
  tracked::Checkbox("CUDA-GL interop", &lab.interop);
  if (ImGui::IsItemHovered())
    wrappedTooltip("off: the field is read back to host memory and uploaded every frame");
  tracked::Checkbox("grid lines", &lab.gridLines);
  ImGui::SameLine();
  ImGui::TextDisabled("zoom %.3g px/cell", lab.camera.zoom);
}

void drawPresets(Lab& lab, UiContext& context) {
  // The shipped ones, of every module: choosing one switches to its module. The list shows the
  // one chosen last.
  static std::string chosen = "choose a preset";
  // As tall as the screen allows: every preset in sight at once.
  if (tracked::BeginCombo("shipped", chosen.c_str(), ImGuiComboFlags_HeightLargest)) {
    for (const std::string& name : shippedNames(kPresets))
      if (tracked::Selectable(name.c_str(), name == chosen)) {
        chosen = name;
        lab.later([&lab, file = *shippedPath(kPresets, name)] {
          lab.loadPreset(file);
          lab.fitView();
        });
      }
    ImGui::EndCombo();
  }
  static char path[512] = "preset.json";
  tracked::InputText("file", path, sizeof path);
  if (tracked::Button("Save preset"))
    lab.later([&lab, demo = context.demo, file = std::string(path)] {
      if (const auto written = lab.savePreset(file)) {
        std::snprintf(path, sizeof path, "%s", written->c_str());  // Load loads it
        if (demo) demo->message = "saved " + *written;
      }
    });
  ImGui::SameLine();
  if (tracked::Button("Load preset"))
    lab.later([&lab, file = std::string(path)] { lab.loadPreset(file); });
}

// Where what the user saves goes: the output folder, typed (applied on Enter) and remembered.
void drawFiles(Lab& lab, UiContext& context) {
  // The files opened last (dropped on the window or picked here), to open again; the list shows
  // the last one opened.
  if (tracked::Button("Open...")) showOpenDialog(lab, context);
  if (ImGui::IsItemHovered()) {
    const std::string chooser = desktopChooser();
    wrappedTooltip("choose a file to open (Ctrl+O): %s", chooser.empty()
                                                             ? "the browser in the window"
                                                             : (chooser + "'s chooser").c_str());
  }
  const char* last = context.recentFiles.empty() ? "none yet" : context.recentFiles.front().c_str();
  if (tracked::BeginCombo("recent", last)) {
    for (const std::string& path : context.recentFiles)
      if (tracked::Selectable(path.c_str()))
        lab.later([&lab, &context, path] { openFile(lab, context, path); });
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    wrappedTooltip(
        "drop a file on the window to open it: a pattern (.rle) where it lands, a "
        "mesh (.obj .ply .off), a picture of a flow's obstacles (.png .bmp .jpg...), a "
        "graph (.txt .edges .mtx), a preset or a session (.json), a checkpoint (.wsckpt)");
  static char folder[1024] = "";
  static bool editing = false;
  if (!editing) std::snprintf(folder, sizeof folder, "%s", outputFolder().c_str());
  tracked::InputTextWithHint("output folder", "the current folder", folder, sizeof folder);
  editing = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit())
    lab.later(
        [&lab, chosen = std::string(folder)] { lab.attempt([&] { setOutputFolder(chosen); }); });
  if (ImGui::IsItemHovered())
    wrappedTooltip(
        "screenshots, exports, saved meshes, presets, checkpoints, sessions and "
        "videos go here (a name with a folder of its own goes there); a name that "
        "is taken gets a number (optimized-2.ply), never overwriting a file");
  std::error_code error;
  const std::string shown =
      std::filesystem::absolute(outputFolder().empty() ? "." : outputFolder(), error)
          .lexically_normal()
          .string();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("files go to %s", shown.c_str());
  ImGui::PopTextWrapPos();
}

void drawCompare(Lab& lab, UiContext& context) {
  drawComparePanel(lab);
  ImGui::Separator();
  drawAnalysisControls(lab, context.analysis);
}

}  // namespace

void drawControlPanel(Lab& lab, UiContext& context) {
  if (!beginSidePanel("warpscope", context.layout.controls, context.controlsCollapsed, "<>",
                      "collapse the panel to a strip (Tab hides all)"))
    return;
  // A replay drives the simulation: what would change it waits until the user takes over.
  const bool replaying = context.demo && context.demo->replay;
  if (replaying) ImGui::BeginDisabled();
  drawModuleAndBackend(lab);
  if (tracked::CollapsingHeader("Playback", ImGuiTreeNodeFlags_DefaultOpen))
    drawPlayback(lab, context);
  if (tracked::CollapsingHeader("Notes", ImGuiTreeNodeFlags_DefaultOpen)) drawVariantNotes(lab);
  if (tracked::CollapsingHeader("Lesson", ImGuiTreeNodeFlags_DefaultOpen)) drawLesson(lab);
  if (tracked::CollapsingHeader("Compare", lab.comparison() ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    drawCompare(lab, context);
  // A module without tools (the reduction lab, the hash lab) shows no empty section.
  if (!lab.module().tools().empty() &&
      tracked::CollapsingHeader("Tools", ImGuiTreeNodeFlags_DefaultOpen))
    drawTools(lab);
  if (tracked::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) drawParameters(lab);
  if (replaying) ImGui::EndDisabled();
  if (tracked::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewSettings(lab);
  if (replaying) ImGui::BeginDisabled();
  if (tracked::CollapsingHeader("Presets")) drawPresets(lab, context);
  if (tracked::CollapsingHeader("Files")) drawFiles(lab, context);
  if (replaying) ImGui::EndDisabled();
  if (context.demo &&
      tracked::CollapsingHeader("Record and replay", ImGuiTreeNodeFlags_DefaultOpen))
    drawDemoPanel(lab, *context.demo, context.width, context.height);
  if (tracked::CollapsingHeader("Classroom")) drawClassroomPanel(context.classroom);
  ImGui::End();
}

}  // namespace ws::app::ui
