#include "compute/mesh/inspect.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "compute/mesh/surface.h"

namespace ws::mesh {

std::optional<std::uint32_t> pickVertex(const std::vector<Vec3>& positions,
                                        const std::vector<std::uint32_t>& corners, Vec3 origin,
                                        Vec3 direction) {
  // Moeller and Trumbore's ray-triangle test, keeping the nearest hit in front of the origin.
  float nearest = INFINITY;
  std::optional<std::uint32_t> picked;
  for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
    const Vec3 a = positions[corners[t]], b = positions[corners[t + 1]],
               c = positions[corners[t + 2]];
    const Vec3 ab = b - a, ac = c - a, p = cross(direction, ac);
    const float det = dot(ab, p);
    if (std::fabs(det) < 1e-20f) continue;  // the ray runs along the triangle
    const float inverse = 1 / det;
    const Vec3 s = origin - a;
    const float u = dot(s, p) * inverse;
    if (u < 0 || u > 1) continue;
    const Vec3 q = cross(s, ab);
    const float w = dot(direction, q) * inverse;
    if (w < 0 || u + w > 1) continue;
    const float along = dot(ac, q) * inverse;
    if (along <= 0 || along >= nearest) continue;
    nearest = along;
    // The corner nearest the hit: the one with the largest barycentric weight.
    const float weights[3] = {1 - u - w, u, w};
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if (weights[i] > weights[k]) k = i;
    picked = corners[t + std::size_t(k)];
  }
  return picked;
}

namespace {

void addSegment(SceneLines& lines, Vec3 a, Vec3 b) {
  lines.points.insert(lines.points.end(), {a.x, a.y, a.z, b.x, b.y, b.z});
}

}  // namespace

std::vector<SceneLines> inspectorLines(const Inspection& in, float edge) {
  SceneLines disk, search, step;
  std::copy_n(kDiskColour, 3, disk.colour);
  std::copy_n(kSearchColour, 3, search.colour);
  const bool refused = in.move.outcome == Outcome::Folds ||
                       in.move.outcome == Outcome::LowersQuality ||
                       in.move.outcome == Outcome::StillTangled;
  std::copy_n(refused ? kRefusedColour : kStepColour, 3, step.colour);
  constexpr int kSegments = 48;
  auto onDisk = [&](int k) {
    const float a = float(k) * 6.2831853f / kSegments;
    return in.centre + (in.e1 * std::cos(a) + in.e2 * std::sin(a)) * in.radius;
  };
  for (int k = 0; k < kSegments; ++k) addSegment(disk, onDisk(k), onDisk(k + 1));
  addSegment(disk, in.centre, in.centre + in.normal * (0.5f * edge));
  for (const auto& s : in.simplices)
    for (int k = 0; k < 3; ++k) addSegment(search, s[k], s[(k + 1) % 3]);
  addSegment(step, in.centre, in.move.tried);
  return {disk, search, step};
}

Inspection inspectVertex(const MeshView& m, std::uint32_t v, bool locked,
                         const OptimizeParams& params, const SurfaceGrid* original) {
  Inspection in;
  in.vertex = v;
  in.triangles = int(m.triangleStart[v + 1] - m.triangleStart[v]);
  in.locked = locked;
  in.centre = m.positions[v];
  const SurfaceProjection project{original ? original->view() : SurfaceGridView{}};
  withPrecision(params.precision, [&](auto real) {
    using Real = decltype(real);
    // The frame the search uses, from the same code.
    const Fan<Real> fan(m, v, nullptr);
    const bool untangle = params.method == Method::Untangle;
    const TangentFrame<Real> f =
        untangle ? untangleFrame(m, v, fan) : tangentFrame(m, v, fan, params.alpha);
    in.normal = convert<float>(f.normal);
    in.e1 = convert<float>(f.e1);
    in.e2 = convert<float>(f.e2);
    in.radius = float(f.radius * fan.unit);
    if (locked) {
      in.move = {in.centre, 0, 0, in.radius, 0, false, Outcome::NoPlane, in.centre};
      in.move.before = in.move.after = vertexMinAngle(m, v, in.centre);
      return;
    }
    auto record = [&](int, const Point2T<Real>* simplex) {
      std::array<Vec3, 3>& corners = in.simplices.emplace_back();
      for (int k = 0; k < 3; ++k)
        corners[k] = fan.global(f.e1 * simplex[k].u + f.e2 * simplex[k].w);
    };
    const bool search = params.method == Method::NelderMead || untangle;
    in.move = search ? passMove<Real>(m, v, params, project, record)
                     : smoothVertex(m, v, params, project);
    if (!search) in.radius = in.move.radius;  // the smoothing step's length, drawn as the disk
  });
  // Why its triangles are inverted: each against its reference normal, the surface's way there.
  for (std::uint32_t i = m.triangleStart[v]; i < m.triangleStart[v + 1]; ++i) {
    const std::uint32_t t = m.triangleOf[i];
    if (!invertedTriangle(m, t)) continue;
    ++in.inverted;
    const std::uint32_t* c = m.corners + 3 * t;
    const Vec3 n =
        cross(m.positions[c[1]] - m.positions[c[0]], m.positions[c[2]] - m.positions[c[0]]);
    const float l = length(n);
    const float turn = l > 0 ? std::acos(std::clamp(dot(n, m.reference[t]) / l, -1.0f, 1.0f)) : 0;
    in.worstTurn = std::max(in.worstTurn, turn);
  }
  return in;
}

std::string describe(const Inspection& in, const OptimizeParams& params) {
  const VertexMove& move = in.move;
  const bool untangle = params.method == Method::Untangle;
  const char* verdict = in.locked ? "locked: it stays (boundary or feature edge)"
                        : move.outcome == Outcome::Moved
                            ? (untangle ? "untangling moves it" : "moves")
                        : move.outcome == Outcome::NoPlane       ? "stays: no tangent plane"
                        : move.outcome == Outcome::NoBetterPlace ? "stays: no better place"
                        : move.outcome == Outcome::Folds ? "refused: a triangle would turn over"
                        : move.outcome == Outcome::NotTangled
                            ? "stays while the mesh untangles: none of its triangles is inverted"
                        : move.outcome == Outcome::StillTangled
                            ? "stays: no place in reach leaves its triangles less tangled"
                            : "refused: its smallest angle would drop";
  const bool search = (params.method == Method::NelderMead || untangle) && !in.locked;
  char text[512];
  std::snprintf(text, sizeof text,
                "vertex %u (%d triangles): %s\nsmallest angle %.2f degrees now, %.2f after",
                in.vertex, in.triangles, verdict, move.before * kDegreesPerRadian,
                move.after * kDegreesPerRadian);
  std::string out = text;
  if (in.inverted > 0) {
    std::snprintf(text, sizeof text,
                  "\n%d of its triangles inverted: the worst faces %.0f degrees away from the "
                  "surface around it (its neighbours' way)",
                  in.inverted, in.worstTurn * kDegreesPerRadian);
    out += text;
  }
  if (search) {
    std::snprintf(text, sizeof text, "\ndisk radius %.3g; %d Nelder-Mead iterations (at most %d)",
                  move.radius, move.iterations, params.search.iterations);
    out += text;
  }
  if (move.outcome != Outcome::NoPlane && move.outcome != Outcome::NoBetterPlace &&
      move.outcome != Outcome::NotTangled && !in.locked) {
    std::snprintf(text, sizeof text, "\nthe place tried is %.3g away",
                  length(move.tried - in.centre));
    out += text;
  }
  return out;
}

}  // namespace ws::mesh
