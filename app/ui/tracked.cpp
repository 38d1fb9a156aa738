#include "app/ui/tracked.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>

namespace ws::app::ui {

WidgetLog& WidgetLog::instance() {
  static WidgetLog log;
  return log;
}

void WidgetLog::beginFrame() {
  last_.swap(current_);
  current_.clear();
}

void WidgetLog::add(WidgetRecord record) {
  current_.push_back(std::move(record));
}

void WidgetLog::text(const std::string& name, const std::string& text) {
  WidgetRecord record;
  // Read without writing: outside every window (the view's labels), a written-to current window
  // would be ImGui's implicit "Debug" window, which then shows.
  record.window = ImGui::GetCurrentWindowRead()->Name;
  record.label = record.id = name;
  record.kind = "text";
  record.value = text;
  current_.push_back(std::move(record));
}

namespace {

struct Reserved {
  std::string key;
  float height = 0;
};

std::map<std::string, Reserved>& reservedBlocks() {
  static std::map<std::string, Reserved> blocks;
  return blocks;
}

}  // namespace

SteadyBlock::SteadyBlock(const char* id, const std::string& key)
    : id_(id), start_(ImGui::GetCursorPosY()) {
  // The width and font are part of what the height depends on.
  const std::string full = key + "/" + std::to_string(int(ImGui::GetContentRegionAvail().x)) + "/" +
                           std::to_string(ImGui::GetFontSize());
  Reserved& reserved = reservedBlocks()[id_];
  if (reserved.key != full) reserved = {full, 0};
}

SteadyBlock::~SteadyBlock() {
  Reserved& reserved = reservedBlocks()[id_];
  const float used = ImGui::GetCursorPosY() - start_;
  reserved.height = std::max(reserved.height, used);
  if (used < reserved.height) ImGui::SetCursorPosY(start_ + reserved.height);
}

void wrappedTooltip(const char* format, ...) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(
      std::min(ImGui::GetFontSize() * 34.0f, ImGui::GetIO().DisplaySize.x * 0.8f));
  va_list args;
  va_start(args, format);
  ImGui::TextV(format, args);
  va_end(args);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

namespace tracked {

namespace {

// What a label shows: the part before "##", or the whole id where nothing shows.
std::string shownLabel(const char* id) {
  const char* hidden = std::strstr(id, "##");
  const std::string shown = hidden ? std::string(id, hidden) : std::string(id);
  return shown.empty() ? std::string(id) : shown;
}

// The item just submitted, when the window drew it (a collapsed window skips its items and
// leaves the last item's data as it was).
void record(const char* id, const char* kind, float frameWidth, std::string value) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return;
  WidgetRecord r;
  r.window = window->Name;
  r.id = id;
  r.label = shownLabel(id);
  r.kind = kind;
  r.min = ImGui::GetItemRectMin();
  r.max = ImGui::GetItemRectMax();
  r.frameMax = frameWidth > 0 ? ImVec2(r.min.x + frameWidth, r.max.y) : r.max;
  r.scrollY = window->Scroll.y;
  r.enabled = !(GImGui->LastItemData.InFlags & ImGuiItemFlags_Disabled);
  // A window's first frame (an auto-sized popup) lays out unseen and moves before it shows.
  r.visible = ImGui::IsItemVisible() && !window->Hidden;
  r.value = std::move(value);
  WidgetLog::instance().add(std::move(r));
}

// Reflow, so that a narrow panel or a large UI scale wraps widgets instead of cutting them off.
// A widget placed beside the previous one (SameLine) that would cross the panel's right edge
// goes to the next line instead.
void wrapIfPastEdge(float width) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float lineStart = window->Pos.x + window->DC.Indent.x + window->DC.ColumnsOffset.x +
                          window->WindowPadding.x - window->Scroll.x;
  const bool besidePrevious = window->DC.CursorPos.x > lineStart + 1.0f;
  if (besidePrevious && window->DC.CursorPos.x + width > window->WorkRect.Max.x) ImGui::NewLine();
}

float textWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x;
}

// A button, checkbox or radio: its whole width wraps to the next line when it does not fit.
void wrapClickable(const char* label, float box) {
  const ImGuiStyle& style = ImGui::GetStyle();
  wrapIfPastEdge(box + textWidth(label) + style.FramePadding.x * 2);
}

// A labelled frame (slider, field, combo): the frame takes the width its label leaves, unless the
// caller set one; a label too long to leave the frame at least half the line goes above it.
// Returns the label to draw the widget with ("##label" when the label went above).
std::string fitLabelledFrame(const char* label) {
  ImGuiContext& g = *GImGui;
  if (g.NextItemData.Flags & ImGuiNextItemDataFlags_HasWidth) return label;
  const float available = ImGui::GetContentRegionAvail().x;
  const float labelWidth = textWidth(label);
  if (labelWidth == 0) {
    ImGui::SetNextItemWidth(available);
    return label;
  }
  const float room = available - labelWidth - g.Style.ItemInnerSpacing.x;
  if (room >= available * 0.5f) {
    ImGui::SetNextItemWidth(room);
    return label;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(shownLabel(label).c_str());
  ImGui::PopTextWrapPos();
  ImGui::SetNextItemWidth(available);
  return "##" + std::string(label);
}

std::string onOff(bool on) {
  return on ? "on" : "off";
}

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char text[128];
  std::snprintf(text, sizeof text, fmt, args...);
  return text;
}

// A labelled frame (slider, drag, field): fitted to the line (fitLabelledFrame), drawn by
// `draw(id)` and recorded with the value `shown()` gives after drawing.
template <typename Draw, typename Shown>
bool framed(const char* label, const char* kind, Draw&& draw, Shown&& shown) {
  const std::string fitted = fitLabelledFrame(label);
  const float width = ImGui::CalcItemWidth();
  const bool changed = draw(fitted.c_str());
  record(label, kind, width, shown());
  return changed;
}

}  // namespace

bool Button(const char* label, const ImVec2& size) {
  if (size.x > 0)
    wrapIfPastEdge(size.x);
  else
    wrapClickable(label, 0);
  const bool pressed = ImGui::Button(label, size);
  record(label, "button", 0, "");
  return pressed;
}

bool Checkbox(const char* label, bool* value) {
  wrapClickable(label, ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  const bool changed = ImGui::Checkbox(label, value);
  record(label, "checkbox", 0, onOff(*value));
  return changed;
}

bool RadioButton(const char* label, bool active) {
  wrapClickable(label, ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  const bool pressed = ImGui::RadioButton(label, active);
  record(label, "radio", 0, onOff(active));
  return pressed;
}

bool RadioButton(const char* label, int* value, int button) {
  wrapClickable(label, ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  const bool pressed = ImGui::RadioButton(label, value, button);
  record(label, "radio", 0, onOff(*value == button));
  return pressed;
}

bool BeginCombo(const char* label, const char* preview, ImGuiComboFlags flags) {
  const std::string fitted = fitLabelledFrame(label);
  const float width = ImGui::CalcItemWidth();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGuiWindow* const window = ImGui::GetCurrentWindow();
  const bool open = ImGui::BeginCombo(fitted.c_str(), preview, flags);
  // A preview too long for the frame is cut at its edge: the whole of it on hover.
  if (!open && ImGui::IsItemHovered() &&
      ImGui::CalcTextSize(preview).x >
          width - ImGui::GetFrameHeight() - 2 * GImGui->Style.FramePadding.x)
    wrappedTooltip("%s", preview);
  if (!open) {
    record(label, "combo", width, preview);
    return false;
  }
  // Open, the popup is the current window and the last item is its own: the combo's rectangle
  // is where the cursor was, as BeginCombo lays it out.
  if (window->SkipItems) return true;
  WidgetRecord r;
  r.window = window->Name;
  r.id = label;
  r.label = shownLabel(label);
  r.kind = "combo";
  const float labelWidth = ImGui::CalcTextSize(fitted.c_str(), nullptr, true).x;
  r.min = at;
  r.frameMax = ImVec2(at.x + width, at.y + ImGui::GetFrameHeight());
  r.max = ImVec2(
      r.frameMax.x + (labelWidth > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + labelWidth : 0.0f),
      r.frameMax.y);
  r.scrollY = window->Scroll.y;
  r.value = preview;
  WidgetLog::instance().add(std::move(r));
  return true;
}

bool Combo(const char* label, int* current, const char* const items[], int count) {
  bool changed = false;
  if (BeginCombo(label, items[*current])) {
    for (int i = 0; i < count; ++i)
      if (Selectable(items[i], i == *current)) *current = i, changed = true;
    ImGui::EndCombo();
  }
  return changed;
}

bool Selectable(const char* label, bool selected) {
  const bool pressed = ImGui::Selectable(label, selected);
  record(label, "selectable", 0, onOff(selected));
  return pressed;
}

bool SliderInt(const char* label, int* value, int min, int max, const char* fmt,
               ImGuiSliderFlags flags) {
  return framed(
      label, "slider",
      [&](const char* id) { return ImGui::SliderInt(id, value, min, max, fmt, flags); },
      [&] { return format("%d", *value); });
}

bool SliderFloat(const char* label, float* value, float min, float max, const char* fmt,
                 ImGuiSliderFlags flags) {
  return framed(
      label, "slider",
      [&](const char* id) { return ImGui::SliderFloat(id, value, min, max, fmt, flags); },
      [&] { return format("%g", double(*value)); });
}

bool DragInt(const char* label, int* value, float speed, int min, int max, const char* fmt,
             ImGuiSliderFlags flags) {
  return framed(
      label, "drag",
      [&](const char* id) { return ImGui::DragInt(id, value, speed, min, max, fmt, flags); },
      [&] { return format("%d", *value); });
}

bool InputInt(const char* label, int* value, int step, int stepFast) {
  return framed(
      label, "input", [&](const char* id) { return ImGui::InputInt(id, value, step, stepFast); },
      [&] { return format("%d", *value); });
}

bool InputScalar(const char* label, ImGuiDataType type, void* value) {
  return framed(
      label, "input", [&](const char* id) { return ImGui::InputScalar(id, type, value); },
      [&] {
        return type == ImGuiDataType_S64 ? format("%lld", *static_cast<long long*>(value))
                                         : std::string();
      });
}

bool InputText(const char* label, char* buffer, std::size_t size) {
  return framed(
      label, "input", [&](const char* id) { return ImGui::InputText(id, buffer, size); },
      [&] { return std::string(buffer); });
}

bool InputTextWithHint(const char* label, const char* hint, char* buffer, std::size_t size) {
  return framed(
      label, "input",
      [&](const char* id) { return ImGui::InputTextWithHint(id, hint, buffer, size); },
      [&] { return std::string(buffer); });
}

bool CollapsingHeader(const char* label, ImGuiTreeNodeFlags flags) {
  const bool open = ImGui::CollapsingHeader(label, flags);
  record(label, "header", 0, onOff(open));
  return open;
}

}  // namespace tracked
}  // namespace ws::app::ui
