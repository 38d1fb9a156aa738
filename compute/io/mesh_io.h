#pragma once
// Triangle meshes read from and written to the three formats people bring: Wavefront OBJ, PLY
// (ASCII and binary, either byte order) and OFF. Polygons are split into triangle fans; anything
// that cannot make a mesh (an index out of range, a face of fewer than three vertices, a
// coordinate that is not a finite number, a file that ends early) is a ParseError or InputError
// naming the file and where in it, and nothing is returned.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ws::io {

struct TriangleMesh {
  std::vector<std::array<float, 3>> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

enum class MeshFormat { Obj, Ply, PlyBinary, Off };

// The format a path's extension names (.obj, .ply, .off, any case); throws InputError otherwise.
// A .ply file's own header says whether it is binary; this returns Ply for it.
MeshFormat meshFormatOf(const std::string& path);

// Reads a mesh; `source` names it in messages. Throws ParseError (text, with line and column) or
// InputError (binary, with the byte offset; an unreadable file).
TriangleMesh loadMesh(const std::string& path);
TriangleMesh readObj(std::istream& in, const std::string& source);
TriangleMesh readOff(std::istream& in, const std::string& source);
TriangleMesh readPly(std::istream& in, const std::string& source);

// The meshes shipped in assets/meshes, by name without extension, and the file a model name
// refers to: a shipped mesh by that name, else the name itself as a path.
std::vector<std::string> shippedMeshes();
std::string meshPathOf(const std::string& model);
// Whether `name` is one of `shapes` (procedural, the caller's), a shipped mesh or a mesh file of a
// known format: "" when it is, else why not, naming the choices (`what`: "model", "mesh").
// Reads nothing but the file's name and existence.
std::string checkMeshName(const std::string& name, const std::vector<std::string>& shapes,
                          const std::string& what);

// Writes a mesh (binary PLY little-endian). Throws InputError when the file cannot be written.
void saveMesh(const TriangleMesh& mesh, const std::string& path, MeshFormat format);
void writeMesh(const TriangleMesh& mesh, std::ostream& out, MeshFormat format);

}  // namespace ws::io
