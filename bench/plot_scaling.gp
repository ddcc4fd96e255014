# plot_scaling.gp: strong scaling on the granular benchmark, from the medians.txt that
# bench/compare.sh writes with MPI=1 (tab separated, header
# code N ranks steps runs wall_s pstep_s rss_mib z_pp): particle-steps per second against the
# process count, one line per code and size (cairn: MPI ranks of one thread; cairn_omp: one rank
# of that many OpenMP threads; the peers: MPI ranks), and the ideal line from cairn's one rank.
# Usage: gnuplot -e "datafile='OUT/medians.txt'; outfile='docs/performance-scaling.png'" \
#                bench/plot_scaling.gp
if (!exists("datafile")) datafile = "medians.txt"
if (!exists("outfile")) outfile = "scaling.png"
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 960,600 enhanced font ",11"
} else {
  set terminal png size 960,600
}
set output outfile
series(c, n) = sprintf("< awk 'NR > 1 && $1 == \"%s\" && $2 == %s { print $3, $7 }' '%s' | sort -n", \
                       c, n, datafile)
ideal(n) = sprintf("< awk 'NR > 1 && $1 == \"cairn\" && $2 == %s && $3 == 1 { print 1, $7; print 2, 2 * $7 }' '%s'", \
                   n, datafile)
set xrange [0.8:2.6]
set xtics 1
set yrange [0:*]
set format y "%.1e"
set xlabel "processes (MPI ranks; cairn\\_omp: threads of one rank)"
set ylabel "particle-steps / s (median)"
set title "settled-box-sc: strong scaling from 1 to 2 processes"
set key top left font ",9" spacing 1.1
set grid
sizes = "64000 512000"
codes = "cairn cairn_omp lammps liggghts"
names = "cairn:ranks cairn:threads LAMMPS LIGGGHTS"
plot for [i = 1:2] for [c = 1:4] series(word(codes, c), word(sizes, i)) using 1:2 \
       with linespoints lw 2 pt (c + 4 * (i - 1)) dt i lc c \
       title sprintf("%s, N = %s", word(names, c), word(sizes, i)), \
     for [i = 1:2] ideal(word(sizes, i)) using 1:2 with lines lc rgb "#555555" dt 2 lw 1.5 \
       title sprintf("ideal from cairn's one rank, N = %s", word(sizes, i))
