#pragma once
// Conway's Game of Life (and any Life-like rule) as a warpscope module.
#include <map>
#include <memory>

#include "compute/core/module.h"
#include "compute/life/life_catalog.h"
#include "compute/life/life_engine.h"
#include "compute/life/rle.h"
#include "compute/views/field.h"
#include "compute/views/marks.h"

namespace ws::life {

class LifeModule final : public Module, public FieldSource, public MarkSource {
 public:
  explicit LifeModule(Backend backend);

  std::string_view name() const override { return "life"; }
  std::string_view title() const override { return "Game of Life"; }
  void setSize(const std::string& text) override;
  std::vector<KernelVariant> variants(Backend backend) const override;

  void reset() override;
  void synchronize() override { engine_->synchronize(); }
  std::vector<Metric> metrics() override;

  WorldBox world() const override;
  std::vector<FieldView> fieldViews() const override;
  int currentFieldView() const override;
  void renderField(const FieldRequest& request, FieldImage& image) override;
  std::vector<Mark> marks() const override;  // the selection's box
  // The place tool's pattern under the pointer, turned as it would be placed: its box, and a dot
  // on each live cell (the box alone for a pattern of many cells).
  std::vector<Mark> preview(const ToolHover& hover) const override;

  // "select" drags a rectangle of cells: what "save RLE" writes and Ctrl+C copies (the live cells
  // of the whole world while nothing is selected).
  std::vector<std::string> tools() const override { return {"draw", "erase", "place", "select"}; }
  std::vector<std::string> toolItems(const std::string& tool) const override;
  std::unique_ptr<EditChange> edit(const PointerEdit& edit) override;
  void revert(const EditChange& change, bool redo) override;
  std::vector<std::string> actions() const override {
    return {"clear", "random soup", "save RLE", "select none"};
  }
  void runAction(const std::string& action) override;

  StateBlob saveState() override;
  void restoreState(const StateBlob& state) override;

  void pollTimings() override { engine_->pollTimings(); }
  void drainTimings() override { engine_->drainTimings(); }
  double bytesPerWorkUnit() const override { return engine_->bytesPerCell(); }
  std::optional<OpModel> opsPerWorkUnit() const override;
  std::vector<std::string> sweepSizes() const override;
  const TimingScope& stepTiming() const override {
    return *(backend() == Backend::Cuda ? gpuTimings_ : cpuTimings_).step;
  }

  std::string copyText() override { return writeRle(selectedPattern()); }
  std::string pasteItem(const std::string& text) override;
  // The selection (or, with none, the box of every live cell) as a pattern, with the rule.
  Pattern selectedPattern();
  struct Selection {
    int x0, y0, x1, y1;  // cells, inclusive, x0 <= x1 and y0 <= y1
  };
  const std::optional<Selection>& selection() const { return selection_; }

  // Life's own operations, for the UI and the tests.
  LifeGrid grid() { return engine_->save(); }
  std::string configuration() const override { return engine_->configuration(); }
  std::string notes() const override;
  void loadGrid(const LifeGrid& grid);  // same size as the current grid
  void clear();
  std::uint64_t population() { return engine_->population(); }
  // Places a pattern centred on (x, y); cells outside the grid are dropped (or wrap on a torus).
  // Returns the cells it changed, as they were.
  std::vector<CellEdit> placePattern(const Pattern& pattern, int x, int y);
  // Where a pattern centred on (x, y) has its top-left corner.
  static std::pair<int, int> cornerOf(const Pattern& pattern, int x, int y) {
    return {x - pattern.width / 2, y - pattern.height / 2};
  }
  // A shipped pattern by name ("glider") or a path to an RLE file. Throws ParseError/InputError.
  const Pattern& pattern(const std::string& nameOrPath) const;
  static std::vector<std::string> shippedPatterns();

 protected:
  void advance(int count) override;
  void applyParams(const std::vector<std::string>& changed) override;
  void applySelection(Backend previous, const StateBlob& state) override;

 private:
  void buildEngine();  // the current variant's, for config_
  // Sets the cells (the last edit of a cell named twice wins); returns those that changed, as
  // they were.
  std::vector<CellEdit> setCells(std::vector<CellEdit> cells);
  // Sets the rule parameter to the pattern's own, where it has one that differs; within
  // applyParams (whose caller restores the parameters when it fails).
  bool adoptRuleOf(const Pattern& pattern, const std::string& source);
  void applyConfig(const std::vector<std::string>& changed);

  LifeConfig config_;  // the parameters, read when they change
  std::unique_ptr<LifeEngine> engine_;
  LifeTimings cpuTimings_, gpuTimings_;
  mutable std::map<std::string, Pattern> patterns_;
  std::string ruleFrom_;  // the pattern whose rule runs, where one set it (the notes say so)
  std::optional<Selection> selection_;
  std::pair<int, int> selectFrom_{0, 0};  // where the selecting drag began
  std::string saved_;                     // the last file "save RLE" wrote
};

}  // namespace ws::life
