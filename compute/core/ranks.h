#pragma once
// The processes of an MPI run: `mpirun -np N warpscope ...` runs rank 0 as the program (the
// window, the headless run, the benchmark) and every other rank as a server of rank 0's calls.
// A module whose work is split over the ranks (the LBM lattice, compute/lbm/lbm_mpi.h) sends each
// call to the others before it makes it itself, and every rank then makes it on its own part,
// passing halos, reductions and gathers through a Wire.
//
// Built without MPI (no libopenmpi-dev at configure time), or started without mpirun, there is
// one rank and nothing here does anything.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace ws {

// Messages between the processes of a run. Each call is made by every process in the same order.
class Wire {
 public:
  virtual ~Wire() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Point to point: sends and receives posted, then all finished together. Tags below 2^20.
  virtual void post(int to, int tag, const std::byte* bytes, std::size_t size) = 0;
  virtual void expect(int from, int tag, std::byte* into, std::size_t size) = 0;
  virtual void finish() = 0;
  // Over every process, in place.
  virtual void sum(std::vector<double>& values) = 0;
  virtual void max(std::vector<double>& values) = 0;
  // Each process's bytes to rank 0, in rank order (empty elsewhere).
  virtual std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) = 0;
};

// Each process's values to rank 0, in rank order (none elsewhere).
template <typename T>
std::vector<std::vector<T>> gatherValues(Wire& wire, const T* values, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto* p = reinterpret_cast<const std::byte*>(values);
  const std::vector<std::vector<std::byte>> each = wire.gather(
      count ? std::vector<std::byte>(p, p + count * sizeof(T)) : std::vector<std::byte>{});
  std::vector<std::vector<T>> out(each.size());
  for (std::size_t r = 0; r < each.size(); ++r) {
    out[r].resize(each[r].size() / sizeof(T));
    if (!out[r].empty()) std::memcpy(out[r].data(), each[r].data(), out[r].size() * sizeof(T));
  }
  return out;
}

// A call rank 0 sends the others: plain values and vectors of them, read back in order.
class Call {
 public:
  Call() = default;
  explicit Call(std::vector<std::byte> bytes) : bytes_(std::move(bytes)) {}

  template <typename T>
  Call& put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    append(&value, sizeof(T));
    return *this;
  }
  template <typename T>
  Call& put(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(std::uint64_t(values.size()));
    append(values.data(), values.size() * sizeof(T));
    return *this;
  }
  template <typename T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <typename T>
  std::vector<T> getVector() {
    const auto size = get<std::uint64_t>();
    std::vector<T> values(size);
    const std::byte* from = take(size * sizeof(T));
    if (size) std::memcpy(values.data(), from, size * sizeof(T));
    return values;
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  const std::byte* take(std::size_t size);  // ends the run where the call is short
  void append(const void* from, std::size_t size) {
    const std::size_t at = bytes_.size();
    bytes_.resize(at + size);
    if (size) std::memcpy(bytes_.data() + at, from, size);
  }

  std::vector<std::byte> bytes_;
  std::size_t read_ = 0;
};

namespace ranks {

// Starts MPI where a launcher (mpirun) started this process, and returns the ranks: 1 where none
// did or where warpscope was built without MPI. Rank 0 ends the run on every rank at exit.
int start(int& argc, char**& argv);
int rank();
int count();
int rankOnHost();   // among the ranks on this machine (each takes a GPU of its own where it can)
int countOnHost();  // the ranks on this machine
bool built();       // whether warpscope was built with MPI
// Whether the MPI library sends from and into device memory (CUDA-aware; Open MPI's
// MPIX_Query_cuda_support). warpscope stages the halo through pinned host memory either way.
bool cudaAware();

// The run's wire (only where count() > 1).
Wire& wire();

// Rank 0: a call to every other rank.
void send(const Call& call);

// What the other ranks do with each call: the module that splits its work over the ranks sets it
// (one module does: the LBM lattice).
using Handler = void (*)(Call& call);
void handleCalls(Handler handler);

// The loop of every rank but 0: gives each call from rank 0 to the handler until rank 0 ends the
// run. Returns the exit status.
int serve();

}  // namespace ranks
}  // namespace ws
