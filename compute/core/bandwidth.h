#pragma once
// The memory bandwidth this GPU actually reaches: a large device-to-device copy, counting bytes
// read plus bytes written, median of several runs. The overlay's "% of bandwidth" is against it.
namespace ws {

struct BandwidthMeasurement {
  double bytesPerSecond = 0;
  double bufferBytes = 0;
};

// Measures now (about 0.1 s on a large GPU); throws CudaError.
BandwidthMeasurement measureCopyBandwidth();
// The last measurement, measured on first use; 0 when there is no GPU.
double measuredBandwidth();
void remeasureBandwidth();

}  // namespace ws
