#pragma once
// What the driver's two files share: ui_driver.cpp (the script's commands) and ui_driver_checks.cpp
// (the whole-window checks: the layout, the walk over every widget, the monkey).
#include <imgui.h>

#include <string>

#include "app/ui/tracked.h"
#include "app/ui/ui.h"

namespace ws::app::ui::driver {

inline constexpr int kSettleFrames = 3;  // a click's change is queued, applied, then drawn

// A shown value cut to the length a message repeats.
std::string shorten(const std::string& text);
// Whether a window is a popup (a combo's list, a tooltip, the error popup).
bool isPopup(const std::string& window);
// Where a click on the widget goes.
ImVec2 centre(const WidgetRecord& w);
// A point of the view, from fractions of it.
ImVec2 inView(const UiContext& context, float fx, float fy);
// That the widget shows a number above (or below) `bound`; throws InputError saying what it shows.
void expectBound(const WidgetRecord& w, bool above, double bound);

}  // namespace ws::app::ui::driver
