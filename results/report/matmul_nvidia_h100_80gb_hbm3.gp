reset
set terminal pngcairo size 1200,580 enhanced font 'sans,11'
set output "matmul_nvidia_h100_80gb_hbm3.png"
set multiplot layout 1,1 title "matmul on NVIDIA H100 80GB HBM3 (median of 4 cards): best block per plugin and size" noenhanced font ',13'
reset
set title "float32" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "throughput (GFLOP/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("1024x1024x1024" 1.07374e+09, "4096x4096x4096" 6.87195e+10, "8192x8192x8192" 5.49756e+11)
set xrange [7.15828e+08:8.24634e+11]
plot "matmul_nvidia_h100_80gb_hbm3.dat" index 0 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#d62728' title "matmul/cpu", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 1 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "matmul/cublas (the reference)", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "matmul/cublas_bf16", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 3 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "matmul/cublas_tf32", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 4 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "matmul/naive", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 5 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "matmul/naive_cols", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 6 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#393b79' title "matmul/naive_kahan", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 7 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#1f77b4' title "matmul/naive_rows", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 8 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "matmul/regblock", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 9 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#ff7f0e' title "matmul/row_shared", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 10 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "matmul/tensor_bf16", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 11 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "matmul/tensor_mma", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 12 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "matmul/tensor_wgmma", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 13 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "matmul/tiled", \
     "matmul_nvidia_h100_80gb_hbm3.dat" index 14 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#2ca02c' title "matmul/tiled_padded"
unset multiplot
