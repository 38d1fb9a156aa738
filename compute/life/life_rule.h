#pragma once
// Life-like rules in B/S notation ("B3/S23"): which neighbour counts give birth to a dead cell and
// which let a live cell survive.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws::life {

struct LifeRule {
  std::uint16_t birth = 0;    // bit n set: a dead cell with n live neighbours is born
  std::uint16_t survive = 0;  // bit n set: a live cell with n live neighbours survives

  // Accepts "B3/S23", "b3s23", "B36/S23", and the older "S/B" form "23/3". Throws InputError.
  static LifeRule parse(std::string_view text);
  static LifeRule conway() { return {1u << 3, (1u << 2) | (1u << 3)}; }
  std::string toString() const;  // canonical "B3/S23"
  bool isConway() const { return *this == conway(); }

  // Bit (alive * 9 + neighbours) is the next state: the form the per-cell kernels index.
  std::uint32_t cellTable() const { return birth | (std::uint32_t(survive) << 9); }
  // The same rule indexed by the count of the 3x3 block including the cell (0..9), as the
  // bit-sliced kernels count it: dead cells use birthByBlock, live cells surviveByBlock.
  std::uint32_t birthByBlock() const { return birth; }
  std::uint32_t surviveByBlock() const { return std::uint32_t(survive) << 1; }

  bool operator==(const LifeRule&) const = default;
};

// Well-known rules, for the UI's picker and presets.
struct NamedRule {
  const char* name;
  const char* rule;
};
const std::vector<NamedRule>& namedRules();

}  // namespace ws::life
