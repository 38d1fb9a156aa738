// Mesh files: every format written and read back exactly, polygons split into fans, and each way
// a file can be wrong refused with where it went wrong; the shipped meshes are closed surfaces.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/io/mesh_io.h"
#include "tests/test_support.h"

namespace ws::io {
namespace {

TriangleMesh randomMesh(std::mt19937_64& rng) {
  std::uniform_real_distribution<float> coordinate(-1e3f, 1e3f);
  TriangleMesh m;
  m.vertices.resize(3 + rng() % 200);
  for (auto& v : m.vertices) v = {coordinate(rng), coordinate(rng), coordinate(rng)};
  m.triangles.resize(1 + rng() % 300);
  for (auto& t : m.triangles)
    for (auto& i : t) i = std::uint32_t(rng() % m.vertices.size());
  return m;
}

TriangleMesh readAs(const std::string& text, MeshFormat format) {
  std::istringstream in(text);
  switch (format) {
    case MeshFormat::Obj:
      return readObj(in, "test");
    case MeshFormat::Off:
      return readOff(in, "test");
    default:
      return readPly(in, "test");
  }
}

TEST(MeshIo, EveryFormatReadsBackWhatWasWritten) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 5; ++trial) {
    const TriangleMesh m = randomMesh(rng);
    for (MeshFormat f :
         {MeshFormat::Obj, MeshFormat::Off, MeshFormat::Ply, MeshFormat::PlyBinary}) {
      std::ostringstream out;
      writeMesh(m, out, f);
      const TriangleMesh back = readAs(out.str(), f);
      EXPECT_EQ(back.vertices, m.vertices) << "format " << int(f) << ", seed " << seed;
      EXPECT_EQ(back.triangles, m.triangles) << "format " << int(f) << ", seed " << seed;
    }
  }
}

TEST(MeshIo, PolygonsBecomeFansAndObjIndexFormsAreRead) {
  const TriangleMesh m = readAs(
      "# a square and a triangle\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\n"
      "o square\nf 1/1/1 2/1/1 3//1 4\nf -1 -3 -2\n",
      MeshFormat::Obj);
  const std::vector<std::array<std::uint32_t, 3>> expected = {{0, 1, 2}, {0, 2, 3}, {3, 1, 2}};
  EXPECT_EQ(m.triangles, expected);
  const TriangleMesh off =
      readAs("OFF\n5 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 1.5 0\n5 0 1 2 4 3\n", MeshFormat::Off);
  EXPECT_EQ(off.triangles.size(), 3u);
  // PLY with extra properties and elements the reader must step over.
  const TriangleMesh ply = readAs(
      "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
      "property float z\nproperty uchar red\nelement face 1\nproperty list uchar int "
      "vertex_index\nproperty int flags\nelement edge 1\nproperty int a\nproperty int b\n"
      "end_header\n0 0 0 9\n1 0 0 9\n1 1 0 9\n0 1 0 9\n4 0 1 2 3 7\n0 1\n",
      MeshFormat::Ply);
  EXPECT_EQ(ply.triangles, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}, {0, 2, 3}}));
}

// Each malformed file is refused with a message that says what and where.
TEST(MeshIo, MalformedFilesSayWhatAndWhere) {
  const struct {
    const char* text;
    MeshFormat format;
    const char* expected;
  } cases[] = {
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", MeshFormat::Obj, "test:4:7: face vertex index 4"},
      {"v 0 0 0\nv 1 0 0\nf 1 2\n", MeshFormat::Obj, "at least three vertices, this one has 2"},
      {"v 0 nan 0\n", MeshFormat::Obj, "test:1:5: vertex coordinate: 'nan' is not finite"},
      {"v 0 x 0\n", MeshFormat::Obj, "'x' is not a number"},
      {"v 0 0\n", MeshFormat::Obj, "three coordinates"},
      {"v 0 0 0\n", MeshFormat::Obj, "no triangles"},
      {"OFX\n", MeshFormat::Off, "expected the header OFF"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n", MeshFormat::Off, "the file ends where vertex 2"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", MeshFormat::Off,
       "test:6:7: face vertex index 3"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n2 0 1\n", MeshFormat::Off, "at least three vertices"},
      {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", MeshFormat::Ply,
       "no end_header"},
      {"ply\nformat ebcdic 1.0\nend_header\n", MeshFormat::Ply, "unknown format 'ebcdic'"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nend_header\n",
       MeshFormat::Ply, "no x, y and z"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty "
       "float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 "
       "0\n0 1 0\n3 0 1 5\n",
       MeshFormat::Ply, "face 0: vertex index 5 is out of range: 3 vertices"},
      // Damaged files that were once taken: data past what the header declares, another
      // version, a polygon of a million corners.
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n", MeshFormat::Off,
       "test:7:1: data after the 3 vertices and 1 faces the header declared"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty "
       "float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 "
       "0\n0 1 0\n3 0 1 2\n3 0 1 2\n3 0 1 2\n",
       MeshFormat::Ply, "data after the 3 vertex, 1 face the header declared"},
      {"ply\nformat ascii 7.5\nend_header\n", MeshFormat::Ply,
       "PLY version '7.5': this program reads 1.0"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n1000000 0 1 2\n", MeshFormat::Off,
       "a face of more than 1024 vertices"},
  };
  for (const auto& c : cases) {
    try {
      readAs(c.text, c.format);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos)
          << "message: " << e.what() << "\nexpected to contain: " << c.expected;
    }
  }
}

TEST(MeshIo, TruncatedBinaryPlyNamesTheByte) {
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 2}};
  std::ostringstream out;
  writeMesh(m, out, MeshFormat::PlyBinary);
  const std::string whole = out.str();
  for (std::size_t cut : {whole.size() - 1, whole.size() - 13, whole.size() - 20}) {
    try {
      readAs(whole.substr(0, cut), MeshFormat::Ply);
      ADD_FAILURE() << "accepted a file cut at byte " << cut;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("byte "), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(readAs(whole, MeshFormat::Ply));
  try {  // bytes past the declared elements
    readAs(whole + "extra", MeshFormat::Ply);
    ADD_FAILURE() << "accepted bytes after the elements";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("byte " + std::to_string(whole.size()) +
                                         ": data after the 3 vertex, 1 face"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(loadMesh("/nonexistent/model.obj"), InputError);
  EXPECT_THROW(meshFormatOf("model.stl"), InputError);
}

// Closed and consistently oriented: every edge is used once in each direction.
TEST(MeshIo, TheShippedMeshesAreClosedSurfaces) {
  int found = 0;
  for (const char* extension : {".obj", ".ply", ".off"})
    for (const std::string& path : listAssets("meshes", extension)) {
      ++found;
      const TriangleMesh m = loadMesh(path);
      std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
      for (const auto& t : m.triangles)
        for (int i = 0; i < 3; ++i) ++edges[{t[i], t[(i + 1) % 3]}];
      for (const auto& [edge, count] : edges) {
        EXPECT_EQ(count, 1) << path << ": edge " << edge.first << "-" << edge.second;
        EXPECT_EQ(edges.count({edge.second, edge.first}), 1u)
            << path << ": edge " << edge.first << "-" << edge.second << " has no twin";
      }
    }
  EXPECT_EQ(found, 6);
}

}  // namespace
}  // namespace ws::io
