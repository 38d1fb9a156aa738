#pragma once
// Move-only owners of cudaMalloc'd arrays (and of pinned host memory). Allocation failures become
// OutOfMemoryError with the size asked for and the memory free, so a too-large grid is a message, not a crash. For the CUDA
// half of the code (compute/core/memory.h has what the host needs).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cuda_check.h"
#include "compute/core/errors.h"
#include "compute/core/memory.h"

namespace ws {

// Where a CudaArray's memory comes from: the device, or pinned (page-locked) host memory, which
// copies to and from the device use asynchronously on a stream and at the link's full speed (as a
// halo staged through the host between processes needs).
struct DeviceMemory {
  static constexpr const char* kName = "GPU memory";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static void release(void* p) { cudaFree(p); }
};
struct PinnedMemory {
  static constexpr const char* kName = "pinned host memory";
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
  static void release(void* p) { cudaFreeHost(p); }
};

template <typename T, typename Memory>
class CudaArray {
 public:
  CudaArray() = default;
  explicit CudaArray(std::size_t count) { allocate(count); }
  ~CudaArray() { release(); }
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;
  CudaArray(CudaArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  CudaArray& operator=(CudaArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  void allocate(std::size_t count) {
    release();
    if (count == 0) return;
    const cudaError_t status =
        Memory::allocate(reinterpret_cast<void**>(&data_), count * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clear the (non-sticky) error
      data_ = nullptr;
      throw OutOfMemoryError(std::string("out of ") + Memory::kName + " allocating " +
                             formatBytes(count * sizeof(T)));
    }
    WS_CUDA_CHECK(status);
    count_ = count;
  }
  void release() noexcept {
    if (data_) Memory::release(data_);
    data_ = nullptr;
    count_ = 0;
  }
  void zero() { WS_CUDA_CHECK(cudaMemset(data_, 0, bytes())); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

template <typename T>
using DeviceBuffer = CudaArray<T, DeviceMemory>;
template <typename T>
using PinnedBuffer = CudaArray<T, PinnedMemory>;

// A host array copied to a new device buffer (of at least one element, so that an empty array
// still has an address), and the first n elements of a device buffer copied back: into a new
// array, or into one the caller keeps (its memory reused: the pages of a new array cost more to
// touch than the copy into them).
template <typename T>
DeviceBuffer<T> toDevice(const std::vector<T>& host) {
  DeviceBuffer<T> device(host.empty() ? 1 : host.size());
  WS_CUDA_CHECK(
      cudaMemcpy(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}
template <typename T>
void copyToHost(const T* device, std::size_t n, std::vector<T>& host) {
  host.resize(n);
  WS_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
}
template <typename T>
std::vector<T> toHost(const T* device, std::size_t n) {
  std::vector<T> host;
  copyToHost(device, n, host);
  return host;
}

// One T in pinned host memory that kernels write directly (mapped, zero-copy). After the stream
// is synchronized the host reads it with no copy: a status flag that decides what to launch next
// costs a wait for the stream (about 6 us on an H200) instead of a copy back and the wait (about
// 13 us), and the host clears it without a memset on the device.
template <typename T>
class MappedHostValue {
 public:
  MappedHostValue() {
    WS_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&host_), sizeof(T), cudaHostAllocMapped));
    WS_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
  }
  ~MappedHostValue() { cudaFreeHost(host_); }
  MappedHostValue(const MappedHostValue&) = delete;
  MappedHostValue& operator=(const MappedHostValue&) = delete;

  // The host's view: read or write it only while no kernel that writes it is running.
  T& host() { return *host_; }
  T* device() { return device_; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
};

// Where a kernel writes results meant for a caller's array, which is either device memory (an
// interop-mapped GL buffer) or, when interop is unavailable, host memory. In the second case the
// kernel writes to a scratch buffer (kept between calls) and deliver() copies it to the host.
template <typename T>
class DeviceOutput {
 public:
  // The device pointer to write `count` elements for `target` to.
  T* prepare(T* target, std::size_t count, bool onDevice) {
    target_ = target;
    count_ = count;
    onDevice_ = onDevice;
    if (onDevice) return target;
    if (scratch_.size() < count) scratch_.allocate(count);
    return scratch_.data();
  }
  void deliver() {
    if (!onDevice_)
      WS_CUDA_CHECK(
          cudaMemcpy(target_, scratch_.data(), count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  DeviceBuffer<T> scratch_;
  T* target_ = nullptr;
  std::size_t count_ = 0;
  bool onDevice_ = true;
};

}  // namespace ws
