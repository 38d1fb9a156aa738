// warpscope: an interactive GPU lab. See README.md; `warpscope --help` lists every option.
#include "app/cli.h"
#include "compute/core/backend.h"
#include "compute/core/ranks.h"

int main(int argc, char** argv) {
  // Under mpirun every rank but 0 serves rank 0's calls (compute/core/ranks.h), each on a GPU of
  // its own where the machine has enough.
  if (ws::ranks::start(argc, argv) > 1) {
    ws::selectGpu(ws::ranks::rankOnHost());
    if (ws::ranks::rank() != 0) return ws::ranks::serve();
  }
  return ws::app::runCommandLine(argc, argv);
}
