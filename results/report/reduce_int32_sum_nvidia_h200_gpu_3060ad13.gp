reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "reduce_int32_sum_nvidia_h200_gpu_3060ad13.png"
set title "reduce, int32, sum — NVIDIA H200 GPU-3060ad13 (best block per plugin and size)" noenhanced
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
plot "reduce_int32_sum_nvidia_h200_gpu_3060ad13.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "reduce/cub", \
     "reduce_int32_sum_nvidia_h200_gpu_3060ad13.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "reduce/fast", \
     4109.000000 with lines lw 2 dt 3 lc rgb 'gray40' title "device copy bandwidth (4109 GB/s)"
