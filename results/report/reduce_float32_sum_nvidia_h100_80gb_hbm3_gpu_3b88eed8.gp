reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.png"
set title "reduce, float32, sum — NVIDIA H100 80GB HBM3 GPU-3b88eed8 (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set xtics rotate by -30 noenhanced ("10000003" 1e+07, "67108864" 6.71089e+07)
set xrange [6.66667e+06:1.00663e+08]
plot "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "reduce/cpu", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "reduce/cub", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title "reduce/fast", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title "reduce/kahan", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "reduce/single_thread", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#8c564b' title "reduce/tree_unrolled", \
     "reduce_float32_sum_nvidia_h100_80gb_hbm3_gpu_3b88eed8.dat" index 6 using 1:2 with linespoints lw 2 pt 7 lc rgb '#e377c2' title "reduce/warp_shuffle", \
     2951.000000 with lines lw 2 dt 3 lc rgb 'gray40' title "device copy bandwidth (2951 GB/s)"
