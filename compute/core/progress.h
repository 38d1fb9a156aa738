#pragma once
// Long set-ups (a graph of millions of vertices, a fine voxel grid, a large lattice) say how far
// they are and can be cancelled. The work calls progress::report() now and then, on its own
// thread and outside OpenMP regions. Whoever started it watches a Progress from another thread
// (the window's progress bar, the headless runner's line on stderr) and may cancel it: the next
// report() then throws Cancelled, and the work unwinds as a refusal does, leaving what it was
// changing as it was.
#include <atomic>
#include <mutex>
#include <string>

#include "compute/core/errors.h"

namespace ws {

// "cancelled while measuring centrality (5% done)": what the work was doing when it stopped.
class Cancelled : public InputError {
 public:
  Cancelled(const std::string& what, double done);
};

class Progress {
 public:
  struct Now {
    std::string what;  // "laying out the graph"; empty before the first report
    double done = -1;  // 0 to 1, or -1 when not known
  };
  Now now() const;
  void set(const char* what, double done);
  // Safe in a signal handler: a flag.
  void cancel() { cancelled_ = true; }
  bool cancelled() const { return cancelled_; }

 private:
  mutable std::mutex mutex_;
  Now now_;
  std::atomic<bool> cancelled_{false};
};

// While one lives, the work on this thread reports to `progress`.
class ReportingTo {
 public:
  explicit ReportingTo(Progress& progress);
  ~ReportingTo();
  ReportingTo(const ReportingTo&) = delete;
  ReportingTo& operator=(const ReportingTo&) = delete;

 private:
  Progress* previous_;
};

// While one lives, report() on this thread does not throw: for work that puts back what a
// cancelled change undid, which must run to its end.
class CannotCancel {
 public:
  CannotCancel();
  ~CannotCancel();
  CannotCancel(const CannotCancel&) = delete;
  CannotCancel& operator=(const CannotCancel&) = delete;

 private:
  bool previous_;
};

namespace progress {

// What is being done and how far (`done` of `total`); throws Cancelled when the watcher has
// cancelled. Costs a thread-local read when no one watches.
void report(const char* what, double done, double total);
// As report(), for code that cannot throw where it is (inside an OpenMP region): whether the work
// should stop. It then stops, and calls report() once it can throw.
bool stopRequested(const char* what, double done, double total);

}  // namespace progress
}  // namespace ws
