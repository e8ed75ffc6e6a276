reset
set terminal pngcairo size 1200,2140 enhanced font 'sans,11'
set output "reduce_nvidia_h200.png"
set multiplot layout 4,1 title "reduce on NVIDIA H200 (median of 3 cards): best block per plugin and size" noenhanced font ',13'
reset
set title "float32, sum" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [4.47392e+07:4.02653e+08]
plot "reduce_nvidia_h200.dat" index 0 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h200.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h200.dat" index 2 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h200.dat" index 3 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     4133.100000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (4133 GB/s)"
reset
set title "float32, sumsq" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [4.47392e+07:4.02653e+08]
plot "reduce_nvidia_h200.dat" index 4 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h200.dat" index 5 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h200.dat" index 6 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h200.dat" index 7 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     4133.100000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (4133 GB/s)"
reset
set title "int32, sum" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [4.47392e+07:4.02653e+08]
plot "reduce_nvidia_h200.dat" index 8 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h200.dat" index 9 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h200.dat" index 10 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h200.dat" index 11 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     4133.100000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (4133 GB/s)"
reset
set title "int32, sumsq" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [4.47392e+07:4.02653e+08]
plot "reduce_nvidia_h200.dat" index 12 using 1:2 with linespoints lw 3 dt 2 pt 6 ps 1.3 lc rgb 'black' title "reduce/cub (the reference)", \
     "reduce_nvidia_h200.dat" index 13 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "reduce/fast", \
     "reduce_nvidia_h200.dat" index 14 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "reduce/tree_unrolled", \
     "reduce_nvidia_h200.dat" index 15 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#2ca02c' title "reduce/warp_shuffle", \
     4133.100000 with lines lw 2 dt 3 lc rgb 'gray40' title "measured copy bandwidth (4133 GB/s)"
unset multiplot
