reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.png"
set title "reduce, int32, sumsq — NVIDIA H200 GPU-ac54eae4 (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set logscale y 10
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06, "67108864" 6.71089e+07, "268435456" 2.68435e+08)
set xrange [699051:4.02653e+08]
plot "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "reduce/cpu", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#ff7f0e' title "reduce/cub", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#2ca02c' title "reduce/fast", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title "reduce/multi_block", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#9467bd' title "reduce/one_block_chunked", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#8c564b' title "reduce/one_block_strided", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 6 using 1:2 with linespoints lw 2 pt 7 lc rgb '#e377c2' title "reduce/single_thread", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 7 using 1:2 with linespoints lw 2 pt 7 lc rgb '#17becf' title "reduce/tree_interleaved", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 8 using 1:2 with linespoints lw 2 pt 7 lc rgb '#bcbd22' title "reduce/tree_sequential", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 9 using 1:2 with linespoints lw 2 pt 7 lc rgb '#393b79' title "reduce/tree_unrolled", \
     "reduce_int32_sumsq_nvidia_h200_gpu_ac54eae4.dat" index 10 using 1:2 with linespoints lw 2 pt 5 lc rgb '#1f77b4' title "reduce/warp_shuffle", \
     4140.500000 with lines lw 2 dt 3 lc rgb 'gray40' title "device copy bandwidth (4140 GB/s)"
