// How the panels, the window's title and the Lesson panel write a rate: the SI prefix that fits
// the value, a symbol joined to it (GB/s), a word apart from it (45.4 k vertices/s).
#include <gtest/gtest.h>

#include "app/ui/ui.h"

namespace ws::app::ui {
namespace {

TEST(SiRate, ThePrefixFitsTheValue) {
  EXPECT_EQ(siRate(45400, "vertices/s"), "45.4 k vertices/s");
  EXPECT_EQ(siRate(1.23e9, "cells/s"), "1.23 G cells/s");
  EXPECT_EQ(siRate(12, "keys/s"), "12 keys/s");
  EXPECT_EQ(siRate(2.5e9, "B/s"), "2.5 GB/s");
  EXPECT_EQ(siRate(4.2e12, ""), "4.2 T");
}

}  // namespace
}  // namespace ws::app::ui
