/* kbench
{
  // The seeds' shared-memory transpose tile with one extra column against bank conflicts
  // (seed 000), exactly as the in-tree strategy transpose/shared_padded runs it: the tile is the
  // (square) block, so --blocks 32x32 is the seeds' 32x32 padded tile. T is the case's data type,
  // passed as -DT=float (see docs/kernel-files.md).
  "family": "transpose",
  "entry": "transpose_tile",
  "dtypes": ["float32", "float64", "int32"],
  "params": ["input:0", "output:0", "rows:int64", "cols:int64"],
  "block": ["bx", "by"],
  "grid": ["cdiv(cols, bx)", "cdiv(rows, bx)"],
  "shared_bytes": "bx * (bx + 1) * elem_bytes",
  "requires": ["bx == by", "bx <= 32", "bz == 1"]
}
*/
// A block loads a square tile of the input along its rows and writes the transposed tile along
// the rows of the output, so both global accesses are coalesced; the tile is read down its
// columns, and the extra column puts the 32 threads of a warp in 32 banks. The kernel is
// plugins/transpose/shared_tile.cuh's transpose_shared_tile<T, 1, false>, word for word.
extern "C" __global__ void transpose_tile(const T* in, T* out, long long rows, long long cols) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes);
  const int side = blockDim.x;  // the tile is the (square) block
  const int pitch = side + 1;
  const int along = threadIdx.x;  // consecutive along a row of memory
  const int across = threadIdx.y;
  const long long r0 = blockIdx.y * static_cast<long long>(side);
  const long long c0 = blockIdx.x * static_cast<long long>(side);

  if (r0 + across < rows && c0 + along < cols) {
    tile[across * pitch + along] = in[(r0 + across) * cols + c0 + along];
  }
  __syncthreads();
  if (c0 + across < cols && r0 + along < rows) {
    out[(c0 + across) * rows + r0 + along] = tile[along * pitch + across];
  }
}
