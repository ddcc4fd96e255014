#!/usr/bin/env bash
# compare.sh: time cairn against LAMMPS and LIGGGHTS on the "settled-box-sc" scenario
# (../shared/bench/SPEC.md), interleaved in one session as ../shared/bench/README.md asks: with one
# fixed OUT, for each repetition peers.sh runs once (REPS=1) and then cairn runs every size and
# thread count. It prints the medians per code, N and thread (rank) count, the marginal memory per
# particle, and the ratios cairn / LAMMPS and cairn / LIGGGHTS.
# LAW=hertz swaps SPEC's linear law for Hertz-Mindlin in cairn (scenario.lua's hertz law) and in
# LAMMPS (bench/lammps_hertz/: gran/hertz/history, parameters and derivation in hertz.in), from
# the same settled packings and with SPEC's step counts; peers.sh and LIGGGHTS are not run then.
#
# Usage: bench/compare.sh            (any working directory; paths come from this file)
# Environment (all optional):
#   SIZES="20 40"   lattice points per edge: 20 -> N = 8 000, 40 -> 64 000, 80 -> 512 000
#   THREADS="1 2"   cairn OpenMP threads, and the peers' MPI ranks
#   REPS=2          interleaved repetitions (medians need 2 or more)
#   TIMED=T WARM=W  override SPEC.md's timed and warm-up steps for every code (smoke tests only)
#   CAIRN=PATH      the cairn binary (default: build/cairn in the repository)
#   LAW=linear      the contact law: linear (SPEC.md's, the default) or hertz (Hertz-Mindlin:
#                   cairn against LAMMPS only, interleaved by this script; the kit's packings are
#                   unpacked and checked against data/SHA256SUMS into OUT/data; n = 80 needs
#                   OUT/data/settled_n80.data, e.g. from peers.sh with SIZES=80 and the same OUT;
#                   rows go to OUT/results_hertz.txt, and '#' state lines give z_pp after the
#                   warm-up and at the end, and the kinetic energy, of every run)
#   PEERS=PATH      peers.sh (default: ../shared/bench/peers.sh beside the repository); with
#                   LAW=hertz only its folder (the kit: params.in, data/) is used
#   OUT=DIR         where everything goes (default: a new temp dir); peers.sh's results.txt there
#                   gets cairn's rows too, but only this session's rows enter the medians
#   PLOT=FILE.png   also copy the throughput plot there
#   MPI=1           MPI mode (docs/parallel.md): the "cairn" rows are cairn on THREADS MPI ranks
#                   of one thread each (mpirun, bound to cores; their RATIO lines compare ranks
#                   with ranks), and "cairn_omp" rows are cairn on one rank with THREADS OpenMP
#                   threads, for the comparison of the two; CAIRN_MPI_BIN=PATH is the MPI build
#                   (default: build-mpi/cairn, from `make mpi`)
#   RSS_FROM=time|proc  how cairn's peak RSS is measured: GNU /usr/bin/time (default when it
#                   exists) or polling VmHWM in /proc/PID/status
# cairn's own OpenMP binding defaults to OMP_PROC_BIND=close OMP_PLACES=cores when the thread count
# fits the CPUs (the peers run under mpirun --bind-to core); set OMP_PROC_BIND to override. Its
# threads spin while they wait (OMP_WAIT_POLICY=active, as the peers' ranks poll) unless
# OMP_WAIT_POLICY is set.
#
# stdout: the table of medians, the marginal memory lines (two sizes or more), then one
# tab-separated line per size and thread count:
#   RATIO N threads cairn LAMMPS LIGGGHTS (particle-steps/s) cairn/LAMMPS cairn/LIGGGHTS
# (LAW=hertz: the same lines, with '-' in the LIGGGHTS columns.)
# Notes and warnings are '#' lines; progress goes to stderr. Files in OUT: runs.txt (this
# session's rows), medians.txt (tab separated, with a header), throughput.png, logs/.
set -euo pipefail

START_DIR=$PWD
HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
cd "$ROOT"

say() { printf 'compare.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
# A path given by the caller, relative to where compare.sh was started.
from_start() { (cd "$START_DIR" && realpath -m -- "$1"); }

SIZES=${SIZES:-"20 40"}
THREADS=${THREADS:-"1 2"}
REPS=${REPS:-2}
LAW=${LAW:-linear}
SCRIPT=bench/granular/settled_box.lua

# SPEC.md section 4; the same table as peers.sh.
declare -A WARMS=([20]=2000 [40]=1000 [80]=500)
declare -A STEPS=([20]=20000 [40]=4000 [80]=500)

# --- arguments ---------------------------------------------------------------------------------
for n in $SIZES; do
  [[ -n ${STEPS[$n]:-} ]] || die "SIZES holds '$n'; SPEC.md defines n = 20, 40 or 80 only"
done
[[ -n ${SIZES// /} && -n ${THREADS// /} ]] || die "SIZES and THREADS must not be empty"
[[ $LAW == linear || $LAW == hertz ]] || die "LAW takes 'linear' or 'hertz' (got '$LAW')"
# shellcheck disable=SC2086
for k in $THREADS $REPS ${TIMED:-1} ${WARM:-0}; do
  [[ $k =~ ^[0-9]+$ ]] || die "THREADS, REPS, TIMED and WARM take whole numbers (got '$k')"
done
for t in $THREADS; do ((t >= 1)) || die "THREADS takes counts of 1 or more (got '$t')"; done
((10#$REPS >= 1)) || die "REPS must be 1 or more"
((10#${TIMED:-1} >= 1)) || die "TIMED must be 1 or more"
# Sizes and thread counts in increasing order, each once.
sorted_words() { local -a w; read -ra w <<<"$1"; printf '%s\n' "${w[@]}" | sort -nu | paste -sd' '; }
SIZES=$(sorted_words "$SIZES")
THREADS=$(sorted_words "$THREADS")

MPI=${MPI:-0}
[[ $MPI == 0 || $MPI == 1 ]] || die "MPI takes 0 or 1 (got '$MPI')"
[[ $MPI == 0 || $LAW == linear ]] || die "MPI=1 runs the linear law only"
if [[ $MPI == 1 ]]; then
  CAIRN_MPI_BIN=${CAIRN_MPI_BIN:-build-mpi/cairn}
  [[ $CAIRN_MPI_BIN == /* ]] || CAIRN_MPI_BIN=$(from_start "$CAIRN_MPI_BIN")
  [[ -x $CAIRN_MPI_BIN ]] || die "MPI=1 needs the MPI build at $CAIRN_MPI_BIN (make mpi)"
  # one binary for both kinds of rows: the MPI build runs on one rank without mpirun too
  CAIRN=${CAIRN:-$CAIRN_MPI_BIN}
fi
CAIRN_ARG=${CAIRN:-build/cairn}
if [[ -n ${CAIRN:-} ]]; then
  if [[ $CAIRN == */* ]]; then CAIRN=$(from_start "$CAIRN"); else CAIRN=$(command -v "$CAIRN" || true); fi
else
  CAIRN=$ROOT/build/cairn
fi
if [[ -z $CAIRN || ! -f $CAIRN || ! -x $CAIRN ]]; then
  say "error: no cairn binary at '${CAIRN:-$CAIRN_ARG}' (CAIRN=$CAIRN_ARG). Build it first, in $ROOT:"
  say "    make build"
  say "  or cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"
  say "  or point CAIRN at a binary you built elsewhere (CAIRN=/path/to/cairn bench/compare.sh)"
  exit 1
fi
[[ -f $SCRIPT ]] || die "$ROOT/$SCRIPT is missing"

if [[ -n ${PEERS:-} ]]; then PEERS=$(from_start "$PEERS"); else PEERS=$ROOT/../shared/bench/peers.sh; fi
[[ -f $PEERS ]] || die "no peers.sh at $PEERS; set PEERS to the kit's peers.sh"
PEERS=$(readlink -f "$PEERS")
KIT=$(dirname "$PEERS")
if [[ $LAW == hertz ]]; then
  # LAW=hertz runs LAMMPS itself (peers.sh knows only the linear law): the tools peers.sh would
  # install must be there already.
  for f in "$KIT/params.in" "$HERE/lammps_hertz/in.timed" "$HERE/lammps_hertz/model.in" \
    "$HERE/lammps_hertz/hertz.in"; do
    [[ -f $f ]] || die "LAW=hertz needs $f"
  done
  for tool in lmp mpirun xz sha256sum; do
    command -v "$tool" >/dev/null 2>&1 ||
      die "LAW=hertz needs $tool (the kit's peers.sh installs lammps, openmpi-bin, xz-utils)"
  done
  [[ -x /usr/bin/time ]] ||
    die "LAW=hertz needs GNU /usr/bin/time for LAMMPS's peak RSS (apt-get install time)"
fi

RSS_FROM=${RSS_FROM:-}
if [[ -z $RSS_FROM ]]; then
  if [[ -x /usr/bin/time ]]; then RSS_FROM="time"; else RSS_FROM="proc"; fi
fi
[[ $RSS_FROM == time || $RSS_FROM == proc ]] || die "RSS_FROM takes 'time' or 'proc'"
[[ $RSS_FROM == proc || -x /usr/bin/time ]] || die "RSS_FROM=time but /usr/bin/time is missing"

if [[ -n ${OUT:-} ]]; then
  OUT=$(from_start "$OUT")
  mkdir -p "$OUT"
else
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/cairn-compare.XXXXXX")
fi
OUT=$(cd "$OUT" && pwd -P)
[[ $OUT != *[[:space:]]* ]] || die "OUT must not contain spaces"
case "$OUT/" in "$(cd "$(dirname "$PEERS")/.." && pwd -P)"/*)
  die "OUT ($OUT) lies inside the shared kit; choose a directory outside it" ;;
esac
if [[ -n ${PLOT:-} ]]; then PLOT=$(from_start "$PLOT"); fi
LOGS="$OUT/logs/compare-$(date +%Y%m%d-%H%M%S)-$$"
mkdir -p "$LOGS"
RESULTS=$OUT/results.txt
# The Hertz rows keep the codes' names (cairn, lammps) but must not mix with peers.sh's linear ones.
[[ $LAW == linear ]] || RESULTS=$OUT/results_hertz.txt
STATE=$LOGS/state.txt
STATE_FMT='# state %-8s N=%d ranks=%d rep=%d: z_pp %s after the warm-up, %s at the end;'
STATE_FMT+=$' kinetic energy (translation) %s J at the end\n'
RUNS=$OUT/runs.txt
MEDIANS=$OUT/medians.txt
ncpu=$(nproc)

ROW_FMT='%-9s %7d %5d %6d %9.2f %10.3e %8.1f %6.3f %3d\n'
header=$(printf '%-9s %7s %5s %6s %9s %10s %8s %6s %3s' \
  code N ranks steps wall_s pstep_s rss_mib z_pp rep)
echo "$header" >"$RUNS"
[[ ! -s $RESULTS ]] ||
  say "note: $RESULTS already holds rows from earlier calls; only this session's enter the medians"

say "cairn: $CAIRN ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(
  [[ -z $(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null) ]] || echo ', modified tree'))"
if [[ $LAW == linear ]]; then
  say "peers: $PEERS"
else
  say "LAW=hertz: LAMMPS $(command -v lmp) with $HERE/lammps_hertz/ and $KIT/params.in; no LIGGGHTS"
fi
say "SIZES='$SIZES' THREADS='$THREADS' REPS=$REPS${TIMED:+ TIMED=$TIMED}${WARM:+ WARM=$WARM}; OUT=$OUT"

# --- one cairn run -----------------------------------------------------------------------------
failed=0
# Peak RSS (KiB) of a command, polling VmHWM (a high-water mark) until it exits; its exit status.
run_polled() { # rssfile stdout stderr cmd...
  local rssfile=$1 so=$2 se=$3 pid hwm=0 v st=0
  shift 3
  "$@" >"$so" 2>"$se" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    if [[ $v =~ ^[0-9]+$ ]] && ((v > hwm)); then hwm=$v; fi
    sleep 0.05
  done
  wait "$pid" || st=$?
  echo "$hwm" >"$rssfile"
  return "$st"
}

run_cairn() { # n threads rep [code]
  local n=$1 t=$2 rep=$3 code=${4:-cairn}
  local warm=${WARM:-${WARMS[$n]}} steps=${TIMED:-${STEPS[$n]}}
  local tag="${code}_n${n}_t${t}_rep${rep}"
  local log="$LOGS/$tag" data="$OUT/data/settled_n$n.data"
  [[ -s $data ]] || die "peers.sh left no packing at $data"
  local -a env=(CAIRN_BENCH_DATA="$data" CAIRN_BENCH_WARM="$warm" CAIRN_BENCH_TIMED="$steps"
    CAIRN_BENCH_REP="$rep" CAIRN_BENCH_LAW="$LAW" OMP_NUM_THREADS="$t")
  if [[ -z ${OMP_PROC_BIND:-} ]] && ((t <= ncpu)); then
    env+=(OMP_PROC_BIND=close OMP_PLACES="${OMP_PLACES:-cores}")
  fi
  # Waiting threads spin, as the peers' MPI ranks do: the benchmark's machine is its own (cairn's
  # default is to sleep, for shared machines: docs/scripting.md, model.threads)
  [[ -n ${OMP_WAIT_POLICY:-} ]] || env+=(OMP_WAIT_POLICY=active)
  say "$(date +%T) $tag: $warm warm-up + $steps timed steps"
  local st=0
  if [[ $RSS_FROM == time ]]; then
    env "${env[@]}" /usr/bin/time -f '%M' -o "$log.time" "$CAIRN" run "$SCRIPT" \
      >"$log.stdout" 2>"$log.stderr" || st=$?
  else
    run_polled "$log.time" "$log.stdout" "$log.stderr" env "${env[@]}" "$CAIRN" run "$SCRIPT" ||
      st=$?
  fi
  local rss_kb row
  rss_kb=$(tail -n 1 "$log.time" 2>/dev/null || true)
  [[ $rss_kb =~ ^[0-9]+$ ]] || rss_kb=""
  row=$(awk '$1 == "cairn" && $2 ~ /^[0-9]+$/ && NF >= 9' "$log.stdout" | tail -n 1)
  if ((st != 0)) || [[ -z $row ]]; then
    say "$tag failed (exit $st); see $log.stdout and $log.stderr"
    failed=1
    return 0
  fi
  # The script leaves rss_mib to its caller ('-'); the peers' figure is GNU time's maximum RSS of
  # the process, and so is this one.
  row=$(awk -v rss_kb="$rss_kb" -v rep="$rep" -v fmt="$ROW_FMT" -v code="$code" '{
      rss = (rss_kb != "") ? rss_kb / 1024.0 : $7
      if (rss !~ /^[0-9.eE+-]+$/) rss = -1
      printf fmt, code, $2, $3, $4, $5, $6, rss, $8, rep }' <<<"$row")
  local got_t
  got_t=$(awk '{ print $3 }' <<<"$row")
  [[ $got_t == "$t" ]] || say "warning: $tag asked for $t threads and ran on $got_t"
  printf '%s\n' "$row" | tee -a "$RESULTS" >>"$RUNS"
  printf '%s\n' "$row" >&2
  if [[ $LAW == hertz ]]; then # scenario.lua's line: "# cairn hertz state: z_pp Z0 at the
    # start of the timed run, Z1 at its end; kinetic energy (translation) E J at its end"
    awk -v n="$((n * n * n))" -v t="$t" -v rep="$rep" -v fmt="$STATE_FMT" \
      '/^# cairn hertz state: / { z0 = $6; z1 = $14; e = $21 }
       END { if (z0 != "") printf fmt, "cairn", n, t, rep, z0, z1, e }' \
      "$log.stderr" >>"$STATE"
  fi
}

# --- LAW=hertz: the packings and one LAMMPS run --------------------------------------------------
# What peers.sh does for the linear law: unpack the kit's packings into OUT/data (checked against
# data/SHA256SUMS), run LAMMPS from copies of the inputs under OUT, one GNU time per rank.
prepare_hertz() {
  local n f want got
  mkdir -p "$OUT/data" "$OUT/work_hertz"
  cp "$KIT/params.in" "$OUT/work_hertz/"
  rm -rf "$OUT/work_hertz/lammps_hertz"
  cp -r "$HERE/lammps_hertz" "$OUT/work_hertz/"
  for n in $SIZES; do
    f="$OUT/data/settled_n$n.data"
    [[ ! -s $f ]] || continue
    [[ -f $KIT/data/settled_n$n.data.xz ]] ||
      die "no packing for n=$n: the kit ships none; settle it first with SIZES=$n OUT=$OUT $PEERS"
    want=""
    [[ ! -f $KIT/data/SHA256SUMS ]] ||
      want=$(awk -v f="settled_n$n.data" '$2 == f { print $1 }' "$KIT/data/SHA256SUMS")
    xz -dc "$KIT/data/settled_n$n.data.xz" >"$f.part" || die "could not unpack settled_n$n.data.xz"
    got=$(sha256sum "$f.part" | cut -d' ' -f1)
    if [[ -n $want && $got != "$want" ]]; then
      rm -f "$f.part"
      die "settled_n$n.data does not match $KIT/data/SHA256SUMS; fetch the kit again"
    fi
    mv "$f.part" "$f"
  done
}

MPIRUN=(mpirun --allow-run-as-root --oversubscribe)
mpi_bind() { if (($1 > ncpu)); then echo none; else echo core; fi; }

# MPI=1: cairn on 'ranks' MPI ranks of one thread each; peak RSS summed over the ranks (GNU time
# per rank, as for the peers).
run_cairn_mpi() { # n ranks rep
  local n=$1 np=$2 rep=$3
  local warm=${WARM:-${WARMS[$n]}} steps=${TIMED:-${STEPS[$n]}}
  local tag="cairn_mpi_n${n}_np${np}_rep${rep}" log data="$OUT/data/settled_n$n.data"
  log="$LOGS/$tag"
  [[ -s $data ]] || die "peers.sh left no packing at $data"
  say "$(date +%T) $tag: $warm warm-up + $steps timed steps on $np ranks"
  local st=0
  # shellcheck disable=SC2016 # $0, $@ and the rank variable expand in the inner shell
  CAIRN_BENCH_DATA="$data" CAIRN_BENCH_WARM="$warm" CAIRN_BENCH_TIMED="$steps" \
    CAIRN_BENCH_REP="$rep" CAIRN_BENCH_LAW="$LAW" OMP_NUM_THREADS=1 \
    "${MPIRUN[@]}" --bind-to "$(mpi_bind "$np")" -np "$np" -x CAIRN_BENCH_DATA -x CAIRN_BENCH_WARM \
    -x CAIRN_BENCH_TIMED -x CAIRN_BENCH_REP -x CAIRN_BENCH_LAW -x OMP_NUM_THREADS \
    bash -c 'exec /usr/bin/time -f %M -o "$0.rank${OMPI_COMM_WORLD_RANK:-0}.time" "$@"' \
    "$log" "$CAIRN_MPI_BIN" run "$SCRIPT" >"$log.stdout" 2>"$log.stderr" || st=$?
  local rss_kb row
  rss_kb=$(cat "$log".rank*.time 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }')
  row=$(awk '$1 == "cairn" && $2 ~ /^[0-9]+$/ && NF >= 9' "$log.stdout" | tail -n 1)
  if ((st != 0)) || [[ -z $row ]]; then
    say "$tag failed (exit $st); see $log.stdout and $log.stderr"
    failed=1
    return 0
  fi
  row=$(awk -v rss_kb="$rss_kb" -v rep="$rep" -v fmt="$ROW_FMT" '{
      printf fmt, "cairn", $2, $3, $4, $5, $6, rss_kb / 1024.0, $8, rep }' <<<"$row")
  printf '%s\n' "$row" | tee -a "$RESULTS" >>"$RUNS"
  printf '%s\n' "$row" >&2
}

run_lammps_hertz() { # n ranks rep
  local n=$1 np=$2 rep=$3
  local warm=${WARM:-${WARMS[$n]}} steps=${TIMED:-${STEPS[$n]}}
  local tag="lammps_hertz_n${n}_np${np}_rep${rep}"
  local log="$LOGS/$tag.log" row rss_kb
  say "$(date +%T) $tag: $warm warm-up + $steps timed steps"
  # shellcheck disable=SC2016 # $0, $@ and the rank variable expand in the inner shell
  if ! (cd "$OUT/work_hertz/lammps_hertz" && "${MPIRUN[@]}" --bind-to "$(mpi_bind "$np")" -np "$np" \
    bash -c 'exec /usr/bin/time -v -o "$0.rank${OMPI_COMM_WORLD_RANK:-0}.time" "$@"' \
    "$LOGS/$tag" lmp -in in.timed -var n "$n" -var data "$OUT/data/settled_n$n.data" \
    -var warm "$warm" -var steps "$steps" -log "$log" -screen none \
    >"$LOGS/$tag.stdout" 2>&1); then
    say "$tag failed; see $LOGS/$tag.stdout and $log"
    return 0
  fi
  rss_kb=$(cat "$LOGS/$tag".rank*.time 2>/dev/null |
    awk '/Maximum resident set size/ { s += $NF } END { print s + 0 }')
  # As peers.sh: the timed loop is the second 'Loop time'; z_pp is the contact/atom average on
  # the last thermo row before it. The state line: z_pp at the end of the warm-up (last row
  # before the first 'Loop time') and the translational kinetic energy at the end.
  row=$(awk -v rep="$rep" -v rss_kb="$rss_kb" -v fmt="$ROW_FMT" -v state="$STATE" \
    -v sfmt="$STATE_FMT" '
    /^Loop time of/ { nloop++; if (nloop == 2) { wall = $4; procs = $6; steps = $9; atoms = $12 } }
    NF == 7 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {
      if (nloop == 0) zw = $5
      else if (nloop == 1) { z = $5; ke = $3 } }
    END {
      if (nloop < 2) exit 1
      printf fmt, "lammps", atoms, procs, steps, wall, atoms * steps / wall, rss_kb / 1024.0, z, rep
      printf sfmt, "lammps", atoms, procs, rep, zw, z, ke >> state
    }' "$log") || { say "$tag: incomplete log $log"; return 0; }
  printf '%s\n' "$row" | tee -a "$RESULTS" >>"$RUNS"
  printf '%s\n' "$row" >&2
}

# --- the interleaved session ---------------------------------------------------------------------
export OUT
[[ $LAW == linear ]] || prepare_hertz
for rep in $(seq 1 "$REPS"); do
  if [[ $LAW == hertz ]]; then
    say "rep $rep/$REPS: LAMMPS (hertz)"
    for n in $SIZES; do
      for t in $THREADS; do run_lammps_hertz "$n" "$t" "$rep"; done
    done
    say "rep $rep/$REPS: cairn (hertz)"
    for n in $SIZES; do
      for t in $THREADS; do run_cairn "$n" "$t" "$rep"; done
    done
    continue
  fi
  before=0
  [[ -f $RESULTS ]] && before=$(wc -l <"$RESULTS")
  say "rep $rep/$REPS: peers.sh"
  # The peers' table goes to stderr with their progress; their rows are read back from results.txt.
  SIZES=$SIZES RANKS=$THREADS REPS=1 OUT=$OUT "$PEERS" >&2 || die "peers.sh failed (rep $rep)"
  tail -n +"$((before + 1))" "$RESULTS" |
    awk -v rep="$rep" -v fmt="$ROW_FMT" '$1 != "code" && NF >= 9 {
      printf fmt, $1, $2, $3, $4, $5, $6, $7, $8, rep }' >>"$RUNS"
  say "rep $rep/$REPS: cairn"
  for n in $SIZES; do
    for t in $THREADS; do
      if [[ $MPI == 1 ]]; then
        run_cairn_mpi "$n" "$t" "$rep"
        run_cairn "$n" "$t" "$rep" cairn_omp
      else
        run_cairn "$n" "$t" "$rep"
      fi
    done
  done
done

# --- medians per code, N and ranks/threads -----------------------------------------------------
tail -n +2 "$RUNS" | awk '
  function med(s,   a, c, i, j, x) {
    c = split(s, a, " ")
    for (i = 2; i <= c; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
  }
  { k = $1 SUBSEP $2 SUBSEP $3
    if (!(k in cnt)) { keys[++nk] = k; steps[k] = $4 }
    if ($4 != steps[k]) mixed[k] = 1
    cnt[k]++; wall[k] = wall[k] " " $5; ps[k] = ps[k] " " $6; rss[k] = rss[k] " " $7; z[k] = z[k] " " $8 }
  END {
    print "code\tN\tranks\tsteps\truns\twall_s\tpstep_s\trss_mib\tz_pp"
    for (i = 1; i <= nk; i++) {
      k = keys[i]; split(k, f, SUBSEP)
      r = med(rss[k])
      printf "%s\t%d\t%d\t%s\t%d\t%.3f\t%.4e\t%s\t%.4f\n", f[1], f[2], f[3],
             (k in mixed) ? "mixed" : steps[k], cnt[k], med(wall[k]), med(ps[k]),
             (r < 0) ? "-" : sprintf("%.1f", r), med(z[k])
    }
  }' | { IFS= read -r h; echo "$h"; sort -t $'\t' -k2,2n -k3,3n -k1,1; } >"$MEDIANS"

# --- report --------------------------------------------------------------------------------------
if [[ $LAW == linear ]]; then
  echo "# settled-box-sc: cairn against LAMMPS and LIGGGHTS, $REPS interleaved runs per case," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), $ncpu CPUs,$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null |
      cut -d: -f2- || true)"
else
  echo "# settled-box-sc, LAW=hertz (Hertz-Mindlin instead of SPEC's linear law): cairn against" \
    "LAMMPS, $REPS interleaved runs per case, $(date -u '+%Y-%m-%d %H:%M UTC'), $ncpu CPUs,$(
      grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- || true)"
  echo "# law: cairn hertz (hz_shear 1.8e7 Pa, hz_poiss 0.25, fric 0.5, dp_nratio 0.2171 pp," \
    "walls of the same material with dp_nratio 0.3651, dp_sratio 0); LAMMPS gran/hertz/history and" \
    "fix wall/gran hertz/history Kn 3.2e7 Pa, Kt 4.114e7 Pa, gamma_n 2.338e8 1/(m s), gamma_t 0," \
    "mu 0.5: E* 2.4e7 Pa, dashpots equal at overlap 2e-6 m (bench/lammps_hertz/hertz.in)"
  echo "# note: LAW=hertz: no LIGGGHTS runs (no Hertz inputs for it here): its columns are '-';" \
    "LAMMPS runs from bench/lammps_hertz/, not through peers.sh"
fi
echo "# cairn $CAIRN, source $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo "?"): centred" \
  "differences (velocities at half steps); neighbour list from a cell grid with a skin (see" \
  "docs/scripting.md); ranks = MPI ranks for the peers, and for cairn" \
  "$([[ $MPI == 1 ]] && echo "MPI ranks of one thread (cairn_omp: OpenMP threads of one rank)" || echo "OpenMP threads")"
if [[ -n ${TIMED:-}${WARM:-} ]]; then
  echo "# note: TIMED/WARM overrode SPEC.md's step counts; these are not SPEC figures"
fi
((REPS >= 2)) || echo "# WARNING REPS=$REPS: SPEC.md asks for the median of at least 2 runs per case"
echo "# medians (rss_mib: peak RSS summed over ranks; z_pp: pp contacts per particle at the end):"
awk -F'\t' 'NR == 1 { printf "%-9s %7s %5s %6s %4s %9s %10s %8s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9; next }
  { printf "%-9s %7d %5d %6s %4d %9.2f %10.3e %8s %6.3f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$MEDIANS"
if [[ $LAW == hertz && -s $STATE ]]; then
  echo "# state of every run (the packing must stay put: z_pp close between the codes and over" \
    "the run, kinetic energy small; cairn's from half-step velocities):"
  cat "$STATE"
fi

codes="cairn lammps liggghts"
[[ $LAW == linear ]] || codes="cairn lammps"
awk -F'\t' -v sizes="$SIZES" -v threads="$THREADS" -v codes="$codes" '
  function num(x) { return x ~ /^[0-9.eE+-]+$/ }
  function ratio(a, b) { return (num(a) && num(b) && b + 0 != 0) ? sprintf("%.3f", a / b) : "-" }
  function sci(x) { return num(x) ? sprintf("%.3e", x) : "-" }
  NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; ps[k] = $7; rss[k] = $8; z[k] = $9; st[k] = $4 }
  END {
    nn = split(sizes, S, " "); nt = split(threads, T, " "); nc = split("cairn lammps liggghts", C, " ")
    split(codes, W, " "); for (c in W) ran[W[c]] = 1  # the codes this law runs
    for (i = 1; i <= nn; i++) N[i] = S[i] * S[i] * S[i]
    # Missing cases.
    for (i = 1; i <= nn; i++) for (j = 1; j <= nt; j++) for (c = 1; c <= nc; c++)
      if ((C[c] in ran) && !((C[c] SUBSEP N[i] SUBSEP T[j]) in ps))
        printf "# WARNING no runs of %s at N=%d ranks/threads=%d (failed; see the logs)\n", C[c], N[i], T[j]
    # Marginal memory between consecutive sizes: d(peak RSS) / dN, bytes per particle.
    if (nn >= 2) {
      print "# marginal memory per particle, bytes (median peak RSS difference / difference in N):"
      print "# MEMORY\tN1\tN2\tthreads\tcairn\tLAMMPS\tLIGGGHTS\tcairn/LAMMPS\tcairn/LIGGGHTS"
      for (i = 1; i < nn; i++) for (j = 1; j <= nt; j++) {
        for (c = 1; c <= nc; c++) {
          a = rss[C[c], N[i], T[j]]; b = rss[C[c], N[i + 1], T[j]]
          m[c] = (num(a) && num(b)) ? sprintf("%.0f", (b - a) * 1048576 / (N[i + 1] - N[i])) : "-"
        }
        printf "MEMORY\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", N[i], N[i + 1], T[j], m[1], m[2], m[3],
               ratio(m[1], m[2]), ratio(m[1], m[3])
      }
    }
    # Coordination: the same work means the same Z_pp (within 2 %); and the same step counts.
    for (i = 1; i <= nn; i++) for (j = 1; j <= nt; j++) {
      kc = "cairn" SUBSEP N[i] SUBSEP T[j]
      if (!(kc in z)) continue
      for (c = 2; c <= nc; c++) {
        kp = C[c] SUBSEP N[i] SUBSEP T[j]
        if (!(kp in z)) continue
        if (z[kp] + 0 > 0 && (z[kc] / z[kp] - 1 > 0.02 || z[kc] / z[kp] - 1 < -0.02))
          printf "# WARNING z_pp of cairn %.3f differs from %s %.3f by %+.1f %% (over 2 %%) at N=%d threads=%d: the runs may not do the same work\n",
                 z[kc], C[c], z[kp], 100 * (z[kc] / z[kp] - 1), N[i], T[j]
        if (st[kc] != st[kp])
          printf "# WARNING cairn ran %s timed steps and %s %s at N=%d threads=%d\n",
                 st[kc], C[c], st[kp], N[i], T[j]
      }
    }
    print "# RATIO\tN\tthreads\tcairn\tLAMMPS\tLIGGGHTS (median particle-steps/s)\tcairn/LAMMPS\tcairn/LIGGGHTS"
    for (i = 1; i <= nn; i++) for (j = 1; j <= nt; j++) {
      a = ps["cairn", N[i], T[j]]; b = ps["lammps", N[i], T[j]]; g = ps["liggghts", N[i], T[j]]
      printf "RATIO\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", N[i], T[j], sci(a), sci(b), sci(g), ratio(a, b), ratio(a, g)
    }
  }' "$MEDIANS" >"$LOGS/report.txt"
# The RATIO lines come last; the rest of the report (memory lines, warnings) goes before them.
grep -v -e '^RATIO' -e '^# RATIO' "$LOGS/report.txt" || true
if [[ $MPI == 1 ]]; then # ranks against threads, and the parallel efficiency from one rank
  echo "# MPI	N	procs	cairn ranks	cairn_omp threads	ranks/threads	efficiency P(n)/(n P(1))"
  awk -F'\t' 'NR > 1 { ps[$1, $2, $3] = $7 } END {
      for (k in ps) { split(k, f, SUBSEP); if (f[1] != "cairn") continue
        o = ps["cairn_omp", f[2], f[3]]; one = ps["cairn", f[2], 1]
        printf "MPI\t%d\t%d\t%.3e\t%s\t%s\t%s\n", f[2], f[3], ps[k], o == "" ? "-" : sprintf("%.3e", o),
               o == "" ? "-" : sprintf("%.3f", ps[k] / o), one == "" ? "-" : sprintf("%.3f", ps[k] / (f[3] * one)) }
    }' "$MEDIANS" | sort -t $'\t' -k2,2n -k3,3n
fi

# --- plot ----------------------------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
  if gnuplot -e "datafile='$MEDIANS'; outfile='$OUT/throughput.png'; threads='$THREADS'; law='$LAW'" \
    "$HERE/plot_throughput.gp" >"$LOGS/gnuplot.log" 2>&1 && [[ -s $OUT/throughput.png ]]; then
    say "plot: $OUT/throughput.png"
    if [[ -n ${PLOT:-} ]]; then
      mkdir -p "$(dirname "$PLOT")"
      cp "$OUT/throughput.png" "$PLOT"
      say "plot copied to $PLOT"
    fi
  else
    echo "# WARNING gnuplot failed; see $LOGS/gnuplot.log"
  fi
else
  echo "# note: no gnuplot, so no throughput.png (apt-get install gnuplot-nox)"
fi

((failed == 0)) || echo "# WARNING some cairn runs failed; see $LOGS"
say "runs: $RUNS; medians: $MEDIANS; logs: $LOGS"
grep -e '^# RATIO' -e '^RATIO' "$LOGS/report.txt"
exit "$failed"
