#include "app/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>

#include "app/measure.h"
#include "compute/core/bandwidth.h"
#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/core/ranks.h"

namespace ws::app {

namespace {

struct Row {
  std::string backend, variant, size;
  TimingStats stats;
  double perStepMs = 0, rate = 0, bytesPerSecond = 0, percentOfBandwidth = 0;
  double setupMs = 0;  // the reset before the steps: building the world from the parameters
};

// The GPUs a run uses: under mpirun each rank takes its own, round the machine's (app/main.cpp),
// counted for ranks on one machine.
int gpusInRun() {
  return std::max(1, std::min(ranks::count(), gpuInfo().devices));
}

// What a CUDA run's bytes are measured against: the copy bandwidth of all its GPUs.
double bandwidthOfRun() {
  return gpuInfo().available ? measuredBandwidth() * gpusInRun() : 0;
}

Row measure(Module& module, const BenchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  module.reset();
  module.synchronize();
  const double setupMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const StepMeasurement m = measureSteps(module, options.samples, options.stepsPerSample);
  Row row;
  row.backend = toString(module.backend());
  row.variant = module.variant();
  row.size = module.sizeText();
  row.stats = m.stats;
  row.perStepMs = m.msPerStep;
  row.setupMs = setupMs;
  row.rate = row.stats.ratePerSecond;
  row.bytesPerSecond = row.stats.bytesPerSecond;
  const double bandwidth = module.backend() == Backend::Cuda ? bandwidthOfRun() : 0;
  row.percentOfBandwidth = bandwidth > 0 ? 100.0 * row.bytesPerSecond / bandwidth : 0;
  return row;
}

// Several lines of notes as one, for the table.
std::string replaceNewlines(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ';');
  return text;
}

std::string today() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

}  // namespace

int runBench(const BenchOptions& options) {
  std::vector<Backend> backends;
  if (options.backend == "cuda" || options.backend == "all") backends.push_back(Backend::Cuda);
  if (options.backend == "cpu" || options.backend == "all") backends.push_back(Backend::Cpu);
  if (backends.empty()) throw InputError("--backend must be cuda, cpu or all");
  if (options.samples < 3 || options.stepsPerSample < 1)
    throw InputError("--samples must be at least 3 and --steps-per-sample at least 1");
  if (backends.front() == Backend::Cuda && !gpuInfo().available)
    throw InputError("the CUDA benchmark needs a GPU: " + gpuInfo().reason +
                     " (try --backend cpu)");

  const double bandwidth = bandwidthOfRun();
  std::printf("warpscope bench: %s on %s, %s\n", options.module.c_str(),
              gpuInfo().available ? gpuInfo().name.c_str() : "no GPU", today().c_str());
  if (bandwidth > 0 && gpusInRun() > 1)
    std::printf(
        "measured device-to-device copy bandwidth: %.0f GB/s (read + write) on each of "
        "the %d GPUs the ranks use, %.0f GB/s together (%% bw of that)\n",
        bandwidth / gpusInRun() / 1e9, gpusInRun(), bandwidth / 1e9);
  else if (bandwidth > 0)
    std::printf("measured device-to-device copy bandwidth: %.0f GB/s (read + write)\n",
                bandwidth / 1e9);
  std::printf("%d samples of %d steps per variant, median; warm-up excluded\n\n", options.samples,
              options.stepsPerSample);
  std::printf("%-8s %-12s %-13s %12s %14s %8s %10s %8s\n", "backend", "variant", "size", "ms/step",
              "M units/s", "B/unit", "GB/s", "% bw");

  nlohmann::json results = nlohmann::json::array();
  for (Backend backend : backends) {
    std::unique_ptr<Module> module = createModule(options.module, backend);
    // The first variant named is chosen at the module's default size, before the one measured:
    // choosing it after carries the state over, which for a lattice split over ranks goes whole
    // through rank 0 (a minute at 67 million cells). It is chosen again below where the settings
    // leave another.
    if (!options.variants.empty() && module->offers(backend, options.variants.front()))
      module->select(backend, options.variants.front());
    if (!options.size.empty()) module->setSize(options.size);
    applySettings(*module, options.sets);
    std::vector<std::string> names = options.variants;
    if (names.empty() || names == std::vector<std::string>{"all"}) {
      names.clear();
      for (const auto& v : module->variants(backend)) names.push_back(v.name);
    }
    for (const auto& name : names) {
      Row row;
      try {
        module->select(backend, name);
        row = measure(*module, options);
      } catch (const OutOfMemoryError& e) {
        std::printf("%-8s %-12s skipped: %s\n", std::string(toString(backend)).c_str(),
                    name.c_str(), e.what());
        continue;
      }
      const std::string unit = module->stepTiming().rateUnit();
      std::printf("%-8s %-12s %-13s %12.4f %14.1f %8.4g %10.1f %8.1f\n", row.backend.c_str(),
                  row.variant.c_str(), row.size.c_str(), row.perStepMs, row.rate / 1e6,
                  module->bytesPerWorkUnit(), row.bytesPerSecond / 1e9, row.percentOfBandwidth);
      std::printf("  %-32s %12.1f ms\n", "set-up (reset)", row.setupMs);
      std::fflush(stdout);
      // The module's other timed stages (the hash lab's build and queries), each timed step by
      // step: the median step and its rate. Scopes that did not run (the views) are left out.
      nlohmann::json stages = nlohmann::json::array();
      for (const auto& scope : module->timings()) {
        const TimingStats stage = scope->stats();
        if (scope.get() == &module->stepTiming() || stage.samples == 0 ||
            scope->onGpu() != (backend == Backend::Cuda))
          continue;
        std::printf("  %-32s %12.4f %14.1f %8s %10.1f %8.1f\n", scope->name().c_str(),
                    stage.medianMs, stage.ratePerSecond / 1e6, "", stage.bytesPerSecond / 1e9,
                    backend == Backend::Cuda && bandwidth > 0
                        ? 100.0 * stage.bytesPerSecond / bandwidth
                        : 0.0);
        stages.push_back({{"scope", scope->name()},
                          {"ms_per_step", stage.medianMs},
                          {"rate_per_second", stage.ratePerSecond},
                          {"rate_unit", scope->rateUnit()},
                          {"gb_per_second", stage.bytesPerSecond / 1e9}});
      }
      // What the module reports of its last step (voxel counts, restarts), so that a figure can
      // be read with the workload it measured.
      nlohmann::json metrics = nlohmann::json::object();
      for (const Metric& metric : module->metrics()) metrics[metric.name] = metric.value;
      const std::string notes = module->notes();
      if (!notes.empty()) std::printf("  %s\n", replaceNewlines(notes).c_str());
      results.push_back({{"backend", row.backend},
                         {"variant", row.variant},
                         {"size", row.size},
                         {"params", module->params().toJson()},
                         {"ms_per_step", row.perStepMs},
                         {"setup_ms", row.setupMs},
                         {"ms_median_sample", row.stats.medianMs},
                         {"ms_min_sample", row.stats.minMs},
                         {"ms_max_sample", row.stats.maxMs},
                         {"samples", row.stats.samples},
                         {"steps_per_sample", options.stepsPerSample},
                         {"rate_per_second", row.rate},
                         {"rate_unit", unit},
                         {"bytes_per_unit", module->bytesPerWorkUnit()},
                         {"gb_per_second", row.bytesPerSecond / 1e9},
                         {"percent_of_bandwidth", row.percentOfBandwidth},
                         {"stages", stages},
                         {"metrics", metrics},
                         {"notes", notes}});
    }
  }
  const nlohmann::json report = {{"module", options.module},
                                 {"date", today()},
                                 {"gpu", gpuInfo().available ? gpuInfo().name : "none"},
                                 {"gpus", gpuInfo().available ? gpusInRun() : 0},
                                 {"copy_bandwidth_gb_per_second", bandwidth / 1e9},
                                 {"results", results}};
  writeWholeFile(options.json, report.dump(2) + "\n", "results");
  std::printf("\nwrote %s\n", options.json.c_str());
  return 0;
}

}  // namespace ws::app
