#pragma once
// The memory bandwidth this GPU actually reaches: a large device-to-device copy, counting bytes
// read plus bytes written, median of several runs. The overlay's "% of bandwidth" is against it.
namespace ws {

// Measures now, in bytes per second (about 0.1 s on a large GPU); throws CudaError.
double measureCopyBandwidth();
// The last measurement, measured on first use; 0 when there is no GPU.
double measuredBandwidth();
void remeasureBandwidth();

}  // namespace ws
