#include "app/measure.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ws::app {

StepMeasurement measureSteps(Module& module, int samples, int stepsPerSample, int warmup) {
  for (int warm = 0; warm < warmup; ++warm) module.step(stepsPerSample);
  module.synchronize();
  module.drainTimings();
  module.clearTimings();  // also skips its first samples again
  for (int sample = 0; sample < samples + 2; ++sample) {
    module.step(stepsPerSample);
    module.drainTimings();
  }
  StepMeasurement m;
  m.stats = module.stepTiming().stats();
  // A sample is one step(stepsPerSample) call; a module whose step timing records otherwise
  // (per pass, say) would have its time per step misread.
  const int expected = std::min(samples, int(TimingScope::kWindow));
  if (m.stats.samples != expected)
    throw std::logic_error(std::string(module.name()) + "'s step timing holds " +
                           std::to_string(m.stats.samples) + " samples for " +
                           std::to_string(expected) + " timed step() calls");
  m.msPerStep = m.stats.medianMs / stepsPerSample;
  return m;
}

}  // namespace ws::app
