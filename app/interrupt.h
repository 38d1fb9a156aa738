#pragma once
// Ctrl+C and SIGTERM end a run's frame loop as its end would: the GUI closes its window and a
// headless run stops after the frame, so that a recording is finished and written; a long set-up
// or frame that reports its progress is cancelled (app/long_work.h). Only while a scope holds
// them: outside it (the summary) they end the program as usual, and so does a second Ctrl+C (what
// was recorded is on disk already: the recorder writes as it goes).
namespace ws::app {

// Held by a run for as long as its set-up and frame loop run.
class InterruptsEndTheLoop {
 public:
  InterruptsEndTheLoop();
  ~InterruptsEndTheLoop();
  InterruptsEndTheLoop(const InterruptsEndTheLoop&) = delete;
  InterruptsEndTheLoop& operator=(const InterruptsEndTheLoop&) = delete;
};

// Whether an interrupt asked the loop to end.
bool interrupted();

}  // namespace ws::app
