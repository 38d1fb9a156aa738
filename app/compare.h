#pragma once
// The A/B view's second simulation: a copy of the lab's module on another backend or variant,
// started from the same parameters and state, advanced step for step beside it, and checked
// against it (bit for bit where the state is bits, otherwise the largest difference).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/session/actions.h"
#include "compute/core/module.h"

namespace ws::app {

// How far B is from A at one step: their states, and the metrics that differ.
struct Agreement {
  std::uint64_t step = 0;
  StateDifference state;
  std::vector<std::string> metricsDiffering;  // "population 1204 / 1206"
  std::size_t metricsCompared = 0;
  bool exact() const { return state.exact() && metricsDiffering.empty(); }
  std::string summary() const;  // one line for the indicator
};

// "cuda", "cpu:naive" or "naive" (a variant on A's backend): B's backend and variant (empty: the
// backend's default). Throws InputError.
struct CompareTarget {
  Backend backend;
  std::string variant;
};
CompareTarget parseCompareTarget(const std::string& text, Backend current);

class Comparison {
 public:
  // B, built aside: throws (and there is no comparison) when it cannot be built or loaded.
  Comparison(Module& a, const CompareTarget& target);

  Module& module() { return *b_; }
  // After A stepped: B steps as far.
  void follow(Module& a);
  // After A performed `action`: B does the same (an edit, a parameter, a reset), or takes A's
  // parameters and state again where doing it twice would not serve (a module's action may
  // write a file; a preset may name a variant).
  void follow(const Action& action, Module& a);
  void resync(Module& a);
  // Compares now (copies both states to the host).
  const Agreement& check(Module& a);
  // Compares when the last check is older than `interval` or of another step.
  void checkEvery(Module& a, std::chrono::milliseconds interval);
  const std::optional<Agreement>& agreement() const { return agreement_; }

 private:
  std::unique_ptr<Module> b_;
  std::optional<Agreement> agreement_;
  std::chrono::steady_clock::time_point lastCheck_{};
};

}  // namespace ws::app
