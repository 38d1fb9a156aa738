#pragma once
// The lab's undo history (Ctrl+Z, Ctrl+Shift+Z). A step is what one thing the user did changed:
// a stroke of a tool from press to release (cells drawn, a pattern placed, obstacles drawn, a
// node dragged), or a parameter. It holds the change itself, as the module reported it
// (EditChange) or the parameter's two values, never the world, so that a step costs what it
// touched. Steps are undone over the state as it is now: what grew from an edit while the
// simulation ran stays.
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/module.h"

namespace ws::app {

class UndoHistory {
 public:
  // At least this many steps are kept (the oldest go first), while they hold at most kBytes.
  static constexpr std::size_t kLevels = 100;
  static constexpr std::size_t kBytes = std::size_t(256) << 20;

  // A tool's edit, with what it changed (null: nothing). The press (pointer.start) begins a step;
  // the drag's later edits join it.
  void noteEdit(const PointerEdit& pointer, std::unique_ptr<EditChange> change);
  // The user set parameter `key`: the parameters were `before` and are `after` (a parameter may
  // change others: a Life pattern its rule). Changes of one parameter in a row (a slider
  // dragged, a value typed) are one step.
  void noteParam(const std::string& key, const ParamSet& before, const ParamSet& after);
  // Forgets every step (the state they changed was replaced).
  void clear();

  // Undoes the last step on `module`, or redoes the last undone one; returns what it was, or
  // nullopt where there is none. What the module throws leaves the step where it was.
  std::optional<std::string> undo(Module& module);
  std::optional<std::string> redo(Module& module);

  // What undo() and redo() would take back or make again ("draw", "parameter rule"); "" for none.
  std::string nextUndo() const { return done_.empty() ? "" : done_.back().what; }
  std::string nextRedo() const { return undone_.empty() ? "" : undone_.back().what; }
  std::size_t undoable() const { return done_.size(); }
  std::size_t redoable() const { return undone_.size(); }
  std::size_t heldBytes() const { return bytes_; }

 private:
  struct Step {
    std::string what;
    std::string tool;                                  // the stroke's tool; empty for a parameter
    std::vector<std::unique_ptr<EditChange>> changes;  // in the order they were made
    std::string key;                                   // the parameter the user set
    // The parameters that changed, as they were and as they became.
    std::vector<std::pair<std::string, ParamValue>> before, after;
    std::size_t bytes = 0;
  };
  void push(Step step);
  // Undoes (redo false) or redoes the step on the module.
  static void apply(const Step& step, Module& module, bool redo);
  // Applies the last step of `from` (undone_ to redo, done_ to undo) and moves it onto `to`.
  std::optional<std::string> move(std::deque<Step>& from, std::deque<Step>& to, Module& module,
                                  bool redo);

  std::deque<Step> done_, undone_;
  std::size_t bytes_ = 0;    // held by done_ and undone_
  bool strokeOpen_ = false;  // the last step is a stroke the next edit of its tool may join
};

}  // namespace ws::app
