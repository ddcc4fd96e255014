# plot_throughput.gp: throughput against N, one line per code and thread (rank) count, from the
# medians.txt that bench/compare.sh writes (tab separated, header
# code N ranks steps runs wall_s pstep_s rss_mib z_pp).
# Usage: gnuplot -e "datafile='OUT/medians.txt'; outfile='OUT/throughput.png'; threads='1 2'" \
#                bench/plot_throughput.gp       (optional: law='hertz' names the law in the title)
# The file name must not contain spaces or quotes (compare.sh's OUT never does).

if (!exists("datafile")) datafile = "medians.txt"
if (!exists("outfile")) outfile = "throughput.png"
if (!exists("threads")) threads = "1 2"
if (!exists("law")) law = "linear"
codes = "cairn lammps liggghts"
names = "cairn LAMMPS LIGGGHTS"

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 960,600 enhanced font ",11"
} else {
  set terminal png size 960,600
}
set output outfile

# One series: N and the median particle-steps/s of one code at one thread count, by N.
series(c, t) = sprintf("< awk 'NR > 1 && $1 == \"%s\" && $3 == %s { print $2, $7 }' '%s' | sort -n", \
                       c, t, datafile)

stats sprintf("< awk 'NR > 1 { print $2 }' '%s'", datafile) using 1 nooutput
set logscale x
set xtics ("8 000" 8000, "64 000" 64000, "512 000" 512000)
set mxtics 10
set xrange [STATS_min / 2 : STATS_max * 2]
set yrange [0:*]
set format y "%.1e"
set xlabel "N (particles)"
set ylabel "particle-steps / s (median)"
set title (law eq "linear") ? "settled-box-sc: throughput of cairn and its peers" : \
          sprintf("settled-box-sc, %s law: throughput of cairn and its peers", law)
set key outside right top
set grid

nt = words(threads)
# Series k: code ci(k) (colour), thread count ti(k) (dash type and point type).
ci(k) = k / nt + 1
ti(k) = k % nt + 1
ptype(k) = (k % nt == 0) ? 7 : 5
unit(k) = sprintf("%s%s", (ci(k) == 1) ? "thread" : "rank", (word(threads, ti(k)) eq "1") ? "" : "s")
label(k) = sprintf("%s, %s %s", word(names, ci(k)), word(threads, ti(k)), unit(k))
plot for [k = 0 : 3 * nt - 1] series(word(codes, ci(k)), word(threads, ti(k))) \
     using 1:2 with linespoints lc ci(k) dt ti(k) pt ptype(k) ps 1.3 lw 2 title label(k)
