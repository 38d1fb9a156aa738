#include "app/interrupt.h"

#include <csignal>

namespace ws::app {

namespace {

volatile std::sig_atomic_t asked = 0;

extern "C" void onInterrupt(int signal) {
  asked = 1;
  std::signal(signal, SIG_DFL);  // the next one ends the program
}

}  // namespace

void catchInterrupts() {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

bool interrupted() {
  return asked != 0;
}

}  // namespace ws::app
