#pragma once
// A module's parameters, declared once. The same declarations feed the ImGui panel, the command
// line (`--set life.rule=B36/S23`), presets and recorded sessions.
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <variant>
#include <vector>

namespace ws {

enum class ParamType { Int, Float, Bool, Choice, Text };

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

struct ParamSpec {
  std::string key;  // short name, e.g. "rule"; the command line prefixes the module: "life.rule"
  std::string label;
  ParamType type = ParamType::Int;
  ParamValue defaultValue;
  double min = 0, max = 0;           // Int and Float
  std::vector<std::string> choices;  // Choice
  std::string help;                  // one line
  bool logScale = false;             // Float/Int sliders
  // Text values: returns an error message, or "" when the text is acceptable.
  std::function<std::string(const std::string&)> validate;
  // Text values: well-known values the UI offers in a list (label, value).
  std::vector<std::pair<std::string, std::string>> suggestions;

  // What values are allowed, in words ("a whole number from 4 to 262144", "one of: torus dead"),
  // for error messages and --help.
  std::string allowed() const;

  // Declarations read best through these: each names what its numbers are.
  static ParamSpec integer(std::string key, std::string label, std::int64_t value, double min,
                           double max, std::string help);
  static ParamSpec real(std::string key, std::string label, double value, double min, double max,
                        std::string help);
  static ParamSpec choice(std::string key, std::string label, std::string value,
                          std::vector<std::string> choices, std::string help);
  static ParamSpec boolean(std::string key, std::string label, bool value, std::string help);
  static ParamSpec text(std::string key, std::string label, std::string value, std::string help,
                        std::function<std::string(const std::string&)> validate);
};

class ParamSet {
 public:
  void declare(ParamSpec spec);

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec& spec(const std::string& key) const;
  bool has(const std::string& key) const;

  // Parses and range-checks `text` for `key` and returns the value it would set; throws InputError
  // naming the parameter, the value and what is allowed. Changes nothing.
  ParamValue parse(const std::string& key, const std::string& text) const;
  // Checks a typed value (from JSON or the UI); throws InputError. Changes nothing.
  ParamValue check(const std::string& key, const ParamValue& value) const;

  const ParamValue& value(const std::string& key) const;
  void assign(const std::string& key, ParamValue value);  // checked

  std::int64_t getInt(const std::string& key) const;
  double getFloat(const std::string& key) const;
  bool getBool(const std::string& key) const;
  const std::string& getText(const std::string& key) const;  // Text and Choice

  std::string format(const std::string& key) const;  // the value as the command line writes it

  nlohmann::json toJson() const;
  // Checks every entry first (unknown keys are errors), so a bad preset changes nothing.
  std::vector<std::pair<std::string, ParamValue>> checkJson(const nlohmann::json& json) const;

 private:
  std::size_t indexOf(const std::string& key) const;
  std::vector<ParamSpec> specs_;
  std::vector<ParamValue> values_;
};

// A JSON value (a preset's, a session's) as the parameter value of its kind, unchecked; an
// InputError naming `key` where it is no number, text or true/false.
ParamValue paramValueFromJson(const std::string& key, const nlohmann::json& value);

// The sides of a size as `--size` writes it, "N", "WxH" or "WxHxD": the texts between the 'x's
// (each still to be parsed as its parameter).
std::vector<std::string> sizeSides(const std::string& text);

}  // namespace ws
