#include "compute/core/ranks.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "compute/core/errors.h"

#if WS_WITH_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include <chrono>
#include <thread>
#endif

namespace ws {

namespace {

ranks::Handler handler = nullptr;

[[noreturn]] void endEverywhere(const std::string& why) {
  std::cerr << "warpscope: rank " << ranks::rank() << ": " << why << std::endl;
#if WS_WITH_MPI
  MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  std::abort();
}

}  // namespace

const std::byte* Call::take(std::size_t size) {
  if (read_ + size > bytes_.size()) endEverywhere("a call from rank 0 ended early");
  const std::byte* p = bytes_.data() + read_;
  read_ += size;
  return p;
}

namespace ranks {

void handleCalls(Handler h) {
  handler = h;
}

#if !WS_WITH_MPI

int start(int&, char**&) {
  return 1;
}
int rank() {
  return 0;
}
int count() {
  return 1;
}
int rankOnHost() {
  return 0;
}
int countOnHost() {
  return 1;
}
bool built() {
  return false;
}
bool cudaAware() {
  return false;
}
Wire& wire() {
  endEverywhere("this warpscope was built without MPI");
}
void send(const Call&) {}
int serve() {
  return 0;
}

#else

namespace {

int worldRank = 0, worldRanks = 1, hostRank = 0, hostRanks = 1;
// A halo's tags lie below 2^20 (Wire::post); rank 0's calls go with this one.
constexpr int kCallTag = 1 << 20;

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  endEverywhere(std::string(call) + " failed: " + std::string(text, length));
}

int byteCount(std::size_t bytes) {
  if (bytes > 2147483647u)
    throw InputError("a message between ranks of over 2 GB: split the work over more ranks");
  return int(bytes);
}

// MPI counts in int: a message of more (a lattice's state gathered to rank 0) goes as pieces of
// at most this, which MPI delivers in order between two ranks under one tag.
constexpr std::size_t kPieceBytes = std::size_t(1) << 30;
// Gathers go with this tag, above every halo's.
constexpr int kGatherTag = kCallTag + 1;

class MpiWire final : public Wire {
 public:
  int rank() const override { return worldRank; }
  int ranks() const override { return worldRanks; }
  void post(int to, int tag, const std::byte* bytes, std::size_t size) override {
    forEachPiece(size, [&](std::size_t offset, int count) {
      requests_.emplace_back();
      check(MPI_Isend(bytes + offset, count, MPI_BYTE, to, tag, MPI_COMM_WORLD, &requests_.back()),
            "MPI_Isend");
    });
  }
  void expect(int from, int tag, std::byte* into, std::size_t size) override {
    forEachPiece(size, [&](std::size_t offset, int count) {
      requests_.emplace_back();
      check(MPI_Irecv(into + offset, count, MPI_BYTE, from, tag, MPI_COMM_WORLD, &requests_.back()),
            "MPI_Irecv");
    });
  }
  void finish() override {
    check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    requests_.clear();
  }
  void sum(std::vector<double>& values) override { reduce(values, MPI_SUM); }
  void max(std::vector<double>& values) override { reduce(values, MPI_MAX); }
  std::vector<std::vector<std::byte> > gather(const std::vector<std::byte>& mine) override {
    std::uint64_t size = mine.size();
    std::vector<std::uint64_t> sizes(worldRank == 0 ? worldRanks : 0);
    check(MPI_Gather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    std::vector<std::vector<std::byte> > each(sizes.size());
    if (worldRank != 0) {
      post(0, kGatherTag, mine.data(), mine.size());
    } else {
      each[0] = mine;
      for (int r = 1; r < worldRanks; ++r) {
        each[r].resize(sizes[r]);
        expect(r, kGatherTag, each[r].data(), sizes[r]);
      }
    }
    finish();
    return each;
  }

 private:
  template <typename Piece>
  static void forEachPiece(std::size_t size, Piece piece) {
    std::size_t offset = 0;
    do {
      const std::size_t count = std::min(size - offset, kPieceBytes);
      piece(offset, int(count));
      offset += count;
    } while (offset < size);
  }
  static void reduce(std::vector<double>& values, MPI_Op op) {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, op,
                        MPI_COMM_WORLD),
          "MPI_Allreduce");
  }
  std::vector<MPI_Request> requests_;
};

bool running() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return !finalized;
}

// Rank 0 at exit: an empty call ends the other ranks' loops.
void endRun() {
  if (!running()) return;
  send(Call());
  MPI_Finalize();
}

// The next call from rank 0, waited for without spinning a core (the ranks may share the
// machine's cores with rank 0).
Call receive() {
  MPI_Status status;
  for (int waiting = 0;; ++waiting) {
    int arrived = 0;
    check(MPI_Iprobe(0, kCallTag, MPI_COMM_WORLD, &arrived, &status), "MPI_Iprobe");
    if (arrived) break;
    std::this_thread::sleep_for(std::chrono::microseconds(waiting < 1000 ? 20 : 500));
  }
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::vector<std::byte> bytes{std::size_t(size)};
  check(MPI_Recv(bytes.data(), size, MPI_BYTE, 0, kCallTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return Call(std::move(bytes));
}

bool launchedByMpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

int start(int& argc, char**& argv) {
  if (!launchedByMpirun()) return 1;
  // Rank 0 makes its calls from the lab's worker thread (app/long_work.h), one at a time.
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  MPI_Comm_size(MPI_COMM_WORLD, &worldRanks);
  MPI_Comm host;  // the ranks that share this machine
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, worldRank, MPI_INFO_NULL, &host),
        "MPI_Comm_split_type");
  MPI_Comm_rank(host, &hostRank);
  MPI_Comm_size(host, &hostRanks);
  MPI_Comm_free(&host);
  if (provided < MPI_THREAD_SERIALIZED && worldRank == 0)
    std::cerr << "warpscope: this MPI library takes calls from the first thread only; the "
                 "split lattice may fail"
              << std::endl;
  if (worldRank == 0) std::atexit(endRun);
  return worldRanks;
}
int rank() {
  return worldRank;
}
int count() {
  return worldRanks;
}
int rankOnHost() {
  return hostRank;
}
int countOnHost() {
  return hostRanks;
}
bool built() {
  return true;
}
bool cudaAware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}
Wire& wire() {
  static MpiWire instance;
  return instance;
}

void send(const Call& call) {
  if (!running()) return;
  const std::vector<std::byte>& bytes = call.bytes();
  for (int r = 1; r < worldRanks; ++r)
    check(MPI_Send(bytes.data(), byteCount(bytes.size()), MPI_BYTE, r, kCallTag, MPI_COMM_WORLD),
          "MPI_Send");
}

int serve() {
  for (;;) {
    Call call = receive();
    if (call.bytes().empty()) break;
    if (!handler) endEverywhere("a call came, and nothing here takes calls");
    try {
      handler(call);
    } catch (const InputError&) {
      // Rank 0 refuses the same call for the same reason (every rank checks the same things
      // before any message of the call passes between the ranks), and says why.
    } catch (const std::exception& e) {
      endEverywhere(std::string("failed: ") + e.what());
    }
  }
  MPI_Finalize();
  return 0;
}

#endif

}  // namespace ranks
}  // namespace ws
