#pragma once
// Owns the ImGui context and its OpenGL 3 renderer for as long as a front end draws panels
// (the GUI adds the GLFW platform backend on top; headless frames need none).
#include <functional>
#include <string_view>

namespace ws::app::ui {

// Draws those draw lists of the last ImGui::Render() whose owner window `keep` accepts (by name:
// "Timings", "##Foreground"), so that a video can be taken between two parts of the UI.
void renderDrawLists(const std::function<bool(std::string_view owner)>& keep);

class ImGuiGl {
 public:
  ImGuiGl();  // needs a current OpenGL 4.3 context
  ~ImGuiGl();
  ImGuiGl(const ImGuiGl&) = delete;
  ImGuiGl& operator=(const ImGuiGl&) = delete;
};

}  // namespace ws::app::ui
