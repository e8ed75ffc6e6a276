reset
set terminal pngcairo size 1200,650 enhanced font 'sans,11'
set output "gpu_ratio.png"
set title "Speed-up over NVIDIA H100 80GB HBM3 GPU-d9f5bc4f per plugin (geometric mean over shared cases)" noenhanced
set datafile separator '\t'
set datafile missing '-'
set grid
set key outside right top noenhanced
set ylabel "speed-up (time on NVIDIA H100 80GB HBM3 GPU-d9f5bc4f / time on the other GPU)" noenhanced
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by 45 right noenhanced
set key outside top center horizontal
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot "gpu_ratio.dat" using 2:xtic(1) title "NVIDIA H100 80GB HBM3 GPU-3b88eed8 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 3 title "NVIDIA H100 80GB HBM3 GPU-9a530519 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 4 title "NVIDIA H100 80GB HBM3 GPU-3114e7a7 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 5 title "NVIDIA H200 GPU-3060ad13 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 6 title "NVIDIA H200 GPU-07575586 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 7 title "NVIDIA H200 GPU-ac54eae4 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 8 title "NVIDIA H200 GPU-f8b6eed5 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     "gpu_ratio.dat" using 9 title "NVIDIA H200 GPU-f98dd571 / NVIDIA H100 80GB HBM3 GPU-d9f5bc4f", \
     1 with lines lw 2 dt 2 lc rgb 'black' title 'equal (1x)'
