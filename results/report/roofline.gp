reset
set terminal pngcairo size 1500,850 enhanced font 'sans,11'
set output "roofline.png"
set title "Roofline: each plugin's best case per GPU model, under the model's roofs" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set xlabel "arithmetic intensity (FLOP per byte moved)" noenhanced
set ylabel "achieved GFLOP/s" noenhanced
set logscale xy 10
set format y '%.0s%c'
plot "roofline.dat" index 0 using 1:2 with lines lw 2 dt 1 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: copy 2943 GB/s", \
     "roofline.dat" index 1 using 1:2 with lines lw 2 dt 2 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: bf16 peak 1070531 GFLOP/s", \
     "roofline.dat" index 2 using 1:2 with lines lw 2 dt 3 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: fp32 peak 66908 GFLOP/s", \
     "roofline.dat" index 3 using 1:2 with lines lw 2 dt 4 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: tf32 peak 535265 GFLOP/s", \
     "roofline.dat" index 4 using 1:2 with lines lw 2 dt 1 lc rgb '#ff7f0e' title "NVIDIA H200: copy 4133 GB/s", \
     "roofline.dat" index 5 using 1:2 with lines lw 2 dt 2 lc rgb '#ff7f0e' title "NVIDIA H200: bf16 peak 1070531 GFLOP/s", \
     "roofline.dat" index 6 using 1:2 with lines lw 2 dt 3 lc rgb '#ff7f0e' title "NVIDIA H200: fp32 peak 66908 GFLOP/s", \
     "roofline.dat" index 7 using 1:2 with lines lw 2 dt 4 lc rgb '#ff7f0e' title "NVIDIA H200: tf32 peak 535265 GFLOP/s", \
     "roofline.dat" index 8 using 1:2 with points pt 7 ps 1.6 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: matmul", \
     "roofline.dat" index 9 using 1:2 with points pt 5 ps 1.6 lc rgb '#1f77b4' title "NVIDIA H100 80GB HBM3: reduce", \
     "roofline.dat" index 10 using 1:2 with points pt 7 ps 1.6 lc rgb '#ff7f0e' title "NVIDIA H200: matmul", \
     "roofline.dat" index 11 using 1:2 with points pt 5 ps 1.6 lc rgb '#ff7f0e' title "NVIDIA H200: reduce", \
     "roofline.dat" index 12 using 1:2 with lines lw 1 lc rgb 'gray60' notitle, \
     "roofline.dat" index 13 using 1:2:3:4 with labels left offset 0.3,0 font ',9' tc rgb variable noenhanced notitle
