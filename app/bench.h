#pragma once
#include <string>
#include <vector>

#include "app/lab.h"

namespace ws::app {

struct BenchOptions {
  std::string module = "life";
  std::string backend = "cuda";       // cuda, cpu or all
  std::vector<std::string> variants;  // empty: every variant of each backend
  std::string size;                   // empty: the module's default
  std::vector<std::string> sets;
  int stepsPerSample = 20;
  int samples = 15;
  std::string json = "bench.json";
};

// `warpscope bench`: no window, warm, median of many timed samples per variant; prints a table and
// writes JSON. Returns the exit code.
int runBench(const BenchOptions& options);

}  // namespace ws::app
