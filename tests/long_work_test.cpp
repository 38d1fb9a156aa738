// Long set-ups and frames (compute/core/progress.h, app/long_work.h): they say how far they are,
// a cancel stops them within moments, and what they were changing is left as it was.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "app/lab.h"
#include "app/long_work.h"
#include "app/session/snapshot.h"
#include "compute/core/progress.h"

namespace ws {
namespace {

std::string fingerprint(app::Lab& lab) {
  return lab.snapshotMeta().dump() + " " + app::stateHash(lab.module().saveState());
}

TEST(Progress, ReportsToItsWatcherAndACancelThrowsOnlyWhereItMay) {
  progress::report("nobody watches", 1, 2);  // no watcher: nothing happens
  Progress progress;
  const ReportingTo reporting(progress);
  progress::report("half way", 1, 2);
  EXPECT_EQ(progress.now().what, "half way");
  EXPECT_DOUBLE_EQ(progress.now().done, 0.5);
  progress.cancel();
  {
    const CannotCancel puttingBack;
    EXPECT_NO_THROW(progress::report("putting back", 0, 0));
    EXPECT_EQ(progress.now().done, -1);  // no total: not known
  }
  try {
    progress::report("three quarters", 3, 4);
    FAIL() << "a cancelled report did not throw";
  } catch (const Cancelled& e) {
    EXPECT_STREQ(e.what(), "cancelled while three quarters (75% done)");
  }
}

TEST(LongWork, RunsOnItsWorkerAndRethrowsWhatTheWorkThrew) {
  app::LongWork work;
  std::thread::id ran;
  work.run([&] { ran = std::this_thread::get_id(); }, [](Progress&) {});
  EXPECT_NE(ran, std::this_thread::get_id());
  EXPECT_THROW(work.run([] { throw InputError("refused"); }, [](Progress&) {}), InputError);
  // The worker serves the next work after a failure.
  int runs = 0;
  work.run([&] { ++runs; }, [](Progress&) {});
  EXPECT_EQ(runs, 1);
}

// A waiting side that fails (the window's frame, say) cancels the work and waits for its end
// before the failure goes on: the work refers to what the caller holds.
TEST(LongWork, AFailedWaitEndsTheWorkBeforeItGoesOn) {
  app::LongWork work;
  std::atomic<bool> ended{false};
  const auto spin = [&] {
    try {
      for (int i = 0;; ++i) {
        progress::report("spinning", i, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    } catch (const Cancelled&) {
      ended = true;
      throw;
    }
  };
  EXPECT_THROW(work.run(
                   spin, [](Progress&) { throw std::runtime_error("no frame"); },
                   std::chrono::milliseconds(0)),
               std::runtime_error);
  EXPECT_TRUE(ended);
}

// Cancels the work as soon as it has said what it does.
void cancelOnceStarted(Progress& progress) {
  if (!progress.now().what.empty()) progress.cancel();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

// A graph of 300,000 vertices takes seconds to measure on the CPU: cancelled, the lab keeps the
// graph it had, its parameters and its playback, and says what was cancelled.
TEST(LongWork, ACancelledGraphSetUpLeavesTheLabAsItWas) {
  app::LabOptions options;
  options.module = "graph";
  options.backend = Backend::Cpu;
  app::Lab lab(options);
  lab.setRunning(true);
  const std::string before = fingerprint(lab);
  app::LongWork work;
  const auto start = std::chrono::steady_clock::now();
  work.run([&] { lab.setParam("vertices", std::int64_t(300000)); }, cancelOnceStarted,
           std::chrono::milliseconds(0));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(lab.errorMessage.rfind("cancelled while ", 0), 0u) << lab.errorMessage;
  EXPECT_EQ(fingerprint(lab), before);
  EXPECT_TRUE(lab.running());
}

// A frame of a 256^3 voxel grid on the CPU takes a second or more: cancelled, the frame is not
// counted, what is shown stays the last frame's, and the run pauses (it would take as long again).
TEST(LongWork, ACancelledFramePausesTheLabAtTheFrameBefore) {
  app::LabOptions options;
  options.module = "voxhash";
  options.backend = Backend::Cpu;
  options.sets = {"voxhash.resolution=256"};
  app::Lab lab(options);
  lab.setRunning(true);
  const std::string before = fingerprint(lab);
  app::LongWork work;
  work.run([&] { lab.advance(); }, cancelOnceStarted, std::chrono::milliseconds(0));
  EXPECT_EQ(lab.errorMessage.rfind("cancelled while ", 0), 0u) << lab.errorMessage;
  EXPECT_FALSE(lab.running());
  lab.setRunning(true);  // the playback aside, nothing changed
  EXPECT_EQ(fingerprint(lab), before);
}

}  // namespace
}  // namespace ws
