// The roofline and the scaling sweep, drawn on log-log axes with ImGui's draw lists.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/ui.h"
#include "compute/core/backend.h"

namespace ws::app::ui {

namespace {

const ImU32 kFp32 = IM_COL32(255, 160, 60, 255), kFp64 = IM_COL32(235, 110, 235, 255),
            kInt32 = IM_COL32(80, 200, 255, 255);
const ImU32 kCpu = IM_COL32(120, 160, 255, 255), kGpu = IM_COL32(110, 230, 120, 255);
const ImU32 kAxis = IM_COL32(150, 150, 160, 255), kGrid = IM_COL32(70, 72, 80, 255);

ImU32 kindColour(OpKind kind) {
  return kind == OpKind::Fp32 ? kFp32 : kind == OpKind::Fp64 ? kFp64 : kInt32;
}

// Log-log axes over a canvas: decades from [x0, x1] and [y0, y1] (powers of ten), with grid lines
// and labels.
struct LogAxes {
  ImVec2 min, max;  // the plot's corners on screen
  double x0, x1, y0, y1;

  ImVec2 at(double x, double y) const {
    const double fx = (std::log10(x) - x0) / (x1 - x0), fy = (std::log10(y) - y0) / (y1 - y0);
    return ImVec2(float(min.x + fx * (max.x - min.x)), float(max.y - fy * (max.y - min.y)));
  }

  void draw(ImDrawList* list, const char* xLabel, const char* yLabel) const {
    char text[32];
    for (double d = std::ceil(x0); d <= x1; ++d) {
      const ImVec2 p = at(std::pow(10.0, d), std::pow(10.0, y0));
      list->AddLine(ImVec2(p.x, min.y), ImVec2(p.x, max.y), kGrid);
      std::snprintf(text, sizeof text, "1e%g", d);
      list->AddText(ImVec2(p.x - 10, max.y + 2), kAxis, text);
    }
    for (double d = std::ceil(y0); d <= y1; ++d) {
      const ImVec2 p = at(std::pow(10.0, x0), std::pow(10.0, d));
      list->AddLine(ImVec2(min.x, p.y), ImVec2(max.x, p.y), kGrid);
      std::snprintf(text, sizeof text, "1e%g", d);
      list->AddText(ImVec2(min.x - 36, p.y - 7), kAxis, text);
    }
    list->AddRect(min, max, kAxis);
    list->AddText(ImVec2(max.x - ImGui::CalcTextSize(xLabel).x, max.y + 16), kAxis, xLabel);
    list->AddText(ImVec2(min.x - 36, min.y - 18), kAxis, yLabel);
  }
};

// The plot's area in the current window, leaving room for the axis labels.
LogAxes canvas(double x0, double x1, double y0, double y1) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 size = ImGui::GetContentRegionAvail();
  size.x = std::max(size.x, 200.0f);
  size.y = std::max(size.y, 160.0f);
  ImGui::Dummy(size);
  return {ImVec2(origin.x + 44, origin.y + 22),
          ImVec2(origin.x + size.x - 10, origin.y + size.y - 34),
          x0,
          x1,
          y0,
          y1};
}

void drawRoofline(Lab& lab, Analysis& analysis) {
  Module& module = lab.module();
  analysis.drawn.clear();
  const std::optional<OpModel> model = module.opsPerWorkUnit();  // the mesh's waits for the GPU
  if (!model) {
    ImGui::TextWrapped(
        "module '%s' has no operation model for what it runs now (its parameters "
        "say which steps have one)",
        std::string(module.name()).c_str());
    return;
  }
  const Ceilings* ceilings = nullptr;
  lab.attempt([&] { ceilings = &measuredCeilings(module.backend()); });
  if (!ceilings) return;
  std::vector<RooflinePoint> points;
  const RooflineRunner* measured = analysis.roofline.get();
  if (measured && measured->moduleName() == module.name() &&
      measured->backend() == module.backend())
    points = measured->points();
  else
    measured = nullptr;
  if (auto live = rooflinePoint(module)) points.push_back(*live);

  ImGui::TextWrapped(
      "%s: %.0f GB/s, %.3g T FP32 flop/s, %.3g T FP64 flop/s, %.3g T int32 op/s "
      "(measured)",
      ceilings->where.c_str(), ceilings->bytesPerSecond / 1e9, ceilings->fp32PerSecond / 1e12,
      ceilings->fp64PerSecond / 1e12, ceilings->int32PerSecond / 1e12);
  // Points whose data fit in a cache sit under that cache's roof: a copy of their size, measured.
  double cacheBandwidth = 0;
  for (const RooflinePoint& p : points)
    lab.attempt([&] {
      cacheBandwidth = std::max(cacheBandwidth, bandwidthFor(module.backend(), p.workingSet));
    });
  const bool cacheRoof = cacheBandwidth > ceilings->bytesPerSecond;
  if (cacheRoof)
    ImGui::TextWrapped(
        "a cache: %.0f GB/s for a copy of the points' data (measured): the thin "
        "roof, under which data that fit there sit",
        cacheBandwidth / 1e9);
  if (measured && !measured->done())
    ImGui::Text("measuring the variants on copies: %zu of %zu ...", measured->measured(),
                measured->planned());
  // The roofs of the kinds of arithmetic the points count (the module's own kind before any).
  std::vector<OpKind> kinds = {model->kind};
  for (const RooflinePoint& p : points)
    if (std::find(kinds.begin(), kinds.end(), p.kind) == kinds.end()) kinds.push_back(p.kind);
  // Decades that hold the roofs and every point (one working from a cache can sit above them).
  double lowest = ceilings->bytesPerSecond * 0.01, highest = 0;

  for (OpKind kind : kinds) highest = std::max(highest, ceilings->peak(kind));
  double narrowest = 0.01, widest = 1000;
  for (const RooflinePoint& p : points) {
    lowest = std::min(lowest, p.opsPerSecond), highest = std::max(highest, p.opsPerSecond);
    narrowest = std::min(narrowest, p.intensity), widest = std::max(widest, p.intensity);
  }
  const LogAxes axes =
      canvas(std::floor(std::log10(narrowest)), std::ceil(std::log10(widest * 1.01)),
             std::floor(std::log10(lowest)), std::ceil(std::log10(highest * 1.5)));
  ImDrawList* list = ImGui::GetWindowDrawList();
  axes.draw(list, "operations per byte", "operations/s");
  for (OpKind kind : kinds) {
    const double ridge = ceilings->peak(kind) / ceilings->bytesPerSecond;
    const double left = std::pow(10.0, axes.x0), right = std::pow(10.0, axes.x1);
    list->AddLine(axes.at(left, ceilings->bound(kind, left)),
                  axes.at(std::min(ridge, right), ceilings->bound(kind, std::min(ridge, right))),
                  kindColour(kind), 2.0f);
    if (ridge < right)
      list->AddLine(axes.at(ridge, ceilings->peak(kind)), axes.at(right, ceilings->peak(kind)),
                    kindColour(kind), 2.0f);
    list->AddText(ImVec2(axes.at(right, ceilings->peak(kind)).x - 90,
                         axes.at(right, ceilings->peak(kind)).y - 16),
                  kindColour(kind), toString(kind));
  }
  if (cacheRoof)
    for (OpKind kind : kinds) {
      const double ridge = ceilings->peak(kind) / cacheBandwidth;
      const double left = std::pow(10.0, axes.x0), right = std::pow(10.0, axes.x1);
      const double end = std::min(ridge, right);
      list->AddLine(axes.at(left, cacheBandwidth * left), axes.at(end, cacheBandwidth * end),
                    kindColour(kind), 1.0f);
      list->AddText(axes.at(left * 1.5, cacheBandwidth * left * 1.5), kindColour(kind), "cache");
    }
  std::vector<ImVec4> labels;  // the rectangles taken, so that labels of close points stack
  const auto overlaps = [&](const ImVec4& r) {
    return std::any_of(labels.begin(), labels.end(), [&](const ImVec4& o) {
      return r.x < o.z && o.x < r.z && r.y < o.w && o.y < r.w;
    });
  };
  for (const RooflinePoint& p : points) {
    const ImVec2 at = axes.at(p.intensity, p.opsPerSecond);
    const ImU32 colour = kindColour(p.kind);
    list->AddCircleFilled(at, 5.0f, colour);
    if (p.live) list->AddCircle(at, 9.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
    const std::string label = p.variant + (p.live ? " (live)" : "");
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const ImVec4 beside(at.x + 10, at.y - size.y * 0.5f, at.x + 10 + size.x, at.y + size.y * 0.5f);
    ImVec4 box = beside;
    while (overlaps(box)) box.y += size.y, box.w += size.y;
    if (box.w > axes.max.y)  // no room below the point: stack upwards instead
      for (box = beside; overlaps(box);) box.y -= size.y, box.w -= size.y;
    labels.push_back(box);
    if (box.y != beside.y)  // moved: a leader line to its point
      list->AddLine(ImVec2(at.x + 4, at.y), ImVec2(box.x - 2, box.y + size.y * 0.5f), kGrid);
    list->AddText(ImVec2(box.x, box.y), IM_COL32(230, 230, 230, 255), label.c_str());
    analysis.drawn.push_back(
        {p.backend + "/" + p.variant + (p.live ? " (live)" : ""), at.x, at.y, colour});
  }
}

void drawSweep(Analysis& analysis) {
  if (!analysis.sweep) {
    ImGui::TextDisabled("press 'Run sweep' in the panel's Compare section");
    return;
  }
  const SweepRunner& sweep = *analysis.sweep;
  const std::vector<SweepPoint>& points = sweep.points();
  ImGui::Text("%s: %zu of %zu sizes measured%s", sweep.moduleName().c_str(), sweep.measured(),
              sweep.planned(), sweep.done() ? "" : " ...");
  for (Backend backend : {Backend::Cpu, Backend::Cuda})
    if (const auto line = fitSweep(points, backend)) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(backend == Backend::Cpu ? kCpu : kGpu),
                         " %s slope %.2f (larger half)", std::string(toString(backend)).c_str(),
                         line->slope);
    }
  const std::optional<double> crossover = sweepCrossover(points);
  if (crossover) ImGui::Text("the GPU starts to win at about %.3g units per step", *crossover);
  if (points.empty()) return;
  double wLo = 1e300, wHi = 0, tLo = 1e300, tHi = 0;
  for (const SweepPoint& p : points) {
    wLo = std::min(wLo, p.work), wHi = std::max(wHi, p.work);
    tLo = std::min(tLo, p.msPerStep), tHi = std::max(tHi, p.msPerStep);
  }
  const LogAxes axes = canvas(std::floor(std::log10(wLo)), std::ceil(std::log10(wHi * 1.01)),
                              std::floor(std::log10(tLo)), std::ceil(std::log10(tHi * 1.01)));
  ImDrawList* list = ImGui::GetWindowDrawList();
  axes.draw(list, "work per step", "ms per step");
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    const ImU32 colour = backend == Backend::Cpu ? kCpu : kGpu;
    if (const auto line = fitSweep(points, backend))
      list->AddLine(axes.at(line->fromWork, line->msAt(line->fromWork)),
                    axes.at(line->toWork, line->msAt(line->toWork)), colour, 2.0f);
    for (const SweepPoint& p : points)
      if (p.backend == backend) list->AddCircleFilled(axes.at(p.work, p.msPerStep), 4.0f, colour);
  }
  if (crossover) {
    const ImVec2 top = axes.at(*crossover, std::pow(10.0, axes.y1));
    list->AddLine(top, ImVec2(top.x, axes.max.y), IM_COL32(255, 255, 255, 160), 1.0f);
  }
}

// One step of a runner that measures copies (a sweep's size, a roofline's variant); a failure is
// reported and ends the run, leaving the running module alone.
template <typename Runner>
bool advance(Lab& lab, std::unique_ptr<Runner>& runner) {
  if (!runner || runner->done()) return false;
  bool more = false;
  if (!lab.attempt([&] { more = runner->step(); })) runner.reset();
  return more;
}

}  // namespace

void drawAnalysisControls(Lab& lab, Analysis& analysis) {
  Module& module = lab.module();
  tracked::Checkbox("roofline", &analysis.showRoofline);
  ImGui::SameLine();
  if (tracked::Button("Measure all variants")) {
    analysis.showRoofline = true;
    analysis.roofline = std::make_unique<RooflineRunner>(module);
  }
  tracked::Checkbox("scaling sweep", &analysis.showSweep);
  ImGui::SameLine();
  const bool sweepable = !module.sweepSizes().empty();
  if (!sweepable) ImGui::BeginDisabled();
  if (tracked::Button("Run sweep")) {
    analysis.showSweep = true;
    std::vector<Backend> backends = {Backend::Cpu};
    if (gpuInfo().available) backends.push_back(Backend::Cuda);
    lab.attempt([&] { analysis.sweep = std::make_unique<SweepRunner>(module, backends); });
  }
  if (!sweepable) ImGui::EndDisabled();
}

void drawAnalysisWindows(Lab& lab, UiContext& context) {
  Analysis& analysis = context.analysis;
  const float scale = context.classroom.effective();
  // One above the other, both in view.
  const float height = std::min(420 * scale, (context.height - 90) * 0.5f);
  if (analysis.showRoofline) {
    advance(lab, analysis.roofline);  // one variant per frame
    ImGui::SetNextWindowSize(ImVec2(620 * scale, height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(context.width * 0.55f, 36), ImGuiCond_FirstUseEver,
                            ImVec2(0.5f, 0.0f));
    if (ImGui::Begin("Roofline", &analysis.showRoofline)) drawRoofline(lab, analysis);
    ImGui::End();
  }
  if (analysis.showSweep) {
    advance(lab, analysis.sweep);  // one point per frame
    ImGui::SetNextWindowSize(ImVec2(620 * scale, height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(context.width * 0.55f, context.height - 36.0f),
                            ImGuiCond_FirstUseEver, ImVec2(0.5f, 1.0f));
    if (ImGui::Begin("Scaling sweep", &analysis.showSweep)) drawSweep(analysis);
    ImGui::End();
  }
}

}  // namespace ws::app::ui
