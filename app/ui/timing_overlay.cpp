// The timing overlay: per kernel scope, ms (median, mean, min, max and a scrolling plot), the
// module's rate, GB/s from the variant's byte model and that as % of the bandwidth measured on
// this GPU; frame time; the module's metrics over time; the colour bar.
#include <imgui.h>

#include <cstdio>

#include "app/shown_view.h"
#include "app/ui/ui.h"
#include "compute/core/bandwidth.h"
#include "compute/views/graph.h"
#include "compute/views/mesh.h"
#include "compute/views/plots.h"
#include "compute/views/voxels.h"
#include "render/colormap.h"

namespace ws::app::ui {

std::string siRate(double perSecond, const std::string& unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (perSecond >= 1000 && p < 5) perSecond /= 1000, ++p;
  // A symbol takes its prefix (GB/s); a word stands apart from it (45.4 k vertices/s).
  const bool word = unit.size() > 3;
  char text[96];
  std::snprintf(text, sizeof text, "%.3g %s%s%s", perSecond, prefixes[p], word && p > 0 ? " " : "",
                unit.c_str());
  return text;
}

std::string plotValue(float latest) {
  char value[32];
  std::snprintf(value, sizeof value, "%.6g", latest);
  return value;
}

std::string plotOverlay(const std::string& label, float latest) {
  return label + " " + plotValue(latest);
}

namespace {

// A plot with its label and latest value written over it, or, where they would not fit its width
// (a long curve name, a large UI scale), the label wrapped above it and the value over it.
void plot(const char* label, const std::deque<float>& series, float height) {
  if (series.empty()) return;
  std::vector<float> values(series.begin(), series.end());
  float lo = values[0], hi = values[0];
  for (float v : values) lo = std::min(lo, v), hi = std::max(hi, v);
  const float width = ImGui::GetContentRegionAvail().x;
  std::string overlay = plotOverlay(label, values.back());
  if (ImGui::CalcTextSize(overlay.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x > width) {
    ImGui::TextWrapped("%s", label);
    overlay = plotValue(values.back());
  }
  ImGui::PlotLines(("##" + std::string(label)).c_str(), values.data(), int(values.size()), 0,
                   overlay.c_str(), lo, hi > lo ? hi : lo + 1, ImVec2(width, height));
}

// The voxel classes' colours, with the hidden ones greyed out.
void drawLegend(const VoxelScene& scene) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t c = 0; c < scene.classNames.size(); ++c) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const auto& rgb = scene.classColours[c];
    draw->AddRectFilled(at, ImVec2(at.x + 12, at.y + 12),
                        IM_COL32(int(rgb[0] * 255), int(rgb[1] * 255), int(rgb[2] * 255), 255));
    ImGui::Dummy(ImVec2(14, 12));
    ImGui::SameLine();
    if (scene.visibleClasses >> c & 1u)
      ImGui::TextUnformatted(scene.classNames[c].c_str());
    else
      ImGui::TextDisabled("%s (hidden)", scene.classNames[c].c_str());
  }
}

void drawHistogram(const Histogram& h) {
  ImGui::TextUnformatted(h.name.c_str());
  float top = 0;
  for (float v : h.values) top = std::max(top, v);
  for (float v : h.reference) top = std::max(top, v);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 60;
  ImGui::PlotHistogram(("##" + h.name).c_str(), h.values.data(), int(h.values.size()), 0, nullptr,
                       0.0f, top * 1.1f + 1e-6f, ImVec2(width, height));
  if (!h.reference.empty()) {
    // The reference as an outline over the bars, on the same scale.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float left = at.x + style.FramePadding.x, right = at.x + width - style.FramePadding.x;
    const float bottom = at.y + height - style.FramePadding.y,
                span = height - 2 * style.FramePadding.y;
    const float bin = (right - left) / float(h.reference.size());
    for (std::size_t i = 0; i < h.reference.size(); ++i) {
      const float y = bottom - span * h.reference[i] / (top * 1.1f + 1e-6f);
      draw->AddRect(ImVec2(left + bin * float(i), y), ImVec2(left + bin * float(i + 1), bottom),
                    IM_COL32(235, 235, 245, 200));
    }
    ImGui::TextDisabled("bars: now; outlines: %s", h.referenceName.c_str());
  }
  std::string labels;
  for (std::size_t i = 0; i < h.labels.size(); ++i) {
    char item[48];
    std::snprintf(item, sizeof item, "%s%s: %.3g", i ? "  " : "", h.labels[i].c_str(), h.values[i]);
    labels += item;
  }
  ImGui::TextWrapped("%s", labels.c_str());
}

// Categories (a mesh's colour classes): a swatch each, in the renderer's palette.
void drawCategories(const std::string& label, int categories) {
  ImGui::Text("%s", label.c_str());
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int k = 0; k < std::min(categories, 24); ++k) {
    if (k % 8) ImGui::SameLine();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const std::uint32_t rgb = render::kCategoryColours[k % 12];
    draw->AddRectFilled(at, ImVec2(at.x + 12, at.y + 12),
                        IM_COL32(rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff, 255));
    ImGui::Dummy(ImVec2(14, 12));
    ImGui::SameLine();
    ImGui::Text("%d", k);
  }
}

// Series on shared axes: each a polyline in a category colour, the axes' ranges at their ends, and
// a legend of the names in their colours (also logged, for checks, as the series' last y).
void drawSeriesPlot(const SeriesPlot& plot) {
  float x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  bool any = false;
  for (const SeriesPlot::Series& s : plot.series)
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      x0 = any ? std::min(x0, s.x[i]) : s.x[i], x1 = any ? std::max(x1, s.x[i]) : s.x[i];
      y0 = any ? std::min(y0, s.y[i]) : s.y[i], y1 = any ? std::max(y1, s.y[i]) : s.y[i];
      any = true;
    }
  ImGui::TextUnformatted(plot.name.c_str());
  if (!any) {
    ImGui::TextDisabled("(no points yet)");
    return;
  }
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 90;
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
  const auto at = [&](float x, float y) {
    return ImVec2(origin.x + (x - x0) / (x1 - x0) * width,
                  origin.y + (1 - (y - y0) / (y1 - y0)) * height);
  };
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const SeriesPlot::Series& s = plot.series[k];
    const std::uint32_t rgb = render::kCategoryColours[k % 12];
    const ImU32 colour = IM_COL32(rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff, 255);
    for (std::size_t i = 1; i < s.x.size(); ++i)
      draw->AddLine(at(s.x[i - 1], s.y[i - 1]), at(s.x[i], s.y[i]), colour, 1.5f);
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::TextDisabled("%s %.3g to %.3g; %s %.3g to %.3g", plot.x.c_str(), x0, x1, plot.y.c_str(),
                      y0, y1);
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const SeriesPlot::Series& s = plot.series[k];
    const std::uint32_t rgb = render::kCategoryColours[k % 12];
    ImGui::TextColored(ImVec4((rgb >> 16 & 0xff) / 255.0f, (rgb >> 8 & 0xff) / 255.0f,
                              (rgb & 0xff) / 255.0f, 1.0f),
                       "%s", s.name.c_str());
    if (s.y.empty()) continue;
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", s.y.back());
    WidgetLog::instance().text(plot.name + ": " + s.name, value);
  }
}

void drawColourScale(const FieldView& view, const std::string& colormap);

void drawColourBar(Lab& lab) {
  Module& module = lab.module();
  const VoxelSource* voxels = module.view<VoxelSource>();
  if (const std::optional<VoxelScene> scene = voxels ? voxels->voxelScene() : std::nullopt) {
    drawLegend(*scene);
    return;
  }
  const MeshSource* meshSource = module.view<MeshSource>();
  const std::optional<MeshScene> mesh = meshSource ? meshSource->meshScene() : std::nullopt;
  if (mesh && mesh->categories > 0) {
    drawCategories(mesh->value.label, mesh->categories);
    return;
  }
  // A graph: its nodes' communities (or their values through the colour map), and the edges'
  // colour map.
  const GraphSource* graphSource = module.view<GraphSource>();
  const std::optional<GraphScene> graph = graphSource ? graphSource->graphScene() : std::nullopt;
  if (graph && graph->categories > 0) {
    drawCategories(graph->nodeValue.label + " (colours repeat every 12)", graph->categories);
    drawColourScale(graph->edgeValue, graph->edgeValue.colormap);
    return;
  }
  if (const std::optional<FieldView> shown = shownValue(module))
    drawColourScale(*shown, lab.colormapForView());
}

// A dendrogram's segments, scaled into a box the panel's width; the marked level as a line.
void drawDendrogram(const Dendrogram& tree) {
  ImGui::Text("%s: %s", tree.name.c_str(), tree.caption.c_str());
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 110;
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                      IM_COL32(30, 34, 42, 255));
  auto at = [&](float x, float y) {
    return ImVec2(origin.x + 4 + x * (width - 8), origin.y + 4 + y * (height - 8));
  };
  for (std::size_t i = 0; i + 3 < tree.segments.size(); i += 4)
    draw->AddLine(at(tree.segments[i], tree.segments[i + 1]),
                  at(tree.segments[i + 2], tree.segments[i + 3]), IM_COL32(200, 205, 215, 255));
  if (tree.marked >= 0)
    draw->AddLine(at(0, tree.marked), at(1, tree.marked), IM_COL32(240, 140, 40, 255), 2);
  ImGui::Dummy(ImVec2(width, height));
}

void drawColourScale(const FieldView& view, const std::string& colormap) {
  const render::ColormapTable table = render::colormapTable(colormap);
  ImGui::Text("%s", view.label.c_str());
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, height = 14;
  for (int i = 0; i < 64; ++i) {
    const int k = i * 255 / 63;
    const ImU32 colour = IM_COL32(table[k * 4], table[k * 4 + 1], table[k * 4 + 2], 255);
    draw->AddRectFilled(ImVec2(origin.x + width * i / 64, origin.y),
                        ImVec2(origin.x + width * (i + 1) / 64 + 1, origin.y + height), colour);
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::Text("%.4g", view.minValue);
  ImGui::SameLine(width - 40);
  ImGui::Text("%.4g", view.maxValue);
}

}  // namespace

void drawTimingOverlay(Lab& lab, UiContext& context) {
  if (!beginSidePanel("Timings", context.layout.timings, context.timingsCollapsed, "><",
                      "collapse the timings to a strip"))
    return;
  Module& module = lab.module();
  if (const GpuInfo& gpu = gpuInfo(); gpu.available)
    ImGui::TextDisabled("%s: sm_%d%d, %d SMs, %.0f GiB, %.0f MB L2", gpu.name.c_str(),
                        gpu.computeMajor, gpu.computeMinor, gpu.multiprocessors,
                        gpu.totalMemoryBytes / (1 << 30), gpu.l2Bytes / 1e6);
  ImGui::Text("frame %.2f ms (%.0f fps)", lab.frameMs(),
              lab.frameMs() > 0 ? 1000.0 / lab.frameMs() : 0.0);
  const double bandwidth = gpuInfo().available ? measuredBandwidth() : 0.0;
  if (bandwidth > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("| copy bandwidth %.0f GB/s", bandwidth / 1e9);
    if (ImGui::IsItemHovered())
      wrappedTooltip("device-to-device copy on this GPU, bytes read + written; click to remeasure");
    if (ImGui::IsItemClicked()) remeasureBandwidth();
  }
  // Columns keep their natural widths; a panel too narrow for them (a large UI scale) scrolls the
  // table sideways instead of running the figures into each other.
  int rows = 0;
  for (const auto& scope : module.timings()) rows += scope->stats().samples > 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 tableSize(0.0f, (rows + 1) * (ImGui::GetTextLineHeight() + 2 * style.CellPadding.y) +
                                   style.ScrollbarSize + 2.0f);
  if (ImGui::BeginTable("scopes", 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                            ImGuiTableFlags_ScrollX | ImGuiTableFlags_NoHostExtendY,
                        tableSize)) {
    ImGui::TableSetupColumn("scope");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("rate");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("% bw");
    ImGui::TableHeadersRow();
    for (const auto& scope : module.timings()) {
      const TimingStats s = scope->stats();
      if (s.samples == 0) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(scope->name().c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.medianMs);
      if (ImGui::IsItemHovered())
        wrappedTooltip(
            "median of %d samples\nmean %.3f  min %.3f  max %.3f ms\n(warm-up samples excluded)",
            s.samples, s.meanMs, s.minMs, s.maxMs);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(siRate(s.ratePerSecond, "").c_str());
      if (ImGui::IsItemHovered()) wrappedTooltip("%s", scope->rateUnit().c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", s.bytesPerSecond / 1e9);
      if (ImGui::IsItemHovered() && s.ratePerSecond > 0)
        wrappedTooltip("compulsory bytes of the model: %.3g bytes per %s",
                       s.bytesPerSecond / s.ratePerSecond, scope->rateUnit().c_str());
      ImGui::TableNextColumn();
      if (scope->onGpu() && bandwidth > 0)
        ImGui::Text("%.0f%%", 100.0 * s.bytesPerSecond / bandwidth);
      else
        ImGui::TextDisabled("-");
    }
    ImGui::EndTable();
  }
  for (const auto& scope : module.timings()) {
    const auto history = scope->historyMs();
    if (history.empty()) continue;
    plot((scope->name() + " ms").c_str(), std::deque<float>(history.begin(), history.end()), 40);
  }
  if (const PlotSource* plots = module.view<PlotSource>()) {
    for (const Histogram& h : plots->histograms()) drawHistogram(h);
    for (const Curve& c : plots->curves()) {
      plot((c.name + " per " + c.x + " (" + std::to_string(c.values.size()) + ")").c_str(),
           c.values, 50);
      if (c.values.empty()) continue;
      char value[32];  // its latest value, for checks by the curve's name
      std::snprintf(value, sizeof value, "%.9g", c.values.back());
      WidgetLog::instance().text(c.name, value);
    }
    if (const std::optional<Dendrogram> tree = plots->dendrogram()) drawDendrogram(*tree);
    for (const SeriesPlot& p : plots->seriesPlots()) drawSeriesPlot(p);
  }
  for (const auto& [name, series] : lab.metricHistory()) plot(name.c_str(), series, 50);
  // The metrics' values as text, for checks (a UI script's expect-value population 0); those not
  // plotted frame by frame (LBM's force coefficients, Strouhal number, wake) are shown here.
  for (const Metric& metric : lab.lastMetrics()) {
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", metric.value);
    WidgetLog::instance().text(metric.name, value);
    if (!metric.plotted) ImGui::Text("%s  %.6g", metric.name.c_str(), metric.value);
  }
  ImGui::Separator();
  drawColourBar(lab);
  ImGui::End();
}

void drawStatusBar(Lab& lab, UiContext& context) {
  placeNextWindow(context.layout.status);
  ImGui::Begin("status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  Module& module = lab.module();
  const std::string gpu =
      gpuInfo().available ? gpuInfo().name : "no GPU (" + gpuInfo().reason + ")";
  // The parts in order of importance: those that do not fit are left out (all show on hover).
  std::vector<std::string> parts = {
      std::string(module.title()), "step " + std::to_string(module.stepCount()),
      std::string(toString(module.backend())) + ": " + module.variant(),
      lab.running() ? "running" : "paused"};
  if (context.demo && !context.demo->message.empty()) parts.push_back(context.demo->message);
  if (!context.pointerText.empty())
    parts.push_back(context.pointerText);
  else if (const WorldBox box = module.world();
           context.cursorWorldX >= box.minX && context.cursorWorldX < box.maxX &&
           context.cursorWorldY >= box.minY && context.cursorWorldY < box.maxY)
    parts.push_back("cell " + std::to_string(int(context.cursorWorldX)) + ", " +
                    std::to_string(int(context.cursorWorldY)));
  if (!lab.notice.empty()) parts.push_back(lab.notice);
  parts.push_back(context.transferMode);
  parts.push_back(gpu);
  parts.push_back("H: help");
  std::string all, shown;
  const float room = ImGui::GetContentRegionAvail().x;
  bool cut = false;
  for (const std::string& part : parts) {
    const std::string next = all.empty() ? part : all + " | " + part;
    all = next;
    if (!cut && ImGui::CalcTextSize(next.c_str()).x <= room)
      shown = next;
    else
      cut = true;
  }
  if (cut) shown += " ...";
  ImGui::TextUnformatted(shown.c_str());
  if (cut && ImGui::IsWindowHovered()) {  // the whole of it, wrapped to the window
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(context.width * 0.6f);
    ImGui::TextUnformatted(all.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  WidgetLog::instance().text("status", all);
  ImGui::End();
}

}  // namespace ws::app::ui
