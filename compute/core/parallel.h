#pragma once
// When a loop is worth a team of OpenMP threads.

#include <omp.h>

#include <cstddef>
#include <string>

namespace ws {

// Starting a team and meeting at its barrier cost microseconds on an idle machine and far more on
// a busy one, where a thread the others wait for may not be running (and libgomp's waiting
// threads spin): a 272-cell channel stepped 25600 times took 0.25 s alone, 5 s beside two busy
// processes and over 900 s in a loaded CI run, a team for every loop of every step. A loop of
// fewer items than this, each about a cell's update, runs on the calling thread:
//   #pragma omp parallel for if (ws::worthATeam(items))
inline constexpr std::size_t kItemsWorthATeam = 4096;

constexpr bool worthATeam(std::size_t items) {
  return items >= kItemsWorthATeam;
}

// The threads an engine that asked for `requested` runs on: OpenMP's choice for 0.
inline int teamSize(int requested) {
  return requested > 0 ? requested : omp_get_max_threads();
}
// What they are, in words: "one thread", "16 OpenMP threads".
inline std::string threadsText(int requested) {
  return requested == 1 ? "one thread" : std::to_string(teamSize(requested)) + " OpenMP threads";
}

}  // namespace ws
