#pragma once
// A number as text in a printf format, for the notes and messages modules write.
#include <cstdio>
#include <string>

namespace ws {

inline std::string formatted(double value, const char* format = "%.3g") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace ws
