#include "app/undo.h"

#include <algorithm>
#include <filesystem>

namespace ws::app {

namespace {

// A step's name: the tool and what it placed ("place glider", "place pasted.rle").
std::string strokeName(const PointerEdit& pointer) {
  if (pointer.item.empty() || pointer.tool != "place") return pointer.tool;
  return pointer.tool + " " + std::filesystem::path(pointer.item).filename().string();
}

}  // namespace

void UndoHistory::noteEdit(const PointerEdit& pointer, std::unique_ptr<EditChange> change) {
  const bool joins =
      !pointer.start && strokeOpen_ && !done_.empty() && done_.back().tool == pointer.tool;
  if (!change) {
    if (pointer.start) strokeOpen_ = false;
    return;
  }
  const std::size_t bytes = change->bytes();
  if (joins) {
    done_.back().changes.push_back(std::move(change));
    done_.back().bytes += bytes;
    bytes_ += bytes;
  } else {
    Step step{strokeName(pointer), pointer.tool};
    step.changes.push_back(std::move(change));
    step.bytes = bytes;
    push(std::move(step));
    strokeOpen_ = true;
  }
}

void UndoHistory::noteParam(const std::string& key, const ParamSet& before, const ParamSet& after) {
  std::vector<std::pair<std::string, ParamValue>> was, is;
  for (const ParamSpec& spec : after.specs())
    if (before.has(spec.key) && before.value(spec.key) != after.value(spec.key)) {
      was.emplace_back(spec.key, before.value(spec.key));
      is.emplace_back(spec.key, after.value(spec.key));
    }
  if (is.empty()) return;
  if (!strokeOpen_ && !done_.empty() && done_.back().tool.empty() && done_.back().key == key &&
      undone_.empty()) {
    // The same parameter again: one step, from the first value to the last.
    Step& last = done_.back();
    for (auto& [k, value] : is) {
      const auto same = [&](const auto& entry) { return entry.first == k; };
      if (auto it = std::find_if(last.after.begin(), last.after.end(), same);
          it != last.after.end())
        it->second = value;
      else
        last.before.emplace_back(k, before.value(k)), last.after.emplace_back(k, value);
    }
    if (last.before == last.after) done_.pop_back();  // back where it began
    return;
  }
  Step step{"parameter " + key};
  step.key = key;
  step.before = std::move(was);
  step.after = std::move(is);
  push(std::move(step));
  strokeOpen_ = false;
}

void UndoHistory::push(Step step) {
  for (const Step& s : undone_) bytes_ -= s.bytes;
  undone_.clear();
  bytes_ += step.bytes;
  done_.push_back(std::move(step));
  while (done_.size() > kLevels || (bytes_ > kBytes && done_.size() > 1)) {
    bytes_ -= done_.front().bytes;
    done_.pop_front();
  }
}

void UndoHistory::clear() {
  done_.clear();
  undone_.clear();
  bytes_ = 0;
  strokeOpen_ = false;
}

void UndoHistory::apply(const Step& step, Module& module, bool redo) {
  if (step.tool.empty()) {
    module.setParams(redo ? step.after : step.before);
    return;
  }
  if (redo)
    for (const auto& change : step.changes) module.revert(*change, true);
  else
    for (auto change = step.changes.rbegin(); change != step.changes.rend(); ++change)
      module.revert(**change, false);
}

std::optional<std::string> UndoHistory::undo(Module& module) {
  return move(done_, undone_, module, false);
}

std::optional<std::string> UndoHistory::redo(Module& module) {
  return move(undone_, done_, module, true);
}

std::optional<std::string> UndoHistory::move(std::deque<Step>& from, std::deque<Step>& to,
                                             Module& module, bool redo) {
  strokeOpen_ = false;
  if (from.empty()) return std::nullopt;
  apply(from.back(), module, redo);  // a throw leaves the step where it was
  to.push_back(std::move(from.back()));
  from.pop_back();
  return to.back().what;
}

}  // namespace ws::app
