#pragma once
// Ctrl+C and SIGTERM end a run as its end would: the GUI closes its window and a headless run
// stops after the frame, so that a recording is finished and written. A second Ctrl+C ends the
// program at once (what was recorded is on disk already: the recorder writes as it goes).
namespace ws::app {

void catchInterrupts();
// Whether an interrupt asked the run to end.
bool interrupted();

}  // namespace ws::app
