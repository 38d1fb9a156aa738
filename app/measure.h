#pragma once
// One measurement of a module's step as the benchmark takes it: warm-up steps, then `samples`
// timed step(stepsPerSample) calls, the median. Shared by `warpscope bench`, the roofline and the
// scaling sweep.
#include "compute/core/module.h"

namespace ws::app {

struct StepMeasurement {
  TimingStats stats;  // per sample (one step() call)
  double msPerStep = 0;
};

// From the module's current state (reset it first for a run from the start). Throws
// std::logic_error where the module's step timing does not record one sample per step() call.
StepMeasurement measureSteps(Module& module, int samples, int stepsPerSample, int warmup = 3);

}  // namespace ws::app
