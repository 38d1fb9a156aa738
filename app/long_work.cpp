#include "app/long_work.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include "app/interrupt.h"

namespace ws::app {

LongWork::LongWork() : thread_([this] { serve(); }) {}

LongWork::~LongWork() {
  {
    const std::lock_guard lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void LongWork::serve() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || (work_ && !done_); });
    if (quit_) return;
    const std::function<void()>& work = *work_;
    Progress& progress = *progress_;
    lock.unlock();
    std::exception_ptr error;
    try {
      const ReportingTo reporting(progress);
      work();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    done_ = true;
    changed_.notify_all();
  }
}

void LongWork::run(const std::function<void()>& work, const std::function<void(Progress&)>& waiting,
                   std::chrono::milliseconds patience) {
  Progress progress;
  std::unique_lock lock(mutex_);
  work_ = &work;
  progress_ = &progress;
  done_ = false;
  error_ = nullptr;
  changed_.notify_all();
  // A frame that is merely slow (a large lattice on the CPU) is waited for as any frame; one that
  // reports its progress past `patience` has `waiting` shown it.
  const auto start = std::chrono::steady_clock::now();
  while (!changed_.wait_for(lock, std::chrono::milliseconds(1), [&] { return done_; })) {
    if (std::chrono::steady_clock::now() - start < patience || progress.now().what.empty())
      continue;
    lock.unlock();
    try {
      waiting(progress);
    } catch (...) {
      // The work refers to what the caller holds: it ends before the caller does.
      progress.cancel();
      lock.lock();
      changed_.wait(lock, [&] { return done_; });
      work_ = nullptr;
      progress_ = nullptr;
      throw;
    }
    lock.lock();
  }
  work_ = nullptr;
  progress_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ProgressOnStderr::operator()(Progress& progress) {
  if (interrupted()) progress.cancel();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1) || (saidAny_ && now - said_ < std::chrono::seconds(1)))
    return;
  const Progress::Now at = progress.now();
  if (at.what.empty()) return;
  char line[200];
  if (at.done >= 0)
    std::snprintf(line, sizeof line, "warpscope: %s: %.0f%%", at.what.c_str(), 100 * at.done);
  else
    std::snprintf(line, sizeof line, "warpscope: %s...", at.what.c_str());
  // On a terminal the line is renewed in place; in a log, one line a second.
  std::fprintf(stderr, isatty(2) ? "\r%-60s" : "%s\n", line);
  said_ = now;
  saidAny_ = true;
}

ProgressOnStderr::~ProgressOnStderr() {
  if (saidAny_ && isatty(2)) std::fprintf(stderr, "\n");
}

}  // namespace ws::app
