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
// A string field that named an existing file when recorded ("value", "item", "path") carries
// "file": {"path", "hash"}, so that a replay can say when the file is missing or changed.
#include <nlohmann/json.hpp>
#include <string>

#include "compute/core/module.h"

namespace ws::app {

// The most steps one 'steps' action may ask for (Step N's N is at most this).
constexpr long long kMostStepsAtOnce = 1'000'000;

// Throws InputError naming the field that is missing or of the wrong kind, or the unknown type.
void validateAction(const nlohmann::json& action);

nlohmann::json toJson(const PointerEdit& edit);
PointerEdit editFromJson(const nlohmann::json& action);

}  // namespace ws::app
