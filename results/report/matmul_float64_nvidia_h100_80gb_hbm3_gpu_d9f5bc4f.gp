reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.png"
set title "matmul, float64 — NVIDIA H100 80GB HBM3 GPU-d9f5bc4f (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "throughput (GFLOP/s)" noenhanced
set logscale x 2
set logscale y 10
set xtics rotate by -30 noenhanced ("128x128x128" 2.09715e+06, "256x256x256" 1.67772e+07, "512x512x512" 1.34218e+08, "1024x1024x1024" 1.07374e+09, "2048x2048x2048" 8.58993e+09)
set xrange [1.3981e+06:1.28849e+10]
plot "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 0 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "matmul/cublas (cuBLAS)", \
     "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "matmul/naive", \
     "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "matmul/naive_cols", \
     "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title "matmul/naive_rows", \
     "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title "matmul/tiled", \
     "matmul_float64_nvidia_h100_80gb_hbm3_gpu_d9f5bc4f.dat" index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "matmul/tiled_padded"
