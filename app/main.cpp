// warpscope: an interactive GPU lab. See README.md; `warpscope --help` lists every option.
#include "app/cli.h"

int main(int argc, char** argv) {
  return ws::app::runCommandLine(argc, argv);
}
