#!/bin/sh
# Runs the lab-test examples behind docs/labtests.md's three results tables (biaxial_2d,
# triaxial_3d and periodic_shear_3d, small and full), one at a time on one thread, and prints
# each table's header and rows in its format: the count of balls, the porosity (void ratio)
# after consolidation, the peak and residual (critical-state) values, the volumetric strain
# (void ratio) at the end, steps and CPU (the CPU time the run prints). After each table, a line
# per row gives the figures the prose around it quotes: the Love-Weber check, the largest
# inertial number and the inner measurement region's distance from the walls' stresses.
# Usage: examples/labtests/table.sh [CAIRN [DIR [RUN...]]]  (CAIRN: the cairn to run, default
# build/cairn; DIR: where the runs write their files, default lab_table; RUN: a case
# (biaxial_2d, triaxial_3d, periodic_shear_3d), a size (small, full) or both (biaxial_2d/full),
# default all six runs). Each size gets DIR/<size>/, so DIR/full/biaxial_2d/biaxial_2d.png and
# the like are the docs' figures, and each run's output is kept in DIR/<size>/<case>.log.
# LAB_TABLE_REUSE=1 prints the rows from the logs and files an earlier run left in DIR, running
# nothing. The full sizes take minutes each.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cairn=$(cd "$(dirname "${1:-build/cairn}")" && pwd)/$(basename "${1:-build/cairn}")
dir=${2:-lab_table}
[ $# -gt 2 ] && shift 2 || set --
reuse=${LAB_TABLE_REUSE:-0}

# selected CASE SIZE: whether the command line asks for that run
selected() {
  [ $# -eq 0 ] && return 0
  c=$1 s=$2
  shift 2
  [ $# -eq 0 ] && return 0
  for r in "$@"; do
    case $r in "$c" | "$s" | "$c/$s") return 0 ;; esac
  done
  return 1
}

for case in biaxial_2d triaxial_3d periodic_shear_3d; do
  rows="" notes=""
  for size in small full; do
    selected "$case" "$size" "$@" || continue
    mkdir -p "$dir/$size"
    log=$dir/$size/$case.log
    if [ "$reuse" != 1 ]; then
      (cd "$dir/$size" && LAB_SIZE=$size OMP_NUM_THREADS=1 "$cairn" run "$here/$case.lua" \
        --quiet) >"$log"
    fi
    out=$(awk -v case="$case" -v size="$size" -v csv="$dir/$size/$case/$case.csv" '
      # 1234567 -> "1 234 567", as the docs group digits
      function group(n,   s, out) {
        s = sprintf("%d", n); out = ""
        while (length(s) > 3) {
          out = " " substr(s, length(s) - 2) out
          s = substr(s, 1, length(s) - 3)
        }
        return s out
      }
      function cpu(t) { return t < 10 ? sprintf("%.1f s", t) : sprintf("%.0f s", t) }
      # -0.0163 -> "−0.016 (dilation)", with the docs minus sign
      function volumetric(e,   s) {
        s = sprintf("%.3f", e)
        if (e < 0) return "−" substr(s, 2) " (dilation)"
        return s " (contraction)"
      }
      # the field after the word w (and the word before it, v, where given), its trailing
      # punctuation taken off
      function after(w, v,   i, x) {
        for (i = 1; i < NF; i++)
          if ($i == w && (v == "" || $(i - 1) == v)) {
            x = $(i + 1); gsub(/[;,]$/, "", x); return x
          }
        return ""
      }
      / consolidated to / {
        balls = $2
        if (case == "periodic_shear_3d") e0 = after("ratio", "void")
        else por = after("porosity")
      }
      / differ by / { love = after("by") }
      / peak friction angle / {
        peak = after("angle"); ea = after("strain"); res = after("residual")
      }
      / volumetric strain at the end / { ev = after("end") }
      / peak stress ratio / {
        peak = after("ratio"); phip = after("angle"); gp = after("strain")
      }
      / critical state / {
        for (i = 1; i < NF; i++) if ($i == "ratio" && $(i - 1) == "stress") {
          cs = $(i + 1); phics = $(i + 2); sub(/^\(/, "", phics)
        }
      }
      / largest inertial number / { inertial = after("number") }
      / inner measurement region/ { region = after("walls\047:") }
      / steps, / { steps = $2; t = $(NF - 3) }
      END {
        if (case == "periodic_shear_3d") {
          # the void ratio at the end: the last row of the histories
          while ((getline line < csv) > 0) {
            n = split(line, f, ",")
            if (col == 0) { for (i = 1; i <= n; i++) if (f[i] == "void_ratio") col = i }
            else eend = f[col]
          }
          printf("| %s | %s | %.3f | %.3f (%.1f°) at γ = %.3f | %.3f (%.1f°) | %.3f | %s | %s |\n",
                 size, group(balls), e0, peak, phip, gp, cs, phics, eend, group(steps), cpu(t))
          printf("%s, %s: largest inertial number %s\n", case, size, inertial)
        } else {
          printf("| %s | %s | %.3f | %.1f° at ε_a = %.3f | %.1f° | %s | %s | %s |\n", size,
                 group(balls), por, peak, ea, res, volumetric(ev), group(steps), cpu(t))
          printf("%s, %s: Love-Weber average against the walls %s; largest inertial number " \
                 "%s; inner region up to %s %% from the walls\n", case, size, love, inertial,
                 region)
        }
      }' "$log")
    rows="$rows$(echo "$out" | head -n 1)
"
    notes="$notes$(echo "$out" | tail -n +2)
"
  done
  [ -n "$rows" ] || continue
  case $case in
  biaxial_2d) b=disks p="porosity after consolidation" r="peak φ | residual φ"
    v="volumetric strain at the end" ;;
  triaxial_3d) b=spheres p="porosity after consolidation" r="peak φ | residual φ"
    v="volumetric strain at the end" ;;
  *) b=spheres p="void ratio after consolidation" r="peak τ/σ_n | critical state τ/σ_n"
    v="void ratio at the end" ;;
  esac
  echo "$case:"
  echo "| size | $b | $p | $r | $v | steps | CPU |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s' "$rows"
  printf '%s\n' "$notes"
done
