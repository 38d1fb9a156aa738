#include "compute/core/params.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws {

namespace {

[[noreturn]] void reject(const ParamSpec& spec, const std::string& text, const std::string& why) {
  throw InputError("parameter '" + spec.key + "': '" + json_input::brief(text) +
                   "' is not valid: " + why);
}

// A value as given, for a message: a number in the fewest digits that read back the same
// (1.0000001, not 1).
std::string given(const ParamValue& value) {
  if (const auto* d = std::get_if<double>(&value)) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, *d).ptr;
    return std::string(text, end);
  }
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<std::string>(value);
}

}  // namespace

std::string ParamSpec::allowed() const {
  std::ostringstream out;
  switch (type) {
    case ParamType::Choice:
      out << "one of:";
      for (const auto& choice : choices) out << " " << choice;
      break;
    case ParamType::Bool:
      out << "true or false";
      break;
    case ParamType::Int:
      out << "a whole number from " << static_cast<long long>(min) << " to "
          << static_cast<long long>(max);
      break;
    case ParamType::Float:
      out << "a number from " << min << " to " << max;
      break;
    case ParamType::Text:
      out << "text";
      break;
  }
  return out.str();
}

ParamSpec ParamSpec::integer(std::string key, std::string label, std::int64_t value, double min,
                             double max, std::string help) {
  ParamSpec spec;
  spec.key = std::move(key);
  spec.label = std::move(label);
  spec.type = ParamType::Int;
  spec.defaultValue = value;
  spec.min = min;
  spec.max = max;
  spec.help = std::move(help);
  return spec;
}

ParamSpec ParamSpec::real(std::string key, std::string label, double value, double min, double max,
                          std::string help) {
  ParamSpec spec = integer(std::move(key), std::move(label), 0, min, max, std::move(help));
  spec.type = ParamType::Float;
  spec.defaultValue = value;
  return spec;
}

ParamSpec ParamSpec::choice(std::string key, std::string label, std::string value,
                            std::vector<std::string> choices, std::string help) {
  ParamSpec spec = integer(std::move(key), std::move(label), 0, 0, 0, std::move(help));
  spec.type = ParamType::Choice;
  spec.defaultValue = std::move(value);
  spec.choices = std::move(choices);
  return spec;
}

ParamSpec ParamSpec::boolean(std::string key, std::string label, bool value, std::string help) {
  ParamSpec spec = integer(std::move(key), std::move(label), 0, 0, 0, std::move(help));
  spec.type = ParamType::Bool;
  spec.defaultValue = value;
  return spec;
}

ParamSpec ParamSpec::text(std::string key, std::string label, std::string value, std::string help,
                          std::function<std::string(const std::string&)> validate) {
  ParamSpec spec = integer(std::move(key), std::move(label), 0, 0, 0, std::move(help));
  spec.type = ParamType::Text;
  spec.defaultValue = std::move(value);
  spec.validate = std::move(validate);
  return spec;
}

void ParamSet::declare(ParamSpec spec) {
  values_.push_back(spec.defaultValue);
  specs_.push_back(std::move(spec));
}

std::size_t ParamSet::indexOf(const std::string& key) const {
  for (std::size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].key == key) return i;
  std::string known;
  for (const auto& spec : specs_) known += " " + spec.key;
  throw InputError("unknown parameter '" + json_input::brief(key) + "' (known:" + known + ")");
}

bool ParamSet::has(const std::string& key) const {
  for (const auto& spec : specs_)
    if (spec.key == key) return true;
  return false;
}

const ParamSpec& ParamSet::spec(const std::string& key) const {
  return specs_[indexOf(key)];
}

ParamValue ParamSet::parse(const std::string& key, const std::string& text) const {
  const ParamSpec& s = spec(key);
  switch (s.type) {
    case ParamType::Int: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size())
        reject(s, text, "expected " + s.allowed());
      return check(key, v);
    }
    case ParamType::Float: {
      std::istringstream in(text);
      double v = 0;
      if (!(in >> v) || !in.eof()) reject(s, text, "expected " + s.allowed());
      return check(key, v);
    }
    case ParamType::Bool:
      if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
      if (text == "false" || text == "0" || text == "off" || text == "no") return false;
      reject(s, text, "expected true or false");
    case ParamType::Choice:
    case ParamType::Text:
      return check(key, text);
  }
  reject(s, text, "unsupported type");
}

ParamValue ParamSet::check(const std::string& key, const ParamValue& value) const {
  const ParamSpec& s = spec(key);
  const auto asText = [&] { return given(value); };
  switch (s.type) {
    case ParamType::Int: {
      std::int64_t v = 0;
      if (const auto* i = std::get_if<std::int64_t>(&value)) {
        v = *i;
      } else if (const auto* d = std::get_if<double>(&value); d && std::floor(*d) == *d) {
        v = static_cast<std::int64_t>(*d);
      } else {
        reject(s, asText(), "expected " + s.allowed());
      }
      if (v < s.min || v > s.max) reject(s, std::to_string(v), "expected " + s.allowed());
      return v;
    }
    case ParamType::Float: {
      double v = 0;
      if (const auto* d = std::get_if<double>(&value))
        v = *d;
      else if (const auto* i = std::get_if<std::int64_t>(&value))
        v = static_cast<double>(*i);
      else
        reject(s, asText(), "expected " + s.allowed());
      if (!std::isfinite(v) || v < s.min || v > s.max)
        reject(s, asText(), "expected " + s.allowed());
      return v;
    }
    case ParamType::Bool:
      if (!std::holds_alternative<bool>(value)) reject(s, asText(), "expected true or false");
      return value;
    case ParamType::Choice: {
      const auto* text = std::get_if<std::string>(&value);
      if (!text) reject(s, asText(), "expected " + s.allowed());
      for (const auto& choice : s.choices)
        if (choice == *text) return value;
      reject(s, *text, "expected " + s.allowed());
    }
    case ParamType::Text: {
      const auto* text = std::get_if<std::string>(&value);
      if (!text) reject(s, asText(), "expected text");
      if (s.validate) {
        const std::string problem = s.validate(*text);
        if (!problem.empty()) reject(s, *text, problem);
      }
      return value;
    }
  }
  return value;
}

const ParamValue& ParamSet::value(const std::string& key) const {
  return values_[indexOf(key)];
}

void ParamSet::assign(const std::string& key, ParamValue value) {
  values_[indexOf(key)] = check(key, value);
}

std::int64_t ParamSet::getInt(const std::string& key) const {
  return std::get<std::int64_t>(value(key));
}
double ParamSet::getFloat(const std::string& key) const {
  return std::get<double>(value(key));
}
bool ParamSet::getBool(const std::string& key) const {
  return std::get<bool>(value(key));
}
const std::string& ParamSet::getText(const std::string& key) const {
  return std::get<std::string>(value(key));
}

std::string ParamSet::format(const std::string& key) const {
  const ParamValue& v = values_[indexOf(key)];
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    std::ostringstream out;
    out << *d;
    return out.str();
  }
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

nlohmann::json ParamSet::toJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < specs_.size(); ++i)
    std::visit([&](const auto& v) { out[specs_[i].key] = v; }, values_[i]);
  return out;
}

std::vector<std::pair<std::string, ParamValue>> ParamSet::checkJson(
    const nlohmann::json& json) const {
  if (!json.is_object()) throw InputError("parameters must be a JSON object");
  std::vector<std::pair<std::string, ParamValue>> checked;
  for (const auto& [key, item] : json.items())
    checked.emplace_back(key, check(key, paramValueFromJson(key, item)));
  return checked;
}

ParamValue paramValueFromJson(const std::string& key, const nlohmann::json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) return value.get<std::string>();
  throw InputError("parameter '" + json_input::brief(key) + "': " + json_input::briefJson(value) +
                   " is not a number, text or true/false");
}

std::vector<std::string> sizeSides(const std::string& text) {
  std::vector<std::string> sides;
  for (std::size_t from = 0;;) {
    const std::size_t x = text.find('x', from);
    sides.push_back(text.substr(from, x - from));
    if (x == std::string::npos) return sides;
    from = x + 1;
  }
}

}  // namespace ws
