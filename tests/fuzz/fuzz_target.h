#pragma once
// What the fuzz driver (tests/fuzz/fuzz_main.cpp) and libFuzzer call: the two entry points
// libFuzzer defines. tests/fuzz/targets.cpp implements them.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
