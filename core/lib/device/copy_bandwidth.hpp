// What the device measurably moves: a device-to-device copy of 512 MiB, the memory-bound cases'
// roof (`copy_gbps`), measured once per worker.
#pragma once

namespace kb {

// Bytes read plus bytes written, in GB/s.
double measure_copy_gbps(int device);

}  // namespace kb
