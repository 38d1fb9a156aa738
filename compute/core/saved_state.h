#pragma once
// Reading a module's saved state (a checkpoint's, which is untrusted input): each read checks
// what it reads and refuses it with an InputError that names the module and the field. A module's
// restoreState reads and checks everything first, then changes what it holds.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/module.h"

namespace ws {

class SavedState {
 public:
  SavedState(const StateBlob& state, std::string module);

  // The most steps a state may say were run: exact in a JSON number.
  static constexpr std::uint64_t kMostSteps = std::uint64_t(1) << 53;

  // A whole number from 0 to `most`.
  std::uint64_t count(const char* key, std::uint64_t most) const;
  std::uint64_t steps() const { return count("steps", kMostSteps); }
  // A finite number from `least` to `most`; `fallback` where the key is absent (NaN: required).
  double number(const char* key, double least, double most, double fallback) const;
  // The state's bytes must number `bytes`; `what` says what they hold.
  void requireBytes(std::size_t bytes, const std::string& what) const;
  // `count` floats from byte `from`, each finite and within ±`bound`.
  std::vector<float> floats(std::size_t from, std::size_t count, float bound) const;
  // The same for doubles.
  std::vector<double> doubles(std::size_t from, std::size_t count, double bound) const;

  const nlohmann::json& meta() const { return state_.meta; }
  const std::vector<std::uint8_t>& bytes() const { return state_.data; }
  [[noreturn]] void refuse(const std::string& why) const;

 private:
  template <typename T>
  std::vector<T> numbers(std::size_t from, std::size_t count, T bound) const;

  const StateBlob& state_;
  std::string module_;
};

}  // namespace ws
