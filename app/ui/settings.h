#pragma once
// What the GUI remembers between runs, in the user's XDG config folder
// ($XDG_CONFIG_HOME/warpscope/settings.json, else ~/.config/warpscope/settings.json): the window's
// size and position, the UI scale, the contrast, which panels are shown or collapsed, and the last
// module. A missing file gives the defaults; a corrupt one gives them with a warning.
#include <optional>
#include <string>
#include <vector>

namespace ws::app::ui {

struct Settings {
  std::optional<int> x, y;  // the window's position, where the window system told it
  int width = 1600, height = 1000;
  float scale = 1.0f;
  bool highContrast = false;
  bool showUi = true;
  bool controlsCollapsed = false, timingsCollapsed = false;
  std::string module;                    // empty: the default
  std::string outputFolder;              // compute/core/output_file.h; empty: the current folder
  std::vector<std::string> recentFiles;  // opened last first
};

// The settings file's path; empty where neither XDG_CONFIG_HOME nor HOME is set.
std::string settingsPath();

// The remembered settings, or the defaults; `warning` says why a file there was not used.
Settings loadSettings(std::string& warning);
// Writes them (creating the folder); false with `warning` set when it cannot.
bool saveSettings(const Settings& settings, std::string& warning);
// Forgets them: removes the file.
void forgetSettings();

}  // namespace ws::app::ui
