#include "compute/voxhash/shapes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <list>
#include <mutex>
#include <numbers>

#include "compute/core/assets.h"
#include "compute/core/errors.h"

namespace ws::voxhash {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

struct Vec {
  float x, y, z;
  Vec operator+(Vec o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec operator-(Vec o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec operator*(float s) const { return {x * s, y * s, z * s}; }
  float length() const { return std::sqrt(x * x + y * y + z * z); }
  Vec normalized() const { return *this * (1.0f / length()); }
};
Vec cross(Vec a, Vec b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

std::size_t steps(float length, float spacing) {
  return std::max<std::size_t>(3, std::size_t(std::ceil(length / spacing)));
}

// The (2, 3) torus knot, scaled to fit a sphere of radius `size` with its tube.
Vec knot(float t, float size) {
  const float r = 0.55f * size + 0.2f * size * std::cos(3 * t);
  return {r * std::cos(2 * t), r * std::sin(2 * t), 0.2f * size * std::sin(3 * t)};
}

}  // namespace

Shape parseShape(const std::string& name) {
  if (name == "sphere") return Shape::Sphere;
  if (name == "torus") return Shape::Torus;
  if (name == "torus-knot") return Shape::TorusKnot;
  if (name == "box") return Shape::Box;
  throw InputError("unknown shape '" + name + "' (sphere, torus, torus-knot or box)");
}

std::vector<Point> sampleShape(Shape shape, float size, float spacing, std::size_t maxPoints) {
  if (!(spacing > 0) || !(size > 0))
    throw InputError("a shape needs a positive size and point spacing");
  // The surface area over spacing^2, with room for the oversampling below.
  const double area = 4 * std::numbers::pi * double(size) * size * 2;
  if (area / (double(spacing) * spacing) > double(maxPoints))
    throw InputError("a point spacing of " + std::to_string(spacing) + " on a shape of size " +
                     std::to_string(size) + " gives more than " + std::to_string(maxPoints) +
                     " points");
  std::vector<Point> points;
  auto add = [&points](Vec v) { points.push_back({v.x, v.y, v.z}); };
  switch (shape) {
    case Shape::Sphere: {  // a Fibonacci lattice: even spacing without poles
      const std::size_t n = steps(4 * kPi * size * size, spacing * spacing);
      const float golden = kPi * (3 - std::sqrt(5.0f));
      for (std::size_t i = 0; i < n; ++i) {
        const float z = 1 - 2 * (i + 0.5f) / n, r = std::sqrt(1 - z * z), a = golden * i;
        add(Vec{r * std::cos(a), r * std::sin(a), z} * size);
      }
      break;
    }
    case Shape::Torus: {
      const float major = 0.7f * size, minor = 0.3f * size;
      const std::size_t nu = steps(2 * kPi * (major + minor), spacing),
                        nv = steps(2 * kPi * minor, spacing);
      for (std::size_t i = 0; i < nu; ++i)
        for (std::size_t j = 0; j < nv; ++j) {
          const float u = 2 * kPi * i / nu, v = 2 * kPi * j / nv;
          const float r = major + minor * std::cos(v);
          add({r * std::cos(u), r * std::sin(u), minor * std::sin(v)});
        }
      break;
    }
    case Shape::TorusKnot: {
      const float tube = 0.15f * size;
      float length = 0;  // of the centre line
      for (int i = 0; i < 4096; ++i)
        length += (knot(2 * kPi * (i + 1) / 4096, size) - knot(2 * kPi * i / 4096, size)).length();
      // Twice as many rings as the centre line needs: the outside of a bend is longer.
      const std::size_t nt = 2 * steps(length, spacing), nv = steps(2 * kPi * tube, spacing);
      for (std::size_t i = 0; i < nt; ++i) {
        const float t = 2 * kPi * i / nt;
        const Vec c = knot(t, size),
                  tangent = (knot(t + 1e-3f, size) - knot(t - 1e-3f, size)).normalized();
        const Vec normal = cross(tangent, Vec{0, 0, 1}).normalized(),
                  binormal = cross(tangent, normal);
        for (std::size_t j = 0; j < nv; ++j) {
          const float v = 2 * kPi * j / nv;
          add(c + normal * (tube * std::cos(v)) + binormal * (tube * std::sin(v)));
        }
      }
      break;
    }
    case Shape::Box: {  // six faces of a cube of half-extent size
      const std::size_t n = steps(2 * size, spacing) + 1;
      for (int axis = 0; axis < 3; ++axis)
        for (float side : {-size, size})
          for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
              const float a = -size + 2 * size * i / (n - 1), b = -size + 2 * size * j / (n - 1);
              float p[3];
              p[axis] = side;
              p[(axis + 1) % 3] = a;
              p[(axis + 2) % 3] = b;
              add({p[0], p[1], p[2]});
            }
      break;
    }
  }
  return points;
}

std::vector<Point> sampleMesh(const io::TriangleMesh& mesh, float size, float spacing,
                              std::size_t maxPoints) {
  if (!(spacing > 0) || !(size > 0))
    throw InputError("a mesh needs a positive size and point spacing");
  Vec lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
         std::numeric_limits<float>::max()},
      hi = lo * -1;
  for (const auto& v : mesh.vertices) {
    lo = {std::min(lo.x, v[0]), std::min(lo.y, v[1]), std::min(lo.z, v[2])};
    hi = {std::max(hi.x, v[0]), std::max(hi.y, v[1]), std::max(hi.z, v[2])};
  }
  const Vec centre = (lo + hi) * 0.5f;
  float radius = 0;
  for (const auto& v : mesh.vertices)
    radius = std::max(radius, (Vec{v[0], v[1], v[2]} - centre).length());
  if (!(radius > 0)) throw InputError("the mesh has no extent: all its vertices coincide");
  const float scale = size / radius;
  auto at = [&](std::uint32_t i) {
    const auto& v = mesh.vertices[i];
    return (Vec{v[0], v[1], v[2]} - centre) * scale;
  };
  // Per triangle, a lattice spanned from its widest corner a along its two shorter edges, u and v
  // (nu and nv steps of at most `spacing`), cut by the third edge, which is sampled as well.
  // Steps are counted first, so that a cloud too large is refused before it is made.
  struct Lattice {
    Vec a, u, v;
    std::uint32_t nu, nv, nw;
  };
  std::vector<Lattice> lattices(mesh.triangles.size());
  double total = 0;
  auto steps = [spacing](Vec edge) {
    return std::uint32_t(std::max(1.0, std::ceil(double(edge.length()) / spacing)));
  };
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& f = mesh.triangles[t];
    Vec corner[3] = {at(f[0]), at(f[1]), at(f[2])};
    int widest = 0;  // the corner opposite the longest edge
    float longest = -1;
    for (int k = 0; k < 3; ++k) {
      const float opposite = (corner[(k + 2) % 3] - corner[(k + 1) % 3]).length();
      if (opposite > longest) longest = opposite, widest = k;
    }
    Lattice& l = lattices[t];
    l.a = corner[widest];
    l.u = corner[(widest + 1) % 3] - l.a;
    l.v = corner[(widest + 2) % 3] - l.a;
    l.nu = steps(l.u), l.nv = steps(l.v), l.nw = steps(l.v - l.u);
    total += (double(l.nu) + 1) * (double(l.nv) + 1) / 2 + l.nu + l.nv + l.nw;
    if (total > double(maxPoints))
      throw InputError("a point spacing of " + std::to_string(spacing) +
                       " on this mesh gives more than " + std::to_string(maxPoints) + " points");
  }
  std::vector<Point> points;
  points.reserve(std::size_t(total));
  auto add = [&points](Vec p) { points.push_back({p.x, p.y, p.z}); };
  for (const Lattice& l : lattices) {
    for (std::uint32_t i = 0; i <= l.nu; ++i)
      for (std::uint32_t j = 0;
           std::uint64_t(i) * l.nv + std::uint64_t(j) * l.nu <= std::uint64_t(l.nu) * l.nv; ++j)
        add(l.a + l.u * (float(i) / l.nu) + l.v * (float(j) / l.nv));
    for (std::uint32_t k = 1; k < l.nw; ++k) add(l.a + l.u + (l.v - l.u) * (float(k) / l.nw));
  }
  return points;
}

namespace {

bool isShapeName(const std::string& name) {
  return name == "sphere" || name == "torus" || name == "torus-knot" || name == "box";
}

}  // namespace

std::string checkModelName(const std::string& model) {
  return io::checkMeshName(model, {"sphere", "torus", "torus-knot", "box"}, "model");
}

namespace {

// A cloud sampled from a mesh file, and what it was sampled from.
struct SampledMesh {
  std::string path;
  std::uintmax_t bytes;
  std::filesystem::file_time_type changed;
  float size, spacing;
  std::vector<Point> points;

  bool sameAs(const SampledMesh& o) const {
    return path == o.path && bytes == o.bytes && changed == o.changed && size == o.size &&
           spacing == o.spacing;
  }
};

// The most recently used first; two models, and a spare for switching one back and forth.
constexpr std::size_t kCachedMeshes = 3;
std::mutex cacheLock;
std::list<SampledMesh> cache;

}  // namespace

std::vector<Point> sampleModel(const std::string& model, float size, float spacing) {
  if (isShapeName(model)) return sampleShape(parseShape(model), size, spacing);
  if (const std::string problem = checkModelName(model); !problem.empty())
    throw InputError(problem);
  const std::string path = io::meshPathOf(model);
  std::error_code error;  // a file that cannot be looked at is read, and refused there
  SampledMesh wanted{path,
                     std::filesystem::file_size(path, error),
                     std::filesystem::last_write_time(path, error),
                     size,
                     spacing,
                     {}};
  const std::lock_guard<std::mutex> hold(cacheLock);
  for (auto at = cache.begin(); at != cache.end(); ++at) {
    if (at->sameAs(wanted)) {
      cache.splice(cache.begin(), cache, at);
      return at->points;
    }
  }
  wanted.points = sampleMesh(io::loadMesh(path), size, spacing);
  cache.push_front(wanted);
  if (cache.size() > kCachedMeshes) cache.pop_back();
  return wanted.points;
}

std::vector<Point> placed(const std::vector<Point>& points, float scale, const float offset[3]) {
  std::vector<Point> out(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    out[i] = {points[i].x * scale + offset[0], points[i].y * scale + offset[1],
              points[i].z * scale + offset[2]};
  return out;
}

}  // namespace ws::voxhash
