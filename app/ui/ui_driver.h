#pragma once
// Drives the real window from a script, as a user would: it finds widgets by their label in what
// the last frame drew (app/ui/tracked.h), moves the mouse there, presses, drags, types and turns
// the wheel through ImGui's input, presses keys through the window's key queue, and asserts what
// should have happened. `warpscope --ui-script FILE` runs one; tests/gui_test.cpp writes them.
//
// One command a line; arguments are words or "quoted strings"; # starts a comment.
//   frames N                    let N frames pass
//   open HEADER / close HEADER  open or close a collapsing section of the panel
//   click LABEL                 press and release the left button on a widget
//   hover LABEL                 move the mouse over a widget (its tooltip shows)
//   pick COMBO ENTRY            open a combo and choose the entry with that label
//   toggle CHECKBOX             click a checkbox; its value must flip
//   slide SLIDER FRACTION       press a slider at that fraction of its width; it must change
//   drag WIDGET PIXELS          drag a slider or drag field sideways; it must change
//   set WIDGET TEXT             type TEXT into a field (a slider: Ctrl+click, then type) + Enter
//   key KEY                     e.g. space, n, shift+n, f12, right, plus, tab, escape
//   view-drag BUTTON X0 Y0 X1 Y1  drag over the view (left, right, middle, ctrl+left), in
//                               fractions of it; the mouse stands still a frame before it lets go
//   view-click X Y              click the view there
//   view-move X Y               move the mouse over the view there (hover)
//   drop PATH                   drop a file on the window where the mouse is
//   view-wheel X Y CLICKS       turn the wheel over the view
//   window W H                  resize the window
//   expect-status TEXT          the status bar says TEXT
//   expect-module NAME          the lab runs that module
//   expect-value WIDGET VALUE   the widget shows VALUE (a checkbox: on/off; a combo: its choice;
//                               a metric of the Timings panel, by name: its value)
//   expect-match WIDGET REGEX   what it shows matches REGEX (ECMAScript, searched)
//   expect-above WIDGET N / expect-below WIDGET N   it shows a number above (below) N
//   expect-still WIDGET N       the widget stays where it is while N frames are drawn
//   expect-widget LABEL / expect-no-widget LABEL
//   expect-file PATH            a file exists and is not empty
//   expect-error TEXT           the error popup says TEXT (then it is dismissed with OK)
//   expect-no-error
//   expect-layout               nothing hides the view, no widgets overlap, no label is cut off,
//                               a tooltip shown lies inside the window
//   walk                        every widget of the open panel sections, each with its check
//   monkey SEED COUNT           COUNT random clicks, drags, wheel turns, keys and window sizes
//                               (all but quitting, F12, running on and raising the steps per
//                               frame: it steps, but a run on the CPU stays fast enough)
//   screenshot PATH
//   quit
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/lab.h"
#include "app/ui/tracked.h"

namespace ws::app::ui {

struct UiContext;

// A key press as the window's callback queues it (GLFW key and modifier codes).
struct KeyPress {
  int key, mods;
};

// What the frame loop does for the driver this frame.
struct DriverRequests {
  std::vector<KeyPress> keys;
  std::optional<std::pair<int, int>> resize;
  std::string screenshot;
  std::vector<std::string> drops;  // files dropped on the window
  bool quit = false;
};

class UiDriver {
 public:
  // Reads the script; throws InputError naming the line of a command it does not know.
  explicit UiDriver(const std::string& path);

  // Between ImGui's backend frame and ImGui::NewFrame: this frame's input, from the command
  // under way. `lab` and `context` are read for checks.
  void frame(Lab& lab, UiContext& context, DriverRequests& requests);
  bool finished() const { return next_ >= commands_.size() && gestures_.empty(); }
  // Empty while every command passed; the first failure's message otherwise.
  const std::string& failure() const { return failure_; }
  std::size_t passed() const { return passed_; }

 private:
  struct Command {
    int line;
    std::vector<std::string> words;
  };
  // One frame of input.
  struct Gesture {
    ImVec2 mouse{-FLT_MAX, -FLT_MAX};
    bool buttons[3] = {false, false, false};
    float wheel = 0;
    bool ctrl = false;
    std::vector<int> keysDown;  // ImGui's keys (GLFW codes) held this frame
    std::string characters;
    // Aimed at a widget: the mouse goes to `offset` from where it was last drawn.
    std::string window, target;
    ImVec2 offset;
  };
  enum class Outcome { Continue, Done };

  Outcome run(const Command& command, Lab& lab, UiContext& context, DriverRequests& requests);
  void fail(const std::string& why);
  // The widget with this label drawn last frame (visible and enabled preferred), or none.
  const WidgetRecord* find(const std::string& label) const;
  // Scrolls the widget's window until the widget shows; false while it is still scrolling.
  bool reveal(const WidgetRecord& widget);
  void click(ImVec2 at, bool ctrl = false, int button = 0);
  void clickOn(const WidgetRecord& widget, ImVec2 at, bool ctrl = false);
  void drag(ImVec2 from, ImVec2 to, int button, bool ctrl = false);
  void type(const std::string& text);
  void settle(int frames);  // frames with nothing pressed, for a change to be applied and drawn
  void pressKey(const std::string& name, DriverRequests& requests);
  void apply(const Gesture& gesture);
  std::string checkLayout(const UiContext& context) const;
  // One monkey event.
  void monkeyEvent(Lab& lab, UiContext& context, DriverRequests& requests);
  // The walk's next widget, or false when it has operated them all.
  bool walkStep(Lab& lab);

  std::vector<Command> commands_;
  std::size_t next_ = 0;
  int started_ = 0, phase_ = 0, waited_ = 0;
  std::deque<Gesture> gestures_;
  Gesture held_;               // where the mouse rests between gestures
  std::vector<int> keysHeld_;  // the keys the last gesture held down
  std::string revealed_;       // the widget reveal() saw last frame, and where
  ImVec2 revealedAt_, stillAt_;
  std::string failure_;
  bool trace_;  // WARPSCOPE_UI_TRACE set: each command and click on stdout
  std::size_t passed_ = 0;
  // A command's memory between its frames.
  std::string remembered_, checkedValue_;
  int count_ = 0;
  std::mt19937 random_;
  std::vector<std::string> walked_;
  bool retried_ = false;  // the walk clicked the last checkbox a second time
  bool raised_ = false;   // the last widget the walk operated raised an error
  std::string picked_;    // the entry the walk picked in the last combo
  int escapes_ = 0;       // Escapes sent in a row to a list that stayed open
};

}  // namespace ws::app::ui
