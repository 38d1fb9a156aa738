#pragma once
// The panels' interactive widgets, each drawn through ImGui and recorded with its label, kind,
// rectangle and value for the frame. The UI test driver (app/ui/ui_driver.h) finds widgets by
// these labels, never by pixels, and the layout checks read their rectangles. Same names and
// arguments as ImGui's own, so a panel reads as ImGui code: tracked::Button("Reset").
#include <imgui.h>

#include <string>
#include <vector>

namespace ws::app::ui {

struct WidgetRecord {
  std::string window;  // the ImGui window it is in (a combo's entries: its popup)
  std::string label;   // what it shows: the label before "##" (or the whole id when none shows)
  std::string id;      // the label string given to ImGui
  std::string kind;    // button, checkbox, radio, combo, selectable, slider, input, header, text
  ImVec2 min, max;     // the whole item, its label included
  ImVec2 frameMax;     // where its frame ends (sliders, fields, combos: the label is right of it)
  float scrollY = 0;   // how far its window was scrolled when it was drawn
  bool enabled = true;
  bool visible = true;  // not scrolled or clipped out of its window
  std::string value;    // checkbox, radio, header: on/off; combo: its preview; slider, field: text
};

// What the last whole frame drew, and the frame being drawn.
class WidgetLog {
 public:
  static WidgetLog& instance();
  void beginFrame();  // the frame drawn so far becomes the last one
  void add(WidgetRecord record);
  // A line of text to check (the status bar's), by name.
  void text(const std::string& name, const std::string& text);
  const std::vector<WidgetRecord>& last() const { return last_; }

 private:
  std::vector<WidgetRecord> current_, last_;
};

// A block of text that changes as the simulation runs (live figures, a module's notes) keeps the
// tallest height it has had for `key` (what it shows and at what width), so the controls below it
// stay where the user's cursor found them. Draw the block's items between the two calls.
class SteadyBlock {
 public:
  SteadyBlock(const char* id, const std::string& key);
  ~SteadyBlock();
  SteadyBlock(const SteadyBlock&) = delete;
  SteadyBlock& operator=(const SteadyBlock&) = delete;

 private:
  std::string id_;
  float start_;
};

// ImGui::SetTooltip with its text wrapped at a readable width that the window holds (ImGui draws a
// tooltip's line whole, and a parameter's help would run past the window's edge).
void wrappedTooltip(const char* format, ...) IM_FMTARGS(1);

namespace tracked {

bool Button(const char* label, const ImVec2& size = ImVec2(0, 0));
bool Checkbox(const char* label, bool* value);
bool RadioButton(const char* label, bool active);
bool RadioButton(const char* label, int* value, int button);
bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags = 0);
bool Combo(const char* label, int* current, const char* const items[], int count);
bool Selectable(const char* label, bool selected = false);
bool SliderInt(const char* label, int* value, int min, int max, const char* format = "%d",
               ImGuiSliderFlags flags = 0);
bool SliderFloat(const char* label, float* value, float min, float max, const char* format = "%.3f",
                 ImGuiSliderFlags flags = 0);
bool DragInt(const char* label, int* value, float speed, int min, int max,
             const char* format = "%d", ImGuiSliderFlags flags = 0);
bool InputInt(const char* label, int* value, int step = 1, int stepFast = 100);
bool InputScalar(const char* label, ImGuiDataType type, void* value);
bool InputText(const char* label, char* buffer, std::size_t size);
bool InputTextWithHint(const char* label, const char* hint, char* buffer, std::size_t size);
bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags = 0);

}  // namespace tracked
}  // namespace ws::app::ui
