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

InterruptsEndTheLoop::InterruptsEndTheLoop() {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

InterruptsEndTheLoop::~InterruptsEndTheLoop() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

bool interrupted() {
  return asked != 0;
}

}  // namespace ws::app
