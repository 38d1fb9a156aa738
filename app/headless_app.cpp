#include "app/headless_app.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "app/interrupt.h"
#include "app/long_work.h"
#include "app/scene.h"
#include "app/session/player.h"
#include "app/ui/fonts.h"
#include "app/ui/imgui_gl.h"
#include "app/ui/ui.h"
#include "app/video/video_writer.h"
#include "compute/core/errors.h"
#include "compute/core/gpu_error.h"
#include "compute/core/launch_readout.h"
#include "compute/core/output_file.h"
#include "compute/core/progress.h"
#include "render/gl/egl_context.h"
#include "render/gl/frame_grabber.h"
#include "render/gl/gl.h"
#include "render/gl/offscreen_target.h"

namespace ws::app {

namespace {

// A replay runs on the recorded backend, or on the CPU where there is no GPU (or when asked).
std::unique_ptr<SessionPlayer> openReplay(const HeadlessOptions& options, LabOptions& lab) {
  Session session = readSession(options.replay);
  std::optional<Backend> backend = options.lab.backend;
  if (!backend && session.start["backend"] == "cuda" && !gpuInfo().available) {
    backend = Backend::Cpu;
    std::printf("replay: recorded on CUDA, replayed on the CPU backend (%s)\n",
                gpuInfo().reason.c_str());
  }
  lab.module = session.start["module"];
  lab.backend = backend.value_or(Backend::Cpu);
  lab.paused = true;
  auto player = std::make_unique<SessionPlayer>(std::move(session), backend);
  for (const std::string& change : player->changedFiles())
    std::printf("replay: warning: %s: the replay may not reach the recorded state\n",
                change.c_str());
  return player;
}

// A replay's video runs at the recording's pace: one video frame per recorded frame, at the rate
// the recording ran (held to what players show well).
double replayPace(const Session& session, bool video) {
  constexpr double kSlowest = 1, kFastest = 120, kUnknown = 60;
  const std::optional<double> recorded = session.framesPerSecond();
  const double fps = std::clamp(recorded.value_or(kUnknown), kSlowest, kFastest);
  if (!video) return fps;
  if (recorded)
    std::printf(
        "replay: the video plays at the recording's pace, %.3g frames/s (%.3g s); --fps "
        "sets another\n",
        fps, double(session.frames()) / fps);
  else
    std::printf(
        "replay: the session does not say how long it ran: the video plays at %.0f "
        "frames/s\n",
        fps);
  return fps;
}

// Every variant's roofline point, measured before the frames, and printed.
void measureRooflineNow(Lab& lab, ui::Analysis& analysis) {
  Module& module = lab.module();
  analysis.showRoofline = true;
  analysis.roofline = std::make_unique<RooflineRunner>(module);
  while (analysis.roofline->step()) {
  }
  const Ceilings& c = measuredCeilings(module.backend());
  std::printf(
      "roofline on %s: %.0f GB/s, %.4g G FP32 flop/s, %.4g G FP64 flop/s, %.4g G int32 op/s "
      "(measured)\n",
      c.where.c_str(), c.bytesPerSecond / 1e9, c.fp32PerSecond / 1e9, c.fp64PerSecond / 1e9,
      c.int32PerSecond / 1e9);
  for (const RooflinePoint& p : analysis.roofline->points()) {
    const double bandwidth = bandwidthFor(module.backend(), p.workingSet);
    const double roof = std::min(bandwidth * p.intensity, c.peak(p.kind));
    std::printf("  %-5s %-14s %8.4g %s/B  %10.4g G%s/s  %8.1f GB/s  %5.1f%% of its roof",
                p.backend.c_str(), p.variant.c_str(), p.intensity, toString(p.kind),
                p.opsPerSecond / 1e9, toString(p.kind), p.bytesPerSecond / 1e9,
                100 * p.opsPerSecond / roof);
    if (bandwidth > c.bytesPerSecond)
      std::printf(" (a copy of its sample's %.3g MB runs at %.0f GB/s here: a cache's roof)",
                  p.workingSet / 1e6, bandwidth / 1e9);
    std::printf("\n");
  }
}

// The whole sweep, before the frames, printed with its fitted lines and crossover.
void sweepNow(Lab& lab, ui::Analysis& analysis) {
  std::vector<Backend> backends = {Backend::Cpu};
  if (gpuInfo().available) backends.push_back(Backend::Cuda);
  analysis.showSweep = true;
  analysis.sweep = std::make_unique<SweepRunner>(lab.module(), backends);
  while (analysis.sweep->step()) {
    const SweepPoint& p = analysis.sweep->points().back();
    std::printf("sweep: %-4s %-10s %12.4g units/step %12.5f ms/step\n",
                std::string(toString(p.backend)).c_str(), p.size.c_str(), p.work, p.msPerStep);
  }
  for (Backend backend : backends)
    if (const auto line = fitSweep(analysis.sweep->points(), backend))
      std::printf("sweep: %s fitted slope %.3f (log ms against log work, %.4g to %.4g)\n",
                  std::string(toString(backend)).c_str(), line->slope, line->fromWork,
                  line->toWork);
  if (const auto crossover = sweepCrossover(analysis.sweep->points()))
    std::printf("sweep: the GPU starts to win at about %.4g units per step\n", *crossover);
}

}  // namespace

int runHeadless(const HeadlessOptions& given) {
  HeadlessOptions options = given;
  LabOptions labOptions = options.lab;
  std::unique_ptr<SessionPlayer> player;
  if (!options.replay.empty()) {
    player = openReplay(options, labOptions);
    if (options.fps <= 0) options.fps = replayPace(player->session(), !options.video.empty());
  }
  // The set-up and every frame's simulation run on a worker: one that takes long says how far it
  // is, and Ctrl+C or SIGTERM cancels it.
  LongWork work;
  ProgressOnStderr say;
  std::optional<InterruptsEndTheLoop> interrupts(std::in_place);
  std::unique_ptr<Lab> made;
  try {
    work.run(
        [&] {
          made = std::make_unique<Lab>(labOptions);
          if (player) player->begin(*made);
        },
        std::ref(say));
  } catch (const Cancelled& e) {
    std::printf("headless: interrupted during the set-up: %s\n", e.what());
    return 130;
  }
  Lab& lab = *made;
  const std::vector<std::string> offered = lab.module().actions();
  for (const std::string& action : options.actions)
    if (std::find(offered.begin(), offered.end(), action) == offered.end()) {
      std::string names;
      for (const std::string& name : offered) names += (names.empty() ? "'" : ", '") + name + "'";
      throw InputError("--action '" + action + "': " + std::string(lab.module().name()) +
                       " has no such action (it has " + (names.empty() ? "none" : names) + ")");
    }
  lab.compareEvery = std::chrono::milliseconds(0);  // each frame shows its own agreement
  if (options.width < 16 || options.height < 16 || options.width > 16384 || options.height > 16384)
    throw InputError("--window must be between 16x16 and 16384x16384");
  if (options.frameEvery < 1) throw InputError("--frame-every must be at least 1");
  if (!options.framesDir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.framesDir, error);
    if (error)
      throw InputError("--frames '" + options.framesDir + "' cannot be made: " + error.message());
  }

  // The roofline and sweep are windows of the UI.
  const bool withUi = options.withUi || options.roofline || options.sweep;
  gl::EglContext context(options.eglDevice);
  gl::OffscreenTarget target(options.width, options.height);
  SceneRenderers renderers;
  std::optional<ui::ImGuiGl> imgui;
  if (withUi) {
    imgui.emplace();
    ImGui::GetIO().DisplaySize = ImVec2(float(options.width), float(options.height));
  }
  ui::UiContext ui;
  ui.glRenderer = context.description();
  ui.width = options.width;
  ui.height = options.height;
  ui.showUi = withUi;
  if (withUi) ui::fonts().use(ui.classroom.effective());
  // The writer, declared after the grabber, is destroyed first: it has released every frame by
  // then, before the grabber unmaps them.
  std::optional<gl::FrameGrabber> grabber;
  std::optional<VideoWriter> video;
  if (!options.video.empty()) {
    video.emplace(VideoOptions{options.video, options.width, options.height, options.fps});
    grabber.emplace(options.width, options.height);
  }

  if (options.roofline) measureRooflineNow(lab, ui.analysis);
  if (options.sweep) sweepNow(lab, ui.analysis);

  // Each frame advances stepsPerFrame steps (the last one fewer) and draws, as the GUI does.
  if (!options.recordSession.empty()) {
    lab.startRecording(options.recordSession, false);
    if (!lab.recording()) throw InputError(lab.errorMessage);
  }
  // A replay advances as the session's frames did.
  const int perFrame = lab.stepsPerFrame();
  if (!player) lab.setRunning(false);
  std::vector<double> frameMs, grabMs;  // grabMs: the render thread's part of the video
  long done = 0, written = 0;
  bool failed = false;
  int frame = 0, failingFrames = 0;
  bool stopped = false;  // by a module that failed two frames running
  const auto more = [&] { return player ? !player->atEnd() : done < options.steps; };
  // The scene and the panels as they stand.
  const auto drawFrame = [&] {
    target.bind();
    lab.applyQueued();
    if (ui::updateLayout(ui)) lab.fitPending = true;
    drawScene(lab, renderers, options.width, options.height, ui::pixelArea(ui.layout.view, 1.0f));
    ui.transferMode = renderers.transferMode;
    if (withUi) {
      ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
      ImGui_ImplOpenGL3_NewFrame();
      ImGui::NewFrame();
      ui::WidgetLog::instance().beginFrame();
      ui::drawUi(lab, ui);
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
  };
  for (; frame == 0 || (more() && !interrupted()); ++frame) {
    const auto start = std::chrono::steady_clock::now();
    work.run(
        [&] {
          if (player) {
            player->advance(lab);
          } else {
            const long steps = std::min<long>(perFrame, options.steps - done);
            lab.requestSteps(int(steps));
            done += steps;
            lab.advance();
          }
        },
        std::ref(say));
    if (interrupted()) lab.errorMessage.clear();  // a frame cut short: "cancelled"
    drawFrame();
    if (grabber) {
      const auto grabStart = std::chrono::steady_clock::now();
      if (auto frame = grabber->grab()) video->add(frame->bottomUp, std::move(frame->release));
      grabMs.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - grabStart)
              .count());
    }
    glFinish();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    frameMs.push_back(ms);
    // Paced: the next frame starts when a display at `fps` would show it.
    if (options.realtime)
      std::this_thread::sleep_until(start + std::chrono::duration<double>(1.0 / options.fps));
    lab.recordFrameTime(ms);
    if (!lab.errorMessage.empty()) {
      // Reported, and the run goes on where the lab recovered (a lost GPU: on the CPU). A module
      // that fails again the next frame (a diverged flow) cannot go on: the run stops there.
      failed = true;
      if (++failingFrames == 2) {
        std::printf("headless: stopped after frame %d, at step %llu: the module fails every step\n",
                    frame, static_cast<unsigned long long>(lab.module().stepCount()));
        ++frame;
        stopped = true;
        break;
      }
      std::cerr << "warpscope: " << lab.errorMessage << std::endl;
      lab.errorMessage.clear();
    } else {
      failingFrames = 0;
    }
    if (!options.framesDir.empty() && frame % options.frameEvery == 0) {
      char name[64];
      std::snprintf(name, sizeof name, "/frame_%06d.png", frame);
      gl::writePng(options.framesDir + name, options.width, options.height,
                   gl::readPixels(options.width, options.height));
      ++written;
    }
  }
  interrupts.reset();
  if (interrupted())
    std::printf("headless: interrupted after frame %d, at step %llu\n", frame,
                static_cast<unsigned long long>(lab.module().stepCount()));
  if (lab.recording()) std::printf("  session %s\n", lab.stopRecording().c_str());
  std::string videoSummary;
  if (video) {
    for (auto& frame : grabber->drain()) video->add(frame.bottomUp, std::move(frame.release));
    videoSummary = video->finish();
  }
  if (!options.screenshot.empty()) {
    // The panels drawn once more, without a step: a table fits its columns to what the frame
    // before held, so rows that first appeared in the last frame (a short run's timings) would
    // show clipped.
    if (withUi) drawFrame();
    gl::writePng(options.screenshot, options.width, options.height,
                 gl::readPixels(options.width, options.height));
  }
  for (const std::string& action : options.actions) {
    if (!lab.attempt([&] { lab.module().runAction(action); })) {
      std::cerr << "warpscope: " << action << ": " << lab.errorMessage << std::endl;
      failed = true;
    }
  }

  // The first frames include start-up (allocation, shader and kernel loading): report warm frames.
  std::vector<double> warm(frameMs.begin() + std::min<std::size_t>(frameMs.size() - 1, 3),
                           frameMs.end());
  std::sort(warm.begin(), warm.end());
  const double median = warm[warm.size() / 2];
  const double p95 = warm[std::min(warm.size() - 1, warm.size() * 95 / 100)];
  Module& module = lab.module();
  if (player || stopped) done = long(module.stepCount());
  std::printf("%s: %ld steps in %d frames of %dx%d on %s\n", player ? "replay" : "headless", done,
              frame, options.width, options.height, context.description().c_str());
  std::printf("  module %s, world %s, backend %s, variant %s, %d steps/frame, field via %s\n",
              std::string(module.name()).c_str(), module.sizeText().c_str(),
              std::string(toString(module.backend())).c_str(), module.variant().c_str(), perFrame,
              renderers.transferMode.c_str());
  if (!lab.presetNote().empty()) std::printf("  %s\n", lab.presetNote().c_str());
  std::printf(
      "  frame time (steps + field + draw%s%s + glFinish; %zu warm frames%s): median %.3f ms, p95 "
      "%.3f ms\n",
      withUi ? " + UI" : "", video ? " + video" : "", warm.size(),
      options.realtime ? ", paced at --fps" : "", median, p95);
  module.drainTimings();
  for (const auto& scope : module.timings())
    if (const TimingStats s = scope->stats(); s.samples > 0)
      std::printf("  %s: median %.3f ms (%d samples), %.4g %s\n", scope->name().c_str(), s.medianMs,
                  s.samples, s.ratePerSecond, scope->rateUnit().c_str());
  for (const auto& metric : module.metrics())
    std::printf("  %s %.6g after %llu steps\n", metric.name.c_str(), metric.value,
                static_cast<unsigned long long>(module.stepCount()));
  // What the module says of its state (derived quantities, warnings, the last export).
  std::istringstream notes(module.notes());
  for (std::string line; std::getline(notes, line);) std::printf("  note: %s\n", line.c_str());
  // The launch readouts of the last step's kernels, as the Lesson panel shows them.
  for (const KernelLaunch& launch : module.launches()) {
    const LaunchReadout r = readLaunch(launch);
    if (!r.known) {
      std::printf("  launch %s: a library's own\n", launch.name.c_str());
      continue;
    }
    std::printf(
        "  launch %s: grid %u x block %u, %d registers, %zu B shared, %zu B local, "
        "occupancy %.0f%% (%d blocks/SM), limited by %s\n",
        launch.name.c_str(), launch.grid[0] * launch.grid[1] * launch.grid[2],
        launch.block[0] * launch.block[1] * launch.block[2], r.registers,
        r.staticShared + launch.dynamicShared, r.spillBytes, 100 * r.occupancy, r.blocksPerSm,
        r.limits.limiter().c_str());
  }
  std::string agreement;
  if (Comparison* comparison = lab.comparison()) {
    Module& b = comparison->module();
    b.drainTimings();
    std::printf("  A/B: B is %s/%s\n", std::string(toString(b.backend())).c_str(),
                b.variant().c_str());
    if (const TimingStats s = b.stepTiming().stats(); s.samples > 0)
      std::printf("  B %s: median %.3f ms (%d samples), %.4g %s\n", b.stepTiming().name().c_str(),
                  s.medianMs, s.samples, s.ratePerSecond, b.stepTiming().rateUnit().c_str());
    agreement = comparison->check(module).summary();
    std::printf("  A/B: %s\n", agreement.c_str());
  }
  if (written) std::printf("  wrote %ld frames to %s\n", written, options.framesDir.c_str());
  if (video) {
    std::sort(grabMs.begin(), grabMs.end());
    std::printf(
        "  video: read-back and queueing on the render thread, median %.3f ms, p95 %.3f ms\n",
        grabMs[grabMs.size() / 2], grabMs[grabMs.size() * 95 / 100]);
    std::printf("  %s\n", videoSummary.c_str());
  }
  std::string verdict;
  if (player) {
    verdict = player->verdict(lab);
    std::printf("  replay of %s: %s\n", options.replay.c_str(), verdict.c_str());
  }
  for (const auto& point : ui.analysis.drawn)
    std::printf("  roofline: %s drawn at (%.0f, %.0f) colour %08x\n", point.label.c_str(), point.x,
                point.y, point.colour);
  if (!options.screenshot.empty()) std::printf("  wrote %s\n", options.screenshot.c_str());
  if (!options.reportJson.empty()) {
    nlohmann::json report = {{"module", module.name()},
                             {"backend", toString(module.backend())},
                             {"variant", module.variant()},
                             {"world", module.sizeText()},
                             {"window", {options.width, options.height}},
                             {"steps_per_frame", perFrame},
                             {"frames", frame},
                             {"renderer", context.description()},
                             {"gpu", gpuInfo().available ? gpuInfo().name : "none"},
                             {"field_transfer", renderers.transferMode},
                             {"frame_ms_median", median},
                             {"frame_ms_p95", p95},
                             {"video", options.video},
                             {"paced_fps", options.realtime ? options.fps : 0.0}};
    if (Comparison* comparison = lab.comparison())
      report["compare"] = {{"backend", toString(comparison->module().backend())},
                           {"variant", comparison->module().variant()},
                           {"exact", comparison->agreement()->exact()},
                           {"agreement", agreement}};
    if (player)
      report["replay"] = {
          {"session", options.replay}, {"matched", player->matched()}, {"verdict", verdict}};
    writeWholeFile(options.reportJson, report.dump(2) + "\n", "report");
  }
  if (failed) return 1;
  return interrupted() ? 130 : 0;  // as a shell says of a run Ctrl+C ended
}

}  // namespace ws::app
