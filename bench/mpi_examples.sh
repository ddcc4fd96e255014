#!/usr/bin/env bash
# mpi_examples.sh: the lab examples on one MPI rank and on two (docs/performance.md, "The lab
# examples on two ranks"). Each example runs whole on 1 rank, then on 2 ranks of one thread, one
# after the other (never at once: each run has the machine to itself), and its result table must
# be the same file, byte for byte; it prints a Markdown row per example and size: the balls, the
# steps, each run's wall time, and the ratio.
#
# Usage: bench/mpi_examples.sh   (any working directory; needs the MPI build: make mpi)
# Environment (all optional):
#   EXAMPLES="labtests/triaxial_3d labtests/periodic_shear_3d"   under examples/
#   SIZES="small full"   the lab's sizes (LAB_SIZE); full takes minutes per run
#   CAIRN=PATH           the MPI build's cairn (default: build-mpi/cairn in the repository)
#   OUT=DIR              where the runs go (default: a new temp dir)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CAIRN=${CAIRN:-$ROOT/build-mpi/cairn}
EXAMPLES=${EXAMPLES:-"labtests/triaxial_3d labtests/periodic_shear_3d"}
SIZES=${SIZES:-"small full"}
OUT=${OUT:-$(mktemp -d)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
[[ -x $CAIRN ]] || { echo "mpi_examples.sh: no MPI build at $CAIRN; run make mpi first" >&2; exit 1; }

# seconds DIR NP SCRIPT SIZE: the run's wall time (its output in DIR/out.txt)
seconds() {
  local dir=$1 np=$2 script=$3 size=$4 t0 t1
  mkdir -p "$dir"
  t0=$(date +%s.%N)
  if [[ $np == 1 ]]; then
    (cd "$dir" && LAB_SIZE=$size "$CAIRN" run --quiet "$script") > "$dir/out.txt" 2>&1
  else
    (cd "$dir" && LAB_SIZE=$size mpiexec -np "$np" -x LAB_SIZE -x OMP_NUM_THREADS "$CAIRN" run \
      --quiet "$script") > "$dir/out.txt" 2>&1
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

echo "| example | size | balls | steps | 1 rank (s) | 2 ranks (s) | 1 rank / 2 ranks |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for ex in $EXAMPLES; do
  name=$(basename "$ex")
  for size in $SIZES; do
    one=$(seconds "$OUT/$name-$size-1" 1 "$ROOT/examples/$ex.lua" "$size")
    two=$(seconds "$OUT/$name-$size-2" 2 "$ROOT/examples/$ex.lua" "$size")
    csv=$name/$name.csv
    cmp -s "$OUT/$name-$size-1/$csv" "$OUT/$name-$size-2/$csv" ||
      { echo "mpi_examples.sh: $name ($size): the 2-rank run's $csv differs from 1 rank's" >&2; exit 1; }
    balls=$(grep -oE "[0-9]+ (spheres|balls)" "$OUT/$name-$size-1/out.txt" | head -1 | cut -d' ' -f1)
    steps=$(grep -oE "[0-9]+ steps" "$OUT/$name-$size-1/out.txt" | tail -1 | cut -d' ' -f1)
    printf "| %s | %s | %s | %s | %.1f | %.1f | %.2f |\n" "$name" "$size" "$balls" "$steps" \
      "$one" "$two" "$(awk -v a="$one" -v b="$two" 'BEGIN { print a / b }')"
  done
done
