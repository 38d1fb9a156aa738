#include "compute/life/life_module.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/json_input.h"
#include "compute/core/line.h"
#include "compute/core/output_file.h"
#include "compute/core/saved_state.h"
#include "compute/life/life_catalog.h"
#include "compute/life/life_cuda.h"

namespace ws::life {

namespace {

constexpr int kMaxSide = 1 << 18;

std::string validateRule(const std::string& text) {
  try {
    LifeRule::parse(text);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

std::string findPatternPath(const std::string& nameOrPath) {
  if (pathExists(nameOrPath)) return nameOrPath;
  if (const auto shipped = shippedPath(kPatterns, nameOrPath)) return *shipped;
  throw InputError("no pattern '" + json_input::brief(nameOrPath) +
                   "' (not a file, nor one of the shipped patterns)");
}

}  // namespace

LifeModule::LifeModule(Backend backend) : Module(backend) {
  const std::int64_t side = backend == Backend::Cuda ? 4096 : 1024;
  ParamSet& p = declare();
  ParamSpec width = ParamSpec::integer("width", "width", side, 4, kMaxSide, "grid width in cells");
  width.logScale = true;
  p.declare(width);
  ParamSpec height =
      ParamSpec::integer("height", "height", side, 4, kMaxSide, "grid height in cells");
  height.logScale = true;
  p.declare(height);
  ParamSpec rule =
      ParamSpec::text("rule", "rule", "B3/S23",
                      "Life-like rule in B/S notation: B3/S23 is Conway's Life", validateRule);
  for (const auto& named : namedRules()) rule.suggestions.emplace_back(named.name, named.rule);
  p.declare(rule);
  p.declare(ParamSpec::choice("boundary", "boundary", "torus", {"torus", "dead"},
                              "torus wraps the edges; dead keeps a border of dead cells"));
  p.declare(ParamSpec::real("density", "soup density", 0.35, 0, 1,
                            "fraction of live cells in a random soup (reset)"));
  p.declare(
      ParamSpec::integer("seed", "seed", 1, 0, 2147483647, "random seed of the soup (reset)"));
  p.declare(ParamSpec::text(
      "pattern", "start pattern", "",
      "shipped pattern name or RLE path placed in the centre on reset; empty: random soup",
      [](const std::string& text) -> std::string {
        if (text.empty()) return "";
        try {
          loadRleFile(findPatternPath(text));
          return "";
        } catch (const InputError& e) {
          return e.what();
        }
      }));
  p.declare(ParamSpec::choice("view", "view", "alive", {"alive", "age"},
                              "alive/dead, or colour by the generations each cell has lived"));
  std::vector<std::string> shapes;
  for (const char* const* s = tileShapes(); *s; ++s) shapes.emplace_back(*s);
  p.declare(
      ParamSpec::choice("block", "block shape", "64x4", shapes,
                        "thread-block shape (width x height) of the flat and multicell kernels"));
  p.declare(ParamSpec::choice("cells_per_thread", "cells per thread", "2", {"1", "2", "4"},
                              "cells each thread updates in the multicell kernel"));
  p.declare(
      ParamSpec::choice("rows_per_thread", "rows per thread", "8", {"1", "2", "4", "8", "16", "32"},
                        "rows of 64-cell words each thread of the bit-packed kernel updates"));
  p.declare(ParamSpec::choice("generations_per_pass", "generations per pass", "4", {"2", "4", "8"},
                              "generations the temporal kernel advances per pass over memory"));
  p.declare(ParamSpec::choice(
      "mapping", "thread mapping", "row-major", {"row-major", "column-major"},
      "(1): consecutive threads along a row (coalesced) or down a column (32 rows per warp load)"));
  p.declare(ParamSpec::boolean(
      "remove_barrier", "race demo: remove the barrier", false,
      "(2): no __syncthreads() between filling the tile and reading it; wrong on purpose"));

  cpuTimings_ = {&addTiming("step (CPU)", "cell updates/s", false),
                 &addTiming("view (CPU)", "pixels/s", false)};
  gpuTimings_ = {&addTiming("step (CUDA)", "cell updates/s", true),
                 &addTiming("view (CUDA)", "pixels/s", true)};
  config_ = readLifeConfig(params());
  buildEngine();
  engine_->reshape(int(side), int(side));
  reset();
}

void LifeModule::setSize(const std::string& text) {
  const auto x = text.find('x');
  const std::string w = text.substr(0, x);
  const std::string h = x == std::string::npos ? w : text.substr(x + 1);
  setParams({{"width", params().parse("width", w)}, {"height", params().parse("height", h)}});
}

std::vector<KernelVariant> LifeModule::variants(Backend backend) const {
  return describe(lifeVariants(backend));
}

void LifeModule::buildEngine() {
  const MakeLifeEngine make = entryNamed(lifeVariants(backend()), variant()).how;
  engine_ = make(config_, backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_);
  engine_->trackAge(config_.ageView);
}

void LifeModule::reset() {
  const std::string& start = config_.pattern;
  if (start.empty()) {
    engine_->fillRandom(config_.seed, config_.density);
  } else {
    const Pattern& p = pattern(start);
    if (p.width > engine_->width() || p.height > engine_->height())
      throw InputError("pattern '" + start + "' is " + std::to_string(p.width) + "x" +
                       std::to_string(p.height) + ", larger than the " +
                       std::to_string(engine_->width()) + "x" + std::to_string(engine_->height()) +
                       " grid");
    engine_->clear();
    placePattern(p, engine_->width() / 2, engine_->height() / 2);
  }
  engine_->trackAge(false);  // ages restart with the new state
  engine_->trackAge(config_.ageView);
  restart();
  clearTimings();
}

void LifeModule::clear() {
  engine_->clear();
  restart();
}

void LifeModule::advance(int count) {
  engine_->step(count, config_.rule, config_.boundary);
}

std::vector<Metric> LifeModule::metrics() {
  return {{"population", static_cast<double>(engine_->population())}};
}

WorldBox LifeModule::world() const {
  return {0, 0, double(engine_->width()), double(engine_->height())};
}

std::vector<FieldView> LifeModule::fieldViews() const {
  return {{"alive", "live fraction", 0.0f, 1.0f, "life"},
          {"age", "age (generations)", 0.0f, 255.0f, "age"}};
}

int LifeModule::currentFieldView() const {
  return config_.ageView ? 1 : 0;
}

void LifeModule::renderField(const FieldRequest& request, FieldImage& image) {
  engine_->render(currentFieldView() == 1 ? LifeView::Age : LifeView::Alive, request, image);
}

namespace {

// What a Life edit changed: the cells whose state it changed, and the rule where placing a pattern
// adopted the pattern's own.
struct LifeChange final : EditChange {
  std::vector<CellEdit> before, after;
  std::string ruleBefore, ruleAfter;  // empty: the rule stayed
  std::string ruleFromBefore, ruleFromAfter;
  std::size_t bytes() const override {
    return (before.size() + after.size()) * sizeof(CellEdit) + ruleBefore.size() +
           ruleAfter.size() + ruleFromBefore.size() + ruleFromAfter.size();
  }
};

}  // namespace

std::unique_ptr<EditChange> LifeModule::edit(const PointerEdit& e) {
  const int w = engine_->width(), h = engine_->height();
  auto change = std::make_unique<LifeChange>();
  if (e.tool == "place") {
    const Pattern& placed = pattern(e.item);
    // Its own rule first (a whole parameter change, which may fail and change nothing).
    if (placed.rule && LifeRule::parse(params().getText("rule")) != *placed.rule) {
      change->ruleBefore = params().getText("rule");
      change->ruleFromBefore = ruleFrom_;
      setParam("rule", placed.rule->toString());
      ruleFrom_ = e.item;
      change->ruleAfter = params().getText("rule");
      change->ruleFromAfter = ruleFrom_;
    }
    change->before =
        placePattern(oriented(placed, e.orientation), static_cast<int>(std::floor(e.x)),
                     static_cast<int>(std::floor(e.y)));
  } else if (e.tool == "select") {
    // From the cell where the drag began to the one under the pointer, held to the grid.
    const auto cell = [&](double x, double y) {
      return std::pair{std::clamp(int(std::floor(x)), 0, w - 1),
                       std::clamp(int(std::floor(y)), 0, h - 1)};
    };
    if (e.start || !selection_) selectFrom_ = cell(e.fromX, e.fromY);
    const auto [x, y] = cell(e.x, e.y);
    selection_ = Selection{std::min(selectFrom_.first, x), std::min(selectFrom_.second, y),
                           std::max(selectFrom_.first, x), std::max(selectFrom_.second, y)};
    return nullptr;
  } else {
    const bool alive = e.tool == "draw";
    if (!alive && e.tool != "erase") throw InputError("unknown tool '" + e.tool + "'");
    std::vector<CellEdit> cells;
    for (auto [x, y] : lineCells(e.fromX, e.fromY, e.x, e.y, w, h))
      if (x >= 0 && y >= 0 && x < w && y < h) cells.push_back({x, y, alive});
    change->before = setCells(std::move(cells));
  }
  // What the cells hold now is what they held before, flipped.
  for (const CellEdit& c : change->before) change->after.push_back({c.x, c.y, !c.alive});
  if (change->after.empty() && change->ruleBefore.empty()) return nullptr;
  return change;
}

void LifeModule::revert(const EditChange& edit, bool redo) {
  const auto& change = dynamic_cast<const LifeChange&>(edit);
  // The rule before the cells on the way back, after them on the way forward (as edit() did).
  const auto rule = [&] {
    const std::string& text = redo ? change.ruleAfter : change.ruleBefore;
    if (change.ruleBefore.empty() || text == params().getText("rule")) return;
    setParam("rule", text);
    ruleFrom_ = redo ? change.ruleFromAfter : change.ruleFromBefore;
  };
  if (!redo) rule();
  std::vector<CellEdit> cells = redo ? change.after : change.before;
  // Within the grid as it is now (another size since drops the rest).
  std::erase_if(cells, [&](const CellEdit& c) {
    return c.x < 0 || c.y < 0 || c.x >= engine_->width() || c.y >= engine_->height();
  });
  engine_->setCells(cells);
  if (redo) rule();
}

std::vector<CellEdit> LifeModule::setCells(std::vector<CellEdit> cells) {
  // Each cell once, as the last edit of it says (a pattern wrapped around a small torus, a line
  // through a cell twice).
  std::stable_sort(cells.begin(), cells.end(), [](const CellEdit& a, const CellEdit& b) {
    return std::pair{a.y, a.x} < std::pair{b.y, b.x};
  });
  std::vector<CellEdit> once;
  for (const CellEdit& c : cells) {
    if (!once.empty() && once.back().x == c.x && once.back().y == c.y)
      once.back() = c;
    else
      once.push_back(c);
  }
  std::vector<CellEdit> before = engine_->setCells(once);
  std::vector<CellEdit> changed;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i].alive != once[i].alive) changed.push_back(before[i]);
  return changed;
}

std::vector<Mark> LifeModule::marks() const {
  if (!selection_) return {};
  std::vector<Mark> box;
  addBox(box, float(selection_->x0), float(selection_->y0), float(selection_->x1 + 1),
         float(selection_->y1 + 1), {1.0f, 0.85f, 0.1f});
  return box;
}

Pattern LifeModule::selectedPattern() {
  const LifeGrid g = engine_->save();
  Selection box{0, 0, g.width - 1, g.height - 1};
  if (selection_) box = *selection_;
  Pattern p;
  p.rule = config_.rule;
  for (int y = box.y0; y <= box.y1 && y < g.height; ++y)
    for (int x = box.x0; x <= box.x1 && x < g.width; ++x)
      if (g.get(x, y)) p.cells.emplace_back(x, y);
  if (!selection_ && !p.cells.empty()) {  // the whole world: the live cells' box
    int minX = g.width, minY = g.height, maxX = 0, maxY = 0;
    for (const auto& [x, y] : p.cells)
      minX = std::min(minX, x), minY = std::min(minY, y), maxX = std::max(maxX, x),
      maxY = std::max(maxY, y);
    box = {minX, minY, maxX, maxY};
  }
  for (auto& [x, y] : p.cells) x -= box.x0, y -= box.y0;
  p.width = p.cells.empty() && !selection_ ? 0 : box.x1 - box.x0 + 1;
  p.height = p.cells.empty() && !selection_ ? 0 : box.y1 - box.y0 + 1;
  return p;
}

std::string LifeModule::pasteItem(const std::string& text) {
  const Pattern pasted = parseRle(text, "the clipboard");  // refused before anything is written
  if (pasted.cells.empty()) throw InputError("the clipboard's pattern has no live cells");
  const std::string path = freshOutputPath("pasted.rle");
  writeWholeFile(path, text, "pasted pattern");
  return path;
}

std::vector<Mark> LifeModule::preview(const ToolHover& hover) const {
  if (hover.tool != "place" || hover.item.empty()) return {};
  Pattern p;
  try {
    p = oriented(pattern(hover.item), hover.orientation);
  } catch (const std::exception&) {
    return {};  // a file that does not read shows nothing; placing it says why
  }
  const auto [left, top] = cornerOf(p, int(std::floor(hover.x)), int(std::floor(hover.y)));
  std::vector<Mark> marks;
  addBox(marks, float(left), float(top), float(left + p.width), float(top + p.height),
         {0.35f, 0.85f, 1.0f});
  constexpr std::size_t kMostDots = 4096;
  if (p.cells.size() <= kMostDots)
    for (const auto& [x, y] : p.cells) {
      const float cx = float(left + x) + 0.5f, cy = float(top + y) + 0.5f;
      marks.push_back({cx, cy, cx, cy, {0.35f, 0.85f, 1.0f}, 0.6f});
    }
  return marks;
}

std::vector<std::string> LifeModule::toolItems(const std::string& tool) const {
  return tool == "place" ? shippedPatterns() : std::vector<std::string>{};
}

void LifeModule::runAction(const std::string& action) {
  if (action == "clear") {
    clear();
  } else if (action == "save RLE") {
    const std::string path =
        freshOutputPath("warpscope-life-step" + std::to_string(stepCount()) + ".rle");
    writeWholeFile(path, writeRle(selectedPattern()), "pattern");
    saved_ = path;
  } else if (action == "select none") {
    selection_.reset();
  } else if (action == "random soup") {
    // A new soup each time, reproducibly: the seed moves on and the start pattern is dropped.
    setParams({{"pattern", std::string()}, {"seed", (params().getInt("seed") + 1) % 2147483647}});
  } else {
    throw InputError("unknown action '" + action + "'");
  }
}

std::vector<CellEdit> LifeModule::placePattern(const Pattern& p, int cx, int cy) {
  const int w = engine_->width(), h = engine_->height();
  const bool torus = config_.boundary == Boundary::Torus;
  std::vector<CellEdit> cells;
  cells.reserve(p.cells.size());
  const auto [left, top] = cornerOf(p, cx, cy);
  for (auto [px, py] : p.cells) {
    int x = left + px, y = top + py;
    if (torus) {
      x = ((x % w) + w) % w;
      y = ((y % h) + h) % h;
    } else if (x < 0 || y < 0 || x >= w || y >= h) {
      continue;
    }
    cells.push_back({x, y, true});
  }
  return setCells(std::move(cells));
}

const Pattern& LifeModule::pattern(const std::string& nameOrPath) const {
  if (auto it = patterns_.find(nameOrPath); it != patterns_.end()) return it->second;
  Pattern loaded = loadRleFile(findPatternPath(nameOrPath));
  return patterns_.emplace(nameOrPath, std::move(loaded)).first->second;
}

std::vector<std::string> LifeModule::shippedPatterns() {
  return shippedNames(kPatterns);
}

void LifeModule::loadGrid(const LifeGrid& grid) {
  if (grid.width != engine_->width() || grid.height != engine_->height())
    throw InputError("grid size mismatch");
  engine_->load(grid);
}

StateBlob LifeModule::saveState() {
  StateBlob state;
  const LifeGrid grid = engine_->save();
  state.meta = {{"width", grid.width}, {"height", grid.height}, {"steps", stepCount()}};
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(grid.words.data());
  state.data.assign(bytes, bytes + grid.words.size() * sizeof(Word));
  return state;
}

void LifeModule::restoreState(const StateBlob& state) {
  const SavedState saved(state, "Life");
  const int width = int(saved.count("width", kMaxSide)),
            height = int(saved.count("height", kMaxSide));
  if (width < 4 || height < 4) saved.refuse("its grid is smaller than 4x4");
  const std::uint64_t steps = saved.steps();
  saved.requireBytes(
      std::size_t(wordsPerRow(width)) * height * sizeof(Word),
      "the cells of a " + std::to_string(width) + "x" + std::to_string(height) + " grid");
  LifeGrid grid(width, height);
  std::memcpy(grid.words.data(), state.data.data(), state.data.size());
  // The bits past the right edge of each row are no cells: they must be clear.
  if (const int used = width % kWordBits; used != 0)
    for (int y = 0; y < height; ++y)
      if (grid.words[std::size_t(y) * grid.stride() + grid.stride() - 1] >> used)
        saved.refuse("row " + std::to_string(y) + " has cells past its right edge");
  if (grid.width != engine_->width() || grid.height != engine_->height())
    engine_->reshape(grid.width, grid.height);
  engine_->load(grid);
  setStepCount(steps);
}

void LifeModule::applyParams(const std::vector<std::string>& changed) {
  // A start pattern brings its own rule, as Golly does, unless the rule changes with it.
  const std::string previousRuleFrom = ruleFrom_;
  if (anyOf(changed, {"rule"})) ruleFrom_.clear();
  if (anyOf(changed, {"pattern"}) && !anyOf(changed, {"rule"}) &&
      !params().getText("pattern").empty())
    adoptRuleOf(pattern(params().getText("pattern")), params().getText("pattern"));
  const LifeConfig previous = config_;
  config_ = readLifeConfig(params());
  try {
    applyConfig(changed);
  } catch (...) {
    config_ = previous;
    ruleFrom_ = previousRuleFrom;  // the module's caller puts the parameters back
    throw;
  }
}

bool LifeModule::adoptRuleOf(const Pattern& p, const std::string& source) {
  if (!p.rule || LifeRule::parse(params().getText("rule")) == *p.rule) return false;
  declare().assign("rule", p.rule->toString());
  ruleFrom_ = source;
  return true;
}

void LifeModule::applyConfig(const std::vector<std::string>& changed) {
  // Kernel shape first, so that a preset changing both shape and size gets both.
  if (anyOf(changed, {"block", "cells_per_thread", "rows_per_thread", "generations_per_pass",
                      "mapping", "remove_barrier"}) &&
      backend() == Backend::Cuda) {
    const StateBlob state = saveState();
    buildEngine();
    engine_->reshape(state.meta["width"], state.meta["height"]);
    restoreState(state);
    clearTimings();
  }
  if (anyOf(changed, {"width", "height"})) {
    selection_.reset();  // of another grid
    const int oldW = engine_->width(), oldH = engine_->height();
    const StateBlob before = saveState();
    try {
      engine_->reshape(config_.width, config_.height);
      reset();
    } catch (...) {
      if (engine_->width() != oldW || engine_->height() != oldH) engine_->reshape(oldW, oldH);
      restoreState(before);
      throw;
    }
    return;  // reset() applied everything else
  }
  if (anyOf(changed, {"view"})) engine_->trackAge(config_.ageView);
  if (anyOf(changed, {"density", "seed", "pattern"})) reset();
}

void LifeModule::applySelection(Backend, const StateBlob& state) {
  buildEngine();
  engine_->reshape(state.meta.at("width").get<int>(), state.meta.at("height").get<int>());
  restoreState(state);
}

std::optional<OpModel> LifeModule::opsPerWorkUnit() const {
  // Counted in the kernels' source, per cell update. A byte per cell: 7 adds for the eight
  // neighbours, a multiply-add for the rule table's index, a shift and a mask (11). Bit-packed
  // (life_bitops.h), per 64-bit word of 64 cells, a three-input operation counted as one: 8 for a
  // row's sums (the neighbours shifted in, 3 each way, and the sum's two bits), 1 for the edge
  // mask, and Conway's rule in 8: 17, or 34 on 32-bit ALUs, /64. Any other rule adds the 3x3 count
  // up (14), looks it up in both tables (27 each) and chooses between them (3): 80, 160 /64.
  if (engine_->bytesPerCell() >= 1) return OpModel{11.0, OpKind::Int32};
  return OpModel{(config_.rule.isConway() ? 34.0 : 160.0) / 64.0, OpKind::Int32};
}

std::vector<std::string> LifeModule::sweepSizes() const {
  return {"64", "128", "256", "512", "1024", "2048", "4096", "8192", "16384"};
}

std::string LifeModule::notes() const {
  std::string notes;
  if (selection_)
    notes += "selected " + std::to_string(selection_->x1 - selection_->x0 + 1) + "x" +
             std::to_string(selection_->y1 - selection_->y0 + 1) + " cells from (" +
             std::to_string(selection_->x0) + ", " + std::to_string(selection_->y0) +
             "): save RLE and Ctrl+C take them\n";
  if (!saved_.empty()) notes += "wrote " + saved_ + "\n";
  if (!ruleFrom_.empty())
    notes += "rule " + config_.rule.toString() + ", from the pattern " + ruleFrom_ + "\n";
  if (backend() == Backend::Cuda && variant() == "shared" && !config_.cuda.barrier)
    notes +=
        "warning: race demonstration: the tile kernel runs without its barrier, so cells "
        "near tile edges come out wrong; results are wrong on purpose\n";
  return notes;
}

}  // namespace ws::life
