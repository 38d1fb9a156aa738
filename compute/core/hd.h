#pragma once
// Marks functions that compile for both the host and the device, so the CPU implementation and the
// CUDA kernels share one definition of the arithmetic (and so agree bit for bit).
#ifdef __CUDACC__
#define WS_HD __host__ __device__ __forceinline__
#else
#define WS_HD inline
#endif

// Unrolls the loop that follows in device code (the host compiler decides for itself).
#ifdef __CUDACC__
#define WS_UNROLL _Pragma("unroll")
#else
#define WS_UNROLL
#endif
