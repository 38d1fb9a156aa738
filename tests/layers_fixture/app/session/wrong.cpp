#include <imgui.h>  // the lab reaching into the GUI
