reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "reduce_int32_sumsq_host_vm.png"
set title "reduce, int32, sumsq — host vm (best block per plugin and size)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "bandwidth (GB/s)" noenhanced
set logscale x 2
set yrange [0:*]
set xtics rotate by -30 noenhanced ("1048576" 1.04858e+06)
set xrange [699051:1.57286e+06]
plot "reduce_int32_sumsq_host_vm.dat" index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title "reduce/cpu"
