reset
set terminal pngcairo size 1200,580 enhanced font 'sans,11'
set output "hello_nvidia_h100_80gb_hbm3.png"
set multiplot layout 1,1 title "hello on NVIDIA H100 80GB HBM3: best block per plugin and size" noenhanced font ',13'
reset
set title "none" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "problem size (shape; elements on a log scale)" noenhanced
set ylabel "time per launch (us)" noenhanced
set logscale x 2
set logscale y 10
set format y '%.0s%c'
set xtics rotate by -30 noenhanced ("5" 5, "32" 32, "1024" 1024)
set xrange [3.33333:1536]
plot "hello_nvidia_h100_80gb_hbm3.dat" index 0 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#1f77b4' title "hello/printf", \
     "hello_nvidia_h100_80gb_hbm3.dat" index 1 using 1:2 with linespoints lw 2 dt 1 pt 7 lc rgb '#ff7f0e' title "hello/record"
unset multiplot
