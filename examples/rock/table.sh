#!/bin/sh
# Runs the rock examples behind docs/rock.md's results table (ucs_2d, ucs_3d and brazilian_2d,
# small and full, seed 1), one at a time on one thread, and prints the table's rows in its
# format: balls, porosity, bonds, peak strength, E, nu, cracks (at the peak), steps, CPU.
# Usage: examples/rock/table.sh [CAIRN] [DIR]  (CAIRN: the cairn to run, default build/cairn;
# DIR: where the runs write their files, default rock_table; each case gets DIR/<size>/, so
# DIR/full/ucs_2d/ucs_2d_curve.png and the like are the docs' figures). The full sizes take
# minutes each.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cairn=$(cd "$(dirname "${1:-build/cairn}")" && pwd)/$(basename "${1:-build/cairn}")
dir=${2:-rock_table}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%s%s\n' "| test | balls | porosity | bonds | peak strength | E | ν " \
  "| cracks (at the peak) | steps | CPU |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for case in ucs_2d ucs_3d brazilian_2d; do
  for size in small full; do
    mkdir -p "$dir/$size"
    (cd "$dir/$size" && ROCK_SIZE=$size OMP_NUM_THREADS=1 "$cairn" run "$here/$case.lua" \
      --quiet) >"$log"
    awk -v case="$case" -v size="$size" '
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
      $2 ~ /^[0-9]+$/ && ($3 == "balls," || $3 == "disks,") {
        balls = $2; por = $5; sub(/,$/, "", por)
        for (i = 1; i <= NF; i++) if ($(i + 1) == "bonds") bonds = $i
      }
      / peak strength / {
        for (i = 1; i <= NF; i++) {
          if ($i == "strength" && $(i - 1) == "peak") peak = $(i + 1)
          if ($i == "strain") { strain = $(i + 1); sub(/;$/, "", strain) }
          if ($i == "modulus") E = $(i + 1)
          if ($i == "ratio") { nu = $(i + 1); sub(/;$/, "", nu) }
          if ($i == "cracks") { cracks = $(i - 1); atpeak = $(i + 1); sub(/^\(/, "", atpeak) }
        }
      }
      / peak load / {
        for (i = 1; i <= NF; i++) {
          if ($i == "load") F = $(i + 1)
          if ($i == "=") sigt = $(i + 1)
          if ($i == "cracks") { cracks = $(i - 1); atpeak = $(i + 1); sub(/^\(/, "", atpeak) }
        }
      }
      / steps of / { steps = $2; t = $(NF - 3) }
      END {
        name = case == "ucs_2d" ? "UCS 2D" : case == "ucs_3d" ? "UCS 3D" : "Brazilian 2D"
        if (case == "brazilian_2d")
          printf("| %s, %s | %s | %s | %s | σ_t = %.2f MPa (F = %.0f kN/m) | | " \
                 "| %s (%s) | %s | %s |\n", name, size, group(balls), por, group(bonds),
                 sigt, F, cracks, atpeak, group(steps), cpu(t))
        else
          printf("| %s, %s | %s | %s | %s | %.1f MPa at ε = %#.3g | %.1f GPa | %s " \
                 "| %s (%s) | %s | %s |\n", name, size, group(balls), por, group(bonds),
                 peak, strain, E, nu, group(cracks), atpeak, group(steps), cpu(t))
      }' "$log"
  done
done
