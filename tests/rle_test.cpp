// RLE patterns: the shipped library parses, valid files round-trip, and bad input (truncated,
// garbage, oversized, randomly mutated) gives an error with a position and never crashes.
#include "compute/life/rle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/output_file.h"
#include "compute/life/life_module.h"
#include "tests/test_support.h"

namespace ws::life {
namespace {

TEST(Rle, ParsesHeaderCommentsAndCells) {
  const Pattern p = parseRle("#N Glider\n#C a comment\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  EXPECT_EQ(p.name, "Glider");
  ASSERT_EQ(p.comments.size(), 1u);
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_EQ(*p.rule, LifeRule::conway());
  const std::vector<std::pair<int, int>> cells = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  EXPECT_EQ(p.cells, cells);
}

TEST(Rle, MultiRowRunsAndLineBreaksInsideData) {
  const Pattern p = parseRle("x = 4, y = 5\n2o2$\n3bo\n!");
  const std::vector<std::pair<int, int>> cells = {{0, 0}, {1, 0}, {3, 2}};
  EXPECT_EQ(p.cells, cells);
}

TEST(Rle, EveryShippedPatternParsesAndRoundTrips) {
  const auto files = listAssets("patterns", ".rle");
  ASSERT_GE(files.size(), 15u);
  for (const auto& file : files) {
    const Pattern p = loadRleFile(file);
    EXPECT_FALSE(p.cells.empty()) << file;
    const Pattern again = parseRle(writeRle(p), file + " (rewritten)");
    EXPECT_EQ(again.cells, p.cells) << file;
    EXPECT_EQ(again.width, p.width);
    EXPECT_EQ(again.height, p.height);
    EXPECT_EQ(again.rule, p.rule);
    EXPECT_EQ(again.name, p.name);
  }
}

TEST(Rle, RandomPatternsRoundTrip) {
  std::mt19937_64 random(test::freshSeed());
  for (int round = 0; round < 200; ++round) {
    Pattern p;
    p.width = 1 + int(random() % 150);
    p.height = 1 + int(random() % 40);
    for (int y = 0; y < p.height; ++y)
      for (int x = 0; x < p.width; ++x)
        if (random() % 3 == 0) p.cells.emplace_back(x, y);
    const Pattern again = parseRle(writeRle(p));
    EXPECT_EQ(again.cells, p.cells);
  }
}

void expectError(const std::string& text, int line, int column, const std::string& words) {
  try {
    parseRle(text, "bad.rle");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.rle:", 0), 0u) << e.what();
  }
}

TEST(Rle, BadInputNamesLineAndColumn) {
  expectError("", 1, 1, "no header");
  expectError("bo$2bo!", 1, 1, "expected the header");
  expectError("x = 3, y = 3\nbo$2bo$3o", 2, 10, "without '!'");
  expectError("x = 3, y = 3\nbo$2zo!", 2, 5, "unexpected character 'z'");
  expectError("x = 3, y = 3\n4o!", 2, 2, "wider than");
  expectError("x = 3, y = 2\no$o$o!", 2, 5, "more rows");
  expectError("x = 3, y = three\no!", 1, 7, "is not a size");
  expectError("x = 3, y = 3, rule = B9/S23\no!", 1, 14, "neighbour count");
  expectError("x = 99999999, y = 3\no!", 1, 1, "larger than the limit");
  expectError("x = 3, y = 3\n99999999999o!", 2, 8, "too long");
  expectError("x = 3, y = 3, colour = red\no!", 1, 14, "unknown header field");
}

TEST(Rle, MutatedFilesNeverCrash) {
  std::mt19937_64 random(test::freshSeed());
  const Pattern gun = loadRleFile(assetDirectory() + "/patterns/gosper-glider-gun.rle");
  const std::string original = writeRle(gun);
  const std::string alphabet = "bo$!0123456789xy=, \n#ABrule/S";
  int rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = original;
    const int edits = 1 + int(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (text.size() + 1);
      switch (random() % 4) {
        case 0:
          if (at < text.size()) text.erase(at, 1 + random() % 5);
          break;
        case 1:
          text.insert(at, 1, alphabet[random() % alphabet.size()]);
          break;
        case 2:
          if (at < text.size()) text[at] = char(random() % 256);
          break;
        default:
          text.resize(at);
          break;  // truncation
      }
    }
    try {
      const Pattern p = parseRle(text, "mutated.rle");
      for (auto [x, y] : p.cells) {
        ASSERT_GE(x, 0);
        ASSERT_LT(x, p.width);
        ASSERT_LT(y, p.height);
      }
    } catch (const ParseError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);  // most mutations break the file, and each is reported
}

TEST(Rle, ABadFileLeavesTheGridAsItWas) {
  const std::string path = ::testing::TempDir() + "/broken.rle";
  {
    std::ofstream out(path);
    out << "x = 3, y = 3\nbo$2bo$3q!\n";
  }
  LifeModule life(Backend::Cpu);
  life.setSize("64");
  const LifeGrid before = life.grid();
  PointerEdit place{"place", 10, 10, 10, 10, path};
  try {
    life.edit(place);
    FAIL() << "the broken pattern was placed";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.rle:2:9"), std::string::npos) << e.what();
  }
  EXPECT_EQ(life.grid(), before);
  EXPECT_THROW(life.setParamText("pattern", path), InputError);
  EXPECT_EQ(life.grid(), before);
  EXPECT_EQ(life.params().getText("pattern"), "");
}

// A pattern turned and mirrored: the cells move as the orientation says, four quarter turns or two
// mirrors give it back, and the keys' arithmetic on orientations matches turning the cells.
TEST(Rle, PatternsTurnAndMirror) {
  const Pattern row = parseRle("x = 3, y = 1\n3o!\n");
  const Pattern column = oriented(row, 1);
  EXPECT_EQ(column.width, 1);
  EXPECT_EQ(column.height, 3);
  const Pattern l = parseRle("x = 2, y = 3\no$o$2o!\n");  // an L: (0,0) (0,1) (0,2) (1,2)
  using Cells = std::vector<std::pair<int, int>>;
  const auto sorted = [](Pattern p) {
    std::sort(p.cells.begin(), p.cells.end());
    return p.cells;
  };
  EXPECT_EQ(sorted(oriented(l, 1)),
            (Cells{{0, 0}, {0, 1}, {1, 0}, {2, 0}}));  // a quarter clockwise
  EXPECT_EQ(sorted(oriented(l, 4)), (Cells{{0, 2}, {1, 0}, {1, 1}, {1, 2}}));  // mirrored
  const Pattern glider = loadRleFile(*shippedPath(kPatterns, "glider"));
  EXPECT_EQ(sorted(oriented(oriented(glider, 2), 2)), sorted(glider));
  EXPECT_EQ(sorted(oriented(oriented(glider, 4), 4)), sorted(glider));
  const auto mirror = [](Pattern p) { return oriented(p, 4); };
  const auto turn = [](Pattern p, int q) { return oriented(p, q); };
  for (int o = 0; o < 8; ++o)
    for (int q = 0; q < 4; ++q) {
      EXPECT_EQ(sorted(oriented(l, turnedOrientation(o, q))), sorted(turn(oriented(l, o), q)))
          << o << " " << q;
      EXPECT_EQ(sorted(oriented(l, mirroredOrientation(o, q))),
                sorted(turn(mirror(oriented(l, o)), q)))
          << o << " " << q;
    }
  // Placed turned, the cells land turned about the pattern's centre.
  LifeModule life(Backend::Cpu);
  life.setSize("64");
  life.runAction("clear");
  PointerEdit place{"place", 20, 20, 20, 20, "glider"};
  place.orientation = 5;
  life.edit(place);
  const Pattern expected = oriented(glider, 5);
  const auto [left, top] = LifeModule::cornerOf(expected, 20, 20);
  const LifeGrid grid = life.grid();
  for (const auto& [x, y] : expected.cells)
    EXPECT_TRUE(grid.get(left + x, top + y)) << x << "," << y;
  EXPECT_EQ(life.population(), expected.cells.size());
  // Its preview shows the same cells (a dot on each) inside its box.
  const std::vector<Mark> preview = life.preview({"place", "glider", 20.5, 20.5, 5});
  ASSERT_EQ(preview.size(), 4 + expected.cells.size());
  EXPECT_FLOAT_EQ(preview[0].x0, float(left));
  EXPECT_FLOAT_EQ(preview[0].y0, float(top));
  EXPECT_TRUE(life.preview({"draw", "glider", 20.5, 20.5, 0}).empty());
}

// The select tool picks a rectangle of cells; "save RLE" writes it (the live cells of the whole
// world with none), Ctrl+C's text is the same RLE, and pasting it gives a pattern that places the
// same cells; a clipboard that is not RLE is refused.
TEST(Rle, ASelectionIsSavedCopiedAndPastedAsRle) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "life-rle-out";
  fs::remove_all(dir);
  fs::create_directories(dir);
  setOutputFolder(dir.string());
  LifeModule life(Backend::Cpu);
  life.setSize("64");
  life.runAction("clear");
  life.edit({"place", 20, 20, 20, 20, "glider"});
  life.edit({"place", 50, 50, 50, 50, "blinker"});
  life.setParamText("rule", "B36/S23");  // after the patterns, which bring Conway's
  // The whole world: the box of every live cell.
  const Pattern all = life.selectedPattern();
  EXPECT_EQ(all.cells.size(), 8u);
  EXPECT_EQ(all.rule->toString(), "B36/S23");
  // A selection dragged over the glider alone, from its far corner back.
  PointerEdit select{"select", 22.5, 22.5, 22.5, 22.5, ""};
  life.edit(select);
  select.start = false;
  select.fromX = select.x, select.fromY = select.y;
  select.x = 17.5, select.y = 17.5;
  life.edit(select);
  ASSERT_TRUE(life.selection());
  EXPECT_EQ(life.selection()->x0, 17);
  EXPECT_EQ(life.selection()->y1, 22);
  EXPECT_EQ(life.marks().size(), 4u);  // its box
  const Pattern glider = life.selectedPattern();
  EXPECT_EQ(glider.cells.size(), 5u);
  EXPECT_EQ(glider.width, 6);
  life.runAction("save RLE");
  const std::string saved = (dir / "warpscope-life-step0.rle").string();
  ASSERT_TRUE(fs::exists(saved));
  const Pattern read = loadRleFile(saved);
  EXPECT_EQ(read.cells.size(), 5u);
  EXPECT_NE(life.notes().find("wrote " + saved), std::string::npos);
  // Copied and pasted: a file the place tool places, the same cells elsewhere.
  const std::string item = life.pasteItem(life.copyText());
  EXPECT_EQ(item, (dir / "pasted.rle").string());
  life.runAction("clear");
  life.edit({"place", 40, 10, 40, 10, item});
  EXPECT_EQ(life.population(), 5u);
  EXPECT_THROW(life.pasteItem("hello, world"), InputError);
  EXPECT_THROW(life.pasteItem("x = 3, y = 1\n3b!\n"), InputError);  // no live cell
  EXPECT_FALSE(fs::exists(dir / "pasted-2.rle"));
  life.runAction("select none");
  EXPECT_FALSE(life.selection());
  setOutputFolder("");
}

// A pattern's own rule runs when it is loaded as the start pattern or placed, as Golly does, and
// the notes say where the rule came from; a rule given with it, or set later, wins.
TEST(Rle, APatternsOwnRuleIsAppliedAndTheNotesSaySo) {
  LifeModule life(Backend::Cpu);
  life.setSize("64");
  ASSERT_EQ(life.params().getText("rule"), "B3/S23");
  life.setParamText("pattern", "replicator-highlife");
  EXPECT_EQ(life.params().getText("rule"), "B36/S23");
  EXPECT_NE(life.notes().find("rule B36/S23, from the pattern replicator-highlife"),
            std::string::npos)
      << life.notes();
  // Under HighLife the replicator copies itself: more than its 12 cells after 12 generations.
  life.step(12);
  EXPECT_GT(life.population(), 12u);
  // The user's rule wins from then on, and the note goes.
  life.setParamText("rule", "B3/S23");
  EXPECT_EQ(life.notes(), "");
  // Placing it brings its rule too; placing a Conway pattern brings Conway's back.
  life.edit({"place", 20, 20, 20, 20, "replicator-highlife"});
  EXPECT_EQ(life.params().getText("rule"), "B36/S23");
  EXPECT_NE(life.notes().find("from the pattern replicator-highlife"), std::string::npos);
  life.edit({"place", 40, 40, 40, 40, "glider"});
  EXPECT_EQ(life.params().getText("rule"), "B3/S23");
  EXPECT_NE(life.notes().find("rule B3/S23, from the pattern glider"), std::string::npos);
  // A pattern without a rule leaves the rule as it is.
  const std::string plain = ::testing::TempDir() + "/no-rule.rle";
  std::ofstream(plain) << "x = 3, y = 1\n3o!\n";
  life.setParamText("rule", "B36/S23");
  life.edit({"place", 30, 30, 30, 30, plain});
  EXPECT_EQ(life.params().getText("rule"), "B36/S23");
  // A rule set with the pattern (a preset's) is the one that runs.
  life.setParams(
      {{"pattern", std::string("replicator-highlife")}, {"rule", std::string("B3/S23")}});
  EXPECT_EQ(life.params().getText("rule"), "B3/S23");
  EXPECT_EQ(life.notes(), "");
  // A start pattern that cannot be placed changes nothing, its rule included.
  life.setParams({{"pattern", std::string()}});
  life.setSize("4");
  EXPECT_THROW(life.setParamText("pattern", "replicator-highlife"), InputError);
  EXPECT_EQ(life.params().getText("rule"), "B3/S23");
  EXPECT_EQ(life.params().getText("pattern"), "");
  EXPECT_EQ(life.notes(), "");
}

}  // namespace
}  // namespace ws::life
