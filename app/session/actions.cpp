#include "app/session/actions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws::app {

namespace {

enum class Kind { String, Number, Integer, Boolean, Object, Any };

bool isKind(const nlohmann::json& value, Kind kind) {
  switch (kind) {
    case Kind::String:
      return value.is_string();
    case Kind::Number:
      return value.is_number();
    case Kind::Integer:
      return value.is_number_integer();
    case Kind::Boolean:
      return value.is_boolean();
    case Kind::Object:
      return value.is_object();
    case Kind::Any:
      return true;
  }
  return false;
}

const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::String:
      return "a string";
    case Kind::Number:
      return "a number";
    case Kind::Integer:
      return "a whole number";
    case Kind::Boolean:
      return "true or false";
    case Kind::Object:
      return "an object";
    case Kind::Any:
      return "a value";
  }
  return "";
}

using Fields = std::vector<std::pair<const char*, Kind>>;

const std::map<std::string, Fields>& schema() {
  static const std::map<std::string, Fields> fields = {
      {"param", {{"key", Kind::String}, {"value", Kind::Any}}},
      {"edit",
       {{"tool", Kind::String},
        {"x", Kind::Number},
        {"y", Kind::Number},
        {"from_x", Kind::Number},
        {"from_y", Kind::Number},
        {"item", Kind::String}}},
      {"action", {{"name", Kind::String}}},
      {"reset", {}},
      {"module", {{"name", Kind::String}}},
      {"select", {{"backend", Kind::String}, {"variant", Kind::String}}},
      {"preset", {{"path", Kind::String}, {"content", Kind::Object}}},
      {"running", {{"value", Kind::Boolean}}},
      {"steps_per_frame", {{"value", Kind::Integer}}},
      {"steps", {{"count", Kind::Integer}}},
      {"camera", {{"zoom", Kind::Number}, {"height", Kind::Number}, {"orbit", Kind::Object}}},
      {"fit", {}},
      {"undo", {}},
      {"redo", {}},
  };
  return fields;
}

std::array<float, 3> vector3(const nlohmann::json& value, const char* name) {
  if (!value.is_array() || value.size() != 3 || !value[0].is_number() || !value[1].is_number() ||
      !value[2].is_number())
    throw InputError(std::string("\"") + name + "\" must be three numbers");
  const std::array<float, 3> v{value[0].get<float>(), value[1].get<float>(), value[2].get<float>()};
  if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
    throw InputError(std::string("\"") + name + "\" is out of range");
  return v;
}

}  // namespace

void validateAction(const nlohmann::json& action) {
  if (!action.is_object() || !action.contains("type") || !action["type"].is_string())
    throw InputError("an action is an object with a \"type\"");
  const std::string type = action["type"];
  const auto found = schema().find(type);
  if (found == schema().end()) {
    std::string known;
    for (const auto& [name, fields] : schema()) known += " " + name;
    throw InputError("unknown action type '" + json_input::brief(type) + "' (known:" + known + ")");
  }
  for (const auto& [name, kind] : found->second) {
    if (!action.contains(name)) throw InputError("a '" + type + "' action needs \"" + name + "\"");
    if (!isKind(action[name], kind))
      throw InputError("\"" + std::string(name) + "\" of a '" + type + "' action must be " +
                       kindName(kind));
  }
  if (type == "edit" && action.contains("orientation") &&
      !(action["orientation"].is_number_integer() && action["orientation"].get<long long>() >= 0 &&
        action["orientation"].get<long long>() <= 7))
    throw InputError("\"orientation\" of a 'edit' action must be a whole number from 0 to 7");
  if (type == "edit" && action.contains("start") && !action["start"].is_boolean())
    throw InputError("\"start\" of a 'edit' action must be true or false");
  if (type == "edit" && action.contains("ray")) {
    if (!action["ray"].is_object()) throw InputError("\"ray\" of an edit must be an object");
    vector3(action["ray"].value("origin", nlohmann::json()), "ray.origin");
    vector3(action["ray"].value("direction", nlohmann::json()), "ray.direction");
  }
  if (type == "camera") {
    if (!action.contains("center") || !action["center"].is_array() ||
        action["center"].size() != 2 || !action["center"][0].is_number() ||
        !action["center"][1].is_number() || !std::isfinite(action["center"][0].get<float>()) ||
        !std::isfinite(action["center"][1].get<float>()))
      throw InputError("\"center\" of a 'camera' action must be two numbers");
    if (!(action["zoom"].get<float>() > 0))
      throw InputError("\"zoom\" of a 'camera' action must be above 0");
    const nlohmann::json& orbit = action["orbit"];
    vector3(orbit.value("centre", nlohmann::json()), "orbit.centre");
    for (const char* key : {"yaw", "pitch", "distance"})
      if (!orbit.contains(key) || !orbit[key].is_number() ||
          !std::isfinite(orbit[key].get<float>()))
        throw InputError(std::string("\"orbit.") + key +
                         "\" of a 'camera' action must be a number");
  }
  if (type == "steps" &&
      (action["count"].get<long long>() < 1 || action["count"].get<long long>() > kMostStepsAtOnce))
    throw InputError("\"count\" of a 'steps' action must be from 1 to " +
                     std::to_string(kMostStepsAtOnce));
  // Numbers a float holds (JSON's may not: 1e300), for positions and the camera; a pointer's
  // place within a billion units of the origin, where every world lies.
  for (const auto& [name, kind] : found->second)
    if (kind == Kind::Number && (!std::isfinite(action[name].get<float>()) ||
                                 (type == "edit" && std::abs(action[name].get<double>()) > 1e9)))
      throw InputError("\"" + std::string(name) + "\" of a '" + type + "' action is out of range");
  if (type == "steps_per_frame" &&
      (action["value"].get<long long>() < 1 || action["value"].get<long long>() > 1 << 20))
    throw InputError("\"value\" of a 'steps_per_frame' action must be from 1 to 1048576");
}

namespace {

nlohmann::json toJson(const PointerEdit& edit) {
  nlohmann::json action = {{"type", "edit"},    {"tool", edit.tool},    {"x", edit.x},
                           {"y", edit.y},       {"from_x", edit.fromX}, {"from_y", edit.fromY},
                           {"item", edit.item}, {"start", edit.start}};
  if (edit.orientation != 0) action["orientation"] = edit.orientation;
  if (edit.hasRay)
    action["ray"] = {{"origin", {edit.origin[0], edit.origin[1], edit.origin[2]}},
                     {"direction", {edit.direction[0], edit.direction[1], edit.direction[2]}}};
  return action;
}

PointerEdit editFromJson(const nlohmann::json& action) {
  PointerEdit edit;
  edit.tool = action.at("tool");
  edit.x = action.at("x");
  edit.y = action.at("y");
  edit.fromX = action.at("from_x");
  edit.fromY = action.at("from_y");
  edit.item = action.at("item");
  edit.orientation = action.value("orientation", 0);
  // Sessions recorded before "start" was written: a drag began where the pointer had not moved.
  edit.start = action.contains("start") ? action["start"].get<bool>()
                                        : edit.x == edit.fromX && edit.y == edit.fromY;
  if (action.contains("ray")) {
    edit.hasRay = true;
    const auto origin = vector3(action["ray"]["origin"], "ray.origin");
    const auto direction = vector3(action["ray"]["direction"], "ray.direction");
    for (int k = 0; k < 3; ++k) edit.origin[k] = origin[k], edit.direction[k] = direction[k];
  }
  return edit;
}

nlohmann::json toJson(const ParamValue& value) {
  nlohmann::json json;
  std::visit([&](const auto& v) { json = v; }, value);
  return json;
}

}  // namespace

bool act::operator==(const MoveCamera& a, const MoveCamera& b) {
  return a.plane.centerX == b.plane.centerX && a.plane.centerY == b.plane.centerY &&
         a.plane.zoom == b.plane.zoom && a.orbit.centre == b.orbit.centre &&
         a.orbit.yaw == b.orbit.yaw && a.orbit.pitch == b.orbit.pitch &&
         a.orbit.distance == b.orbit.distance && a.height == b.height;
}

void validate(const Action& action) {
  if (const auto* edit = std::get_if<act::Edit>(&action)) {
    const PointerEdit& e = edit->pointer;
    for (const auto& [name, value] : {std::pair{"x", e.x}, std::pair{"y", e.y},
                                      std::pair{"from_x", e.fromX}, std::pair{"from_y", e.fromY}})
      if (!std::isfinite(float(value)) || std::abs(value) > 1e9)
        throw InputError("\"" + std::string(name) + "\" of a 'edit' action is out of range");
    for (int k = 0; k < 3 && e.hasRay; ++k) {
      if (!std::isfinite(e.origin[k])) throw InputError("\"ray.origin\" is out of range");
      if (!std::isfinite(e.direction[k])) throw InputError("\"ray.direction\" is out of range");
    }
  } else if (const auto* steps = std::get_if<act::RequestSteps>(&action)) {
    if (steps->count < 1 || steps->count > kMostStepsAtOnce)
      throw InputError("\"count\" of a 'steps' action must be from 1 to " +
                       std::to_string(kMostStepsAtOnce));
  } else if (const auto* move = std::get_if<act::MoveCamera>(&action)) {
    const render::Camera2D& p = move->plane;
    if (!std::isfinite(float(p.centerX)) || !std::isfinite(float(p.centerY)))
      throw InputError("\"center\" of a 'camera' action must be two numbers");
    if (!(p.zoom > 0) || !std::isfinite(float(p.zoom)))
      throw InputError("\"zoom\" of a 'camera' action must be above 0");
  } else if (const auto* perFrame = std::get_if<act::SetStepsPerFrame>(&action)) {
    if (perFrame->value < 1 || perFrame->value > 1 << 20)
      throw InputError("\"value\" of a 'steps_per_frame' action must be from 1 to 1048576");
  }
}

nlohmann::json toJson(const Action& action) {
  return std::visit(
      Overloaded{
          [](const act::SetParam& a) -> nlohmann::json {
            return {{"type", "param"}, {"key", a.key}, {"value", toJson(a.value)}};
          },
          [](const act::Edit& a) -> nlohmann::json { return toJson(a.pointer); },
          [](const act::RunAction& a) -> nlohmann::json {
            return {{"type", "action"}, {"name", a.name}};
          },
          [](const act::Reset&) -> nlohmann::json {
            return {{"type", "reset"}};
          },
          [](const act::SwitchModule& a) -> nlohmann::json {
            return {{"type", "module"}, {"name", a.name}};
          },
          [](const act::Select& a) -> nlohmann::json {
            return {{"type", "select"}, {"backend", toString(a.backend)}, {"variant", a.variant}};
          },
          [](const act::LoadPreset& a) -> nlohmann::json {
            return {{"type", "preset"}, {"path", a.path}, {"content", a.content}};
          },
          [](const act::SetRunning& a) -> nlohmann::json {
            return {{"type", "running"}, {"value", a.value}};
          },
          [](const act::SetStepsPerFrame& a) -> nlohmann::json {
            return {{"type", "steps_per_frame"}, {"value", a.value}};
          },
          [](const act::RequestSteps& a) -> nlohmann::json {
            return {{"type", "steps"}, {"count", a.count}};
          },
          [](const act::Fit&) -> nlohmann::json {
            return {{"type", "fit"}};
          },
          [](const act::Undo&) -> nlohmann::json {
            return {{"type", "undo"}};
          },
          [](const act::Redo&) -> nlohmann::json {
            return {{"type", "redo"}};
          },
          [](const act::MoveCamera& a) -> nlohmann::json {
            const glm::vec3& c = a.orbit.centre;
            return {{"type", "camera"},
                    {"center", {a.plane.centerX, a.plane.centerY}},
                    {"zoom", a.plane.zoom},
                    {"height", a.height},
                    {"orbit",
                     {{"centre", {c.x, c.y, c.z}},
                      {"yaw", a.orbit.yaw},
                      {"pitch", a.orbit.pitch},
                      {"distance", a.orbit.distance}}}};
          },
      },
      action);
}

Action actionFromJson(const nlohmann::json& event) {
  validateAction(event);
  const std::string type = event["type"];
  if (type == "param") {
    const std::string key = event["key"];
    return act::SetParam{key, paramValueFromJson(key, event["value"])};
  }
  if (type == "edit") return act::Edit{editFromJson(event)};
  if (type == "action") return act::RunAction{event["name"]};
  if (type == "reset") return act::Reset{};
  if (type == "module") return act::SwitchModule{event["name"]};
  if (type == "select") {
    const auto backend = parseBackend(event["backend"].get<std::string>());
    if (!backend) throw InputError("unknown backend " + json_input::briefJson(event["backend"]));
    return act::Select{*backend, event["variant"]};
  }
  if (type == "preset") return act::LoadPreset{event.value("path", ""), event["content"]};
  if (type == "running") return act::SetRunning{event["value"]};
  if (type == "steps_per_frame") return act::SetStepsPerFrame{event["value"]};
  if (type == "steps") return act::RequestSteps{event["count"]};
  if (type == "fit") return act::Fit{};
  if (type == "undo") return act::Undo{};
  if (type == "redo") return act::Redo{};
  if (type == "camera") {
    act::MoveCamera move;
    move.plane.centerX = event["center"][0];
    move.plane.centerY = event["center"][1];
    move.plane.zoom = event["zoom"];
    move.height = int(std::clamp(event["height"].get<double>(), 0.0, 1e6));
    const nlohmann::json& o = event["orbit"];
    for (int k = 0; k < 3; ++k) move.orbit.centre[k] = o["centre"][k];
    move.orbit.yaw = o["yaw"];
    move.orbit.pitch = o["pitch"];
    move.orbit.distance = o["distance"];
    return move;
  }
  throw InputError("a '" + type + "' event is not an action the lab performs");
}

}  // namespace ws::app
