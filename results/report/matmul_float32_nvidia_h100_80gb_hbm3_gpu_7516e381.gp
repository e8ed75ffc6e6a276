reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.png"
set title "matmul, float32 — NVIDIA H100 80GB HBM3 GPU-7516e381 (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "throughput (GFLOP/s)" noenhanced
set logscale x 2
set logscale y 10
set xtics rotate by -30 noenhanced ("1000x1000x1000" 1e+09)
set xrange [6.66667e+08:1.5e+09]
plot "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "matmul/cpu", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 1 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "matmul/cublas (cuBLAS)", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "matmul/cublas_tf32", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title "matmul/naive", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title "matmul/naive_kahan", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "matmul/naive_rows", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 6 using 1:2 with linespoints lw 2 pt 7 lc rgb '#8c564b' title "matmul/regblock", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 7 using 1:2 with linespoints lw 2 pt 7 lc rgb '#e377c2' title "matmul/row_shared", \
     "matmul_float32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 8 using 1:2 with linespoints lw 2 pt 7 lc rgb '#17becf' title "matmul/tiled"
