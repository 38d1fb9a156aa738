#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/bench.h"
#include "app/gui_app.h"
#include "app/headless_app.h"
#include "app/lab.h"
#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/json_input.h"
#include "compute/core/output_file.h"

namespace ws::app {

namespace {

// The parameters and variants of every module, for --help.
std::string moduleReference() {
  std::ostringstream out;
  out << "\nMODULES, their --variant names and --set parameters:\n";
  for (const auto& entry : moduleRegistry()) {
    const auto module = entry.create(Backend::Cpu);
    out << "\n  " << entry.name << ": " << entry.title << " (defaults shown for the CPU backend)\n";
    for (Backend backend : {Backend::Cuda, Backend::Cpu}) {
      out << "    variants (" << toString(backend) << "):";
      for (const auto& v : module->variants(backend)) out << " " << v.name;
      out << "\n";
    }
    for (const auto& spec : module->params().specs()) {
      out << "    " << entry.name << "." << spec.key << " = " << module->params().format(spec.key);
      if (spec.type != ParamType::Text) out << "  (" << spec.allowed() << ")";
      out << "\n        " << spec.help << "\n";
    }
  }
  out << "\nKEYS in the GUI: Space run/pause, N step, Shift+N step N, R reset, C clear, F fit,\n"
         "  D/E/P draw/erase/place (, and . turn the placed pattern, X and Y mirror it),\n"
         "  1-9 views, G grid, Tab panels, F12 screenshot, H help.\n"
         "MOUSE: left drag draws (or places), right drag erases, middle or Ctrl+left drag pans,\n"
         "  wheel zooms.\n"
         "EXIT CODES: 0 success, 1 runtime failure, 2 bad command line or input.\n";
  return out.str();
}

void parseWindow(const std::string& option, const std::string& text, int& width, int& height) {
  const auto x = text.find('x');
  try {
    std::size_t used = 0;
    width = std::stoi(text.substr(0, x), &used);
    height = std::stoi(text.substr(x + 1));
    if (x == std::string::npos || used != x) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw InputError(option + " '" + text + "': expected WIDTHxHEIGHT, e.g. 1280x720");
  }
}

}  // namespace

int runCommandLine(int argc, char** argv) {
  CLI::App app{
      "warpscope: an interactive GPU lab. Run and watch simulations live, with kernel timings."};
  app.footer([] { return moduleReference(); });

  LabOptions lab;
  std::string backend, window;
  GuiOptions gui;
  HeadlessOptions headless;
  bool runHeadless = false;
  CLI::Option* moduleOption =
      app.add_option("--module,-m", lab.module, "module to run (GUI: default the last one)")
          ->capture_default_str();
  app.add_option("--backend,-b", backend, "cuda or cpu (default: cuda where a GPU is usable)");
  app.add_option("--variant,-v", lab.variant, "kernel variant (see MODULES below)");
  app.add_option("--size,-s", lab.size, "world size: N or WxH (Life: cells)");
  app.add_option("--set", lab.sets, "set a parameter: module.key=value (repeatable)")->take_all();
  app.add_option("--preset", lab.preset,
                 "load parameters from a preset: a JSON file, or a shipped preset's name "
                 "(lbm-cylinder)")
      ->transform(CLI::Validator(
          [](std::string& text) {
            // A file where there is one, else the shipped preset of that name (an installed
            // program's presets are not in the current folder).
            if (std::filesystem::is_regular_file(text)) return std::string();
            if (const auto shipped = shippedPath(kPresets, text)) {
              text = *shipped;
              return std::string();
            }
            std::string names;
            for (const std::string& name : shippedNames(kPresets))
              names += (names.empty() ? "" : ", ") + name;
            return "'" + json_input::brief(text, 80) +
                   "' is neither a file nor a shipped preset (" + names + ")";
          },
          "FILE or NAME"));
  app.add_option("--steps-per-frame", lab.stepsPerFrame, "simulation steps per drawn frame")
      ->capture_default_str();
  app.add_flag("--paused", lab.paused, "start paused (GUI)");
  app.add_flag("--no-interop{false}", lab.interop,
               "CUDA fields reach GL through host memory (read back, uploaded) instead of "
               "CUDA-GL interop: the host-device traffic lesson");
  app.add_option("--compare", lab.compare,
                 "A/B split view: B runs beside the module from the same state, checked against "
                 "it: cuda, cpu, BACKEND:VARIANT or a VARIANT of the same backend");
  app.add_option("--steps", headless.steps, "headless: total steps to run")->capture_default_str();
  app.add_option("--screenshot", gui.screenshot, "write the last frame as PNG (GUI: on quit)");
  app.add_flag("--headless", runHeadless, "no window: EGL device context, render frames to files");
  app.add_option("--frames", headless.framesDir,
                 "headless: write a PNG per frame into this folder");
  app.add_option("--frame-every", headless.frameEvery, "headless: write every k-th frame")
      ->capture_default_str();
  app.add_flag("--with-ui", headless.withUi, "headless: draw the panels into the frames");
  app.add_flag("--roofline", headless.roofline,
               "headless: measure every variant, print and draw the roofline (implies --with-ui)");
  app.add_flag("--sweep", headless.sweep,
               "headless: sweep the module's sizes on CPU and GPU, print and draw the log-log plot "
               "with fitted slopes and the crossover (implies --with-ui)");
  app.add_option("--window", window, "window or frame size WxH (GUI 1600x1000, headless 1280x720)");
  app.add_option("--report", headless.reportJson, "headless: write frame-time statistics as JSON");
  app.add_option("--action", headless.actions,
                 "headless: run a module action after the steps (repeatable; mesh: 'save mesh')");
  app.add_option("--egl-device", headless.eglDevice,
                 "headless: EGL device index (default: first GPU)");
  app.add_option("--video", headless.video,
                 "headless: every frame into a video (.mp4 through ffmpeg, .gif; PNG frames "
                 "without ffmpeg)");
  app.add_option("--fps", headless.fps, "headless: the video's frame rate")->capture_default_str();
  app.add_flag("--realtime", headless.realtime,
               "headless: pace frames at --fps, as a display would (frame times stay the work's)");
  app.add_option(
      "--record-session", gui.recordSession,
      "record a session (actions, edits, camera; headless: the run) into this JSON file");
  app.add_option("--record-video", gui.recordVideo, "GUI: record the window into this video");
  app.add_option("--replay", gui.replaySession, "GUI: replay this session, with a timeline")
      ->check(CLI::ExistingFile);
  app.add_option("--quit-after-frames", gui.quitAfterFrames,
                 "GUI: quit after this many frames (tests)");
  app.add_option("--ui-script", gui.uiScript,
                 "GUI: operate the window from this script (tests; app/ui/ui_driver.h); exit 3 "
                 "when a check fails")
      ->check(CLI::ExistingFile);
  std::string outputDir;
  app.add_option("--output-dir", outputDir,
                 "where what you save goes (screenshots, exports, saved meshes, presets, "
                 "checkpoints, sessions, videos the panel records), never over another file; "
                 "GUI: default the last one chosen");
  app.add_flag("--reset-settings", gui.resetSettings,
               "GUI: forget the remembered window, UI scale, contrast, panels and module");

  BenchOptions bench;
  CLI::App* benchCommand =
      app.add_subcommand("bench", "measure kernel variants: table on stdout, JSON file");
  benchCommand->add_option("--module,-m", bench.module, "module")->capture_default_str();
  benchCommand->add_option("--backend,-b", bench.backend, "cuda, cpu or all")
      ->capture_default_str();
  benchCommand->add_option("--variant,-v", bench.variants, "variants to measure (default: all)")
      ->take_all();
  benchCommand->add_option("--size,-s", bench.size, "world size: N or WxH");
  benchCommand->add_option("--set", bench.sets, "set a parameter: module.key=value")->take_all();
  benchCommand->add_option("--steps-per-sample", bench.stepsPerSample, "steps in each timed sample")
      ->capture_default_str();
  benchCommand->add_option("--samples", bench.samples, "timed samples per variant (median)")
      ->capture_default_str();
  benchCommand->add_option("--json", bench.json, "where to write the results")
      ->capture_default_str();

  HeadlessOptions replay;
  std::string replayBackend, replaySize;
  CLI::App* replayCommand = app.add_subcommand(
      "replay", "replay a recorded session headless, frame by frame as recorded, into a video");
  replayCommand->add_option("session", replay.replay, "the session file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  replayCommand->add_option("--video", replay.video, "the video (.mp4, .gif, ...)");
  replayCommand->add_option("--size,-s", replaySize, "frame size WxH (default 1280x720)");
  replay.fps = 0;
  replayCommand->add_option("--fps", replay.fps,
                            "one video frame per recorded frame at this rate (default: the "
                            "recording's own rate, so that the video lasts as long as it did)");
  replayCommand->add_flag("--with-ui", replay.withUi, "draw the panels into the frames");
  replayCommand->add_option("--backend,-b", replayBackend,
                            "cuda or cpu (default: as recorded; the CPU where there is no GPU)");
  replayCommand->add_option("--frames", replay.framesDir, "also a PNG per frame into this folder");
  replayCommand->add_option("--screenshot", replay.screenshot, "the last frame as PNG");
  replayCommand->add_option("--report", replay.reportJson, "frame-time statistics as JSON");
  replayCommand->add_option("--egl-device", replay.eglDevice, "EGL device index");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "warpscope: " << json_input::brief(e.what(), json_input::kLongestMessage)
              << "\nRun 'warpscope --help' for the options." << std::endl;
    return 2;
  }

  try {
    if (replay.fps < 0) throw InputError("--fps must be above 0 (or 0: the recording's pace)");
    if (!backend.empty()) {
      lab.backend = parseBackend(backend);
      if (!lab.backend) throw InputError("--backend '" + backend + "': expected cuda or cpu");
    }
    // Every file a run will write, known now, is checked now: not after the run.
    const std::pair<const std::string*, const char*> outputs[] = {
        {&gui.screenshot, "--screenshot"},    {&gui.recordSession, "--record-session"},
        {&gui.recordVideo, "--record-video"}, {&headless.reportJson, "--report"},
        {&headless.video, "--video"},         {&bench.json, "--json"},
        {&replay.video, "--video"},           {&replay.screenshot, "--screenshot"},
        {&replay.reportJson, "--report"}};
    for (const auto& [path, option] : outputs)
      if (!path->empty()) checkWritable(*path, option);
    if (!outputDir.empty()) {
      setOutputFolder(outputDir);
      gui.outputDirGiven = true;
    }
    // Read once, here: a preset names its module, and --preset alone runs that module.
    if (!lab.preset.empty()) {
      lab.presetContent = readPresetFile(lab.preset);
      if (moduleOption->count() == 0)
        if (const auto module = presetModuleOf(*lab.presetContent)) lab.module = *module;
    }
    if (*benchCommand) return runBench(bench);
    if (*replayCommand) {
      if (!replaySize.empty()) parseWindow("--size", replaySize, replay.width, replay.height);
      if (!replayBackend.empty()) {
        replay.lab.backend = parseBackend(replayBackend);
        if (!replay.lab.backend)
          throw InputError("--backend '" + replayBackend + "': expected cuda or cpu");
      }
      return app::runHeadless(replay);
    }
    if (runHeadless) {
      headless.lab = lab;
      headless.screenshot = gui.screenshot;
      headless.recordSession = gui.recordSession;
      if (!window.empty()) parseWindow("--window", window, headless.width, headless.height);
      if (headless.steps < 0) throw InputError("--steps must not be negative");
      return app::runHeadless(headless);
    }
    gui.lab = lab;
    gui.moduleGiven = moduleOption->count() > 0;
    gui.windowGiven = !window.empty();
    if (!window.empty()) parseWindow("--window", window, gui.width, gui.height);
    return runGui(gui);
  } catch (const InputError& e) {
    std::cerr << "warpscope: " << json_input::brief(e.what(), json_input::kLongestMessage)
              << std::endl;
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "warpscope: out of memory: the run asked for more memory than this machine has "
                 "free"
              << std::endl;
    return 2;
  } catch (const nlohmann::json::exception& e) {  // a file's JSON that no check caught first
    std::cerr << "warpscope: " << json_input::brief(std::string_view(e.what()), 200) << std::endl;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warpscope: " << json_input::brief(e.what(), json_input::kLongestMessage)
              << std::endl;
    return 1;
  }
}

}  // namespace ws::app
