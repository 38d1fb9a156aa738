#include "app/ui/imgui_gl.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace ws::app::ui {

ImGuiGl::ImGuiGl() {
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is ours: no imgui.ini beside the user's files
  ImGui::StyleColorsDark();
  ImGui_ImplOpenGL3_Init("#version 430");
}

ImGuiGl::~ImGuiGl() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace ws::app::ui
