// What the device measurably moves, measured once per worker: the roofs a memory-bound case is
// held to. `copy_gbps` (a device-to-device copy of 512 MiB, bytes read plus written) is the
// memory-bound cases' fraction_of_peak; a row's plausibility takes the faster of it and
// `read_gbps` (a kernel that only reads 512 MiB, as a reduction does) for DRAM, and `l2_gbps` (the
// same kernel over a quarter of the L2, read again and again) for a case whose bytes fit in L2.
#pragma once

namespace kb {

struct MeasuredBandwidth {
  double copy_gbps = 0, read_gbps = 0, l2_gbps = 0;  // 0: not measured
};

MeasuredBandwidth measure_bandwidth(int device);

}  // namespace kb
