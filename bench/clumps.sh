#!/bin/sh
# Clumps against balls (bench/clumps.lua), cairn beside LAMMPS (bench/lammps_clumps/in.clumps,
# fix rigid/small) where lmp is installed: for each mode, the pebble-steps per second and z.
# Usage: bench/clumps.sh [CAIRN]  (from the repository root; CAIRN default build/cairn)
# Environment: N (cells per edge across, default 22: 21 296 clumps), WARM (10000), TIMED (300),
# THREADS (cairn's threads, default 1; LAMMPS runs on one process).
set -eu
cairn=${1:-build/cairn}
N=${N:-22} WARM=${WARM:-10000} TIMED=${TIMED:-300} THREADS=${THREADS:-1}
for shapes in mixed rod; do
  for mode in clumps balls; do
    CAIRN_BENCH_N=$N CAIRN_BENCH_WARM=$WARM CAIRN_BENCH_TIMED=$TIMED CAIRN_BENCH_MODE=$mode \
      CAIRN_BENCH_SHAPES=$shapes OMP_NUM_THREADS=$THREADS OMP_WAIT_POLICY=active \
      "$cairn" run bench/clumps.lua | sed 's/^/cairn /'
  done
done
if command -v lmp > /dev/null; then
  for mode in clumps balls; do
    out=$(cd bench/lammps_clumps && lmp -in in.clumps -var mode "$mode" -var n "$N" \
      -var warm "$WARM" -var steps "$TIMED" -log none 2>&1)
    atoms=$(printf '%s\n' "$out" | awk '/Loop time/ {a = $(NF - 1)} END {print a}')
    secs=$(printf '%s\n' "$out" | awk '/Loop time/ {t = $4} END {print t}')
    z=$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ && NF == 4 {z = $3} END {print z}')
    echo "lammps $mode rods pebbles $atoms steps $TIMED wall $secs s pebble-steps/s" \
      "$(awk -v a="$atoms" -v n="$TIMED" -v t="$secs" 'BEGIN {printf "%.4e", a * n / t}')" \
      "z $z"
  done
fi
