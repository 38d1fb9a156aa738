#pragma once
// Owns the ImGui context and its OpenGL 3 renderer for as long as a front end draws panels
// (the GUI adds the GLFW platform backend on top; headless frames need none).
namespace ws::app::ui {

class ImGuiGl {
 public:
  ImGuiGl();  // needs a current OpenGL 4.3 context
  ~ImGuiGl();
  ImGuiGl(const ImGuiGl&) = delete;
  ImGuiGl& operator=(const ImGuiGl&) = delete;
};

}  // namespace ws::app::ui
