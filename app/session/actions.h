#pragma once
// The actions a session records and a replay performs, one JSON object each, named by "type":
//   param {key, value}             a parameter change (value typed as in a preset)
//   edit {tool, x, y, from_x, from_y, item[, ray {origin, direction}]}   a mouse edit
//   action {name}                  a module action ("random soup", "unpin all")
//   reset {}                       the parameters' initial state
//   module {name}                  another module, on the same backend
//   select {backend, variant}      another backend or kernel variant
//   preset {path, content}         a preset file loaded (its content kept in the session)
//   running {value}                run or pause
//   steps_per_frame {value}
//   steps {count}                  steps asked for by Step or Step N
//   camera {center, zoom, height, orbit {centre, yaw, pitch, distance}}   the user moved the view
//   fit {}                         fit the view (and follow a graph's layout)
//   undo {}, redo {}               Ctrl+Z, Ctrl+Shift+Z (app/undo.h)
// A string field that named an existing file when recorded ("value", "item", "path") carries
// "file": {"path", "hash"}, so that a replay can say when the file is missing or changed.
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "compute/core/module.h"
#include "render/camera2d.h"
#include "render/orbit_camera.h"

namespace ws::app {

// The actions as the lab performs them, one struct each: JSON only where a session is written
// (toJson) and read (actionFromJson).
namespace act {
struct SetParam {
  std::string key;
  ParamValue value;
};
struct Edit {
  PointerEdit pointer;
};
struct RunAction {  // a module's action ("random soup")
  std::string name;
};
struct Reset {};
struct SwitchModule {
  std::string name;
};
struct Select {
  Backend backend;
  std::string variant;
};
struct LoadPreset {
  std::string path;
  nlohmann::json content;  // the preset file's, checked by the module when loaded
};
struct SetRunning {
  bool value;
};
struct SetStepsPerFrame {
  int value;
};
struct RequestSteps {
  int count;
};
struct Fit {};
struct Undo {};
struct Redo {};
// The user moved the view (pan, zoom, turn): the whole camera, as framed in a view `height`
// pixels tall (a replay in a view of another height keeps the same part of the world in frame).
struct MoveCamera {
  render::Camera2D plane;
  render::OrbitCamera orbit;  // of a 3-D scene
  int height = 0;
};
bool operator==(const MoveCamera& a, const MoveCamera& b);
}  // namespace act

using Action = std::variant<act::SetParam, act::Edit, act::RunAction, act::Reset, act::SwitchModule,
                            act::Select, act::LoadPreset, act::SetRunning, act::SetStepsPerFrame,
                            act::RequestSteps, act::Fit, act::MoveCamera, act::Undo, act::Redo>;

// For std::visit over an Action with one lambda per type.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

// The checks validateAction makes of a session's event, made of a typed action the user's input
// built: a pointer within a billion units of the origin, steps and steps per frame in range.
// Throws InputError with the same messages.
void validate(const Action& action);

// As a session records it ({"type": "edit", ...}).
nlohmann::json toJson(const Action& action);
// A session's event as the lab performs it; throws InputError naming what is wrong
// (validateAction's checks).
Action actionFromJson(const nlohmann::json& event);

// The most steps one 'steps' action may ask for (Step N's N is at most this).
constexpr long long kMostStepsAtOnce = 1'000'000;

// Throws InputError naming the field that is missing or of the wrong kind, or the unknown type.
void validateAction(const nlohmann::json& action);

}  // namespace ws::app
