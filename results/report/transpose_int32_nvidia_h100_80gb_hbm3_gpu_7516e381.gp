reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "transpose_int32_nvidia_h100_80gb_hbm3_gpu_7516e381.png"
set title "transpose, int32 — NVIDIA H100 80GB HBM3 GPU-7516e381 (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("1111x113" 125543)
set xrange [83695.3:188314]
plot "transpose_int32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "transpose/cpu", \
     "transpose_int32_nvidia_h100_80gb_hbm3_gpu_7516e381.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "transpose/shared", \
     2935.500000 with lines lw 2 dt 3 lc rgb 'gray40' title "device copy bandwidth (2936 GB/s)"
