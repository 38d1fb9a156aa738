#include "app/ui/open_dialog.h"

#include <fcntl.h>
#include <imgui.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "app/ui/ui.h"
#include "compute/core/assets.h"
#include "compute/core/output_file.h"

namespace ws::app::ui {

namespace fs = std::filesystem;

namespace {

// Whether `name` is an executable on PATH.
bool onPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && ::access((fs::path(folder) / name).c_str(), X_OK) == 0) return true;
  return false;
}

// The patterns of the files warpscope opens, for the choosers' filters ("*.rle *.obj ...").
std::string openedPatterns() {
  std::string patterns;
  for (const AssetKind* kind : {&kPatterns, &kMeshes, &kGraphs, &kPresets})
    for (const char* extension : kind->extensions) patterns += std::string(" *") + extension;
  return patterns.substr(1) + " *.wsckpt";
}

// A folder as the browser shows it: absolute, without "." or ".." or a trailing separator.
std::string folderName(const fs::path& folder) {
  std::error_code error;
  fs::path normal = fs::absolute(folder, error).lexically_normal();
  if (!normal.has_filename() && normal != normal.root_path()) normal = normal.parent_path();
  return normal.string();
}

// The folder the dialog starts in: where it was last, else the output folder, else the current.
std::string startFolder(const OpenDialog& dialog) {
  if (!dialog.folder.empty()) return dialog.folder;
  return folderName(outputFolder().empty() ? "." : outputFolder());
}

std::vector<std::string> chooserCommand(const std::string& chooser, const std::string& folder) {
  const std::string start = (fs::path(folder) / "").string();
  if (chooser == "kdialog")
    return {"kdialog",           "--title", "Open in warpscope",
            "--getopenfilename", start,     openedPatterns() + "|files warpscope opens"};
  return {"zenity",
          "--file-selection",
          "--title=Open in warpscope",
          "--filename=" + start,
          "--file-filter=files warpscope opens | " + openedPatterns(),
          "--file-filter=all files | *"};
}

// Reads the folder's entries: its folders, and the files warpscope opens (or all), each sorted,
// hidden ones left out.
void list(OpenDialog& dialog) {
  constexpr std::size_t kMostEntries = 5000;
  dialog.entries.clear();
  dialog.listError.clear();
  dialog.listed = dialog.folder;
  std::error_code error;
  fs::directory_iterator it(dialog.folder, error), end;
  for (; !error && it != end && dialog.entries.size() < kMostEntries; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code kindError;
    const bool folder = it->is_directory(kindError);
    if (!folder && !dialog.allFiles && fileKindOf(it->path().string()) == FileKind::Unknown)
      continue;
    dialog.entries.push_back({name, folder});
  }
  if (error) dialog.listError = "cannot read this folder: " + error.message();
  std::sort(dialog.entries.begin(), dialog.entries.end(), [](const auto& a, const auto& b) {
    return a.folder != b.folder ? a.folder : a.name < b.name;
  });
}

// Goes into the folder at `chosen`, or opens the file (and closes the browser); a relative path
// is in the folder shown.
void choose(Lab& lab, UiContext& context, const std::string& chosen) {
  OpenDialog& dialog = context.openDialog;
  const std::string path = (fs::path(dialog.folder) / chosen).string();
  std::error_code error;
  if (fs::is_directory(path, error)) {
    dialog.folder = folderName(path);
    dialog.path[0] = '\0';
    return;
  }
  dialog.browsing = false;
  dialog.path[0] = '\0';
  lab.later([&lab, &context, path] { openFile(lab, context, path); });
}

void drawBrowser(Lab& lab, UiContext& context) {
  OpenDialog& dialog = context.openDialog;
  if (dialog.listed != dialog.folder) list(dialog);
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(font * 36, font * 28), ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(context.width * 0.5f, context.height * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin("Open file", &dialog.browsing, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(dialog.folder.c_str());
  ImGui::PopTextWrapPos();
  WidgetLog::instance().text("open folder", dialog.folder);
  if (tracked::Button("Up")) choose(lab, context, fs::path(dialog.folder).parent_path().string());
  ImGui::SameLine();
  if (tracked::Checkbox("all files", &dialog.allFiles)) dialog.listed.clear();
  if (!dialog.listError.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", dialog.listError.c_str());
  const float below = ImGui::GetFrameHeightWithSpacing() * 2 + ImGui::GetStyle().ItemSpacing.y;
  ImGui::BeginChild("entries", ImVec2(0, -below), true);
  std::optional<std::string> chosen;
  for (const OpenDialog::Entry& entry : dialog.entries) {
    const std::string label = entry.folder ? entry.name + "/" : entry.name;
    const std::string path = (fs::path(dialog.folder) / entry.name).string();
    if (tracked::Selectable(label.c_str(), path == dialog.path)) {
      if (entry.folder)
        chosen = path;
      else
        std::snprintf(dialog.path, sizeof dialog.path, "%s", path.c_str());
    }
    if (!entry.folder && ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) chosen = path;
  }
  if (dialog.entries.empty() && dialog.listError.empty())
    ImGui::TextDisabled(dialog.allFiles ? "an empty folder" : "no folder or file warpscope opens");
  ImGui::EndChild();
  ImGui::SetNextItemWidth(-font * 5);
  const bool entered =
      tracked::InputTextWithHint("path", "a file or folder", dialog.path, sizeof dialog.path);
  if (entered && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && dialog.path[0])
    chosen = dialog.path;
  if (ImGui::IsItemDeactivatedAfterEdit() && dialog.path[0]) chosen = dialog.path;
  ImGui::BeginDisabled(dialog.path[0] == '\0');
  if (tracked::Button("Open")) chosen = dialog.path;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (tracked::Button("Cancel")) dialog.browsing = false;
  ImGui::End();
  if (chosen) choose(lab, context, *chosen);
}

}  // namespace

std::string desktopChooser() {
  const char* chosen = std::getenv("WARPSCOPE_FILE_DIALOG");
  const std::string asked = chosen ? chosen : "";
  if (asked == "builtin") return "";
  if (asked == "zenity" || asked == "kdialog") return onPath(asked) ? asked : "";
  for (const char* chooser : {"zenity", "kdialog"})
    if (onPath(chooser)) return chooser;
  return "";
}

DesktopChooser::~DesktopChooser() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  if (fd_ >= 0) ::close(fd_);
}

bool DesktopChooser::start(const std::vector<std::string>& argv) {
  if (running()) return true;
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) return false;
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  // The child's answer into the pipe (spawned, not forked: this process has threads).
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO);
  pid_t pid = -1;
  const int failed = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe[1]);
  if (failed != 0) {
    ::close(pipe[0]);
    return false;
  }
  ::fcntl(pipe[0], F_SETFL, O_NONBLOCK);
  pid_ = pid;
  fd_ = pipe[0];
  output_.clear();
  return true;
}

void DesktopChooser::readOutput() {
  char buffer[4096];
  for (ssize_t got; fd_ >= 0 && (got = ::read(fd_, buffer, sizeof buffer)) > 0;)
    output_.append(buffer, std::size_t(got));
}

std::optional<std::string> DesktopChooser::poll() {
  if (pid_ <= 0) return std::nullopt;
  readOutput();
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  readOutput();
  ::close(fd_);
  fd_ = -1;
  pid_ = -1;
  const bool chose = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::string path = output_.substr(0, output_.find('\n'));
  return chose ? path : "";
}

void showOpenDialog(Lab& lab, UiContext& context) {
  OpenDialog& dialog = context.openDialog;
  dialog.folder = startFolder(dialog);
  const std::string chooser = desktopChooser();
  if (!chooser.empty() && dialog.desktop.start(chooserCommand(chooser, dialog.folder))) return;
  if (!chooser.empty())
    lab.errorMessage = chooser + " did not start: the browser in the window opens";
  dialog.browsing = true;
  dialog.listed.clear();  // read the folder again
}

void drawOpenDialog(Lab& lab, UiContext& context) {
  OpenDialog& dialog = context.openDialog;
  if (const auto chosen = dialog.desktop.poll(); chosen && !chosen->empty()) {
    dialog.folder = fs::path(*chosen).parent_path().string();
    lab.later([&lab, &context, path = *chosen] { openFile(lab, context, path); });
  }
  WidgetLog::instance().text("desktop chooser", dialog.desktop.running() ? "open" : "closed");
  if (dialog.browsing) drawBrowser(lab, context);
}

}  // namespace ws::app::ui
