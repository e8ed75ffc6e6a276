reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.png"
set title "matmul, float32 — NVIDIA H100 80GB HBM3 GPU-9a530519 (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "throughput (GFLOP/s)" noenhanced
set logscale x 2
set logscale y 10
set xtics rotate by -30 noenhanced ("4096x4096x4096" 6.87195e+10)
set xrange [4.5813e+10:1.03079e+11]
plot "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 0 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "matmul/cublas (cuBLAS)", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "matmul/cublas_tf32", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "matmul/regblock", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title "matmul/tensor_bf16", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title "matmul/tensor_mma", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "matmul/tensor_wgmma", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_9a530519.dat" index 6 using 1:2 with linespoints lw 2 pt 7 lc rgb '#8c564b' title "matmul/tiled"
