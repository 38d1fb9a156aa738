// Record and replay: the session and video recording controls, the replay timeline, and the
// recording indicator.
#include <imgui.h>

#include <array>
#include <cstdio>

#include "app/session/recorder.h"
#include "app/session/session.h"
#include "app/session/snapshot.h"
#include "app/ui/ui.h"
#include "compute/core/output_file.h"

namespace ws::app::ui {

namespace {

// An ImGui text field bound to a std::string.
void pathField(const char* label, std::string& path) {
  std::array<char, 512> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%s", path.c_str());
  if (tracked::InputText(label, buffer.data(), buffer.size())) path = buffer.data();
}

std::string clock(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%d:%02d", int(seconds) / 60, int(seconds) % 60);
  return text;
}

// Recording from a reset, replaying and loading a checkpoint change or replace the module this
// frame draws from: each waits for the frame's end (Lab::later).
void drawSessionControls(Lab& lab, Demo& demo) {
  pathField("session", demo.sessionPath);
  if (lab.recording()) {
    if (tracked::Button("Stop recording"))
      lab.later([&lab, &demo] { demo.message = lab.stopRecording(); });
  } else {
    if (tracked::Button("Record session"))
      lab.later([&lab, &demo] {
        const std::string path = freshOutputPath(demo.sessionPath);  // never over another
        lab.startRecording(path, demo.fromReset);
        if (!lab.recording()) return;
        demo.sessionPath = path;
        demo.message = "recording " + path;
      });
    ImGui::SameLine();
    tracked::Checkbox("from a reset", &demo.fromReset);
    if (ImGui::IsItemHovered())
      wrappedTooltip("off: the session starts from what you see (kept beside it as a checkpoint)");
    ImGui::SameLine();
    if (tracked::Button("Replay")) lab.later([&lab, &demo] { startReplay(lab, demo); });
  }
}

void drawVideoControls(Lab& lab, Demo& demo, int width, int height) {
  ScreenRecording& settings = demo.videoSettings;
  pathField("video", settings.path);
  if (demo.video.active()) {
    if (tracked::Button("Stop video")) demo.message = demo.video.stop();
    return;
  }
  static const char* const captures[] = {"window", "view", "view + timings"};
  int capture = int(settings.capture);
  if (tracked::Combo("picture", &capture, captures, 3))
    settings.capture = ScreenRecording::Capture(capture);
  static const char* const paces[] = {"each simulation step", "the wall clock"};
  int pace = int(settings.pace);
  if (tracked::Combo("frames by", &pace, paces, 2)) settings.pace = ScreenRecording::Pace(pace);
  // Frames by the wall clock are taken at this rate; frames by step play back at it.
  float fps = float(settings.fps);
  if (tracked::SliderFloat("frames / s", &fps, 5, 120, "%.0f")) settings.fps = fps;
  if (tracked::Button("Record video")) {
    ScreenRecording fresh = settings;
    if (lab.attempt([&] {
          fresh.path = freshOutputPath(settings.path);
          demo.video.start(fresh, width, height);
        })) {
      settings.path = fresh.path;
      demo.message = "recording " + settings.path + " (" + demo.video.mode() + ")";
    }
  }
}

void drawCheckpointControls(Lab& lab, Demo& demo) {
  pathField("checkpoint", demo.checkpointPath);
  if (tracked::Button("Save checkpoint")) {
    std::string path;
    if (lab.attempt([&] {
          path = freshOutputPath(demo.checkpointPath);
          writeCheckpoint(path, lab.snapshot());
        })) {
      demo.checkpointPath = path;
      demo.message = "saved " + path;
    }
  }
  ImGui::SameLine();
  if (tracked::Button("Load checkpoint"))
    lab.later([&lab, &demo] {
      lab.resume(demo.checkpointPath);
      demo.message = "resumed from " + demo.checkpointPath;
    });
}

}  // namespace

void startReplay(Lab& lab, Demo& demo) {
  if (lab.recording()) demo.message = lab.stopRecording();
  lab.attempt([&] {
    auto player = std::make_unique<SessionPlayer>(readSession(demo.sessionPath));
    player->begin(lab);
    demo.replay = std::move(player);
    demo.message = "replaying " + demo.sessionPath;
    for (const std::string& change : demo.replay->changedFiles()) demo.message += "; " + change;
  });
}

void drawDemoPanel(Lab& lab, Demo& demo, int width, int height) {
  if (demo.replay) ImGui::BeginDisabled();
  drawSessionControls(lab, demo);
  ImGui::Separator();
  drawVideoControls(lab, demo, width, height);
  ImGui::Separator();
  drawCheckpointControls(lab, demo);
  if (demo.replay) ImGui::EndDisabled();
  // What the last recording or replay said goes to the status bar, not here: a line appearing in
  // the panel would move the controls below it.
}

void drawReplayTimeline(Lab& lab, Demo& demo, UiContext& context) {
  SessionPlayer& replay = *demo.replay;
  // In its own band below the view (Layout::timeline).
  placeNextWindow(context.layout.timeline);
  ImGui::Begin("Replay", nullptr,
               ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings);
  // What seeks or ends the replay waits for the frame's end (Lab::later); the replay may be gone
  // by then.
  if (tracked::Button(replay.playing && !replay.atEnd() ? "Pause" : "Play",
                      ImVec2(ImGui::GetFontSize() * 4, 0)))
    lab.later([&lab, &demo] {
      if (!demo.replay) return;
      SessionPlayer& player = *demo.replay;
      const bool again = player.atEnd();
      if (again) player.seek(lab, 0);
      player.playing = again || !player.playing;
    });
  ImGui::SameLine();
  static const float speeds[] = {0.25f, 0.5f, 1, 2, 4, 8};
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  if (tracked::BeginCombo("speed", (std::to_string(replay.speed).substr(0, 4) + "x").c_str())) {
    for (const float speed : speeds)
      if (tracked::Selectable((std::to_string(speed).substr(0, 4) + "x").c_str(),
                              speed == replay.speed))
        replay.speed = speed;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (tracked::Button("Take over"))
    lab.later([&demo] {
      if (!demo.replay) return;
      demo.message = "took over the replay at frame " + std::to_string(demo.replay->frame());
      demo.replay.reset();
    });
  if (ImGui::IsItemHovered()) wrappedTooltip("stop the replay and carry on live from here");
  // Dragging picks a frame; letting go seeks to it (from the nearest checkpoint before it).
  static int target = -1;
  int frame = target >= 0 ? target : int(replay.frame());
  ImGui::SetNextItemWidth(-1);
  if (tracked::SliderInt("##frame", &frame, 0, int(replay.frames()), "frame %d")) target = frame;
  if (ImGui::IsItemDeactivatedAfterEdit() && target >= 0) {
    lab.later([&lab, &demo, frame = target] {
      if (demo.replay) demo.replay->seek(lab, frame);
    });
    target = -1;
  }
  ImGui::Text("frame %ld of %ld, step %llu", replay.frame(), replay.frames(),
              static_cast<unsigned long long>(lab.module().stepCount()));
  if (replay.atEnd()) {
    const std::string verdict = replay.verdict(lab);
    ImGui::PushTextWrapPos(0.0f);
    if (replay.matched())
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.6f, 1.0f), "%s", verdict.c_str());
    else
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.2f, 1.0f), "%s", verdict.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void drawRecordingIndicator(Lab& lab, Demo& demo, UiContext& context) {
  std::string text;
  if (const SessionRecorder* session = lab.recorder())
    text += "REC session " + clock(session->seconds()) + " (" + std::to_string(session->events()) +
            " events)   ";
  if (demo.video.active())
    text += "REC video " + clock(demo.video.seconds()) + " (" +
            std::to_string(demo.video.frames()) + " frames)";
  if (text.empty()) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 at(context.width * 0.5f - size.x * 0.5f, 12);
  draw->AddRectFilled(ImVec2(at.x - 28, at.y - 6), ImVec2(at.x + size.x + 10, at.y + size.y + 6),
                      IM_COL32(0, 0, 0, 180), 6);
  draw->AddCircleFilled(ImVec2(at.x - 14, at.y + size.y * 0.5f), 6, IM_COL32(230, 40, 40, 255));
  draw->AddText(at, IM_COL32(255, 255, 255, 255), text.c_str());
}

}  // namespace ws::app::ui
