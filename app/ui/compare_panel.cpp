// The A/B view's controls and labels: which backend and variant B runs, each half's timings, and
// whether the two agree.
#include <imgui.h>

#include "app/scene.h"
#include "app/ui/ui.h"
#include "compute/core/backend.h"

namespace ws::app::ui {

namespace {

const ImVec4 kAgree(0.45f, 0.95f, 0.55f, 1.0f), kDiffer(1.0f, 0.45f, 0.35f, 1.0f);

// "cuda / bitpacked: 0.0123 ms/step, 5.4 G cells/s"
std::string halfLine(Module& module) {
  std::string line = std::string(toString(module.backend())) + " / " + module.variant();
  const TimingStats s = module.stepTiming().stats();
  if (s.samples == 0) return line + ": no timing yet";
  char ms[48];
  std::snprintf(ms, sizeof ms, ": %.4g ms, ", s.medianMs);
  return line + ms + siRate(s.ratePerSecond, module.stepTiming().rateUnit());
}

// Starting B replaces the comparison this panel draws from: it waits for the frame's end.
void startWith(Lab& lab, const CompareTarget& target) {
  lab.later([&lab, target] {
    lab.stopComparison();
    lab.startComparison(target);
  });
}

}  // namespace

void drawComparePanel(Lab& lab) {
  Comparison* comparison = lab.comparison();
  bool on = comparison != nullptr;
  Module& a = lab.module();
  if (tracked::Checkbox("A/B split view", &on)) {
    if (on) {  // B starts on the other backend where there is one, else on another variant
      CompareTarget target{a.backend() == Backend::Cuda ? Backend::Cpu : Backend::Cuda, ""};
      if (!gpuInfo().available) {
        target.backend = a.backend();
        for (const KernelVariant& v : a.variants(a.backend()))
          if (v.name != a.variant()) {
            target.variant = v.name;
            break;
          }
      }
      startWith(lab, target);
    } else {
      lab.later([&lab] { lab.stopComparison(); });
    }
    lab.fitPending = true;
    return;
  }
  if (!comparison) {
    ImGui::TextDisabled("B runs beside A from the same state, and the two are checked");
    return;
  }
  Module& b = comparison->module();
  int backend = b.backend() == Backend::Cuda ? 1 : 0;
  if (tracked::RadioButton("B on CPU", &backend, 0)) startWith(lab, {Backend::Cpu, ""});
  ImGui::SameLine();
  if (!gpuInfo().available) ImGui::BeginDisabled();
  if (tracked::RadioButton("B on CUDA", &backend, 1)) startWith(lab, {Backend::Cuda, ""});
  if (!gpuInfo().available) ImGui::EndDisabled();
  if (tracked::BeginCombo("B variant", b.currentVariant().title.c_str())) {
    for (const auto& variant : b.variants(b.backend()))
      if (tracked::Selectable(variant.title.c_str(), variant.name == b.variant()))
        startWith(lab, {b.backend(), variant.name});
    ImGui::EndCombo();
  }
  {  // the agreement's lines change as it is checked: the buttons below stay put
    SteadyBlock agreementBlock("agreement", std::string(b.name()) + "/" + b.variant());
    ImGui::PushTextWrapPos(0.0f);
    if (const auto& agreement = comparison->agreement())
      ImGui::TextColored(agreement->exact() ? kAgree : kDiffer, "%s", agreement->summary().c_str());
    ImGui::PopTextWrapPos();
  }
  // Both read the comparison when they run, which may have ended by then.
  if (tracked::Button("Check now"))
    lab.later([&lab] {
      if (Comparison* c = lab.comparison()) c->check(lab.module());
    });
  ImGui::SameLine();
  if (tracked::Button("B from A again"))
    lab.later([&lab] {
      if (Comparison* c = lab.comparison()) c->resync(lab.module());
    });
}

void drawComparisonLabels(Lab& lab, UiContext& context) {
  Comparison* comparison = lab.comparison();
  if (!comparison) return;
  // Each half's label at its top left, the agreement on the line between them, in the view.
  const ScreenRect& view = context.layout.view;
  const std::vector<ViewColumn> columns = viewColumns(lab, pixelArea(view, context.pixelScale));
  Module* halves[2] = {&lab.module(), &comparison->module()};
  const char* names[2] = {"A", "B"};
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  for (int half = 0; half < 2; ++half) {
    ImGui::SetNextWindowPos(ImVec2(columns[half].x / context.pixelScale + 8, view.y + 8),
                            ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin((std::string("Compare##") + names[half]).c_str(), nullptr, flags);
    ImGui::Text("%s  %s", names[half], halfLine(*halves[half]).c_str());
    ImGui::End();
  }
  // The indicator, on the line between the halves.
  const auto& agreement = comparison->agreement();
  ImGui::SetNextWindowPos(ImVec2(columns[1].x / context.pixelScale, view.bottom() - 8),
                          ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("Compare##agreement", nullptr, flags);
  if (agreement)
    ImGui::TextColored(agreement->exact() ? kAgree : kDiffer, "%s  %s",
                       agreement->exact() ? "A = B" : "A != B", agreement->summary().c_str());
  else
    ImGui::TextDisabled("A / B: not compared yet");
  ImGui::End();
}

}  // namespace ws::app::ui
