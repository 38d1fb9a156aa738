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

void renderFromMoments(LbmView view, const Plane& plane, const Grid& g, const FieldRequest& request,
                       const std::vector<PlaneSample>& moments, FieldImage& image) {
  const int w = plane.width(g), h = plane.height(g);
  std::vector<float> staged;
  float* pixels = image.pixels;
  if (image.onDevice) {  // a GL buffer mapped for CUDA
    staged.resize(std::size_t(image.width) * image.height);
    pixels = staged.data();
  }
#pragma omp parallel for schedule(static)
  for (int py = 0; py < image.height; ++py)
    for (int px = 0; px < image.width; ++px)
      pixels[std::size_t(py) * image.width + px] =
          renderPixel(view, plane, w, h, request, px, py, moments.data());
  if (image.onDevice) copyToView(image.pixels, pixels, staged.size() * sizeof(float), true);
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
void LbmEngine::stepLayers(int, int, int) {
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
