#include "compute/lbm/lbm_engine.h"

#include <algorithm>

#include "compute/core/errors.h"
#include "compute/core/memory.h"

namespace ws::lbm {

std::string Variant::name() const {
  return std::string(propagation == Propagation::AA ? "aa" : "ab") + "-" +
         (layout == Layout::SoA ? "soa" : "aos") + "-" + (half ? "fp16" : "fp32");
}

int latticeQ(LatticeKind lattice) {
  return lattice == LatticeKind::D2Q9 ? D2Q9::Q : D3Q19::Q;
}

double bytesPerCellUpdate(LatticeKind lattice, const Variant& variant) {
  return 2.0 * latticeQ(lattice) * (variant.half ? 2 : 4) + 1.0;
}

namespace {

// Fills the image with pixel(px, py), staging it on the host where it lives on the device.
template <typename Pixel>
void fillImage(FieldImage& image, const Pixel& pixel) {
  std::vector<float> staged;
  float* pixels = image.pixels;
  if (image.onDevice) {  // a GL buffer mapped for CUDA
    staged.resize(std::size_t(image.width) * image.height);
    pixels = staged.data();
  }
#pragma omp parallel for schedule(static)
  for (int py = 0; py < image.height; ++py)
    for (int px = 0; px < image.width; ++px)
      pixels[std::size_t(py) * image.width + px] = pixel(px, py);
  if (image.onDevice) copyToView(image.pixels, pixels, staged.size() * sizeof(float), true);
}

// The places of the marked coordinates among them, and the list of them.
void indexMarked(const std::vector<char>& marked, std::vector<int>& list, std::vector<int>& at) {
  at.assign(marked.size(), -1);
  for (int i = 0; i < int(marked.size()); ++i)
    if (marked[i]) {
      at[i] = int(list.size());
      list.push_back(i);
    }
}

}  // namespace

void renderFromMoments(LbmView view, const Plane& plane, const Grid& g, const FieldRequest& request,
                       const std::vector<PlaneSample>& moments, FieldImage& image) {
  const int w = plane.width(g), h = plane.height(g);
  fillImage(image, [&](int px, int py) {
    return renderPixel(view, plane, w, h, request, px, py, moments.data());
  });
}

PlaneWindow PlaneWindow::under(LbmView view, int width, int height, const FieldRequest& request,
                               int imageWidth, int imageHeight) {
  // As pixelCell (lbm_view.h) finds a pixel's cell: a from the pixel's column, b from its row.
  const int reach = view == LbmView::Vorticity ? 1 : 0;  // the neighbours the value reads
  std::vector<char> markedColumns(std::size_t(std::max(width, 0)), 0);
  std::vector<char> markedRows(std::size_t(std::max(height, 0)), 0);
  const auto mark = [reach](std::vector<char>& marked, int i) {
    for (int d = -reach; d <= reach; ++d)
      if (i + d >= 0 && i + d < int(marked.size())) marked[i + d] = 1;
  };
  for (int px = 0; px < imageWidth; ++px) {
    const double wx = request.originX + (px + 0.5) * request.worldPerPixel;
    if (wx >= 0 && wx < width) mark(markedColumns, int(wx));
  }
  for (int py = 0; py < imageHeight; ++py) {
    const double wy = request.originY + (py + 0.5) * request.worldPerPixel;
    if (wy >= 0 && wy < height) mark(markedRows, height - 1 - int(wy));
  }
  PlaneWindow window;
  indexMarked(markedColumns, window.columns, window.columnAt);
  indexMarked(markedRows, window.rows, window.rowAt);
  return window;
}

void renderFromWindow(LbmView view, const Plane& plane, const Grid& g, const FieldRequest& request,
                      const PlaneWindow& window, FieldImage& image) {
  const int w = plane.width(g), h = plane.height(g);
  fillImage(image, [&](int px, int py) {
    int a = 0, b = 0;
    if (!pixelCell(request, w, h, px, py, a, b)) return float(NAN);
    return viewValue(view, plane, w, h, a, b,
                     [&](int i, int j) { return window.samples[window.index(i, j)]; });
  });
}

float volumeFromMoments(VolumeQuantity quantity, const Grid& g, const PlaneSample* moments,
                        float* values, float* speeds) {
  float largest = 0;
  const int rows = g.ny * g.nz;
#pragma omp parallel for schedule(static) reduction(max : largest)
  for (int row = 0; row < rows; ++row)
    for (int x = 0; x < g.nx; ++x) {
      const std::size_t n = std::size_t(row) * g.nx + x;
      values[n] = volumeValue(quantity, g, moments, x, row % g.ny, row / g.ny);
      speeds[n] = cellSpeed(moments[n]);
      largest = std::max(largest, values[n]);
    }
  return largest;
}

namespace {

[[noreturn]] void noRawSlots(const LbmEngine& engine) {
  throw InputError("splitting the lattice over ranks needs the CPU backend for now (" +
                   engine.configuration() + " has no halo exchange yet)");
}

}  // namespace

void LbmEngine::beginStep() {
  noRawSlots(*this);
}
void LbmEngine::stepBox(const CellBox&) {
  noRawSlots(*this);
}
void LbmEngine::endStep() {
  noRawSlots(*this);
}
std::size_t LbmEngine::bytesPerSlot() const {
  noRawSlots(*this);
}
void LbmEngine::setSlotLists(const std::vector<std::vector<std::uint64_t>>&) {
  noRawSlots(*this);
}
std::byte* LbmEngine::slotBuffer(int) {
  noRawSlots(*this);
}
void LbmEngine::readSlots(int) {
  noRawSlots(*this);
}
void LbmEngine::writeSlots(int) {
  noRawSlots(*this);
}
std::vector<std::byte> LbmEngine::shareSlots(int) {
  return {};  // no device buffers to share: the halo goes through the host
}
bool LbmEngine::openPeerSlots(int, const std::vector<std::byte>&) {
  return false;
}
void LbmEngine::peerSlots(bool on) {
  if (on) throw InputError("this engine has no device-to-device halo");
}
void LbmEngine::deferRecords(bool) {
  noRawSlots(*this);
}
void LbmEngine::recordNow() {
  noRawSlots(*this);
}

std::vector<PlaneSample> LbmEngine::volumeMoments() {
  const PlaneSample* moments = volumeInPlace(VolumeQuantity::Speed).moments;
  return std::vector<PlaneSample>(moments, moments + grid().cells());
}

namespace {

// By direction, then cell: neighbouring threads of the swap kernel then touch neighbouring slots.
template <typename Lat>
std::vector<ForceLink> findSlipLinks(const Grid& g, const std::vector<std::uint8_t>& flags) {
  std::vector<ForceLink> links;
  for (int i = 1; i < Lat::Q; ++i) {
    // One link of each pair: the one going along +x, or along +z where it goes neither way in x
    // (the normal links, along y alone, need no swap).
    const int cx = Lat::cx(i), cy = Lat::cy(i), cz = Lat::cz(i);
    if (cy == 0 || cx < 0 || (cx == 0 && cz <= 0)) continue;
    for (std::size_t n = 0; n < g.cells(); ++n) {
      if (isSolid(flags[n]) || !(flags[n] & kNearWall)) continue;
      const Neighbourhood nb(g, n);
      // A flat wall: the cells the link and its partner reach (n + c_i, n + (0, c_iy, 0)) both
      // free-slip; the partner n + (c_ix, 0, c_iz) a cell with populations (across the x ends
      // too, which the step streams across: the outlet's partner is the inlet).
      const auto slip = [&](int dx, int dz) {
        return (flags[nb.at(dx, cy, dz)] & kTypeMask) == kSlipWall;
      };
      if (!slip(cx, cz) || !slip(0, 0) || isSolid(flags[nb.at(cx, 0, cz)])) continue;
      links.push_back({std::uint32_t(n), std::uint32_t(i)});
    }
  }
  return links;
}

}  // namespace

std::vector<ForceLink> slipLinks(LatticeKind lattice, const Grid& g,
                                 const std::vector<std::uint8_t>& flags) {
  return lattice == LatticeKind::D2Q9 ? findSlipLinks<D2Q9>(g, flags)
                                      : findSlipLinks<D3Q19>(g, flags);
}

std::vector<std::uint32_t> openOutlets(const Grid& g, const std::vector<std::uint8_t>& flags) {
  std::vector<std::uint32_t> cells;
  for (std::size_t n = 0; n < g.cells(); ++n)
    if ((flags[n] & kTypeMask) == kOpenOutlet && n % g.nx > 0 && !isSolid(flags[n - 1]) &&
        (flags[n - 1] & kTypeMask) != kOpenOutlet)  // reading no slot that others write
      cells.push_back(std::uint32_t(n));
  return cells;
}

}  // namespace ws::lbm
