#include "compute/mesh/mesh_catalog.h"

#include <algorithm>

#include "compute/mesh/topology.h"

namespace ws::mesh {

namespace {

constexpr std::int64_t kMaxVertices = std::int64_t(1) << 24;

const std::vector<std::string> kShapes = {"sphere", "torus", "part", "plane"};

}  // namespace

bool isShape(const std::string& name) {
  return std::find(kShapes.begin(), kShapes.end(), name) != kShapes.end();
}

namespace {

std::string checkMeshOrShape(const std::string& name) {
  return checkMeshName(name, kShapes, "mesh");
}

}  // namespace

void declareMeshParams(ParamSet& p, bool gpu) {
  ParamSpec mesh = ParamSpec::text(
      "mesh", "mesh", "sphere",
      "a procedural mesh (jittered sphere, torus, a part with sharp edges, a flat patch), a "
      "shipped mesh, or the path of an .obj, .ply or .off file",
      checkMeshOrShape);
  for (const std::string& shape : kShapes) mesh.suggestions.emplace_back("shape", shape);
  for (const std::string& name : shippedMeshes()) mesh.suggestions.emplace_back("mesh", name);
  p.declare(mesh);
  ParamSpec vertices = ParamSpec::integer(
      "vertices", "vertices (about)", gpu ? 163842 : 10242, 16, double(kMaxVertices),
      "of a procedural mesh: the sphere comes in steps of 4x, the others close to this");
  vertices.logScale = true;
  p.declare(vertices);
  p.declare(ParamSpec::real("jitter", "jitter", 0.35, 0, 0.9,
                            "how far a procedural mesh's vertices are moved along its surface, "
                            "as a fraction of an edge: the poor mesh to optimize; past about "
                            "0.35 some of the sphere's triangles fold (a tangled input: see "
                            "untangle first)"));
  p.declare(ParamSpec::integer("seed", "seed", 1, 0, 2147483647,
                               "of the jitter and of the Jones-Plassmann priorities"));
  p.declare(ParamSpec::choice("schedule", "schedule", "coloured", {"coloured", "all at once"},
                              "one colour class at a time (vertices of a class share no "
                              "triangle), or every vertex at once against the positions before: "
                              "neighbours then move together and the guards no longer hold"));
  p.declare(ParamSpec::choice("step", "one step is", "sweep", {"sweep", "class"},
                              "a sweep over every colour class, or one class (the next in turn)"));
  // First fit on either backend: on the GPU too, its fewer, fuller classes take 11-12% off a sweep
  // of the 3.6M torus (5 classes against 7; H100 and H200, docs/performance.md), for 47 ms of
  // host time once a mesh, where Jones-Plassmann colours it on the GPU in 2.2.
  p.declare(ParamSpec::choice("colouring", "colouring", "first-fit",
                              {"first-fit", "jones-plassmann"},
                              "first fit in vertex order on the CPU (the chapter's: fewer, fuller "
                              "colour classes, so faster sweeps), or Jones-Plassmann: random "
                              "priorities, in parallel rounds (on the GPU with the CUDA backend: "
                              "colours faster, into more classes)"));
  p.declare(ParamSpec::real("alpha", "alpha (move bound)", 0.5, 0.05, 1,
                            "a vertex moves at most alpha times the distance to its nearest "
                            "neighbour in its tangent plane (Nelder-Mead)"));
  p.declare(ParamSpec::integer("iterations", "Nelder-Mead iterations", 40, 1, 200,
                               "at most, per vertex and pass"));
  ParamSpec tolerance = ParamSpec::real(
      "tolerance", "Nelder-Mead tolerance", 1e-6, 1e-9, 1e-2,
      "a search stops when its simplex's values (sin^2 of the smallest angle, close to the angle "
      "in radians near 30 to 45 degrees) differ by less");
  tolerance.logScale = true;
  p.declare(tolerance);
  p.declare(ParamSpec::boolean(
      "per_branch", "Nelder-Mead: evaluate per branch", false,
      "the textbook form of a search step: expansion, outside and inside contraction each "
      "evaluate the smallest angle in a branch of their own, so on the GPU the threads of a warp "
      "that chose differently wait for each other's evaluations (branch divergence); off, one "
      "evaluation at a place chosen first serves all three. Same places, same results"));
  p.declare(ParamSpec::choice("precision", "precision", "fp32", {"fp32", "fp64"},
                              "of the Nelder-Mead search's arithmetic (positions are stored in "
                              "fp32 either way, and the guards judge them so); fp64 costs more "
                              "on GPUs with few double-precision units"));
  p.declare(ParamSpec::boolean("keep_quality", "keep quality", true,
                               "refuse a move that lowers the vertex's smallest angle: the mesh's "
                               "smallest angle then never drops"));
  p.declare(ParamSpec::boolean(
      "untangle", "untangle first", true,
      "while triangles are inverted (facing against the surface around them: a fold, which the "
      "smallest angle alone cannot see), a step moves only their vertices, to make them face "
      "the right way (Knupp's untangling measure, in the same search), before the optimization "
      "goes on; off, folds stay folded (undoing one turns a triangle over: the fold guard "
      "refuses that)"));
  p.declare(ParamSpec::boolean("reject_folds", "reject folds", true,
                               "refuse a move that turns one of the vertex's triangles over, or "
                               "makes it face against the surface around it (the smallest angle "
                               "alone cannot see a fold)"));
  p.declare(ParamSpec::boolean("project", "stay on the surface", true,
                               "put every move back onto the input surface (its closest point)"));
  p.declare(ParamSpec::real("feature_angle", "feature angle", 40, 0, 180,
                            "lock vertices on edges whose triangles meet at more than this many "
                            "degrees (0: lock none); boundary vertices are always locked"));
  p.declare(ParamSpec::choice("colour_by", "colour by", kColourBy[0],
                              {kColourBy[0], kColourBy[1], kColourBy[2], kColourBy[3]},
                              "the triangles' smallest angles, the vertices' colour classes, how "
                              "far each vertex moved, or how far it is from the input surface "
                              "(in mean edge lengths)"));
  p.declare(ParamSpec::boolean("wireframe", "wireframe", true, "draw the triangles' edges"));
  p.declare(ParamSpec::boolean("paths", "movement vectors", false,
                               "a line from each vertex's start to where it is now"));
  p.declare(ParamSpec::text("save_as", "save as", "optimized.ply",
                            "where the action 'save mesh' writes the mesh as it is now (.obj, "
                            ".ply as binary, or .off), in the output folder; a name that is taken "
                            "gets a number (optimized-2.ply)",
                            [](const std::string& path) -> std::string {
                              try {
                                meshFormatOf(path);
                                return "";
                              } catch (const InputError& e) {
                                return e.what();
                              }
                            }));
  p.declare(ParamSpec::choice("block", "threads per block", "64",
                              {"32", "64", "128", "256", "512", "1024"},
                              "of the optimization kernels (one thread per vertex); smaller blocks "
                              "let the SMs refill sooner where searches end at different times "
                              "(64 ran a 3.6M-vertex sweep 14% faster than 128 on an H200)"));
}

VariantCatalog<Method> meshMethods(Backend backend) {
  const bool gpu = backend == Backend::Cuda;
  const std::vector<std::string> tuned =
      gpu ? std::vector<std::string>{"block", "alpha", "iterations", "precision", "per_branch"}
          : std::vector<std::string>{"alpha", "iterations", "precision", "per_branch"};
  return {
      {{"nelder-mead",
        gpu ? "Nelder-Mead per vertex (chapter 13)" : "Nelder-Mead per vertex, OpenMP",
        "Each vertex searches its tangent plane for the place that maximizes the smallest angle of "
        "its triangles: a 2-D Nelder-Mead search of up to 40 steps, each step evaluating the "
        "smallest angle of every incident triangle (read once into the thread's own memory), "
        "within alpha times the distance to its nearest neighbour. One thread per vertex, one "
        "launch per colour class. Arithmetic, and threads of a warp that stop after different "
        "numbers of steps or take different branches (divergence; 'evaluate per branch' shows "
        "what one evaluation for three branches saves), set the pace; the "
        "chapter's Tesla C2050 (2010) optimized 3.6 million vertices in 147.5 s, 40x its CPU.",
        tuned,
        "ch. 13 Table 13.1 (Tesla C2050, CUDA 3.0, 2010): Dragon, 3.6 M vertices, 147.5 s on the "
        "GPU against 5910.2 s on a Core i7 920 (40x); sweeps not stated"},
       Method::NelderMead},
      {{"laplacian", "Laplacian smoothing",
        "Each vertex moves to the centroid of its neighbours: one pass of a few reads and adds, "
        "the fast baseline. It rounds the mesh off as it smooths it: a sphere shrinks, corners of "
        "a part are cut (unless locked), and without the guards triangles can fold.",
        gpu ? std::vector<std::string>{"block"} : std::vector<std::string>{}},
       Method::Laplacian},
      {{"tangential", "tangential Laplacian smoothing",
        "The centroid's move without its part along the vertex's normal: the vertex slides along "
        "the surface instead of shrinking it. Cheap and good for even meshes, but it equalizes "
        "edge lengths rather than angles.",
        gpu ? std::vector<std::string>{"block"} : std::vector<std::string>{}},
       Method::Tangential},
  };
}

}  // namespace ws::mesh
