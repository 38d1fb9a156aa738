#include "compute/core/saved_state.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "compute/core/errors.h"
#include "compute/core/json_input.h"

namespace ws {

namespace {

std::string text(double value) {
  char out[32];
  return std::string(out, std::to_chars(out, out + sizeof out, value).ptr);
}

}  // namespace

SavedState::SavedState(const StateBlob& state, std::string module)
    : state_(state), module_(std::move(module)) {
  if (!state_.meta.is_object()) refuse("its description is not a JSON object");
}

void SavedState::refuse(const std::string& why) const {
  throw InputError("the saved " + module_ + " state: " + why);
}

std::uint64_t SavedState::count(const char* key, std::uint64_t most) const {
  const auto found = state_.meta.find(key);
  if (found == state_.meta.end()) refuse(std::string("it has no \"") + key + "\"");
  if (!found->is_number_integer() ||
      (!found->is_number_unsigned() && found->get<std::int64_t>() < 0) ||
      found->get<std::uint64_t>() > most)
    refuse(std::string("\"") + key + "\" is " + json_input::briefJson(*found) +
           ", not a whole number from 0 to " + std::to_string(most));
  return found->get<std::uint64_t>();
}

double SavedState::number(const char* key, double least, double most, double fallback) const {
  const auto found = state_.meta.find(key);
  if (found == state_.meta.end()) {
    if (std::isnan(fallback)) refuse(std::string("it has no \"") + key + "\"");
    return fallback;
  }
  const double value = found->is_number() ? found->get<double>() : NAN;
  if (!(value >= least && value <= most))
    refuse(std::string("\"") + key + "\" is " + json_input::briefJson(*found) +
           ", not a number from " + text(least) + " to " + text(most));
  return value;
}

void SavedState::requireBytes(std::size_t bytes, const std::string& what) const {
  if (state_.data.size() != bytes)
    refuse("it holds " + std::to_string(state_.data.size()) + " bytes; " + what + " take " +
           std::to_string(bytes));
}

template <typename T>
std::vector<T> SavedState::numbers(std::size_t from, std::size_t count, T bound) const {
  if (from > state_.data.size() || count > (state_.data.size() - from) / sizeof(T))
    refuse("it ends before its numbers do");
  std::vector<T> values(count);
  // (Not for none: an empty state's data may be a null pointer, which memcpy may not be given.)
  if (count) std::memcpy(values.data(), state_.data.data() + from, count * sizeof(T));
  for (std::size_t i = 0; i < count; ++i)
    if (!(std::fabs(values[i]) <= bound))
      refuse("number " + std::to_string(i) + " of its state is " + text(values[i]) +
             ", not a finite number within " + text(bound) + " of 0");
  return values;
}

std::vector<float> SavedState::floats(std::size_t from, std::size_t count, float bound) const {
  return numbers(from, count, bound);
}

std::vector<double> SavedState::doubles(std::size_t from, std::size_t count, double bound) const {
  return numbers(from, count, bound);
}

}  // namespace ws
