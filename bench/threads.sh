#!/usr/bin/env bash
# threads.sh: wall time of cairn runs under each OpenMP wait setting, alone and two at once (a
# machine shared with other work), for the table in docs/scripting.md (model.threads).
# Usage: bench/threads.sh [CAIRN]   (default: build/cairn of this checkout). Prints, per case and
# setting, the seconds of one run alone and of each of two runs started together.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
CAIRN=$(readlink -f "${1:-$ROOT/build/cairn}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CASES=("examples/rock/ucs_2d.lua" "examples/pour_3d.lua")
SETTINGS=("OMP_NUM_THREADS=1" "OMP_NUM_THREADS=2" "OMP_NUM_THREADS=2 OMP_WAIT_POLICY=active"
          "OMP_NUM_THREADS=2 GOMP_SPINCOUNT=10000")

# one run in its own folder; prints its wall seconds
run() {
  local dir=$WORK/$1 t0 t1
  shift
  mkdir -p "$dir"
  t0=$(date +%s.%N)
  (cd "$dir" && env "$@" ROCK_SIZE=small "$CAIRN" run "$ROOT/$CASE" --quiet > out.txt 2>&1)
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}

echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $CAIRN"
printf "%-28s %-44s %8s %16s\n" case setting alone "two at once"
for CASE in "${CASES[@]}"; do
  for S in "${SETTINGS[@]}"; do
    read -r -a VARS <<< "$S"
    alone=$(run a "${VARS[@]}")
    run b "${VARS[@]}" > "$WORK/t1" & p1=$!
    run c "${VARS[@]}" > "$WORK/t2" & p2=$!
    wait $p1 $p2
    printf "%-28s %-44s %8.1f %7.1f %7.1f\n" "$(basename "$CASE")" "$S" "$alone" \
      "$(cat "$WORK/t1")" "$(cat "$WORK/t2")"
  done
done
