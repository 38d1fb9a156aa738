#include "app/ui/settings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compute/core/json_input.h"

namespace ws::app::ui {

namespace {

constexpr std::uintmax_t kMostBytes = 64 * 1024;  // a settings file is a few hundred bytes

// A number of the file within [low, high], or why not.
template <typename T>
T readNumber(const nlohmann::json& json, const char* key, T low, T high, T fallback) {
  if (!json.contains(key)) return fallback;
  const nlohmann::json& value = json.at(key);
  if (!value.is_number()) throw std::runtime_error(std::string("'") + key + "' is not a number");
  const double number = value.get<double>();
  if (!(number >= double(low) && number <= double(high)))
    throw std::runtime_error(std::string("'") + key + "' is out of range");
  return T(number);
}

bool readFlag(const nlohmann::json& json, const char* key, bool fallback) {
  if (!json.contains(key)) return fallback;
  if (!json.at(key).is_boolean())
    throw std::runtime_error(std::string("'") + key + "' is not true or false");
  return json.at(key).get<bool>();
}

}  // namespace

std::string settingsPath() {
  std::filesystem::path folder;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && xdg[0] == '/')
    folder = xdg;
  else if (const char* home = std::getenv("HOME"); home && home[0])
    folder = std::filesystem::path(home) / ".config";
  else
    return "";
  return (folder / "warpscope" / "settings.json").string();
}

Settings loadSettings(std::string& warning) {
  warning.clear();
  Settings settings;
  const std::string path = settingsPath();
  std::error_code error;
  if (path.empty() || !std::filesystem::exists(path, error)) return settings;
  try {
    if (std::filesystem::file_size(path) > kMostBytes)
      throw std::runtime_error("larger than a settings file can be");
    const nlohmann::json json = json_input::parseFile(path, "settings");
    if (!json.is_object()) throw std::runtime_error("not a JSON object");
    Settings read;
    if (json.contains("x") || json.contains("y")) {
      read.x = readNumber(json, "x", -100000, 100000, 0);
      read.y = readNumber(json, "y", -100000, 100000, 0);
    }
    read.width = readNumber(json, "width", 320, 16384, read.width);
    read.height = readNumber(json, "height", 240, 16384, read.height);
    read.scale = readNumber(json, "scale", 0.5f, 3.0f, read.scale);
    read.highContrast = readFlag(json, "highContrast", read.highContrast);
    read.showUi = readFlag(json, "showUi", read.showUi);
    read.controlsCollapsed = readFlag(json, "controlsCollapsed", read.controlsCollapsed);
    read.timingsCollapsed = readFlag(json, "timingsCollapsed", read.timingsCollapsed);
    if (json.contains("module")) {
      if (!json.at("module").is_string() || json.at("module").get<std::string>().size() > 64)
        throw std::runtime_error("'module' is not a module's name");
      read.module = json.at("module").get<std::string>();
    }
    if (json.contains("outputFolder")) {
      if (!json.at("outputFolder").is_string() ||
          json.at("outputFolder").get<std::string>().size() > 4096)
        throw std::runtime_error("'outputFolder' is not a folder's path");
      read.outputFolder = json.at("outputFolder").get<std::string>();
    }
    if (json.contains("recentFiles")) {
      const nlohmann::json& files = json.at("recentFiles");
      if (!files.is_array() || files.size() > 10)
        throw std::runtime_error("'recentFiles' is not a list of up to 10 paths");
      for (const nlohmann::json& file : files) {
        if (!file.is_string() || file.get<std::string>().size() > 4096)
          throw std::runtime_error("'recentFiles' holds something other than a path");
        read.recentFiles.push_back(file.get<std::string>());
      }
    }
    settings = read;  // all or nothing
  } catch (const std::exception& e) {
    std::string why = e.what();
    if (why.size() > 160) why = why.substr(0, 160) + "...";
    warning = "ignored the settings in " + path + ": " + why;
  }
  return settings;
}

bool saveSettings(const Settings& settings, std::string& warning) {
  const std::string path = settingsPath();
  if (path.empty()) return true;  // nowhere to keep them
  nlohmann::json json = {{"width", settings.width},
                         {"height", settings.height},
                         {"scale", settings.scale},
                         {"highContrast", settings.highContrast},
                         {"showUi", settings.showUi},
                         {"controlsCollapsed", settings.controlsCollapsed},
                         {"timingsCollapsed", settings.timingsCollapsed},
                         {"module", settings.module},
                         {"outputFolder", settings.outputFolder},
                         {"recentFiles", settings.recentFiles}};
  if (settings.x && settings.y) json["x"] = *settings.x, json["y"] = *settings.y;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  // Written aside and renamed: a crash mid-write leaves the old file.
  const std::string temporary = path + ".new";
  {
    std::ofstream out(temporary);
    out << json.dump(2) << "\n";
    if (!out) {
      warning = "could not write the settings to " + path;
      return false;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) warning = "could not write the settings to " + path + ": " + error.message();
  return !error;
}

void forgetSettings() {
  const std::string path = settingsPath();
  std::error_code error;
  if (!path.empty()) std::filesystem::remove(path, error);
}

}  // namespace ws::app::ui
