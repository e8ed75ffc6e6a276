reset
set terminal pngcairo size 1200,1100 enhanced font 'sans,11'
set output "transpose_nvidia_h100_80gb_hbm3.png"
set multiplot layout 2,1 title "transpose on NVIDIA H100 80GB HBM3 (median of 4 cards): best block per plugin and size" noenhanced font ',13'
reset
set title "float32" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("2048x2048" 4.1943e+06, "8192x4096" 3.35544e+07, "8192x8192" 6.71089e+07)
set xrange [2.7962e+06:1.00663e+08]
plot "transpose_nvidia_h100_80gb_hbm3.dat" index 0 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "transpose/copy (the reference)", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "transpose/cpu", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "transpose/cublas", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 3 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "transpose/fast", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 4 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "transpose/naive_col", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 5 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "transpose/naive_row", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 6 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "transpose/shared", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 7 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "transpose/shared_padded", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 8 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "transpose/shared_swapped_index", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 9 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "transpose/tiled_coarse", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
reset
set title "float64" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("2048x2048" 4.1943e+06, "8192x4096" 3.35544e+07, "8192x8192" 6.71089e+07)
set xrange [2.7962e+06:1.00663e+08]
plot "transpose_nvidia_h100_80gb_hbm3.dat" index 10 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "transpose/copy (the reference)", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 11 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "transpose/cpu", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 12 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "transpose/cublas", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 13 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "transpose/fast", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 14 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "transpose/naive_col", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 15 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "transpose/naive_row", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 16 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "transpose/shared", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 17 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "transpose/shared_padded", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 18 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "transpose/shared_swapped_index", \
     "transpose_nvidia_h100_80gb_hbm3.dat" index 19 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "transpose/tiled_coarse", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
unset multiplot
