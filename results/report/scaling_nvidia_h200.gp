reset
set terminal pngcairo size 1200,750 enhanced font 'sans,11'
set output "scaling_nvidia_h200.png"
set title "Speed-up of NVIDIA H200 over NVIDIA H100 80GB HBM3 per plugin: measured and predicted by its bound" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set ylabel "speed-up (> 1: faster on NVIDIA H200)" noenhanced
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by 90 right noenhanced
set key outside top center horizontal
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot "scaling_nvidia_h200.dat" using 2:xtic(1) lc rgb '#1f77b4' title "measured", \
     "scaling_nvidia_h200.dat" using 3 lc rgb '#ff7f0e' title "predicted", \
     1 with lines lw 2 dt 2 lc rgb 'black' title 'equal (1x)'
