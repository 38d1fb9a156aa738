#include "app/ui/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>

namespace ws::app::ui {

void drawUi(Lab& lab, UiContext& context) {
  // Escape closes an open list. (ImGui does this only with keyboard navigation on, which would take
  // keys the simulation uses.) The error box below answers Escape itself.
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) && !ImGui::IsPopupOpen("Error") &&
      !ImGui::IsPopupOpen("Confirm") &&
      ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
    ImGui::ClosePopupToLevel(0, true);
  applyClassroomStyle(context.classroom);
  drawControlPanel(lab, context);
  if (context.classroom.largeNumber) drawLargeNumber(lab, context);
  drawTimingOverlay(lab, context);
  drawComparisonLabels(lab, context);
  drawAnalysisWindows(lab, context);
  drawStatusBar(lab, context);
  drawViewLabels(lab, context);
  if (context.showHelp) drawHelp(context);
  if (context.demo && context.demo->replay) drawReplayTimeline(lab, *context.demo, context);

  drawOpenDialog(lab, context);
  drawConfirmation(lab, context);
  if (!lab.errorMessage.empty() && !ImGui::IsPopupOpen("Error")) ImGui::OpenPopup("Error");
  ImGui::SetNextWindowSize(ImVec2(520, 0), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushTextWrapPos(500);
    ImGui::TextUnformatted(lab.errorMessage.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    // A refusal leaves the playback as it was; a failure of the simulation pauses it.
    ImGui::TextDisabled(lab.running() ? "The simulation is unchanged and still running."
                                      : "The simulation is paused and unchanged.");
    if (tracked::Button("OK", ImVec2(120, 0)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
      lab.errorMessage.clear();
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void askToReset(Lab& lab, UiContext& context) {
  context.confirmation = Confirmation{
      "Reset the simulation to the start its parameters describe?\n\nThe state it has reached "
      "and the edits made since the last reset are lost: a reset cannot be undone.",
      "Yes, reset", [&lab] { lab.reset(); }};
}

void askToClear(Lab& lab, UiContext& context) {
  context.confirmation = Confirmation{
      "Clear the world?\n\nEvery cell is lost, with the edits made before: a clear cannot be "
      "undone.",
      "Yes, clear", [&lab] { lab.runAction("clear"); }};
}

// The question of a change that cannot be undone, until the user answers it.
void drawConfirmation(Lab& lab, UiContext& context) {
  if (context.confirmation && !ImGui::IsPopupOpen("Confirm")) ImGui::OpenPopup("Confirm");
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Confirm", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (!context.confirmation) {  // answered, or replaced the module (a replay took over)
    ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 29);
  ImGui::TextUnformatted(context.confirmation->question.c_str());
  ImGui::PopTextWrapPos();
  WidgetLog::instance().text("confirmation", context.confirmation->question);
  ImGui::Separator();
  const ImVec2 button(ImGui::GetFontSize() * 7, 0);
  // (Enter and Escape come through answerConfirmation from the key presses: ImGui 1.86 misses a
  // key pressed and let go between two frames.)
  const bool yes = tracked::Button(context.confirmation->yes.c_str(), button);
  ImGui::SameLine();
  const bool no = tracked::Button("Cancel", button);
  if (yes || no) {
    answerConfirmation(lab, context, yes);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void answerConfirmation(Lab& lab, UiContext& context, bool yes) {
  if (!context.confirmation) return;
  if (yes) lab.later(context.confirmation->change);
  context.confirmation.reset();  // the box closes in the next frame
}

// The module's words over its 2-D view (the picked node's id), and a tooltip of what is under
// the pointer; in the main view, not over the panels.
void drawViewLabels(Lab& lab, UiContext& context) {
  WidgetLog::instance().text("under the pointer", context.pointerText);
  if (!context.pointerText.empty() && !ImGui::GetIO().WantCaptureMouse)
    wrappedTooltip("%s", context.pointerText.c_str());
  if (shows3d(lab.module())) {
    char camera[96];  // for scripts and tests: where the orbit camera looks from
    std::snprintf(camera, sizeof camera, "orbit, yaw %.2f, pitch %.2f, distance %.4g",
                  lab.orbit.yaw, lab.orbit.pitch, lab.orbit.distance);
    WidgetLog::instance().text("camera", camera);
    return;
  }
  // The camera counts framebuffer pixels, ImGui window units: pixelScale apart.
  const ScreenRect& view = context.layout.view;
  const ViewArea pixels = pixelArea(view, context.pixelScale);
  const ViewColumn first = viewColumns(lab, pixels).front();
  const FieldRequest at = lab.camera.request(first.width, pixels.height);
  const float unit = 1.0f / context.pixelScale;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(view.x, view.y),
                     ImVec2(view.x + first.width * unit, view.y + view.height));
  for (const Module::ViewLabel& label : lab.module().viewLabels()) {
    const ImVec2 place(view.x + float((label.x - at.originX) / at.worldPerPixel) * unit + 8,
                       view.y + float((label.y - at.originY) / at.worldPerPixel) * unit - 8);
    const ImVec2 size = ImGui::CalcTextSize(label.text.c_str());
    draw->AddRectFilled(ImVec2(place.x - 3, place.y - 2),
                        ImVec2(place.x + size.x + 3, place.y + size.y + 2), IM_COL32(0, 0, 0, 190),
                        3.0f);
    draw->AddText(place, IM_COL32(255, 235, 150, 255), label.text.c_str());
    WidgetLog::instance().text("view label", label.text);
  }
  draw->PopClipRect();
}

void drawHelp(UiContext& context) {
  ImGui::SetNextWindowPos(ImVec2(context.width * 0.5f, context.height * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin("Help", &context.showHelp, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  WidgetLog::instance().text("help", "shown");
  static const char* const rows[][2] = {
      {"Space", "run / pause (a replay: play / pause it)"},
      {"N  or  Right", "step once"},
      {"Shift+N", "step N (set in Playback)"},
      {"+ / -", "double / halve steps per frame"},
      {"R", "reset to the parameters' initial state (asks first)"},
      {"C", "clear (asks first)"},
      {"Ctrl+Z / Ctrl+Shift+Z", "undo / redo an edit or a parameter change (also Ctrl+Y)"},
      {"D / E / P", "tool: draw / erase / place"},
      {", / .", "place: turn the pattern a quarter back / on"},
      {"X / Y", "place: mirror the pattern left-right / top-bottom"},
      {"Ctrl+O", "open a file (a pattern, mesh, graph, preset, session or checkpoint)"},
      {"Ctrl+C / Ctrl+V", "copy the selection (or the world) as RLE / paste a pattern to place"},
      {"left drag", "use the tool (place: click)"},
      {"right drag", "erase"},
      {"middle drag, Ctrl+left drag", "pan"},
      {"wheel", "zoom about the cursor"},
      {"F", "fit the world in the view (between the panels)"},
      {"G", "cell grid lines (when zoomed in)"},
      {"1 ... 9", "switch view"},
      {"Tab", "hide / show the panels"},
      {"U", "UI scale: 1, 1.5, 2 (for a projector)"},
      {"I", "high-contrast theme"},
      {"L", "the key figure in large type"},
      {"A", "auto demo: a shipped preset every few seconds"},
      {"F12", "screenshot (PNG in the output folder)"},
      {"Escape", "close an open list"},
      {"H  or  F1", "this help"},
      {"Ctrl+Q", "quit"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& row : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ws::app::ui
