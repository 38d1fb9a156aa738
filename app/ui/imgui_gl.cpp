#include "app/ui/imgui_gl.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <vector>

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

void renderDrawLists(const std::function<bool(std::string_view owner)>& keep) {
  const ImDrawData* all = ImGui::GetDrawData();
  if (!all) return;
  std::vector<ImDrawList*> lists;
  ImDrawData some = *all;
  some.TotalIdxCount = some.TotalVtxCount = 0;
  for (int i = 0; i < all->CmdListsCount; ++i) {
    ImDrawList* list = all->CmdLists[i];
    if (!keep(list->_OwnerName ? list->_OwnerName : "")) continue;
    lists.push_back(list);
    some.TotalIdxCount += list->IdxBuffer.Size;
    some.TotalVtxCount += list->VtxBuffer.Size;
  }
  some.CmdLists = lists.data();
  some.CmdListsCount = int(lists.size());
  if (!lists.empty()) ImGui_ImplOpenGL3_RenderDrawData(&some);
}

}  // namespace ws::app::ui
