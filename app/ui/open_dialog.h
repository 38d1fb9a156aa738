#pragma once
// The Open dialog (the Files section's "Open...", Ctrl+O): the desktop's own file chooser (zenity
// or kdialog, where installed), run as a child process so that the window keeps drawing while it
// is open; else, or where it fails to start, a browser in the window of the folders and of the
// files warpscope opens. What is chosen opens as a dropped file does (ui::openFile).
// WARPSCOPE_FILE_DIALOG=builtin, zenity or kdialog chooses which.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace ws::app::ui {

// A file chooser run as a child process: its answer read as it comes, never waited on.
class DesktopChooser {
 public:
  DesktopChooser() = default;
  DesktopChooser(const DesktopChooser&) = delete;
  DesktopChooser& operator=(const DesktopChooser&) = delete;
  ~DesktopChooser();  // closes one still open

  // Starts `argv` (argv[0] found on PATH); false where it cannot start.
  bool start(const std::vector<std::string>& argv);
  bool running() const { return pid_ > 0; }
  // Once it has finished: the path chosen, or "" where the user cancelled (or it failed); nullopt
  // while it runs.
  std::optional<std::string> poll();

 private:
  void readOutput();
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string output_;
};

struct OpenDialog {
  DesktopChooser desktop;
  // The browser in the window: shown, the folder it lists, what is in it (read when the folder
  // changes), the path typed or picked, and whether files warpscope does not open are listed.
  bool browsing = false;
  std::string folder;
  std::string listed;  // the folder `entries` were read from
  struct Entry {
    std::string name;
    bool folder;
  };
  std::vector<Entry> entries;
  std::string listError;  // why the folder could not be read
  char path[1024] = "";
  bool allFiles = false;
};

// The first of zenity and kdialog on PATH (or the one WARPSCOPE_FILE_DIALOG names), or "" for
// the browser in the window.
std::string desktopChooser();

}  // namespace ws::app::ui
