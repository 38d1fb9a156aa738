#include "compute/lbm/lbm_export.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>

#include "compute/core/errors.h"

namespace ws::lbm {

namespace {

template <typename Lat>
void cellMomentsFromState(const Grid& g, const std::vector<std::uint8_t>& flags,
                          const StepParams& p, std::vector<float>& state,
                          std::vector<float>& density, std::vector<float>& velocity) {
  // The canonical state is exactly an A-B, SoA, FP32 lattice.
  const Store<float, Lat::Q, Layout::SoA> store{state.data(), g.cells()};
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < g.cells(); ++n) {
    const Moments m = cellMoments<Lat, Propagation::AB>(g, flags.data(), store, n, false, p);
    density[n] = m.rho;
    for (int a = 0; a < 3; ++a) velocity[3 * n + a] = m.u[a];
  }
}

template <typename T>
void appendBlock(std::string& appended, const std::vector<T>& values) {
  const std::uint64_t bytes = values.size() * sizeof(T);
  appended.append(reinterpret_cast<const char*>(&bytes), sizeof bytes);
  appended.append(reinterpret_cast<const char*>(values.data()), bytes);
}

}  // namespace

void writeVti(const std::string& path, LatticeKind lattice, const Grid& g,
              const std::vector<std::uint8_t>& flags, const StepParams& params,
              std::vector<float> state) {
  std::vector<float> density(g.cells()), velocity(3 * g.cells());
  if (lattice == LatticeKind::D2Q9)
    cellMomentsFromState<D2Q9>(g, flags, params, state, density, velocity);
  else
    cellMomentsFromState<D3Q19>(g, flags, params, state, density, velocity);
  std::vector<std::uint8_t> types(flags.size());
  for (std::size_t n = 0; n < flags.size(); ++n) types[n] = flags[n] & kTypeMask;

  std::string appended;
  const std::size_t densityOffset = 0;
  appendBlock(appended, density);
  const std::size_t velocityOffset = appended.size();
  appendBlock(appended, velocity);
  const std::size_t typeOffset = appended.size();
  appendBlock(appended, types);

  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError("cannot write '" + path + "'");
  const std::string extent = "0 " + std::to_string(g.nx - 1) + " 0 " + std::to_string(g.ny - 1) +
                             " 0 " + std::to_string(g.nz - 1);
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n"
      << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n"
      << "    <Piece Extent=\"" << extent << "\">\n"
      << "      <PointData Scalars=\"density\" Vectors=\"velocity\">\n"
      << "        <DataArray type=\"Float32\" Name=\"density\" format=\"appended\" offset=\""
      << densityOffset << "\"/>\n"
      << "        <DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" "
         "format=\"appended\" offset=\""
      << velocityOffset << "\"/>\n"
      << "        <DataArray type=\"UInt8\" Name=\"cell_type\" format=\"appended\" offset=\""
      << typeOffset << "\"/>\n"
      << "      </PointData>\n"
      << "    </Piece>\n"
      << "  </ImageData>\n"
      << "  <AppendedData encoding=\"raw\">\n_";
  out.write(appended.data(), std::streamsize(appended.size()));
  out << "\n  </AppendedData>\n</VTKFile>\n";
  if (!out) throw InputError("writing '" + path + "' failed");
}

void writeProbeCsv(const std::string& path, const Grid& g, const Plane& plane,
                   const std::vector<PlaneSample>& moments, const double line[4]) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  const int w = plane.width(g), h = plane.height(g);
  const double length = std::hypot(line[2] - line[0], line[3] - line[1]);
  const int points = std::max(2, int(std::ceil(length)) + 1);
  out << "s,x,y,z,density,ux,uy,uz\n";
  for (int k = 0; k < points; ++k) {
    const double t = double(k) / (points - 1);
    const int a = std::clamp(int(std::floor(line[0] + t * (line[2] - line[0]))), 0, w - 1);
    const int b = std::clamp(int(std::floor(line[1] + t * (line[3] - line[1]))), 0, h - 1);
    const std::size_t n = plane.cell(g, a, b);
    const int x = int(n % g.nx), y = int(n / g.nx % g.ny), z = int(n / (std::size_t(g.nx) * g.ny));
    const PlaneSample& m = moments[std::size_t(b) * w + a];
    out << t * length << ',' << x << ',' << y << ',' << z << ',' << m.rho << ',' << m.u[0] << ','
        << m.u[1] << ',' << m.u[2] << '\n';
  }
  if (!out) throw InputError("writing '" + path + "' failed");
}

}  // namespace ws::lbm
