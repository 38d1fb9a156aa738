#include "compute/core/progress.h"

#include <algorithm>
#include <utility>

namespace ws {

namespace {

std::string cancelledWhile(const std::string& what, double done) {
  std::string text = "cancelled while " + what;
  if (done >= 0) text += " (" + std::to_string(int(100 * done)) + "% done)";
  return text;
}

thread_local Progress* watched = nullptr;
thread_local bool cancellable = true;

}  // namespace

Cancelled::Cancelled(const std::string& what, double done)
    : InputError(cancelledWhile(what, done)) {}

Progress::Now Progress::now() const {
  const std::lock_guard lock(mutex_);
  return now_;
}

void Progress::set(const char* what, double done) {
  const std::lock_guard lock(mutex_);
  if (now_.what != what) now_.what = what;
  now_.done = done;
}

ReportingTo::ReportingTo(Progress& progress) : previous_(std::exchange(watched, &progress)) {}

ReportingTo::~ReportingTo() {
  watched = previous_;
}

CannotCancel::CannotCancel() : previous_(std::exchange(cancellable, false)) {}

CannotCancel::~CannotCancel() {
  cancellable = previous_;
}

namespace progress {

namespace {

double share(double done, double total) {
  return total > 0 ? std::clamp(done / total, 0.0, 1.0) : -1;
}

}  // namespace

bool stopRequested(const char* what, double done, double total) {
  if (!watched) return false;
  watched->set(what, share(done, total));
  return cancellable && watched->cancelled();
}

void report(const char* what, double done, double total) {
  if (stopRequested(what, done, total)) throw Cancelled(what, share(done, total));
}

}  // namespace progress
}  // namespace ws
