#include "compute/life/life_rule.h"

#include <cctype>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws::life {

namespace {

// Reads the digits of one half ("23"); returns the bit set.
std::uint16_t digits(std::string_view text, std::string_view whole) {
  std::uint16_t bits = 0;
  for (char c : text) {
    if (c < '0' || c > '8')
      throw InputError("rule '" + json_input::brief(whole) + "': '" + std::string(1, c) +
                       "' is not a neighbour count (0-8)");
    bits |= std::uint16_t(1u << (c - '0'));
  }
  return bits;
}

}  // namespace

LifeRule LifeRule::parse(std::string_view text) {
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += char(std::toupper(static_cast<unsigned char>(c)));
  if (s.empty()) throw InputError("rule is empty; expected B/S notation such as B3/S23");
  LifeRule rule;
  if (s[0] == 'B') {
    const auto sPos = s.find('S');
    if (sPos == std::string::npos)
      throw InputError("rule '" + json_input::brief(text) + "': missing 'S' part (e.g. B3/S23)");
    std::string_view birth(s.data() + 1, sPos - 1);
    if (!birth.empty() && birth.back() == '/') birth.remove_suffix(1);
    rule.birth = digits(birth, text);
    rule.survive = digits(std::string_view(s).substr(sPos + 1), text);
  } else {
    const auto slash = s.find('/');
    if (slash == std::string::npos)
      throw InputError("rule '" + json_input::brief(text) +
                       "': expected B/S notation such as B3/S23");
    rule.survive = digits(std::string_view(s).substr(0, slash), text);
    rule.birth = digits(std::string_view(s).substr(slash + 1), text);
  }
  if (rule.birth & 1u)
    throw InputError("rule '" + std::string(text) +
                     "': B0 rules (birth with no neighbours) are not supported");
  return rule;
}

std::string LifeRule::toString() const {
  std::string out = "B";
  for (int n = 0; n <= 8; ++n)
    if (birth >> n & 1u) out += char('0' + n);
  out += "/S";
  for (int n = 0; n <= 8; ++n)
    if (survive >> n & 1u) out += char('0' + n);
  return out;
}

const std::vector<NamedRule>& namedRules() {
  static const std::vector<NamedRule> rules = {
      {"Conway's Life", "B3/S23"},
      {"HighLife", "B36/S23"},
      {"Seeds", "B2/S"},
      {"Day & Night", "B3678/S34678"},
      {"Life without Death", "B3/S012345678"},
      {"2x2", "B36/S125"},
      {"Diamoeba", "B35678/S5678"},
      {"Morley", "B368/S245"},
      {"Replicator", "B1357/S1357"},
      {"Maze", "B3/S12345"},
  };
  return rules;
}

}  // namespace ws::life
