reset
set terminal pngcairo size 1200,2140 enhanced font 'sans,11'
set output "reduce_nvidia_h100_80gb_hbm3.png"
set multiplot layout 4,1 title "reduce on NVIDIA H100 80GB HBM3 (median of 3 cards): best block per plugin and size" noenhanced font ',13'
reset
set title "float32, sum" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06, "67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [699051:4.02653e+08]
plot "reduce_nvidia_h100_80gb_hbm3.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "reduce/cpu", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 1 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 3 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#393b79' title "reduce/kahan", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 4 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "reduce/multi_block", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 5 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "reduce/one_block_chunked", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 6 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "reduce/one_block_strided", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 7 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#1f77b4' title "reduce/single_thread", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 8 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "reduce/tree_interleaved", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 9 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "reduce/tree_sequential", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 10 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 11 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
reset
set title "float32, sumsq" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06, "67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [699051:4.02653e+08]
plot "reduce_nvidia_h100_80gb_hbm3.dat" index 12 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "reduce/cpu", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 13 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 14 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 15 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#393b79' title "reduce/kahan", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 16 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "reduce/multi_block", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 17 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "reduce/one_block_chunked", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 18 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "reduce/one_block_strided", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 19 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#1f77b4' title "reduce/single_thread", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 20 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "reduce/tree_interleaved", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 21 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "reduce/tree_sequential", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 22 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 23 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
reset
set title "int32, sum" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06, "67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [699051:4.02653e+08]
plot "reduce_nvidia_h100_80gb_hbm3.dat" index 24 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "reduce/cpu", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 25 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 26 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 27 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "reduce/multi_block", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 28 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "reduce/one_block_chunked", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 29 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "reduce/one_block_strided", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 30 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#1f77b4' title "reduce/single_thread", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 31 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "reduce/tree_interleaved", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 32 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "reduce/tree_sequential", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 33 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 34 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
reset
set title "int32, sumsq" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06, "67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [699051:4.02653e+08]
plot "reduce_nvidia_h100_80gb_hbm3.dat" index 35 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#d62728' title "reduce/cpu", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 36 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 37 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 38 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#9467bd' title "reduce/multi_block", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 39 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#8c564b' title "reduce/one_block_chunked", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 40 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#e377c2' title "reduce/one_block_strided", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 41 using 1:2 with linespoints lw 2 dt 3 pt 5 lc rgb '#1f77b4' title "reduce/single_thread", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 42 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#17becf' title "reduce/tree_interleaved", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 43 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#bcbd22' title "reduce/tree_sequential", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 44 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h100_80gb_hbm3.dat" index 45 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     2942.900000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (2943 GB/s)"
unset multiplot
