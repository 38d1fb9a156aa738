#include "app/ui/ui_driver.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "app/ui/ui.h"
#include "app/ui/ui_driver_internal.h"
#include "compute/core/errors.h"

namespace ws::app::ui {

using namespace driver;

namespace {

constexpr int kMostRevealFrames = 30;
constexpr std::size_t kQuoted = 120;  // the most of a shown value a message repeats

// Splits a line into words; "quoted strings" are one word; # outside quotes ends the line.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false, any = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && c == '#') {
      break;
    } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      if (any) out.push_back(word);
      word.clear();
      any = false;
    } else {
      word += c;
      any = true;
    }
  }
  if (quoted) throw InputError("an unterminated \"quoted string\"");
  if (any) out.push_back(word);
  return out;
}

// How many words each command takes after its name.
const std::map<std::string, int>& arity() {
  static const std::map<std::string, int> table = {
      {"frames", 1},
      {"open", 1},
      {"close", 1},
      {"click", 1},
      {"hover", 1},
      {"pick", 2},
      {"toggle", 1},
      {"slide", 2},
      {"drag", 2},
      {"set", 2},
      {"key", 1},
      {"view-drag", 5},
      {"view-wheel", 3},
      {"view-click", 2},
      {"view-move", 2},
      {"drop", 1},
      {"window", 2},
      {"expect-status", 1},
      {"expect-value", 2},
      {"expect-widget", 1},
      {"expect-no-widget", 1},
      {"expect-file", 1},
      {"expect-error", 1},
      {"expect-no-error", 0},
      {"expect-layout", 0},
      {"walk", 0},
      {"monkey", 2},
      {"screenshot", 1},
      {"quit", 0},
      {"expect-module", 1},
      {"expect-above", 2},
      {"expect-below", 2},
      {"expect-still", 2},
      {"expect-match", 2},
  };
  return table;
}

float number(const std::string& word, const char* what) {
  char* end = nullptr;
  const float value = std::strtof(word.c_str(), &end);
  if (word.empty() || *end || !std::isfinite(value))
    throw InputError(std::string(what) + " '" + shorten(word) + "' is not a number");
  return value;
}

// Two shown values agree: as numbers where both are, else as text.
bool sameValue(const std::string& shown, const std::string& expected) {
  char *endA = nullptr, *endB = nullptr;
  const double a = std::strtod(shown.c_str(), &endA), b = std::strtod(expected.c_str(), &endB);
  if (!shown.empty() && !expected.empty() && !*endA && !*endB)
    return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
  return shown == expected;
}

// GLFW's code for a key's name, and its modifiers ("shift+n", "ctrl+a").
KeyPress keyCode(const std::string& name) {
  KeyPress press{GLFW_KEY_UNKNOWN, 0};
  std::string key = name;
  // In any order ("ctrl+shift+z").
  for (bool more = true; more;) {
    more = false;
    for (const auto& [prefix, mod] :
         {std::pair<const char*, int>{"shift+", GLFW_MOD_SHIFT}, {"ctrl+", GLFW_MOD_CONTROL}})
      if (key.size() > std::strlen(prefix) && key.rfind(prefix, 0) == 0)
        press.mods |= mod, key = key.substr(std::strlen(prefix)), more = true;
  }
  static const std::map<std::string, int> named = {
      {"space", GLFW_KEY_SPACE}, {"tab", GLFW_KEY_TAB},      {"escape", GLFW_KEY_ESCAPE},
      {"enter", GLFW_KEY_ENTER}, {"right", GLFW_KEY_RIGHT},  {"left", GLFW_KEY_LEFT},
      {"up", GLFW_KEY_UP},       {"down", GLFW_KEY_DOWN},    {"plus", GLFW_KEY_EQUAL},
      {"minus", GLFW_KEY_MINUS}, {"f1", GLFW_KEY_F1},        {"f12", GLFW_KEY_F12},
      {"comma", GLFW_KEY_COMMA}, {"period", GLFW_KEY_PERIOD}};
  if (auto it = named.find(key); it != named.end()) {
    press.key = it->second;
  } else if (key.size() == 1 && std::isalnum(static_cast<unsigned char>(key[0]))) {
    press.key = std::toupper(static_cast<unsigned char>(key[0]));  // GLFW: letters and digits
  }
  return press;
}

}  // namespace

namespace driver {

std::string shorten(const std::string& text) {
  return text.size() <= kQuoted ? text : text.substr(0, kQuoted) + "...";
}

bool isPopup(const std::string& window) {
  return window.rfind("##Combo", 0) == 0 || window.rfind("##Popup", 0) == 0 ||
         window.rfind("##Tooltip", 0) == 0 || window == "Error" || window == "Confirm";
}

// Where a click on the widget goes: the middle of its frame, or the start of a selectable's text
// (its rectangle may reach past the popup's edge in the frame the popup opens).
ImVec2 centre(const WidgetRecord& w) {
  const float y = (w.min.y + w.max.y) * 0.5f;
  if (w.kind == "selectable") return ImVec2(w.min.x + std::min(12.0f, (w.max.x - w.min.x) / 2), y);
  return ImVec2((w.min.x + w.frameMax.x) * 0.5f, y);
}

// A point of the view, from fractions of it.
ImVec2 inView(const UiContext& context, float fx, float fy) {
  const ScreenRect& v = context.layout.view;
  return ImVec2(v.x + std::clamp(fx, 0.0f, 0.999f) * v.width,
                v.y + std::clamp(fy, 0.0f, 0.999f) * v.height);
}

}  // namespace driver

UiDriver::UiDriver(const std::string& path)
    : trace_(std::getenv("WARPSCOPE_UI_TRACE") != nullptr), random_(1) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read the UI script " + path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::vector<std::string> parts;
    try {
      parts = words(line);
    } catch (const InputError& e) {
      throw InputError(path + ":" + std::to_string(number) + ": " + e.what());
    }
    if (parts.empty()) continue;
    const auto it = arity().find(parts[0]);
    if (it == arity().end())
      throw InputError(path + ":" + std::to_string(number) + ": unknown command '" +
                       shorten(parts[0]) + "'");
    if (int(parts.size()) - 1 != it->second)
      throw InputError(path + ":" + std::to_string(number) + ": " + parts[0] + " takes " +
                       std::to_string(it->second) + " argument(s)");
    commands_.push_back({number, std::move(parts)});
  }
}

void UiDriver::fail(const std::string& why) {
  if (failure_.empty())
    failure_ = "line " + std::to_string(commands_[std::min(next_, commands_.size() - 1)].line) +
               ": " + why;
}

void UiDriver::frame(Lab& lab, UiContext& context, DriverRequests& requests) {
  if (started_ < kSettleFrames) {  // the first frames lay the window out
    ++started_;
    apply(held_);
    return;
  }
  if (!gestures_.empty()) {
    Gesture& next = gestures_.front();
    if (!next.target.empty())
      for (const WidgetRecord& w : WidgetLog::instance().last())
        if (w.id == next.target && w.window == next.window)
          next.mouse = ImVec2(w.min.x + next.offset.x, w.min.y + next.offset.y);
    apply(next);
    held_.mouse = gestures_.front().mouse;
    gestures_.pop_front();
    return;
  }
  apply(held_);
  try {
    while (failure_.empty() && next_ < commands_.size()) {
      if (run(commands_[next_], lab, context, requests) == Outcome::Continue) break;
      ++passed_;
      ++next_;
      phase_ = waited_ = count_ = 0;
      remembered_.clear();
      if (!gestures_.empty() || requests.resize || !requests.screenshot.empty() ||
          !requests.keys.empty())
        break;
    }
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (!failure_.empty()) requests.quit = true;
}

const WidgetRecord* UiDriver::find(const std::string& label) const {
  const WidgetRecord* best = nullptr;
  int bestScore = -1;
  for (const WidgetRecord& w : WidgetLog::instance().last()) {
    if (w.label != label && w.id != label) continue;
    const int score = (w.visible ? 2 : 0) + (w.enabled ? 1 : 0);
    if (score > bestScore) best = &w, bestScore = score;
  }
  return best;
}

bool UiDriver::reveal(const WidgetRecord& widget) {
  ImGuiWindow* window = ImGui::FindWindowByName(widget.window.c_str());
  if (!window) return true;
  const ImRect clip = window->InnerClipRect;
  // The record is a frame old and a scroll asked for shows a frame later: only a record drawn at
  // the window's present scroll says where the widget is now.
  const bool current = widget.scrollY == window->Scroll.y;
  if (current && widget.min.y >= clip.Min.y && widget.max.y <= clip.Max.y) {
    // Where it stays for two frames running: a window just scrolled may lay out again.
    const bool still =
        widget.id == revealed_ && widget.min.x == revealedAt_.x && widget.min.y == revealedAt_.y;
    revealed_ = widget.id;
    revealedAt_ = widget.min;
    return still;
  }
  revealed_.clear();
  // As the wheel would: the widget a third of the way down its window, reckoned from where it was
  // in the window's content when drawn.
  const float target = widget.scrollY + widget.min.y - (clip.Min.y + clip.GetHeight() / 3);
  ImGui::SetScrollY(window, std::clamp(target, 0.0f, window->ScrollMax.y));
  if (++waited_ > kMostRevealFrames) fail("'" + widget.label + "' stays out of its window's view");
  return false;
}

void UiDriver::settle(int frames) {
  for (int i = 0; i < frames; ++i) gestures_.push_back(Gesture{held_.mouse});
}

void UiDriver::click(ImVec2 at, bool ctrl, int button) {
  if (trace_) std::cout << "ui-test: click " << at.x << "," << at.y << std::endl;
  Gesture hover{at};
  hover.ctrl = ctrl;
  Gesture press = hover;
  press.buttons[button] = true;
  gestures_.push_back(hover);
  gestures_.push_back(press);
  gestures_.push_back(hover);
  held_.mouse = at;
}

void UiDriver::clickOn(const WidgetRecord& widget, ImVec2 at, bool ctrl) {
  const std::size_t first = gestures_.size();
  click(at, ctrl);
  // Each frame of the click aims at where the widget was last drawn: a line appearing above it
  // between the frames moves it, and the hand follows it as a user's would.
  for (std::size_t i = first; i < gestures_.size(); ++i) {
    gestures_[i].window = widget.window;
    gestures_[i].target = widget.id;
    gestures_[i].offset = ImVec2(at.x - widget.min.x, at.y - widget.min.y);
  }
}

void UiDriver::drag(ImVec2 from, ImVec2 to, int button, bool ctrl) {
  Gesture g{from};
  g.ctrl = ctrl;
  gestures_.push_back(g);
  constexpr int kSteps = 8;
  for (int i = 0; i <= kSteps; ++i) {
    const float t = float(i) / kSteps;
    g.mouse = ImVec2(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
    g.buttons[button] = true;
    gestures_.push_back(g);
  }
  gestures_.push_back(g);  // held still a frame before letting go, as a hand does
  g.buttons[button] = false;
  gestures_.push_back(g);
  held_.mouse = to;
}

void UiDriver::type(const std::string& text) {
  Gesture selectAll{held_.mouse};
  selectAll.ctrl = true;
  selectAll.keysDown = {GLFW_KEY_A};
  gestures_.push_back(selectAll);
  gestures_.push_back(Gesture{held_.mouse});
  Gesture characters{held_.mouse};
  characters.characters = text;
  gestures_.push_back(characters);
  Gesture enter{held_.mouse};
  enter.keysDown = {GLFW_KEY_ENTER};
  gestures_.push_back(enter);
  gestures_.push_back(Gesture{held_.mouse});
}

void UiDriver::pressKey(const std::string& name, DriverRequests& requests) {
  const KeyPress press = keyCode(name);
  if (press.key == GLFW_KEY_UNKNOWN) throw InputError("unknown key '" + shorten(name) + "'");
  requests.keys.push_back(press);  // as the window's key callback queues it
  Gesture down{held_.mouse};       // and as ImGui sees it (Escape closes a popup)
  down.ctrl = press.mods & GLFW_MOD_CONTROL;
  down.keysDown = {press.key};
  gestures_.push_back(down);
  gestures_.push_back(Gesture{held_.mouse});
}

void UiDriver::apply(const Gesture& gesture) {
  ImGuiIO& io = ImGui::GetIO();
  // Frames come faster under a script than a user clicks: two clicks on one spot are two clicks,
  // never a double click.
  io.MouseDoubleClickTime = 0.0f;
  io.MousePos = gesture.mouse;
  for (int b = 0; b < 3; ++b) io.MouseDown[b] = gesture.buttons[b];
  io.MouseWheel = gesture.wheel;
  io.KeyCtrl = gesture.ctrl;
  io.KeyShift = io.KeyAlt = io.KeySuper = false;
  for (int key : keysHeld_) io.KeysDown[key] = false;
  keysHeld_ = gesture.keysDown;
  for (int key : keysHeld_) io.KeysDown[key] = true;
  for (char c : gesture.characters) io.AddInputCharacter(static_cast<unsigned char>(c));
}

UiDriver::Outcome UiDriver::run(const Command& command, Lab& lab, UiContext& context,
                                DriverRequests& requests) {
  const std::string& name = command.words[0];
  if (trace_ && phase_ == 0 && waited_ == 0 && count_ == 0) {
    std::cout << "ui-test: line " << command.line << ": " << name << std::endl;
    if (std::string(std::getenv("WARPSCOPE_UI_TRACE")) == "widgets")
      for (const WidgetRecord& w : WidgetLog::instance().last())
        std::cout << "  " << w.window << " | " << w.id << " | " << w.kind << " " << w.min.x << ","
                  << w.min.y << " " << w.max.x << "," << w.max.y << (w.visible ? "" : " hidden")
                  << (w.enabled ? "" : " disabled") << " = " << shorten(w.value) << std::endl;
  }
  const auto arg = [&](std::size_t i) -> const std::string& { return command.words.at(i); };
  const auto widget = [&](const std::string& label) -> const WidgetRecord& {
    const WidgetRecord* w = find(label);
    if (!w) throw InputError("no widget '" + shorten(label) + "' in the window");
    return *w;
  };

  if (name == "frames") {
    return ++waited_ > int(number(arg(1), "frames")) ? Outcome::Done : Outcome::Continue;
  }
  if (name == "open" || name == "close") {
    const WidgetRecord& header = widget(arg(1));
    const std::string wanted = name == "open" ? "on" : "off";
    if (header.value == wanted) return Outcome::Done;
    if (phase_ > 0) throw InputError("'" + arg(1) + "' did not " + name);
    if (!reveal(header)) return Outcome::Continue;
    clickOn(header, centre(header));
    settle(kSettleFrames);
    phase_ = 1;
    return Outcome::Continue;
  }
  if (name == "click") {
    const WidgetRecord& w = widget(arg(1));
    if (!w.enabled) throw InputError("'" + arg(1) + "' is disabled");
    if (!reveal(w)) return Outcome::Continue;
    clickOn(w, centre(w));
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "hover") {
    const WidgetRecord& w = widget(arg(1));
    if (!reveal(w)) return Outcome::Continue;
    gestures_.push_back(Gesture{centre(w)});
    held_.mouse = gestures_.back().mouse;
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "pick") {
    if (phase_ == 0) {
      const WidgetRecord& combo = widget(arg(1));
      if (combo.kind != "combo") throw InputError("'" + arg(1) + "' is not a combo");
      if (!combo.enabled) throw InputError("'" + arg(1) + "' is disabled");
      if (!reveal(combo)) return Outcome::Continue;
      clickOn(combo, centre(combo));
      settle(kSettleFrames);  // the popup lays itself out unseen in its first frame
      phase_ = 1;
      waited_ = 0;
      return Outcome::Continue;
    }
    if (phase_ == 1) {
      const WidgetRecord* entry = nullptr;
      std::string offered;
      for (const WidgetRecord& w : WidgetLog::instance().last())  // scrolled to, if need be
        if (w.window.rfind("##Combo", 0) == 0 && w.kind == "selectable") {
          if (w.label == arg(2)) entry = &w;
          offered += (offered.empty() ? "" : ", ") + w.label;
        }
      if (!entry)
        throw InputError("'" + arg(1) + "' offers no '" + shorten(arg(2)) +
                         "' (it offers: " + shorten(offered) + ")");
      if (!reveal(*entry)) return Outcome::Continue;
      clickOn(*entry, centre(*entry));
      settle(kSettleFrames);
      phase_ = 2;
      return Outcome::Continue;
    }
    const WidgetRecord& combo = widget(arg(1));
    if (combo.value != arg(2))
      throw InputError(
          "'" + arg(1) + "' shows '" + shorten(combo.value) + "' after picking '" +
          shorten(arg(2)) + "'" +
          (lab.errorMessage.empty() ? "" : " (error: " + shorten(lab.errorMessage) + ")"));
    return Outcome::Done;
  }
  if (name == "toggle") {
    const WidgetRecord& box = widget(arg(1));
    if (phase_ == 0) {
      if (box.kind != "checkbox") throw InputError("'" + arg(1) + "' is not a checkbox");
      if (!box.enabled) throw InputError("'" + arg(1) + "' is disabled");
      if (!reveal(box)) return Outcome::Continue;
      remembered_ = box.value;
      const float side = box.max.y - box.min.y;
      clickOn(box, ImVec2(box.min.x + side / 2, box.min.y + side / 2));
      settle(kSettleFrames);
      phase_ = 1;
      return Outcome::Continue;
    }
    if (box.value == remembered_) throw InputError("'" + arg(1) + "' stayed " + box.value);
    return Outcome::Done;
  }
  if (name == "slide" || name == "drag") {
    const WidgetRecord& w = widget(arg(1));
    if (phase_ == 0) {
      if (w.kind != "slider" && w.kind != "drag")
        throw InputError("'" + arg(1) + "' is not a slider");
      if (!w.enabled) throw InputError("'" + arg(1) + "' is disabled");
      if (!reveal(w)) return Outcome::Continue;
      remembered_ = w.value;
      const ImVec2 c = centre(w);
      if (name == "slide") {
        const float f = std::clamp(number(arg(2), "fraction"), 0.0f, 1.0f);
        const float inset = 4;  // the grab's half width at the ends
        clickOn(w, ImVec2(w.min.x + inset + f * (w.frameMax.x - w.min.x - 2 * inset), c.y));
      } else {
        drag(c, ImVec2(c.x + number(arg(2), "pixels"), c.y), 0);
      }
      settle(kSettleFrames);
      phase_ = 1;
      return Outcome::Continue;
    }
    if (w.value == remembered_) throw InputError("'" + arg(1) + "' stayed at " + w.value);
    return Outcome::Done;
  }
  if (name == "set") {
    const WidgetRecord& w = widget(arg(1));
    if (!w.enabled) throw InputError("'" + arg(1) + "' is disabled");
    if (!reveal(w)) return Outcome::Continue;
    // A slider takes text after Ctrl+click; a field after a click on its text.
    const bool slider = w.kind == "slider" || w.kind == "drag";
    clickOn(w, ImVec2(slider ? centre(w).x : w.min.x + 6, centre(w).y), slider);
    type(arg(2));
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "key") {
    pressKey(arg(1), requests);
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "view-drag") {
    static const std::map<std::string, std::pair<int, bool>> buttons = {{"left", {0, false}},
                                                                        {"right", {1, false}},
                                                                        {"middle", {2, false}},
                                                                        {"ctrl+left", {0, true}}};
    const auto it = buttons.find(arg(1));
    if (it == buttons.end())
      throw InputError("button '" + shorten(arg(1)) + "': left, right, middle or ctrl+left");
    drag(inView(context, number(arg(2), "x"), number(arg(3), "y")),
         inView(context, number(arg(4), "x"), number(arg(5), "y")), it->second.first,
         it->second.second);
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "drop") {
    requests.drops.push_back(arg(1));
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "view-move") {
    gestures_.push_back(Gesture{inView(context, number(arg(1), "x"), number(arg(2), "y"))});
    held_.mouse = gestures_.back().mouse;
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "view-click") {
    click(inView(context, number(arg(1), "x"), number(arg(2), "y")));
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "view-wheel") {
    Gesture g{inView(context, number(arg(1), "x"), number(arg(2), "y"))};
    gestures_.push_back(g);
    g.wheel = number(arg(3), "clicks");
    gestures_.push_back(g);
    held_.mouse = g.mouse;
    settle(kSettleFrames);
    return Outcome::Done;
  }
  if (name == "window") {
    const int w = int(number(arg(1), "width")), h = int(number(arg(2), "height"));
    if (phase_ == 0) {
      requests.resize = std::make_pair(w, h);
      phase_ = 1;
      return Outcome::Continue;
    }
    if (context.width == w && context.height == h) {
      settle(kSettleFrames);
      return Outcome::Done;
    }
    if (++waited_ > 120)
      throw InputError("the window stayed " + std::to_string(context.width) + "x" +
                       std::to_string(context.height));
    return Outcome::Continue;
  }
  if (name == "expect-status") {
    const WidgetRecord* status = find("status");
    if (!status) throw InputError("no status bar");
    if (status->value.find(arg(1)) == std::string::npos)
      throw InputError("the status bar says '" + shorten(status->value) + "', not '" +
                       shorten(arg(1)) + "'");
    return Outcome::Done;
  }
  if (name == "expect-module") {
    if (lab.module().name() != arg(1))
      throw InputError("the module is '" + std::string(lab.module().name()) + "', not '" +
                       shorten(arg(1)) + "'");
    return Outcome::Done;
  }
  if (name == "expect-value") {
    const WidgetRecord& w = widget(arg(1));
    if (!sameValue(w.value, arg(2)))
      throw InputError("'" + arg(1) + "' shows '" + shorten(w.value) + "', not '" +
                       shorten(arg(2)) + "'");
    return Outcome::Done;
  }
  if (name == "expect-match") {
    const WidgetRecord& w = widget(arg(1));
    std::regex pattern;
    try {
      pattern = std::regex(arg(2), std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      throw InputError("'" + shorten(arg(2)) + "' is not a regular expression");
    }
    if (!std::regex_search(w.value, pattern))
      throw InputError("'" + arg(1) + "' shows '" + shorten(w.value) + "', which does not match '" +
                       shorten(arg(2)) + "'");
    return Outcome::Done;
  }
  if (name == "expect-above" || name == "expect-below") {
    expectBound(widget(arg(1)), name == "expect-above", number(arg(2), "bound"));
    return Outcome::Done;
  }
  if (name == "expect-still") {
    const WidgetRecord& w = widget(arg(1));
    if (waited_ == 0) stillAt_ = w.min;
    if (w.min.x != stillAt_.x || w.min.y != stillAt_.y)
      throw InputError("'" + arg(1) + "' moved " + std::to_string(int(w.min.y - stillAt_.y)) +
                       " pixels down in " + std::to_string(waited_) + " frames");
    return ++waited_ > int(number(arg(2), "frames")) ? Outcome::Done : Outcome::Continue;
  }
  if (name == "expect-widget" || name == "expect-no-widget") {
    const bool present = find(arg(1)) != nullptr;
    if (present != (name == "expect-widget"))
      throw InputError("'" + shorten(arg(1)) + "' is " + (present ? "" : "not ") + "in the window");
    return Outcome::Done;
  }
  if (name == "expect-file") {
    std::error_code error;
    if (!std::filesystem::exists(arg(1), error) || std::filesystem::file_size(arg(1), error) == 0)
      throw InputError("no file " + shorten(arg(1)) + " (or it is empty)");
    return Outcome::Done;
  }
  if (name == "expect-error") {
    if (phase_ == 0) {
      if (lab.errorMessage.find(arg(1)) == std::string::npos)
        throw InputError(lab.errorMessage.empty()
                             ? "no error shown (expected '" + shorten(arg(1)) + "')"
                             : "the error says '" + shorten(lab.errorMessage) + "'");
      const WidgetRecord* ok = find("OK");
      if (!ok) {  // the popup opens the frame after the error
        if (++waited_ > 10) throw InputError("the error has no OK button");
        return Outcome::Continue;
      }
      clickOn(*ok, centre(*ok));
      settle(kSettleFrames);
      phase_ = 1;
      return Outcome::Continue;
    }
    if (!lab.errorMessage.empty()) throw InputError("OK left the error shown");
    return Outcome::Done;
  }
  if (name == "expect-no-error") {
    if (!lab.errorMessage.empty()) throw InputError("an error: " + shorten(lab.errorMessage));
    return Outcome::Done;
  }
  if (name == "expect-layout") {
    const std::string problem = checkLayout(context);
    if (!problem.empty()) throw InputError(problem);
    return Outcome::Done;
  }
  if (name == "walk") return walkStep(lab) ? Outcome::Continue : Outcome::Done;
  if (name == "monkey") {
    if (phase_ == 0) {
      random_.seed(static_cast<unsigned>(number(arg(1), "seed")));
      phase_ = 1;
    }
    if (count_++ >= int(number(arg(2), "count"))) return Outcome::Done;
    monkeyEvent(lab, context, requests);
    return Outcome::Continue;
  }
  if (name == "screenshot") {
    requests.screenshot = arg(1);
    settle(1);
    return Outcome::Done;
  }
  if (name == "quit") {
    requests.quit = true;
    return Outcome::Done;
  }
  throw InputError("unknown command '" + name + "'");
}

// Nothing hides the view, no widget of a panel overlaps another, none is cut off at its window's
// edge, and the panels are where the layout put them.
}  // namespace ws::app::ui
