#pragma once
// Work that may take long (a module's set-up, a frame of a large simulation on the CPU) runs on a
// worker thread while the front end stays alive: the window draws a progress bar with a Cancel
// button, a headless run says how far it is and takes Ctrl+C as a cancel. The work reports and is
// cancelled through compute/core/progress.h.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "compute/core/progress.h"

namespace ws::app {

class LongWork {
 public:
  LongWork();   // starts the worker (one thread for the program's life: OpenMP keeps its team)
  ~LongWork();  // ends it
  LongWork(const LongWork&) = delete;
  LongWork& operator=(const LongWork&) = delete;

  // Runs `work` on the worker and returns when it is done, rethrowing what it threw. Once it has
  // taken `patience` and reported its progress (work that does not report is waited for as
  // before), `waiting` is called on this thread again and again until then, with the progress
  // (which it may cancel); it should take a frame's time or so. Nothing else may touch what the
  // work changes meanwhile.
  void run(const std::function<void()>& work, const std::function<void(Progress&)>& waiting,
           std::chrono::milliseconds patience = std::chrono::milliseconds(300));

 private:
  void serve();

  std::mutex mutex_;
  std::condition_variable changed_;
  const std::function<void()>* work_ = nullptr;  // the work given and not yet done
  Progress* progress_ = nullptr;
  bool done_ = false, quit_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once the rest is made
};

// A line on stderr about work that takes over a second ("warpscope: generating the graph: 40%"),
// renewed each second, and Ctrl+C or SIGTERM as a cancel: LongWork's `waiting` for runs without a
// window. Call it every few milliseconds.
class ProgressOnStderr {
 public:
  void operator()(Progress& progress);
  ~ProgressOnStderr();  // ends the line

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), said_;
  bool saidAny_ = false;
};

}  // namespace ws::app
