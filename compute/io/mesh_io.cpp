#include "compute/io/mesh_io.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>

#include "compute/core/assets.h"
#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/text_tokens.h"

namespace ws::io {

namespace {

// Counts read from a header are trusted for reservations only this far: a file that claims a
// billion vertices and holds ten fails when it ends, not when memory runs out.
constexpr std::size_t kMaxReserve = std::size_t(1) << 22;
// A polygon of more corners than this is no surface a mesh file means (a face of a million
// corners once took 80 s to take apart).
constexpr std::size_t kMostFaceCorners = 1024;

// Nothing but blank lines and comments may follow the elements a header declared.
void requireEnd(TextTokens& t, const std::string& declared) {
  t.requireEnd("data after the " + declared + " the header declared");
}
constexpr std::size_t kMaxVertices = std::numeric_limits<std::uint32_t>::max();

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// A face of `corners` vertex indices (already checked) as a triangle fan.
void addFace(TriangleMesh& mesh, const std::vector<std::uint32_t>& corners) {
  for (std::size_t i = 2; i < corners.size(); ++i)
    mesh.triangles.push_back({corners[0], corners[i - 1], corners[i]});
}

// ---- OBJ

TriangleMesh readObjTokens(TextTokens& t) {
  TriangleMesh mesh;
  std::vector<std::uint32_t> corners;
  while (t.nextLine()) {
    Token keyword;
    if (!t.onLine(keyword)) continue;
    if (keyword.text == "v") {
      std::array<float, 3> v;
      for (int a = 0; a < 3; ++a) {
        Token c;
        if (!t.onLine(c)) t.fail(keyword, "a vertex needs three coordinates");
        v[a] = t.real(c, "vertex coordinate");
      }
      if (mesh.vertices.size() == kMaxVertices) t.fail(keyword, "too many vertices");
      mesh.vertices.push_back(v);
    } else if (keyword.text == "f") {
      corners.clear();
      Token c;
      while (t.onLine(c)) {
        // "i", "i/t", "i//n" or "i/t/n": the vertex index comes first; negative counts back.
        const Token index{c.text.substr(0, c.text.find('/')), c.line, c.column};
        const long long i = t.integer(index, "face vertex index");
        const long long n = (long long)mesh.vertices.size();
        const long long at = i > 0 ? i - 1 : n + i;
        if (i == 0 || at < 0 || at >= n)
          t.fail(c, "face vertex index " + index.shown() +
                        " is out of range: " + std::to_string(n) + " vertices so far");
        corners.push_back(std::uint32_t(at));
        if (corners.size() > kMostFaceCorners)
          t.fail(c, "a face of more than " + std::to_string(kMostFaceCorners) + " vertices");
      }
      if (corners.size() < 3)
        t.fail(keyword, "a face needs at least three vertices, this one has " +
                            std::to_string(corners.size()));
      addFace(mesh, corners);
    }
    // Everything else (normals, texture coordinates, groups, materials, lines) is not geometry
    // this program uses.
  }
  return mesh;
}

// ---- OFF

TriangleMesh readOffTokens(TextTokens& t) {
  const Token magic = t.next("the OFF header");
  if (magic.text != "OFF" && magic.text != "COFF")
    t.fail(magic, "expected the header OFF (or COFF), found '" + magic.shown() + "'");
  const long long nv = t.count(t.next("the vertex count"), "vertex count");
  const long long nf = t.count(t.next("the face count"), "face count");
  t.count(t.next("the edge count"), "edge count");  // unused, but part of the header
  TriangleMesh mesh;
  mesh.vertices.reserve(std::min<std::size_t>(nv, kMaxReserve));
  for (long long i = 0; i < nv; ++i) {
    std::array<float, 3> v;
    for (int a = 0; a < 3; ++a)
      v[a] = t.real(t.next("vertex " + std::to_string(i)), "vertex coordinate");
    mesh.vertices.push_back(v);
    if (magic.text == "COFF")  // four colour components follow
      for (int c = 0; c < 4; ++c) t.next("vertex " + std::to_string(i) + "'s colour");
    Token extra;  // anything else on a vertex's line (a colour in plain OFF) is ignored
    while (t.onLine(extra)) {
    }
  }
  std::vector<std::uint32_t> corners;
  for (long long f = 0; f < nf; ++f) {
    const Token size = t.next("face " + std::to_string(f));
    const long long k = t.integer(size, "face size");
    if (k < 3) t.fail(size, "a face needs at least three vertices, this one has " + size.shown());
    if (std::size_t(k) > kMostFaceCorners)
      t.fail(size, "a face of more than " + std::to_string(kMostFaceCorners) + " vertices");
    corners.clear();
    for (long long c = 0; c < k; ++c) {
      const Token index = t.next("a vertex index of face " + std::to_string(f));
      const long long i = t.integer(index, "face vertex index");
      if (i < 0 || i >= nv)
        t.fail(index, "face vertex index " + index.shown() +
                          " is out of range: " + std::to_string(nv) + " vertices");
      corners.push_back(std::uint32_t(i));
    }
    addFace(mesh, corners);
    Token extra;  // a face colour, ignored
    while (t.onLine(extra)) {
    }
  }
  requireEnd(t, std::to_string(nv) + " vertices and " + std::to_string(nf) + " faces");
  return mesh;
}

// ---- PLY

enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

bool plyType(const std::string& name, PlyType& type) {
  static const std::pair<const char*, PlyType> names[] = {
      {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
      {"uint8", PlyType::UInt8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
      {"ushort", PlyType::UInt16},  {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
      {"int32", PlyType::Int32},    {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
      {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
      {"float64", PlyType::Float64}};
  for (const auto& [n, t] : names)
    if (name == n) return type = t, true;
  return false;
}

int plySize(PlyType t) {
  switch (t) {
    case PlyType::Int8:
    case PlyType::UInt8:
      return 1;
    case PlyType::Int16:
    case PlyType::UInt16:
      return 2;
    case PlyType::Int32:
    case PlyType::UInt32:
    case PlyType::Float32:
      return 4;
    case PlyType::Float64:
      return 8;
  }
  return 0;
}

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::Float32;
  bool list = false;
  PlyType countType = PlyType::UInt8;
};

struct PlyElement {
  std::string name;
  long long count = 0;
  std::vector<PlyProperty> properties;
};

// Values of a PLY body, ASCII or binary, with where they were for messages.
class PlyValues {
 public:
  PlyValues(TextTokens& text, std::string source, bool binary, bool bigEndian)
      : text_(text), source_(std::move(source)), binary_(binary), bigEndian_(bigEndian) {}

  double read(PlyType type, const std::string& what) {
    if (!binary_) {
      const Token t = text_.next(what);
      if (type == PlyType::Float32 || type == PlyType::Float64) {
        char* end = nullptr;
        const double v = std::strtod(t.text.c_str(), &end);
        if (end == t.text.c_str() || *end != '\0')
          text_.fail(t, what + ": '" + t.shown() + "' is not a number");
        return v;
      }
      return double(text_.integer(t, what.c_str()));
    }
    unsigned char bytes[8];
    const int size = plySize(type);
    if (!text_.stream().read(reinterpret_cast<char*>(bytes), size))
      throw InputError(source_ + ": byte " + std::to_string(offset_) + ": the file ends where " +
                       what + " should be (truncated?)");
    offset_ += size;
    if (bigEndian_ != (std::endian::native == std::endian::big)) std::reverse(bytes, bytes + size);
    auto as = [&bytes](auto value) {
      std::memcpy(&value, bytes, sizeof value);
      return double(value);
    };
    switch (type) {
      case PlyType::Int8:
        return as(std::int8_t());
      case PlyType::UInt8:
        return as(std::uint8_t());
      case PlyType::Int16:
        return as(std::int16_t());
      case PlyType::UInt16:
        return as(std::uint16_t());
      case PlyType::Int32:
        return as(std::int32_t());
      case PlyType::UInt32:
        return as(std::uint32_t());
      case PlyType::Float32:
        return as(float());
      case PlyType::Float64:
        return as(double());
    }
    return 0;
  }

  [[noreturn]] void fail(const std::string& problem) const {
    if (binary_) throw InputError(source_ + ": byte " + std::to_string(offset_) + ": " + problem);
    text_.fail(text_.line(), 1, problem);
  }
  void setOffset(std::streamoff offset) { offset_ = offset; }

 private:
  TextTokens& text_;
  std::string source_;
  bool binary_, bigEndian_;
  std::streamoff offset_ = 0;
};

// A number read from a binary file, for a message: any double (a huge one cannot become an
// integer).
std::string shownNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

TriangleMesh readPlyTokens(TextTokens& t, std::istream& in, const std::string& source) {
  Token token;
  if (!t.nextLine() || !t.onLine(token) || token.text != "ply")
    t.fail(1, 1, "expected 'ply' on the first line");
  bool binary = false, bigEndian = false, haveFormat = false;
  std::vector<PlyElement> elements;
  for (;;) {
    if (!t.nextLine()) t.fail(t.line() + 1, 1, "the header has no end_header line");
    Token keyword;
    if (!t.onLine(keyword)) continue;
    if (keyword.text == "end_header") break;
    if (keyword.text == "comment" || keyword.text == "obj_info") {
      t.rest();
    } else if (keyword.text == "format") {
      const Token f = t.next("the format");
      if (f.text == "ascii")
        binary = false;
      else if (f.text == "binary_little_endian")
        binary = true, bigEndian = false;
      else if (f.text == "binary_big_endian")
        binary = true, bigEndian = true;
      else
        t.fail(f, "unknown format '" + f.shown() +
                      "' (ascii, binary_little_endian, binary_big_endian)");
      const Token version = t.next("the format's version");
      if (version.text != "1.0")
        t.fail(version, "PLY version '" + version.shown() + "': this program reads 1.0");
      haveFormat = true;
      t.rest();
    } else if (keyword.text == "element") {
      PlyElement e;
      Token name, count;
      if (!t.onLine(name) || !t.onLine(count))
        t.fail(keyword, "an element needs a name and a count");
      e.name = name.text;
      e.count = t.count(count, "element count");
      elements.push_back(e);
    } else if (keyword.text == "property") {
      if (elements.empty()) t.fail(keyword, "a property before any element");
      PlyProperty p;
      Token type, name;
      if (!t.onLine(type)) t.fail(keyword, "a property needs a type and a name");
      if (type.text == "list") {
        Token countType;
        if (!t.onLine(countType) || !plyType(countType.text, p.countType))
          t.fail(type, "a list property needs a count type (uchar, int, ...)");
        if (!t.onLine(type)) t.fail(keyword, "a list property needs an item type");
        p.list = true;
      }
      if (!plyType(type.text, p.type)) t.fail(type, "unknown property type '" + type.shown() + "'");
      if (!t.onLine(name)) t.fail(keyword, "a property needs a name");
      p.name = name.text;
      elements.back().properties.push_back(p);
    } else {
      t.fail(keyword, "unknown header line '" + keyword.shown() + "'");
    }
  }
  if (!haveFormat) t.fail(t.line(), 1, "the header has no format line");

  PlyValues values(t, source, binary, bigEndian);
  if (binary) values.setOffset(in.tellg());
  TriangleMesh mesh;
  bool haveVertices = false;
  std::vector<std::uint32_t> corners;
  for (const PlyElement& e : elements) {
    const bool isVertex = e.name == "vertex", isFace = e.name == "face";
    int axis[3] = {-1, -1, -1}, indices = -1;
    for (std::size_t i = 0; i < e.properties.size(); ++i) {
      const std::string& n = e.properties[i].name;
      if (isVertex && n.size() == 1 && n[0] >= 'x' && n[0] <= 'z' && !e.properties[i].list)
        axis[n[0] - 'x'] = int(i);
      if (isFace && (n == "vertex_indices" || n == "vertex_index") && e.properties[i].list)
        indices = int(i);
    }
    if (isVertex) {
      if (axis[0] < 0 || axis[1] < 0 || axis[2] < 0)
        values.fail("the vertex element has no x, y and z properties");
      mesh.vertices.reserve(std::min<std::size_t>(e.count, kMaxReserve));
      haveVertices = true;
    }
    if (isFace && indices < 0) values.fail("the face element has no vertex_indices list");
    if (isFace && !haveVertices) values.fail("faces come before the vertices");
    if (e.properties.empty()) continue;  // its items hold nothing to read, however many
    for (long long item = 0; item < e.count; ++item) {
      const std::string what = json_input::brief(e.name) + " " + std::to_string(item);
      std::array<float, 3> v{};
      for (std::size_t i = 0; i < e.properties.size(); ++i) {
        const PlyProperty& p = e.properties[i];
        if (!p.list) {
          const double value = values.read(p.type, what);
          for (int a = 0; a < 3; ++a)
            if (int(i) == axis[a]) {
              if (!std::isfinite(value) || std::abs(value) > std::numeric_limits<float>::max())
                values.fail(what + ": coordinate " + p.name + " is not a finite number");
              v[a] = float(value);
            }
          continue;
        }
        const double k = values.read(p.countType, what + "'s list length");
        if (k < 0 || k > double(kMaxReserve))
          values.fail(what + ": a list of " + std::to_string(k) + " items");
        const bool faceList = int(i) == indices;
        if (faceList && k < 3)
          values.fail(what + ": a face needs at least three vertices, this one has " +
                      std::to_string(int(k)));
        if (faceList && k > double(kMostFaceCorners))
          values.fail(what + ": a face of more than " + std::to_string(kMostFaceCorners) +
                      " vertices");
        corners.clear();
        for (int c = 0; c < int(k); ++c) {
          const double index = values.read(p.type, what + "'s vertex index");
          if (!faceList) continue;
          if (!(index >= 0 && index < double(mesh.vertices.size())) || index != std::floor(index))
            values.fail(what + ": vertex index " + shownNumber(index) +
                        " is out of range: " + std::to_string(mesh.vertices.size()) + " vertices");
          corners.push_back(std::uint32_t(index));
        }
        if (faceList) addFace(mesh, corners);
      }
      if (isVertex) mesh.vertices.push_back(v);
    }
  }
  if (!haveVertices) values.fail("the file has no vertex element");
  std::string declared;  // for messages, briefly: a header may declare any number of elements
  for (const PlyElement& e : elements)
    declared += (declared.empty() ? "" : ", ") + std::to_string(e.count) + " " + e.name;
  declared = json_input::brief(declared, 200);
  if (binary) {
    if (in.peek() != std::char_traits<char>::eof())
      values.fail("data after the " + declared + " the header declared");
  } else {
    requireEnd(t, declared);
  }
  return mesh;
}

void requireContent(const TriangleMesh& mesh, const std::string& source) {
  if (mesh.vertices.empty() || mesh.triangles.empty())
    throw InputError(source + ": no triangles: a model needs a surface");
}

}  // namespace

MeshFormat meshFormatOf(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::string ext = dot == std::string::npos ? "" : lowercase(path.substr(dot + 1));
  if (ext == "obj") return MeshFormat::Obj;
  if (ext == "ply") return MeshFormat::Ply;
  if (ext == "off") return MeshFormat::Off;
  throw InputError("'" + json_input::brief(path) +
                   "': not a mesh file this program reads (.obj, .ply or .off)");
}

TriangleMesh readObj(std::istream& in, const std::string& source) {
  TextTokens t(in, source);
  TriangleMesh mesh = readObjTokens(t);
  requireContent(mesh, source);
  return mesh;
}

TriangleMesh readOff(std::istream& in, const std::string& source) {
  TextTokens t(in, source);
  TriangleMesh mesh = readOffTokens(t);
  requireContent(mesh, source);
  return mesh;
}

TriangleMesh readPly(std::istream& in, const std::string& source) {
  TextTokens t(in, source);
  TriangleMesh mesh = readPlyTokens(t, in, source);
  requireContent(mesh, source);
  return mesh;
}

TriangleMesh loadMesh(const std::string& path) {
  const MeshFormat format = meshFormatOf(path);
  std::ifstream in = openInputFile(path, "mesh file", 4096 * kMiB);
  switch (format) {
    case MeshFormat::Obj:
      return readObj(in, path);
    case MeshFormat::Off:
      return readOff(in, path);
    case MeshFormat::Ply:
    case MeshFormat::PlyBinary:
      return readPly(in, path);
  }
  return {};
}

void writeMesh(const TriangleMesh& mesh, std::ostream& out, MeshFormat format) {
  const auto nv = mesh.vertices.size(), nf = mesh.triangles.size();
  auto text = [&out](float v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", double(v));  // exact round trip
    out << buffer;
  };
  auto vertexLines = [&](const char* prefix) {
    for (const auto& v : mesh.vertices) {
      out << prefix;
      text(v[0]), out << ' ', text(v[1]), out << ' ', text(v[2]), out << '\n';
    }
  };
  switch (format) {
    case MeshFormat::Obj:
      vertexLines("v ");
      for (const auto& f : mesh.triangles)
        out << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << '\n';
      break;
    case MeshFormat::Off:
      out << "OFF\n" << nv << ' ' << nf << " 0\n";
      vertexLines("");
      for (const auto& f : mesh.triangles)
        out << "3 " << f[0] << ' ' << f[1] << ' ' << f[2] << '\n';
      break;
    case MeshFormat::Ply:
    case MeshFormat::PlyBinary: {
      const bool binary = format == MeshFormat::PlyBinary;
      out << "ply\nformat " << (binary ? "binary_little_endian" : "ascii")
          << " 1.0\ncomment warpscope\nelement vertex " << nv
          << "\nproperty float x\nproperty float y\nproperty float z\nelement face " << nf
          << "\nproperty list uchar int vertex_indices\nend_header\n";
      if (!binary) {
        vertexLines("");
        for (const auto& f : mesh.triangles)
          out << "3 " << f[0] << ' ' << f[1] << ' ' << f[2] << '\n';
        break;
      }
      static_assert(std::endian::native == std::endian::little, "binary PLY is written as is");
      for (const auto& v : mesh.vertices) out.write(reinterpret_cast<const char*>(v.data()), 12);
      for (const auto& f : mesh.triangles) {
        const char three = 3;
        const std::int32_t corners[3] = {std::int32_t(f[0]), std::int32_t(f[1]),
                                         std::int32_t(f[2])};
        out.write(&three, 1);
        out.write(reinterpret_cast<const char*>(corners), sizeof corners);
      }
      break;
    }
  }
}

void saveMesh(const TriangleMesh& mesh, const std::string& path, MeshFormat format) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError("cannot write mesh file '" + path + "'");
  writeMesh(mesh, out, format);
  if (!out) throw InputError("writing mesh file '" + path + "' failed");
}

std::vector<std::string> shippedMeshes() {
  return shippedNames(kMeshes);
}

std::string meshPathOf(const std::string& model) {
  return shippedPath(kMeshes, model).value_or(model);
}

std::string checkMeshName(const std::string& name, const std::vector<std::string>& shapes,
                          const std::string& what) {
  if (std::find(shapes.begin(), shapes.end(), name) != shapes.end()) return "";
  const std::string path = meshPathOf(name);
  if (pathExists(path)) {
    try {
      meshFormatOf(path);
      return "";
    } catch (const InputError& e) {
      return e.what();
    }
  }
  std::string known;
  for (const std::string& shape : shapes) known += (known.empty() ? "" : ", ") + shape;
  for (const std::string& mesh : shippedMeshes()) known += (known.empty() ? "" : ", ") + mesh;
  return "no " + what + " '" + json_input::brief(name) + "': a shape (" + known +
         ") or the path of an .obj, .ply or .off file";
}

}  // namespace ws::io
