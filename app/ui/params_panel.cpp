// The parameter panel, generated from the module's declared parameters.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "app/ui/ui.h"

namespace ws::app::ui {

namespace {

// A parameter change can rebuild the engine and the parameter list being drawn: it waits for the
// frame's end (Lab::later).
void setLater(Lab& lab, const std::string& key, ParamValue value) {
  lab.later([&lab, key, value = std::move(value)] { lab.setParam(key, value); });
}

// Whether the slider just drawn has a value to apply. It takes a typed value after Ctrl+click,
// which ImGui applies to the slider at every keystroke: that is applied once, on Enter or on
// leaving the field, as the text fields are, so that typing 2.5 never tries 2 and 2. first (a
// refused half-typed value's message was dismissed by the very Enter that ended the typing, and
// the slider went back without a word). Dragging applies as it moves.
bool sliderApplies(bool changed) {
  if (ImGui::TempInputIsActive(ImGui::GetItemID())) return false;
  return changed || ImGui::IsItemDeactivatedAfterEdit();
}

void drawText(Lab& lab, const ParamSpec& spec) {
  // Text is applied on Enter (or on leaving the field), so half-typed values are never checked;
  // while the field is not being edited it shows the parameter's value.
  static std::map<std::string, std::array<char, 512>> buffers;
  static std::string editingKey;
  auto& buffer = buffers[spec.key];
  if (editingKey != spec.key)
    std::snprintf(buffer.data(), buffer.size(), "%s",
                  lab.module().params().getText(spec.key).c_str());
  tracked::InputText(spec.label.c_str(), buffer.data(), buffer.size());
  if (ImGui::IsItemActive())
    editingKey = spec.key;
  else if (editingKey == spec.key)
    editingKey.clear();
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    lab.later(
        [&lab, key = spec.key, value = std::string(buffer.data())] { lab.setParam(key, value); });
  }
  if (!spec.suggestions.empty()) {
    if (tracked::BeginCombo(("##" + spec.key).c_str(), "well-known values")) {
      for (const auto& [label, value] : spec.suggestions)
        if (tracked::Selectable((label + "  " + value).c_str())) setLater(lab, spec.key, value);
      ImGui::EndCombo();
    }
  }
}

}  // namespace

void drawParameters(Lab& lab) {
  Module& module = lab.module();
  const auto tuned = module.currentVariant().tunedBy;
  int hidden = 0;
  for (const ParamSpec& spec : module.params().specs()) {
    if (!module.applies(spec.key)) {
      ++hidden;
      continue;
    }
    ImGui::PushID(spec.key.c_str());
    const ParamValue& value = module.params().value(spec.key);
    switch (spec.type) {
      case ParamType::Int: {
        std::int64_t v = std::get<std::int64_t>(value);
        bool apply = false;
        if (spec.max - spec.min > 1e6) {
          // Seeds and such: typed, applied on Enter.
          tracked::InputScalar(spec.label.c_str(), ImGuiDataType_S64, &v);
          apply = ImGui::IsItemDeactivatedAfterEdit();
        } else if (spec.logScale) {
          // Sizes reallocate: applied when the user lets go, not on every drag step.
          int i = static_cast<int>(v);
          tracked::DragInt(spec.label.c_str(), &i, 8.0f, int(spec.min), int(spec.max), "%d",
                           ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
          v = i;
          apply = ImGui::IsItemDeactivatedAfterEdit();
        } else {
          int i = static_cast<int>(v);
          const bool changed =
              tracked::SliderInt(spec.label.c_str(), &i, int(spec.min), int(spec.max), "%d",
                                 ImGuiSliderFlags_AlwaysClamp);
          apply = sliderApplies(changed) && i != v;
          v = i;
        }
        if (apply) setLater(lab, spec.key, v);
        break;
      }
      case ParamType::Float: {
        const float was = static_cast<float>(std::get<double>(value));
        float v = was;
        // Logarithmic sliders span decades: show significant digits, not three decimals.
        const bool changed = tracked::SliderFloat(spec.label.c_str(), &v, float(spec.min),
                                                  float(spec.max), spec.logScale ? "%.3g" : "%.3f",
                                                  spec.logScale ? ImGuiSliderFlags_Logarithmic : 0);
        if (sliderApplies(changed) && v != was) setLater(lab, spec.key, double(v));
        break;
      }
      case ParamType::Bool: {
        bool v = std::get<bool>(value);
        if (tracked::Checkbox(spec.label.c_str(), &v)) setLater(lab, spec.key, v);
        break;
      }
      case ParamType::Choice: {
        const std::string& current = std::get<std::string>(value);
        if (tracked::BeginCombo(spec.label.c_str(), current.c_str())) {
          for (const auto& choice : spec.choices)
            if (tracked::Selectable(choice.c_str(), choice == current))
              setLater(lab, spec.key, choice);
          ImGui::EndCombo();
        }
        break;
      }
      case ParamType::Text:
        drawText(lab, spec);
        break;
    }
    if (ImGui::IsItemHovered())
      wrappedTooltip("%s\n(--set %s.%s=...)", spec.help.c_str(), std::string(module.name()).c_str(),
                     spec.key.c_str());
    if (std::find(tuned.begin(), tuned.end(), spec.key) != tuned.end()) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "*");
      if (ImGui::IsItemHovered()) wrappedTooltip("shapes the current kernel variant");
    }
    ImGui::PopID();
  }
  if (hidden > 0) {
    ImGui::TextDisabled("%d more that mean nothing here", hidden);
    if (ImGui::IsItemHovered())
      wrappedTooltip(
          "parameters of another workload, lattice, backend or setting: they show "
          "when they apply (--help lists them all)");
  }
}

}  // namespace ws::app::ui
