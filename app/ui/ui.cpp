#include "app/ui/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

namespace ws::app::ui {

void drawUi(Lab& lab, UiContext& context) {
  // Escape closes an open list. (ImGui does this only with keyboard navigation on, which would take
  // keys the simulation uses.) The error box below answers Escape itself.
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) && !ImGui::IsPopupOpen("Error") &&
      ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
    ImGui::ClosePopupToLevel(0, true);
  applyClassroomStyle(context.classroom);
  drawControlPanel(lab, context);
  if (context.classroom.largeNumber) drawLargeNumber(lab, context);
  drawTimingOverlay(lab, context);
  drawComparisonLabels(lab, context);
  drawAnalysisWindows(lab, context);
  drawStatusBar(lab, context);
  if (context.showHelp) drawHelp(context);
  if (context.demo && context.demo->replay) drawReplayTimeline(lab, *context.demo, context);

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
      {"R", "reset to the parameters' initial state"},
      {"C", "clear"},
      {"D / E / P", "tool: draw / erase / place"},
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
      {"F12", "screenshot (PNG in the current folder)"},
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
