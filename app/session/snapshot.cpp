#include "app/session/snapshot.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "compute/core/errors.h"
#include "compute/core/input_file.h"
#include "compute/core/json_input.h"
#include "compute/core/memory.h"

namespace ws::app {

namespace {

constexpr std::string_view kMagic = "warpscope-checkpoint";

std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes) {
  for (const unsigned char byte : bytes) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;

std::string hashText(std::uint64_t hash) {
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016" PRIx64, hash);
  return text;
}

}  // namespace

std::string contentHash(std::string_view bytes) {
  return hashText(fnv1a(kFnvOffset, bytes));
}

std::string stateHash(const StateBlob& state) {
  const std::string meta = state.meta.dump();
  const std::uint64_t hash =
      fnv1a(fnv1a(kFnvOffset, meta),
            {reinterpret_cast<const char*>(state.data.data()), state.data.size()});
  return hashText(hash);
}

std::string fileHash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return contentHash(bytes);
}

std::string writeCheckpoint(const std::string& path, const LabSnapshot& snapshot) {
  nlohmann::json all = snapshot.meta;
  all["state"] = snapshot.state.meta;
  const std::string meta = all.dump();
  const std::string head = std::string(kMagic) + ' ' + std::to_string(kCheckpointVersion) + ' ' +
                           std::to_string(meta.size()) + ' ' +
                           std::to_string(snapshot.state.data.size()) + '\n' + meta;
  const std::string_view data(reinterpret_cast<const char*>(snapshot.state.data.data()),
                              snapshot.state.data.size());
  std::ofstream out(path, std::ios::binary);
  out << head << data;
  if (!out.flush()) throw InputError("cannot write checkpoint '" + path + "'");
  return hashText(fnv1a(fnv1a(kFnvOffset, head), data));  // fileHash(path), without reading it
}

LabSnapshot readCheckpoint(const std::string& path) {
  std::ifstream in = openInputFile(path, "checkpoint", ~std::uintmax_t(0));
  const std::string where = "checkpoint '" + path + "'";
  // The header is one short line; its sizes are checked against the file's before anything is
  // allocated for them.
  std::string header;
  for (char c; header.size() < 100 && in.get(c) && c != '\n';) header += c;
  std::istringstream fields(header);
  std::string magic;
  long long version = 0, metaBytes = -1, dataBytes = -1;
  std::string more;
  fields >> magic >> version >> metaBytes >> dataBytes;
  if (magic != kMagic || !fields || (fields >> more) || metaBytes < 0 || dataBytes < 0)
    throw InputError(where + " is not a warpscope checkpoint (its first line is not '" +
                     std::string(kMagic) + " <version> <bytes> <bytes>')");
  if (version < 1 || version > kCheckpointVersion)
    throw InputError(where + " is of version " + std::to_string(version) +
                     "; this warpscope reads versions 1 to " + std::to_string(kCheckpointVersion));
  const std::streamoff start = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff rest = in.tellg() - start;
  in.seekg(start);
  if (metaBytes > rest || dataBytes != rest - metaBytes)
    throw InputError(where + " is truncated or has trailing bytes (its header promises " +
                     std::to_string(metaBytes) + " bytes of metadata and " +
                     std::to_string(dataBytes) + " of state; " + std::to_string(rest) +
                     " follow the header)");
  requireHostMemory(double(rest), where);
  std::string meta(std::size_t(metaBytes), '\0');
  LabSnapshot snapshot;
  snapshot.state.data.resize(std::size_t(dataBytes));
  in.read(meta.data(), metaBytes);
  in.read(reinterpret_cast<char*>(snapshot.state.data.data()), dataBytes);
  if (!in) throw InputError("cannot read " + where);
  snapshot.meta = json_input::parse(meta, "the metadata of " + where);
  if (!snapshot.meta.is_object()) throw InputError(where + ": its metadata is not an object");
  for (const char* key : {"module", "backend", "variant", "params", "state"})
    if (!snapshot.meta.contains(key))
      throw InputError(where + ": its metadata has no \"" + key + "\"");
  snapshot.state.meta = snapshot.meta["state"];
  snapshot.meta.erase("state");
  return snapshot;
}

}  // namespace ws::app
